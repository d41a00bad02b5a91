"""`polyrag bench ...`: every benchmark's command. Registered as a plug-in (the `polyrag.commands`
entry point in pyproject.toml), so the product never imports the benchmarks; each command runs
`benchmarks.<name>.run(...)`, which writes reports/<name>.{json,md}, then prints the markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from commands.common import DATA, ReportDir, err, out, positive_seconds, split_list
from pyramid.errors import PolyragError

app = typer.Typer(help="Benchmarks; each writes a JSON and a markdown report.", no_args_is_help=True)
REPORTS = ReportDir
CliSample = Annotated[int, typer.Option(min=0, help="adversarial queries also run through `polyrag sparql`, one "
                                        "process each")]
AskSample = Annotated[int, typer.Option(min=0, help="adversarial queries emitted by a scripted model through "
                                        "`ask --sparql raw`")]


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="bench")


@app.command("fiqa-retrieval")
def bench_fiqa(data: Annotated[Path, typer.Option(help="FiQA directory")] = DATA / "fiqa",
               out_dir: REPORTS = Path("reports"),
               limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None) -> None:
    """Recall@1/5/10, MRR@10, nDCG@10 per λ; indexing throughput vs raw embedding; query latency."""
    from benchmarks import fiqa
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        fiqa.run(data, out_dir, limit=limit, progress=progress)
    out.print((out_dir / "fiqa-retrieval.md").read_text(encoding="utf-8"))


@app.command("fiqa-answers")
def bench_fiqa_answers(data: Annotated[Path, typer.Option(help="FiQA directory")] = DATA / "fiqa",
                       questions: Annotated[Path | None, typer.Option(help="questions JSONL (qid, question, "
                                                                      "gold_docids, gold_answers); default "
                                                                      "the FiQA directory's questions_dev.jsonl")] = None,
                       out_dir: REPORTS = Path("reports"),
                       workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                                      "reports/.cache/fiqa-answers-ws")] = None,
                       limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None,
                       modes: Annotated[str, typer.Option(help="comma-separated: extractive, rewrite, direct, default (what "
                                                                "query.text_answer resolves to)")]
                       = "extractive,rewrite,direct") -> None:
    """FiQA answered by the text layer: BLEU-2/4, BERT similarity, HitRate, cost per question, per way of
    answering; and abstention with each question's gold passages removed."""
    from benchmarks import fiqa_answers
    from pyramid.progress import RichProgress

    chosen = tuple(split_list(modes))
    if not chosen or any(x not in fiqa_answers.MODES for x in chosen):
        raise PolyragError(f"--modes takes {', '.join(fiqa_answers.MODES)}")
    with RichProgress(err) as progress:
        fiqa_answers.run(data, out_dir, questions_file=questions, workspace=workspace, limit=limit, modes=chosen,
                         progress=progress)
    out.print((out_dir / f"{fiqa_answers.report_name(questions)}.md").read_text(encoding="utf-8"))


@app.command("abstention-signals")
def bench_abstention_signals(data: Annotated[Path, typer.Option(help="FiQA directory")] = DATA / "fiqa",
                             questions: Annotated[Path | None, typer.Option(help="questions JSONL; default the FiQA "
                                                                            "directory's questions_dev.jsonl")] = None,
                             out_dir: REPORTS = Path("reports"),
                             workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                                            "reports/.cache/fiqa-answers-ws")] = None,
                             limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None,
                             llm_check: Annotated[bool, typer.Option(help="also ask the configured model the text "
                                                                     "layer's yes/no (query.answer_check) on every "
                                                                     "look; report abstention-signals-llm")] = False
                             ) -> None:
    """Retrieval signals of each question with and without its gold passages: how well each (and all
    together) tells an answerable question from an unanswerable one (ROC AUC); with --llm-check, the
    configured model's yes/no too."""
    from benchmarks import abstention_signals, fiqa_answers
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        abstention_signals.run(data, out_dir, questions_file=questions, workspace=workspace, limit=limit,
                               llm_check=llm_check, progress=progress)
    name = f"{abstention_signals.NAME}-llm" if llm_check else abstention_signals.NAME
    out.print((out_dir / f"{fiqa_answers.report_name(questions, name)}.md").read_text(encoding="utf-8"))


