"""`polyrag kg build|import|sync|stats|search` and the KG benchmarks (registered by cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]
DATA = Path("../shared/data")
REPORTS = Annotated[Path, typer.Option("--out", help="report directory")]


def _console(stderr: bool = False):
    from rich.console import Console
    return Console(stderr=stderr)


def _session(workspace: Path):
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    return Session(Workspace.open(workspace))


def _print_json(obj) -> None:
    import json
    import sys

    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add this feature's commands to the top-level app and the `bench` group."""
    kg = typer.Typer(help="Knowledge-graph layer: build by extraction, import triples, stats, search.",
                     no_args_is_help=True)
    app.add_typer(kg, name="kg")

    @kg.command("build")
    def build(workspace: WorkspaceArg,
              mode: Annotated[str | None, typer.Option(help="cascade (f_par → f_ent → f_rel → f_dis), single "
                                                            "(one call per chunk), grounded (sentence rules + "
                                                            "enum-constrained calls), rules (no model) or auto; "
                                                            "default kg.mode")] = None,
              limit: Annotated[int | None, typer.Option(help="first N documents only")] = None) -> None:
        """Extract triples from the workspace's documents (new or changed ones); resumable."""
        from pyramid.build import kg_mode
        from pyramid.progress import RichProgress

        session = _session(workspace)
        chosen = kg_mode(session, mode)  # one place decides auto and refuses unknown modes (`polyrag build` too)
        with RichProgress(_console(True)) as progress:
            r = session.kg.build(session.llm, mode=chosen, progress=progress, limit=limit)
        out = _console()
        res = r.loaded.resolution
        out.print(f"{r.documents} documents loaded ({r.documents_removed} removed), {r.chunks} chunks: "
                  f"{r.chunks_extracted} extracted now, {r.chunks_resumed} from an earlier run")
        out.print(f"{r.triples_extracted} triples kept ({r.dropped_ungrounded} dropped as not in their chunk, "
                  f"{r.duplicates_dropped} duplicates); entities: {res.get('exact_merges', 0)} merged by name, "
                  f"{res.get('embedding_merges', 0)} by embedding, {res.get('type_conflicts_refused', 0)} "
                  "merges refused for conflicting types")
        out.print(f"graph: {r.totals.get('triples', 0)} triples, {r.totals.get('entities', 0)} entities, "
                  f"{r.totals.get('relations', 0)} relations")
        per_chunk = r.usage.seconds / r.chunks_extracted if r.chunks_extracted else 0.0
        out.print(f"cost: {r.usage.line()}; {per_chunk:.1f} s per chunk; {r.seconds:.1f} s in all")
        if r.failed_chunks:
            out.print(f"[yellow]{len(r.failed_chunks)} chunks failed[/] ({', '.join(r.failed_chunks[:5])}); "
                      f"{r.documents_pending} documents wait for them: run the build again to retry")

    @kg.command("import")
    def import_(workspace: WorkspaceArg, file: Annotated[Path, typer.Argument(help="JSON, JSONL or CSV triples")],
                fmt: Annotated[str, typer.Option("--format", help="auto, json, jsonl or csv")] = "auto",
                on_error: Annotated[str, typer.Option("--on-error", help="malformed rows: abort (import "
                                                      "nothing) or skip (import the rest)")] = "abort",
                resolve: Annotated[str, typer.Option(help="entity resolution: embedding (normalisation + "
                                                     "similarity) or exact (normalisation only)")] = "embedding"
                ) -> None:
        """Import triples (fields subject/sub/head, relation/rel, object/obj/tail, ...); re-import replaces."""
        from pyramid.errors import PolyragError
        from pyramid.progress import RichProgress
        from pyramid.session import Session
        from pyramid.workspace import Workspace

        if on_error not in ("abort", "skip"):
            raise PolyragError(f"unknown --on-error '{on_error}' (choose abort or skip)")
        if resolve not in ("embedding", "exact"):
            raise PolyragError(f"unknown --resolve '{resolve}' (choose embedding or exact)")
        session = Session(Workspace.open(workspace, create=True))
        with RichProgress(_console(True)) as progress:
            r = session.kg.import_file(file, fmt=fmt, on_error=on_error, resolve=resolve,  # type: ignore[arg-type]
                                       progress=progress)
        out = _console()
        res = r.loaded.resolution
        out.print(f"imported {r.loaded.triples} triples from {r.rows} rows of {file} in {r.seconds:.1f} s; "
                  f"entities: {res.get('names', 0)} names → {r.loaded.entities} entities "
                  f"({res.get('exact_merges', 0)} merged by name, {res.get('embedding_merges', 0)} by embedding)")
        out.print(f"graph: {r.totals.get('triples', 0)} triples, {r.totals.get('entities', 0)} entities, "
                  f"{r.totals.get('relations', 0)} relations")
        if r.skipped:
            out.print(f"[yellow]skipped {len(r.skipped)} malformed rows:[/] " + "; ".join(r.skipped[:5]))

    @kg.command("sync")
    def sync(workspace: WorkspaceArg) -> None:
        """Rebuild the triple index from the configured graph store (after switching kg.backend)."""
        from pyramid.progress import RichProgress

        session = _session(workspace)
        with RichProgress(_console(True)) as progress:
            totals, r = session.kg.resync(progress=progress)
        _console().print(f"triple index: {r.total} triples from {session.kg.source} ({r.added} embedded, "
                         f"{r.kept} kept, {r.removed} removed); graph: {totals['entities']} entities")

    @kg.command("stats")
    def stats(workspace: WorkspaceArg, top: Annotated[int, typer.Option(help="relations shown")] = 10,
              as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
        """Nodes, edges, distinct relations, most frequent relations, likely duplicate entities."""
        s = _session(workspace).kg.stats(top=top)
        if as_json:
            _print_json(s)
            return
        out = _console()
        out.print(f"[bold]{s['backend']}[/]: {s['entities']} entities, {s['triples']} triples "
                  f"({s['indexed_triples']} indexed), {s['relations']} distinct relations "
                  f"({s['canonical_relations']} canonical), {s['documents']} sources")
        out.print("most frequent relations: " + "; ".join(f"{r} ({n})" for r, n in s["top_relations"]))
        if s["likely_duplicates"]:
            out.print("likely duplicate entities: " + "; ".join(f"{a} ~ {b} ({c:.2f})"
                                                               for a, b, c in s["likely_duplicates"]))

    @kg.command("search")
    def search(workspace: WorkspaceArg, question: Annotated[str, typer.Argument()],
               k: Annotated[int | None, typer.Option("-k", help="triples (default kg.k)")] = None,
               expand: Annotated[bool, typer.Option("--expand", help="add the 1-hop relations of the hits' "
                                                    "entities")] = False,
               as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
        """Top-k triples by embedding similarity (Emb_kg)."""
        from rich.table import Table

        from querying.answer import check_question

        hits = _session(workspace).kg.search(check_question(question), k=k, expand=expand)
        if as_json:
            _print_json([{"rank": i, "triple_id": h.triple.id, "score": h.score, "via": h.via,
                          "subject": h.triple.subject.name, "relation": h.triple.relation,
                          "object": h.triple.object.name, "properties": h.triple.properties,
                          "chunk_id": h.triple.chunk_id, "doc_id": h.triple.doc_id}
                         for i, h in enumerate(hits, 1)])
            return
        table = Table("#", "score", "triple", "source", "id")
        for i, h in enumerate(hits, 1):
            table.add_row(str(i) + ("+" if h.via == "expansion" else ""), f"{h.score:.3f}", h.triple.text(),
                          h.triple.chunk_id or h.triple.doc_id or "", h.triple.id)
        _console().print(table)

    # ------------------------------------------------------------------ benchmarks
    def _bench(name: str, out_dir: Path, runner: str, *args, **kwargs) -> None:
        """Run `benchmarks.kg.<runner>` under a progress display, then print its markdown report."""
        from benchmarks import kg as bench_kg
        from pyramid.progress import RichProgress

        with RichProgress(_console(True)) as progress:
            getattr(bench_kg, runner)(*args, out_dir, progress=progress, **kwargs)
        _console().print((out_dir / f"{name}.md").read_text(encoding="utf-8"))

    @bench.command("kg-build")
    def bench_build(data: Annotated[Path, typer.Option(help="documents CSV")] = DATA / "multihop_kg" / "documents.csv",
                    docs: Annotated[int, typer.Option(help="first N documents")] = 50,
                    out_dir: REPORTS = Path("reports")) -> None:
        """KG build cost per extraction mode (single, cascade, grounded, rules) with the configured model."""
        _bench("kg-build", out_dir, "run_build", data, n_docs=docs)

    @bench.command("kg-search")
    def bench_search(data: Annotated[Path, typer.Option(help="PolyU KG JSON")] = DATA / "polyu" / "poly_kg.json",
                     synthetic: Annotated[int, typer.Option(help="triples in the synthetic graph")] = 100_000,
                     queries: Annotated[int, typer.Option(help="timed queries per graph")] = 200,
                     out_dir: REPORTS = Path("reports")) -> None:
        """Top-10 triple search latency (p50/p95) on the PolyU KG and a synthetic graph."""
        _bench("kg-search", out_dir, "run_search", data, synthetic=synthetic, n_queries=queries)

    @bench.command("extraction")
    def bench_extraction(
            kg_methods: Annotated[str, typer.Option("--kg", help="KG methods, comma-separated: rules, grounded, "
                                                    "grounded-llm, single, cascade ('' for none)")] =
            "rules,grounded,grounded-llm,single,cascade",
            onto_methods: Annotated[str, typer.Option("--ontology", help="f_ins methods: chunk, grounded "
                                                      "('' for none)")] = "chunk,grounded",
            corpora: Annotated[str, typer.Option(help="demo, multihop, multihop-heldout")] =
            "demo,multihop,multihop-heldout",
            limit: Annotated[int | None, typer.Option(help="first N documents of each corpus")] = None,
            warm_cache: Annotated[Path | None, typer.Option(help="LLM cache file shared across runs (seconds "
                                                            "then say nothing); default: a cold cache")] = None,
            previous: Annotated[Path | None, typer.Option(help="an earlier extraction.json: rows of methods not "
                                                          "run now are kept from it (marked)")] = None,
            out_dir: REPORTS = Path("reports")) -> None:
        """Extraction precision/recall/F1 against hand-labelled gold (benchmarks/gold/), per method."""
        from benchmarks import extraction
        from pyramid.progress import RichProgress

        def split(x: str) -> tuple[str, ...]:
            return tuple(m.strip() for m in x.split(",") if m.strip())

        with RichProgress(_console(True)) as progress:
            extraction.run(out_dir, kg_methods=split(kg_methods), onto_methods=split(onto_methods),
                           corpora=split(corpora), limit=limit, warm_cache=warm_cache, progress=progress,
                           previous=previous)
        _console().print((out_dir / "extraction.md").read_text(encoding="utf-8"))

    @bench.command("kg-resolution")
    def bench_resolution(out_dir: REPORTS = Path("reports")) -> None:
        """Entity resolution precision/recall on labelled name pairs, by stage and threshold."""
        _bench("kg-resolution", out_dir, "run_resolution")

    @bench.command("kg-sufficiency")
    def bench_sufficiency(data: Annotated[Path, typer.Option(help="PolyU KG JSON")] = DATA / "polyu" / "poly_kg.json",
                          questions: Annotated[int, typer.Option(help="questions per label")] = 10,
                          out_dir: REPORTS = Path("reports")) -> None:
        """Query_kg's yes/no: LLM alone vs model-free signals vs combined, on labelled questions."""
        _bench("kg-sufficiency", out_dir, "run_sufficiency", data, n=questions)
