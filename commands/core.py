"""The core commands: init, stats, index, search, ask, build, demo."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from commands.common import WorkspaceArg, e, err, open_session, out, print_json, read_lines, split_list, unit_interval
from pyramid.errors import PolyragError

app = typer.Typer()  # its commands join the top level (see register)


def register(root: typer.Typer) -> None:
    for info in app.registered_commands:
        root.registered_commands.append(info)


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
        print_json(manifest)
        return
    if not manifest["layers"] and not manifest["steps"]:
        out.print(f"{e(workspace)}: nothing built yet")
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
    session = open_session(workspace, create=docs is not None)
    loaded = load_docs(session, docs, fmt, id_field, text_field)
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
           k: Annotated[int | None, typer.Option("-k", min=1, help="chunks to return (default text.k)")] = None,
           lam: Annotated[float | None, typer.Option("--lambda", callback=unit_interval,
                                                        help="λ: 1 semantic, 0 keyword (default text.lam)")] = None,
           as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Hybrid search over the text layer; prints ranked chunks with both component scores."""
    from pyramid.types import check_question

    question = check_question(question)
    session = open_session(workspace)
    hits = session.text.search(question, k=k, lam=lam)
    if as_json:
        print_json([{"rank": i, "chunk_id": h.chunk.id, "doc_id": h.chunk.doc_id, "score": h.score,
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
    if answer.abstained:
        out.print("[bold]abstained:[/] the evidence found does not answer the question (see the trace: text.abstain)")
    if answer.selected is not None:
        out.print(f"[bold]selected options:[/] {answer.selected}")
    for i, c in enumerate(answer.citations, 1):
        out.print(escape(f"  [{i}] chunk {c.chunk_id} (document {c.doc_id}): {c.sentence[:100]}"), highlight=False)
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
        sparql_mode: Annotated[str | None, typer.Option("--sparql", help="ontology layer: plan, raw or auto; "
                                                        "default query.sparql")] = None,
        k: Annotated[int | None, typer.Option("-k", min=1, help="chunks/triples given to the LLM")] = None,
        explain: Annotated[bool, typer.Option("--explain", help="print the trace of every step")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="print the Answer as JSON")] = False) -> None:
    """Answer a question; prints the answer, the layer that answered and the evidence."""
    from pyramid.errors import Hint, InputError
    from pyramid.types import check_layers, check_question
    from querying.naive import PIPELINE_LAMBDA
    from querying.router import ask as route
    from querying.router import check_options

    question = check_question(question)  # before the workspace is opened: the first problem named is the question
    if ctx.args:  # `--options A B C`: click hands the words after the first option over as extra args
        if not options:
            raise PolyragError(f"unexpected argument(s): {' '.join(ctx.args)} (quote the question; options go "
                               "after --options)")
        options = [*options, *ctx.args]
    chosen = check_layers(split_list(layers)) if layers else None
    if layer:
        check_layers([layer], param="layer")
    # Every argument is checked before the question is asked, so that an error from `route` below
    # is a layer failing (a model, a store, a timeout), which --json reports as an Answer.
    parsed_options = check_options(parse_options(options))
    if pipeline is not None and pipeline not in PIPELINE_LAMBDA:
        raise InputError(f"unknown pipeline '{pipeline}'", hint=Hint(param="pipeline", values=", ".join(PIPELINE_LAMBDA)))
    if sparql_mode not in (None, "plan", "raw", "auto"):
        raise InputError(f"unknown SPARQL mode '{sparql_mode}'", hint=Hint(param="sparql", values="plan, raw or auto"))
    session = open_session(workspace)
    answer = route(session, question, layer=layer, pipeline=pipeline, layers=chosen,  # type: ignore[arg-type]
                   options=parsed_options, mindful=mindful, sparql_mode=sparql_mode, k=k)
    if as_json:
        sys.stdout.write(answer.model_dump_json(indent=2) + "\n")
    else:
        print_answer(answer, explain)
    failures = [f"{st.layer}: {st.outcome.removeprefix('error: ')}" for st in answer.trace if st.step.endswith(".error")]
    if answer.layer == "none" and failures:  # nothing answered because something failed: a script must see it
        err.print("[red]error:[/] no layer answered; " + escape("; ".join(failures)), highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    if failures:  # a later layer answered; a damaged store or a dead endpoint must not go unnoticed
        err.print(f"[yellow]warning:[/] answered by the {answer.layer} layer after a failure: "
                  + escape("; ".join(failures)), highlight=False, soft_wrap=True)


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


def load_docs(session, docs: Path | None, fmt: str = "auto", id_field: str | None = None, text_field: str = "text"):
    from pyramid.corpus import LoadResult, load_documents

    if docs is None:
        return LoadResult([])
    loaded = load_documents(docs, fmt=fmt, id_field=id_field, text_field=text_field,  # type: ignore[arg-type]
                            max_document_mb=session.settings.corpus.max_document_mb)
    if loaded.skipped_empty:
        err.print(f"skipped {len(loaded.skipped_empty)} empty documents: {escape(loaded.describe_skipped())}",
                  highlight=False)
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
    from pyramid.types import check_layers

    steps = tuple(check_layers(split_list(layers)))
    if not steps:
        raise PolyragError(f"--layers takes {', '.join(STEPS)} (comma-separated), got '{layers}'")
    session = open_session(workspace, create=docs is not None)
    loaded = load_docs(session, docs, fmt, id_field, text_field)
    with RichProgress(err) as progress:
        result = build_pyramid(session, loaded.documents, schema=schema, remove=remove, steps=steps,  # type: ignore[arg-type]
                               mode=mode, summarise=summarise, progress=progress)
    if as_json:
        print_json(result.to_dict())
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
    from pyramid.progress import RichProgress
    from querying.router import ask as route

    start = time.perf_counter()
    qs = read_lines(questions, "questions")
    session = open_session(workspace, create=True)
    loaded = load_docs(session, docs)
    with RichProgress(err) as progress:
        result = build_pyramid(session, loaded.documents, schema=schema, progress=progress)
    print_build(result)
    out.print()
    for q in qs:
        print_answer(route(session, q), explain=True)
        out.print()
    out.print(f"demo done in {time.perf_counter() - start:.1f} s; workspace {workspace} "
              f"(try: polyrag ask {workspace} \"...\" --explain)")