@app.command("serve")
def bench_serve(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                out_dir: REPORTS = Path("reports"),
                rounds: Annotated[int, typer.Option(min=1, help="times each question is asked under load")] = 5
                ) -> None:
    """`polyrag serve` over loopback: /ask latency and throughput with 8 clients, /sparql against
    in-process on LUBM(1), and a write beside 8 clients."""
    from benchmarks import serve
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        serve.run(data, out_dir, rounds=rounds, progress=progress)
    out.print((out_dir / "serve.md").read_text(encoding="utf-8"))


@app.command("scale")
def bench_scale(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                out_dir: REPORTS = Path("reports"),
                vectors: Annotated[int, typer.Option(min=1000, help="synthetic vectors for the ANN graph")] = 1_000_000,
                queries: Annotated[int, typer.Option(min=10, help="ANN queries")] = 200,
                docs: Annotated[int, typer.Option(min=2, help="documents of the parallel build")] = 16,
                delay: Annotated[float, typer.Option(callback=positive_seconds, help="seconds the loopback "
                                                     "model server takes per request")] = 0.2) -> None:
    """Parallel model calls in a build, the ANN graph at a million vectors, FiQA with the graph on."""
    from benchmarks import scale
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        scale.run(data, out_dir, vectors=vectors, queries=queries, docs=docs, delay_s=delay, progress=progress)
    out.print((out_dir / "scale.md").read_text(encoding="utf-8"))


@app.command("reliability")
def bench_reliability(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                      out_dir: REPORTS = Path("reports"),
                      cli_sample: CliSample = 200, ask_sample: AskSample = 60) -> None:
    """Every reliability suite at full size (adversarial SPARQL, malformed files, crash-resume, model
    faults, bad arguments, readers during a write, prompt injection): cases tried, held, failed."""
    from benchmarks import reliability
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        reliability.run(data, out_dir, cli_sample=cli_sample, ask_sample=ask_sample, progress=progress)
    out.print((out_dir / "reliability.md").read_text(encoding="utf-8"))


@app.command("attacks")
def bench_attacks(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                  out_dir: REPORTS = Path("reports"),
                  cli_sample: CliSample = 200, ask_sample: AskSample = 60,
                  timeout: Annotated[float, typer.Option(callback=positive_seconds,
                                                         help="query timeout, seconds")] = 1.0) -> None:
    """Hostile and heavy SPARQL (>10,000 generated queries) through the safety check, and a sample through
    the command line on the PolyU store: refusals, time per case, store unchanged, no request sent."""
    from benchmarks import attacks
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        attacks.run(data, out_dir, cli_sample=cli_sample, ask_sample=ask_sample, timeout_s=timeout,
                    progress=progress)
    out.print((out_dir / "attacks.md").read_text(encoding="utf-8"))


@app.command("multihop")
def bench_multihop(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                   out_dir: REPORTS = Path("reports"),
                   workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                                  "reports/.cache/multihop-ws")] = None,
                   limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None,
                   docs_limit: Annotated[int | None, typer.Option(min=1, help="first N documents only")] = None,
                   pipelines: Annotated[str, typer.Option(help="comma-separated: waterfall, semantic, keyword, "
                                                               "hybrid (= direct), extractive, rewrite, default, k2rag, "
                                                               "k2rag-nosum")] =
                   "waterfall,semantic,keyword,hybrid,extractive,rewrite,k2rag,k2rag-nosum"
                   ) -> None:
    """Waterfall vs the three naive pipelines and the text layer's ways of answering (the ablation) on the
    multi-hop set: cosine similarity to the reference answers (mean, quartiles), time, LLM calls, tokens
    and abstentions per question."""
    from benchmarks import multihop
    from pyramid.progress import RichProgress

    chosen = tuple(split_list(pipelines))
    if not chosen or any(x not in multihop.PIPELINES for x in chosen):
        raise PolyragError(f"--pipelines takes {', '.join(multihop.PIPELINES)}")
    with RichProgress(err) as progress:
        multihop.run(data, out_dir, workspace=workspace, limit=limit, docs_limit=docs_limit, pipelines=chosen,
                     progress=progress)
    out.print((out_dir / "multihop.md").read_text(encoding="utf-8"))


