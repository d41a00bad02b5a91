"""`polyrag` command line: parse, call one function, print. Errors print one line and exit non-zero."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pyramid.errors import PolyragError

app = typer.Typer(help="PolyRAG: question answering over a knowledge pyramid (ontology, KG, text).",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
bench_app = typer.Typer(help="Benchmarks; each writes a JSON and a markdown report.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")

out = Console()
err = Console(stderr=True)

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]


def _session(workspace: Path, *, create: bool = False):
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    return Session(Workspace.open(workspace, create=create))


def _print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


# ---------------------------------------------------------------------------- workspace
@app.command()
def init(directory: Annotated[Path, typer.Argument(help="directory to create or initialise")]) -> None:
    """Create a workspace with a commented default polyrag.toml."""
    from pyramid.workspace import Workspace

    ws = Workspace.init(directory)
    out.print(f"workspace ready: {ws.root} (settings in {ws.root / 'polyrag.toml'})")


@app.command()
def stats(workspace: WorkspaceArg, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts, build steps and LLM usage recorded in the workspace manifest."""
    from pyramid.workspace import Workspace

    manifest = Workspace.open(workspace).manifest()
    if as_json:
        _print_json(manifest)
        return
    for layer, counts in manifest["layers"].items():
        out.print(f"[bold]{layer}[/]: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    for step, info in manifest["steps"].items():
        usage = info.get("usage")
        out.print(f"step {step}: {info['seconds']} s, runs={info['runs']}" +
                  (f", {usage['calls']} LLM calls, {usage['prompt_tokens'] + usage['completion_tokens']} tokens"
                   if usage else ""))


# ---------------------------------------------------------------------------- text layer
@app.command()
def index(workspace: WorkspaceArg,
          docs: Annotated[Path | None, typer.Option("--docs", help="JSONL/CSV file, .txt/.md file or directory")] = None,
          remove: Annotated[list[str] | None, typer.Option("--remove", help="document id to drop (repeatable)")] = None,
          fmt: Annotated[str, typer.Option("--format", help="auto, jsonl, csv, dir or text")] = "auto",
          id_field: Annotated[str | None, typer.Option(help="id field/column (JSONL default: id, docid, "
                                                          "doc_id or _id; CSV default: row number)")] = None,
          text_field: Annotated[str, typer.Option(help="text field/column")] = "text") -> None:
    """Add documents to the text layer (chunks, dense vectors, BM25). Only new or changed ones are embedded."""
    from pyramid.progress import RichProgress

    if docs is None and not remove:
        raise PolyragError("give --docs PATH to add documents, or --remove ID to drop some")
    session = _session(workspace, create=docs is not None)
    loaded = _load_docs(session, docs, fmt, id_field, text_field)
    from pyramid.build import remove_documents

    with session.ws.writing("index"), RichProgress(err) as progress:
        if remove:  # from every layer that holds them, so no layer answers from a removed document
            session.corpus.diff([], remove)  # unknown ids: one message before anything changes
            gone = remove_documents(session, remove, progress)
            out.print("removed " + ", ".join(f"{v} {k}" for k, v in gone.items()))
        report = session.text.add_documents(loaded.documents, progress=progress)
        session.corpus.update(loaded.documents)
    out.print(f"indexed {report.documents_added} new, {report.documents_replaced} changed, "
              f"{report.documents_unchanged} unchanged documents; "
              f"{report.chunks_added} chunks embedded ({report.chunks_total} in all) in {report.seconds:.1f} s")


@app.command()
def search(workspace: WorkspaceArg, question: Annotated[str, typer.Argument()],
           k: Annotated[int | None, typer.Option("-k", help="chunks to return (default text.k)")] = None,
           lam: Annotated[float | None, typer.Option("--lambda", min=0, max=1,
                                                        help="λ: 1 semantic, 0 keyword (default text.lam)")] = None,
           as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Hybrid search over the text layer; prints ranked chunks with both component scores."""
    from querying.answer import check_question

    question = check_question(question)
    session = _session(workspace)
    hits = session.text.search(question, k=k, lam=lam)
    if as_json:
        _print_json([{"rank": i, "chunk_id": h.chunk.id, "doc_id": h.chunk.doc_id, "score": h.score,
                      "dense": h.dense, "sparse": h.sparse, "sparse_norm": h.sparse_norm, "text": h.chunk.text}
                     for i, h in enumerate(hits, 1)])
        return
    table = Table("#", "doc", "chunk", "score", "dense", "bm25", "text")
    for i, h in enumerate(hits, 1):
        table.add_row(str(i), h.chunk.doc_id, str(h.chunk.index), f"{h.score:.3f}", f"{h.dense:.3f}",
                      f"{h.sparse:.2f}", h.chunk.text[:90].replace("\n", " ") + "…")
    out.print(table)


# ---------------------------------------------------------------------------- asking
def print_answer(answer, explain: bool = False) -> None:
    out.print(f"[bold]Q:[/] {answer.question}")
    out.print(f"[bold]A:[/] {answer.text}")
    out.print(f"[bold]layer:[/] {answer.layer}  [bold]pipeline:[/] {answer.pipeline}  "
              f"({answer.usage.calls} LLM calls, {answer.usage.cache_hits} cached, "
              f"{answer.usage.total_tokens} tokens, {answer.ms:.0f} ms)")
    if answer.selected is not None:
        out.print(f"[bold]selected options:[/] {answer.selected}")
    for ev in answer.evidence[:10]:
        if ev.kind == "chunk":
            out.print(f"  evidence chunk {ev.chunk_id} (document {ev.doc_id}, score {ev.score:.3f}): "
                      f"{ev.text[:100].strip()}…")
        elif ev.kind == "triple":
            out.print(f"  evidence triple {ev.triple_id}: ({ev.subject}, {ev.relation}, {ev.object})"
                      + (f" from chunk {ev.chunk_id}" if ev.chunk_id else ""))
        else:
            if ev.plan:
                out.print("  plan: " + escape(json.dumps(ev.plan, ensure_ascii=False)), highlight=False)
            out.print(f"  SPARQL ({len(ev.rows)} rows):\n{escape(ev.query)}", highlight=False)
            for row in ev.rows[:10]:
                out.print("    " + escape(", ".join(f"{k}={v}" for k, v in row.items())), highlight=False)
            if len(ev.rows) > 10:
                out.print(f"    … {len(ev.rows) - 10} more rows")
    if explain:
        out.print("[bold]trace:[/]")
        for s in answer.trace:
            out.print(f"  {s.step:<24} {s.outcome[:90]}  ({s.usage.calls} calls, {s.usage.cache_hits} cached, "
                      f"{s.usage.total_tokens} tokens, {s.ms:.0f} ms)", highlight=False)


def parse_options(values: list[str] | None) -> list[str] | None:
    """`--options A --options B`, or one JSON array: `--options '["A", "B"]'`."""
    if values and len(values) == 1 and values[0].lstrip().startswith("["):
        try:
            parsed = json.loads(values[0])
        except ValueError as e:
            raise PolyragError(f"--options: not a JSON array ({e})") from None
        return [str(v) for v in parsed]
    return values or None


@app.command(context_settings={"allow_extra_args": True})
def ask(ctx: typer.Context, workspace: WorkspaceArg, question: Annotated[str, typer.Argument()],
        layer: Annotated[str | None, typer.Option(help="answer from one layer only: ontology, kg or text")] = None,
        layers: Annotated[str | None, typer.Option(help="waterfall layers, comma-separated (ablations), "
                                                           "e.g. ontology,text; default query.layers")] = None,
        pipeline: Annotated[str | None, typer.Option(help="a naive text pipeline instead of the waterfall: "
                                                             "semantic (λ=1), keyword (λ=0) or hybrid")] = None,
        options: Annotated[list[str] | None, typer.Option(
            "--options", help="MCQ/MAQ options: `--options A B C`, the flag repeated, or one JSON array; "
                              "the answer selects the options the evidence supports")] = None,
        mindful: Annotated[bool, typer.Option("--mindful", help="KG layer: Mindful-RAG mode")] = False,
        sparql_mode: Annotated[str, typer.Option("--sparql", help="ontology layer: plan (default) or raw")] = "plan",
        k: Annotated[int | None, typer.Option("-k", help="chunks/triples given to the LLM")] = None,
        explain: Annotated[bool, typer.Option("--explain", help="print the trace of every step")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print the Answer as JSON")] = False) -> None:
    """Answer a question; prints the answer, the layer that answered and the evidence."""
    from querying.answer import check_question
    from querying.router import ask as route

    question = check_question(question)
    if ctx.args:  # `--options A B C`: click hands the words after the first option over as extra args
        if not options:
            raise PolyragError(f"unexpected argument(s): {' '.join(ctx.args)} (quote the question; options go "
                               "after --options)")
        options = [*options, *ctx.args]
    chosen = [x.strip() for x in layers.split(",") if x.strip()] if layers else None
    for name in ([layer] if layer else []) + (chosen or []):
        if name not in ("ontology", "kg", "text"):
            raise PolyragError(f"unknown layer '{name}' (choose ontology, kg or text)")
    session = _session(workspace)
    answer = route(session, question, layer=layer, pipeline=pipeline, layers=chosen,  # type: ignore[arg-type]
                   options=parse_options(options), mindful=mindful, sparql_mode=sparql_mode, k=k)
    if as_json:
        sys.stdout.write(answer.model_dump_json(indent=2) + "\n")
    else:
        print_answer(answer, explain)


def print_build(result) -> None:
    """The final cost summary of a build: one row per step, then the totals."""
    if result.summary is not None:
        sm = result.summary
        out.print(f"summarised {sm.documents} documents ({sm.summariser}): {sm.words_before:,} → {sm.words_after:,} "
                  f"words ({sm.reduction:.0%} smaller, {sm.shortened} shortened) in {sm.seconds:.1f} s")
    table = Table("step", "seconds", "LLM calls", "cached", "tokens", "outcome", title="build cost")
    for s in result.steps:
        table.add_row(s.step, f"{s.seconds:.1f}", str(s.usage.calls), str(s.usage.cache_hits),
                      str(s.usage.total_tokens), escape(s.outcome))
    u = result.usage
    table.add_row("[bold]total", f"{result.seconds:.1f}", str(u.calls), str(u.cache_hits), str(u.total_tokens), "")
    out.print(table)
    for note in result.pending:
        err.print(f"[yellow]pending:[/] {escape(note)}; run the build again to retry")


def _load_docs(session, docs: Path | None, fmt: str = "auto", id_field: str | None = None, text_field: str = "text"):
    from pyramid.corpus import LoadResult, load_documents

    if docs is None:
        return LoadResult([])
    loaded = load_documents(docs, fmt=fmt, id_field=id_field, text_field=text_field,  # type: ignore[arg-type]
                            max_document_mb=session.settings.corpus.max_document_mb)
    if loaded.skipped_empty:
        err.print(f"skipped {len(loaded.skipped_empty)} empty documents: {', '.join(loaded.skipped_empty[:5])}")
    return loaded


@app.command()
def build(workspace: WorkspaceArg,
          docs: Annotated[Path | None, typer.Option("--docs", help="JSONL/CSV file, .txt/.md file or directory "
                                                       "(omit to bring the layers up to date with the corpus)")] = None,
          schema: Annotated[Path | None, typer.Option("--schema", help="OWL/RDFS schema for the ontology layer "
                                                         "(kept from earlier builds when omitted)")] = None,
          remove: Annotated[list[str] | None, typer.Option("--remove", help="document id to drop from every "
                                                              "layer (repeatable)")] = None,
          layers: Annotated[str, typer.Option(help="layers to build, comma-separated")] = "text,kg,ontology",
          mode: Annotated[str | None, typer.Option("--kg-mode", help="KG extraction: cascade, single or auto "
                                                      "(default kg.mode)")] = None,
          summarise: Annotated[bool | None, typer.Option("--summarise/--no-summarise", help="summarise documents "
                                                            "before chunking (default corpus.summarise)")] = None,
          fmt: Annotated[str, typer.Option("--format", help="auto, jsonl, csv, dir or text")] = "auto",
          id_field: Annotated[str | None, typer.Option(help="id field/column")] = None,
          text_field: Annotated[str, typer.Option(help="text field/column")] = "text",
          as_json: Annotated[bool, typer.Option("--json", help="print the cost summary as JSON")] = False) -> None:
    """Build the whole pyramid: text index, KG extraction, ontology instances and reasoning; resumable."""
    from pyramid.build import STEPS, build_pyramid
    from pyramid.progress import RichProgress

    steps = tuple(x.strip() for x in layers.split(",") if x.strip())
    if not steps or any(x not in STEPS for x in steps):
        raise PolyragError(f"--layers takes {', '.join(STEPS)} (comma-separated), got '{layers}'")
    session = _session(workspace, create=docs is not None)
    loaded = _load_docs(session, docs, fmt, id_field, text_field)
    with RichProgress(err) as progress:
        result = build_pyramid(session, loaded.documents, schema=schema, remove=remove, steps=steps,  # type: ignore[arg-type]
                               mode=mode, summarise=summarise, progress=progress)
    if as_json:
        _print_json(result.to_dict())
    else:
        print_build(result)


@app.command()
def demo(workspace: Annotated[Path, typer.Option(help="workspace to build")] = Path(".demo"),
         docs: Annotated[Path, typer.Option(help="sample corpus")] = Path("examples/demo/documents.jsonl"),
         schema: Annotated[Path, typer.Option(help="schema for the ontology layer")] = Path(
             "ontology_schemas/academic.ttl"),
         questions: Annotated[Path, typer.Option(help="one question per line")] = Path("examples/demo/questions.txt"),
         ) -> None:
    """Build a small pyramid (all three layers) from the sample corpus and answer the sample questions,
    showing which layer answered and why."""
    from pyramid.build import build_pyramid
    from pyramid.errors import InputError
    from pyramid.progress import RichProgress
    from querying.router import ask as route

    start = time.perf_counter()
    try:
        qs = [q.strip() for q in questions.read_text(encoding="utf-8").splitlines() if q.strip()]
    except FileNotFoundError:
        raise InputError("file not found", path=questions) from None
    session = _session(workspace, create=True)
    loaded = _load_docs(session, docs)
    with RichProgress(err) as progress:
        result = build_pyramid(session, loaded.documents, schema=schema, progress=progress)
    print_build(result)
    out.print()
    for q in qs:
        print_answer(route(session, q), explain=True)
        out.print()
    out.print(f"demo done in {time.perf_counter() - start:.1f} s; workspace {workspace} "
              f"(try: polyrag ask {workspace} \"...\" --explain)")


# ---------------------------------------------------------------------------- benchmarks
DATA = Path("../shared/data")


@bench_app.command("fiqa-retrieval")
def bench_fiqa(data: Annotated[Path, typer.Option(help="FiQA directory")] = DATA / "fiqa",
               out_dir: Annotated[Path, typer.Option("--out", help="report directory")] = Path("reports"),
               limit: Annotated[int | None, typer.Option(help="first N questions only")] = None) -> None:
    """Recall@1/5/10, MRR@10, nDCG@10 per λ; indexing throughput vs raw embedding; query latency."""
    from benchmarks import fiqa
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        fiqa.run(data, out_dir, limit=limit, progress=progress)
    out.print((out_dir / "fiqa-retrieval.md").read_text(encoding="utf-8"))


@bench_app.command("multihop")
def bench_multihop(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                   out_dir: Annotated[Path, typer.Option("--out", help="report directory")] = Path("reports"),
                   workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                                  "reports/.cache/multihop-ws")] = None,
                   limit: Annotated[int | None, typer.Option(help="first N questions only")] = None,
                   docs_limit: Annotated[int | None, typer.Option(help="first N documents only")] = None,
                   pipelines: Annotated[str, typer.Option(help="comma-separated: waterfall, semantic, keyword, "
                                                               "hybrid")] = "waterfall,semantic,keyword,hybrid"
                   ) -> None:
    """Waterfall vs the three naive pipelines on the multi-hop set: cosine similarity to the reference
    answers (mean, quartiles), time, LLM calls and tokens per question."""
    from benchmarks import multihop
    from pyramid.progress import RichProgress

    chosen = tuple(x.strip() for x in pipelines.split(",") if x.strip())
    if not chosen or any(x not in multihop.PIPELINES for x in chosen):
        raise PolyragError(f"--pipelines takes {', '.join(multihop.PIPELINES)}")
    with RichProgress(err) as progress:
        multihop.run(data, out_dir, workspace=workspace, limit=limit, docs_limit=docs_limit, pipelines=chosen,
                     progress=progress)
    out.print((out_dir / "multihop.md").read_text(encoding="utf-8"))


@bench_app.command("summarise")
def bench_summarise(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                    out_dir: Annotated[Path, typer.Option("--out", help="report directory")] = Path("reports"),
                    multihop_docs: Annotated[int, typer.Option(help="documents of multihop_kg/documents.csv")] = 100,
                    fiqa_docs: Annotated[int, typer.Option(help="passages of fiqa/corpus.jsonl (0 = skip)")] = 30
                    ) -> None:
    """Build-time summarisation: corpus size and build cost with and without it (cold caches)."""
    from benchmarks import summarise
    from pyramid.progress import RichProgress

    corpora = [("multihop_kg/documents.csv", data / "multihop_kg" / "documents.csv", "csv", multihop_docs)]
    if fiqa_docs:
        corpora.append(("fiqa/corpus.jsonl", data / "fiqa" / "corpus.jsonl", "jsonl", fiqa_docs))
    with RichProgress(err) as progress:
        summarise.run(corpora, out_dir, progress=progress)
    out.print((out_dir / "summarise.md").read_text(encoding="utf-8"))


def _register_features() -> None:
    # Each feature owns its commands; imports inside them stay lazy so `polyrag --help` is fast.
    from pyramid.kg.commands import register as register_kg
    from pyramid.ontology.commands import register as register_ontology

    register_ontology(app, bench_app)
    register_kg(app, bench_app)
    __import__("completion.commands").commands.register(app, bench_app)  # complete ..., kg condense, bench completion


_register_features()


def main() -> None:
    try:
        app()
    except PolyragError as e:
        err.print("[red]error:[/] " + escape(str(e)), highlight=False, soft_wrap=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        err.print("interrupted; finished steps are kept and the next run resumes from them")
        sys.exit(130)


if __name__ == "__main__":
    main()