@app.command("summarise")
def bench_summarise(data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
                    out_dir: REPORTS = Path("reports"),
                    multihop_docs: Annotated[int, typer.Option(min=1, help="documents of multihop_kg/documents.csv")] = 100,
                    fiqa_docs: Annotated[int, typer.Option(min=0, help="passages of fiqa/corpus.jsonl (0 = skip)")] = 30
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


def _bench(name: str, out_dir: Path, runner: str, *args, **kwargs) -> None:
    """Run `benchmarks.kg.<runner>` under a progress display, then print its markdown report."""
    from benchmarks import kg as bench_kg
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        getattr(bench_kg, runner)(*args, out_dir, progress=progress, **kwargs)
    out.print((out_dir / f"{name}.md").read_text(encoding="utf-8"))

@app.command("kg-build")
def bench_build(data: Annotated[Path, typer.Option(help="documents CSV")] = DATA / "multihop_kg" / "documents.csv",
                docs: Annotated[int, typer.Option(min=1, help="first N documents")] = 50,
                out_dir: REPORTS = Path("reports")) -> None:
    """KG build cost per extraction mode (single, cascade, grounded, rules) with the configured model."""
    _bench("kg-build", out_dir, "run_build", data, n_docs=docs)

@app.command("kg-import")
def bench_import(data: Annotated[Path, typer.Option(help="PolyU KG JSON")] = DATA / "polyu" / "poly_kg.json",
                 out_dir: REPORTS = Path("reports")) -> None:
    """`kg import` of the released PolyU KG, cold: rows/s and where the time goes."""
    _bench("kg-import", out_dir, "run_import", data)

@app.command("kg-search")
def bench_search(data: Annotated[Path, typer.Option(help="PolyU KG JSON")] = DATA / "polyu" / "poly_kg.json",
                 synthetic: Annotated[int, typer.Option(min=1, help="triples in the synthetic graph")] = 100_000,
                 queries: Annotated[int, typer.Option(min=1, help="timed queries per graph")] = 200,
                 out_dir: REPORTS = Path("reports")) -> None:
    """Top-10 triple search latency (p50/p95) on the PolyU KG and a synthetic graph."""
    _bench("kg-search", out_dir, "run_search", data, synthetic=synthetic, n_queries=queries)

@app.command("extraction")
def bench_extraction(
        kg_methods: Annotated[str, typer.Option("--kg", help="KG methods, comma-separated: rules, grounded, "
                                                "grounded-llm, single, cascade ('' for none)")] =
        "rules,grounded,grounded-llm,single,cascade",
        onto_methods: Annotated[str, typer.Option("--ontology", help="f_ins methods: chunk, grounded "
                                                  "('' for none)")] = "chunk,grounded",
        corpora: Annotated[str, typer.Option(help="demo, multihop, multihop-heldout")] =
        "demo,multihop,multihop-heldout",
        limit: Annotated[int | None, typer.Option(min=1, help="first N documents of each corpus")] = None,
        warm_cache: Annotated[Path | None, typer.Option(help="LLM cache file shared across runs (seconds "
                                                        "then say nothing); default: a cold cache")] = None,
        previous: Annotated[Path | None, typer.Option(help="an earlier extraction.json: rows of methods not "
                                                      "run now are kept from it (marked)")] = None,
        out_dir: REPORTS = Path("reports")) -> None:
    """Extraction precision/recall/F1 against hand-labelled gold (benchmarks/gold/), per method."""
    from benchmarks import extraction
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        extraction.run(out_dir, kg_methods=tuple(split_list(kg_methods)), onto_methods=tuple(split_list(onto_methods)),
                       corpora=tuple(split_list(corpora)), limit=limit, warm_cache=warm_cache, progress=progress,
                       previous=previous)
    out.print((out_dir / "extraction.md").read_text(encoding="utf-8"))

@app.command("kg-resolution")
def bench_resolution(out_dir: REPORTS = Path("reports")) -> None:
    """Entity resolution precision/recall on labelled name pairs, by stage and threshold."""
    _bench("kg-resolution", out_dir, "run_resolution")

@app.command("kg-sufficiency")
def bench_sufficiency(data: Annotated[Path, typer.Option(help="PolyU KG JSON")] = DATA / "polyu" / "poly_kg.json",
                      questions: Annotated[int, typer.Option(min=1, help="questions per label")] = 10,
                      out_dir: REPORTS = Path("reports")) -> None:
    """Query_kg's yes/no: LLM alone vs model-free signals vs combined, on labelled questions."""
    _bench("kg-sufficiency", out_dir, "run_sufficiency", data, n=questions)


@app.command("lubm")
def bench_lubm(universities: Annotated[int, typer.Option(min=1, help="universities to generate")] = 1,
               departments: Annotated[int | None, typer.Option(min=1, help="departments per university "
                                                                  "(default: UBA's 15-25)")] = None,
               seed: Annotated[int, typer.Option(help="generator seed")] = 0,
               reference_timeout: Annotated[float, typer.Option(callback=positive_seconds, help="seconds allowed per "
                                                                "rdflib query before it is stopped")] = 60.0,
               reference: Annotated[bool, typer.Option(help="run rdflib + owlrl beside ours (hours at LUBM(10)); "
                                                           "without: answers checked by the SPARQL rules in memory, "
                                                           "report lubm-N")] = True,
               out_dir: REPORTS = Path("reports")) -> None:
    """LUBM: load, materialise and the 14 queries, ours beside rdflib + owlrl; answer sets compared."""
    from benchmarks.lubm import run

    run(universities, out_dir, departments=departments, seed=seed, reference_timeout=reference_timeout,
        with_reference=reference)
    out.print((out_dir / ("lubm.md" if reference else f"lubm-{universities}.md")).read_text(encoding="utf-8"))


@app.command("acadchall")
def bench_acadchall(
        layer: Annotated[str, typer.Option(help="ontology (the layer alone) or a comma-separated waterfall, "
                                                "e.g. ontology,kg,text")] = "ontology",
        sparql: Annotated[str, typer.Option("--sparql", help="plan (default) or raw")] = "plan",
        questions: Annotated[Path | None, typer.Option(help="any AcadChall-format file (MCQ/MAQ or open "
                                                          "questions); default the dev file")] = None,
        open_answers: Annotated[bool, typer.Option("--open/--no-open", help="also ask each MCQ/MAQ question "
                                                   "without its options (open-answer F1)")] = False,
        data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
        workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                          "reports/.cache/acadchall-ws")] = None,
        out_dir: REPORTS = Path("reports"),
        limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None) -> None:
    """AcadChall MCQ/MAQ (and open questions) over the imported PolyU ontology: P/R/F1 per template and
    per wording, share answered, LLM cost."""
    from benchmarks import acadchall
    from pyramid.progress import RichProgress
    from pyramid.types import check_layers

    layers = check_layers(split_list(layer), param="layer")
    if not layers or sparql not in ("plan", "raw"):
        raise PolyragError("--layer takes ontology, kg, text (comma-separated); --sparql plan or raw")
    with RichProgress(err) as progress:
        d = acadchall.run(data, out_dir, workspace=workspace, layers=layers, mode=sparql, limit=limit,
                          progress=progress, questions_file=questions, open_answers=open_answers,
                          name=None if sparql == "plan" else f"acadchall-{'-'.join(layers)}-raw")
    out.print(acadchall.markdown(d))


@app.command("pages")
def bench_pages(
        pages: Annotated[Path | None, typer.Option(help="pages JSONL (id, title, text); default "
                                                     "polyu_pages/pages_dev.jsonl")] = None,
        questions: Annotated[list[Path] | None, typer.Option(help="AcadChall-format files (repeatable); default "
                                                               "the dev file and the dev wordings")] = None,
        limit: Annotated[int | None, typer.Option(min=1, help="first N pages (+ every department page)")] = None,
        data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
        workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                          "reports/.cache/pages-ws")] = None,
        out_dir: REPORTS = Path("reports")) -> None:
    """The pyramid built from a domain's pages and its schema: build cost per step, model calls per page,
    extraction P/R per property against the gold ontology, AcadChall through the waterfall."""
    from benchmarks import pages as bench
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        d = bench.run(data, out_dir, pages=pages, questions=questions, limit=limit, workspace=workspace,
                      progress=progress)
    out.print(bench.markdown(d))


@app.command("domain")
def bench_domain(
        pages: Annotated[Path, typer.Option(help="pages JSONL (id, title, text; `about` and `layout` for scoring)")],
        schema: Annotated[Path, typer.Option(help="the domain's OWL/RDFS schema")],
        questions: Annotated[Path | None, typer.Option(help="questions JSONL: open (question, answer) or with "
                                                          "options (question, options, answers)")] = None,
        gold: Annotated[Path | None, typer.Option(help="gold instances (Turtle): extraction P/R per property")] = None,
        extract_method: Annotated[str | None, typer.Option(help="ontology.extract_method for the build; default "
                                                                "the settings' default")] = None,
        workspace: Annotated[Path | None, typer.Option(help="workspace to (re)use; default "
                                                          "reports/.cache/domain-NAME-ws")] = None,
        name: Annotated[str | None, typer.Option(help="report name; default the pages' folder")] = None,
        out_dir: REPORTS = Path("reports")) -> None:
    """Any domain's pages and schema, built with the defaults and measured: extraction P/R per property
    (with a gold graph), choice F1, open accuracy, wrong answers per layer, build and cold-ask seconds."""
    from benchmarks import domain as bench
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        d = bench.run(pages, schema, questions, out_dir, gold=gold, workspace=workspace,
                      extract_method=extract_method, name=name, progress=progress)
    out.print(bench.markdown(d))


@app.command("analytics")
def bench_analytics(
        kind: Annotated[str | None, typer.Option(help="only these question kinds (comma-separated)")] = None,
        limit: Annotated[int | None, typer.Option(min=1, help="first N questions only")] = None,
        data: Annotated[Path, typer.Option(help="shared data directory (the PolyU ontology, when there)")] = DATA,
        out_dir: REPORTS = Path("reports")) -> None:
    """Analytical questions (superlatives, filters, counts, aggregates, groups, negation, yes/no, several
    attributes …) over our catalogue ontology and the PolyU ontology through the ontology layer: result-set P/R/F1 per kind,
    answered, wrong, model calls, p50 ms and the SPARQL of each."""
    from benchmarks import analytics
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        d = analytics.run(out_dir, data=data, limit=limit, kinds=set(split_list(kind)) if kind else None,
                          progress=progress)
    out.print(analytics.markdown(d))


@app.command("make-domain")
def bench_make_domain(
        domain: Annotated[str, typer.Argument(help="a development domain of our own: hospital, films, city, "
                                                   "univ (LUBM's schema) or alpine")],
        out_dir: Annotated[Path, typer.Option("--out", help="folder to write schema.ttl, gold.ttl, pages.jsonl, "
                                                           "questions.jsonl into")],
        seed: Annotated[int, typer.Option(help="generation seed")] = 7) -> None:
    """Write a development domain of our own (benchmarks/domains): its OWL schema, gold instances, pages in
    several layouts and questions of several kinds, for `bench domain`."""
    from benchmarks import domains

    if domain not in domains.DOMAINS:
        raise PolyragError(f"unknown domain '{domain}' ({', '.join(domains.DOMAINS)})")
    files = domains.write(domains.generate(domain, seed), out_dir)
    out.print("wrote " + ", ".join(str(f) for f in files.values()))


@app.command("make-questions")
def bench_make_questions(
        out_file: Annotated[Path, typer.Option("--out", help="JSONL file to write")],
        kind: Annotated[str, typer.Option(help="mcq (the five templates, our own wordings) or open (other "
                                               "kinds: attribute, count, two steps)")] = "mcq",
        per_wording: Annotated[int, typer.Option(min=1, help="questions per wording")] = 4,
        wordings: Annotated[str, typer.Option(help="ours (tuned on), held (held out, MCQ only), fresh (a "
                                                   "later set), kinds (eight more open kinds, open only) or blind "
                                                   "(every template and kind, two more wordings)")] = "ours",
        seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
        data: Annotated[Path, typer.Option(help="shared data directory")] = DATA,
        workspace: Annotated[Path | None, typer.Option(help="workspace with the PolyU ontology imported; "
                                                          "default reports/.cache/acadchall-ws")] = None) -> None:
    """Write AcadChall-format questions of our own from the PolyU ontology (`bench acadchall --questions`)."""
    from benchmarks import acadchall, question_sets
    from pyramid.session import Session

    if kind not in ("mcq", "open"):
        raise PolyragError("--kind takes mcq or open")
    if wordings not in question_sets.SETS:
        raise PolyragError(f"--wordings takes one of {', '.join(question_sets.SETS)}")
    mcq_wordings, open_wordings = question_sets.SETS[wordings]
    if kind == "open" and open_wordings is None:
        raise PolyragError(f"--wordings {wordings} has no open questions")
    if kind == "mcq" and mcq_wordings is None:
        raise PolyragError(f"--wordings {wordings} has no MCQ/MAQ questions (use --kind open)")
    ws = acadchall.ensure_workspace(workspace or Path("reports/.cache/acadchall-ws"), data / "polyu" / "polyu_onto.ttl")
    select = Session(ws).ontology.select_trusted
    if kind == "mcq":
        qs = question_sets.generate(select, per_wording=per_wording, seed=seed, wordings=mcq_wordings)
    else:
        qs = question_sets.generate_open(select, per_wording=per_wording, seed=seed, wordings=open_wordings)
    question_sets.write(out_file, qs)
    out.print(f"wrote {len(qs)} questions to {out_file}")


@app.command("make-pages")
def bench_make_pages(
        out_file: Annotated[Path, typer.Option("--out", help="JSONL file to write (id, title, text)")],
        pages: Annotated[Path | None, typer.Option(help="the pages whose entities to re-write; default "
                                                     "polyu_pages/pages_dev.jsonl")] = None,
        seed: Annotated[int, typer.Option(help="layout draw seed")] = 7,
        limit: Annotated[int | None, typer.Option(min=1, help="first N pages")] = None,
        layouts: Annotated[str, typer.Option(help="ours (the first set), fresh, blind, unseen (later ones) or "
                                             "prose (prose-first: bios, news, interviews, run-in headings)")] = "ours",
        data: Annotated[Path, typer.Option(help="shared data directory")] = DATA) -> None:
    """Re-write the pages in layouts of our own from the gold ontology's facts (`bench pages --pages`):
    a measure of the reader on layouts it was not tuned on (benchmarks/relayout.py)."""
    from benchmarks.relayout import LAYOUTS, write_pages

    if layouts not in LAYOUTS:
        raise PolyragError(f"--layouts takes one of {', '.join(LAYOUTS)}")
    n = write_pages(pages or data / "polyu_pages" / "pages_dev.jsonl", data / "polyu" / "polyu_onto.ttl",
                    out_file, seed=seed, limit=limit, layouts=layouts)
    out.print(f"wrote {n} pages to {out_file}")


@app.command("completion")
def bench_completion(data: Annotated[Path, typer.Option(help="PolyU data directory")] = DATA,
                     out_dir: REPORTS = Path("reports"),
                     workspace: Annotated[Path | None, typer.Option(
                         help="a workspace where polyu_onto.ttl and poly_kg.json were already imported "
                              "(`polyrag ontology import`, `polyrag kg import --on-error skip`): a copy of it "
                              "is used instead of importing them again")] = None
                     ) -> None:
    """Hide-and-recover of three PolyU attributes in an imported workspace, run time, and condensation."""
    from benchmarks import completion as bench_mod
    from pyramid.progress import RichProgress

    with RichProgress(err) as progress:
        bench_mod.run(data, out_dir, progress=progress, workspace=workspace)
    out.print((out_dir / "completion.md").read_text(encoding="utf-8"), markup=False)


