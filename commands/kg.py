"""`polyrag kg build|import|sync|stats|search|condense|export`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from commands.common import OutputOpt, WorkspaceArg, emit, err, open_session, out, print_json, read_lines

app = typer.Typer(help="Knowledge-graph layer: build by extraction, import triples, stats, search, condense.",
                  no_args_is_help=True)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="kg")


@app.command("build")
def build(workspace: WorkspaceArg,
          mode: Annotated[str | None, typer.Option(help="read (the pages read against the "
                                                        "workspace's schema, no model), cascade (f_par → f_ent → "
                                                        "f_rel → f_dis), single (one call per chunk), grounded (sentence rules + "
                                                        "enum-constrained calls), rules (no model) or auto; "
                                                        "default kg.mode")] = None,
          limit: Annotated[int | None, typer.Option(min=1, help="first N documents only")] = None) -> None:
    """Extract triples from the workspace's documents (new or changed ones); resumable."""
    from pyramid.kg.extractors import AUTO, TRIPLE_EXTRACTORS, check, choose
    from pyramid.ontology.extractors import BY_SHAPE, reads_pages
    from pyramid.progress import RichProgress

    session = open_session(workspace)
    requested = mode or session.settings.kg.mode
    check(requested)  # before the model is touched
    with RichProgress(err) as progress:
        # the pages' reading when the mode takes it, or when auto follows the ontology's reader
        wants = reads_pages(session.settings.ontology.extract_method) if requested == AUTO else \
            bool(TRIPLE_EXTRACTORS.get(requested).option("reads_pages", False))
        readings = session.readings(progress) if wants else None
        chosen = choose(requested, session.llm, can_read=readings is not None,  # the one place that decides auto
                        by_shape=session.settings.ontology.extract_method == BY_SHAPE)
        r = session.kg.build(session.llm, mode=chosen, progress=progress, limit=limit, readings=readings)
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

@app.command("import")
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

    if on_error not in ("abort", "skip"):
        raise PolyragError(f"unknown --on-error '{on_error}' (choose abort or skip)")
    if resolve not in ("embedding", "exact"):
        raise PolyragError(f"unknown --resolve '{resolve}' (choose embedding or exact)")
    session = open_session(workspace, create=True)
    with RichProgress(err) as progress:
        r = session.kg.import_file(file, fmt=fmt, on_error=on_error, resolve=resolve,  # type: ignore[arg-type]
                                   progress=progress)
    res = r.loaded.resolution
    out.print(f"imported {r.loaded.triples} triples from {r.rows} rows of {file} in {r.seconds:.1f} s; "
              f"entities: {res.get('names', 0)} names → {r.loaded.entities} entities "
              f"({res.get('exact_merges', 0)} merged by name, {res.get('embedding_merges', 0)} by embedding)")
    out.print(f"graph: {r.totals.get('triples', 0)} triples, {r.totals.get('entities', 0)} entities, "
              f"{r.totals.get('relations', 0)} relations")
    if r.skipped:
        out.print(f"[yellow]skipped {len(r.skipped)} malformed rows:[/] " + "; ".join(r.skipped[:5]))

@app.command("sync")
def sync(workspace: WorkspaceArg) -> None:
    """Rebuild the triple index from the configured graph store (after switching kg.backend)."""
    from pyramid.progress import RichProgress

    session = open_session(workspace)
    with RichProgress(err) as progress:
        totals, r = session.kg.resync(progress=progress)
    out.print(f"triple index: {r.total} triples from {session.kg.source} ({r.added} embedded, "
                     f"{r.kept} kept, {r.removed} removed); graph: {totals['entities']} entities")

@app.command("migrate")
def migrate(workspace: WorkspaceArg) -> None:
    """Convert a knowledge graph built with Kùzu (archived upstream) to LadybugDB, the default embedded
    store, and set kg.backend = "ladybug". The Kùzu graph is left in place; remove it once satisfied."""
    from pyramid.kg.migrate import migrate_to_ladybug
    from pyramid.progress import RichProgress

    session = open_session(workspace)
    with RichProgress(err) as progress:
        r = migrate_to_ladybug(session.kg, progress)
    out.print(f"migrated {r.triples} triples from {r.source} to {r.target} in {r.seconds:.1f} s; kg.backend is "
              f"now \"ladybug\" (the Kùzu graph is still at {r.source})")


@app.command("stats")
def stats(workspace: WorkspaceArg, top: Annotated[int, typer.Option(min=0, help="relations shown")] = 10,
          as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Nodes, edges, distinct relations, most frequent relations, likely duplicate entities."""
    s = open_session(workspace).kg.stats(top=top)
    if as_json:
        print_json(s)
        return
    out.print(f"[bold]{s['backend']}[/]: {s['entities']} entities, {s['triples']} triples "
              f"({s['indexed_triples']} indexed), {s['relations']} distinct relations "
              f"({s['canonical_relations']} canonical), {s['documents']} sources")
    out.print("most frequent relations: " + "; ".join(f"{r} ({n})" for r, n in s["top_relations"]))
    if s["likely_duplicates"]:
        out.print("likely duplicate entities: " + "; ".join(f"{a} ~ {b} ({c:.2f})"
                                                           for a, b, c in s["likely_duplicates"]))

@app.command("search")
def search(workspace: WorkspaceArg, question: Annotated[str, typer.Argument()],
           k: Annotated[int | None, typer.Option("-k", min=1, help="triples (default kg.k)")] = None,
           expand: Annotated[bool, typer.Option("--expand", help="add the 1-hop relations of the hits' "
                                                "entities")] = False,
           as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Top-k triples by embedding similarity (Emb_kg)."""
    from rich.table import Table

    from pyramid.types import check_question

    question = check_question(question)  # before the workspace: the first problem named is the question
    hits = open_session(workspace).kg.search(question, k=k, expand=expand)
    if as_json:
        print_json([{"rank": i, "triple_id": h.triple.id, "score": h.score, "via": h.via,
                      "subject": h.triple.subject.name, "relation": h.triple.relation,
                      "object": h.triple.object.name, "properties": h.triple.properties,
                      "chunk_id": h.triple.chunk_id, "doc_id": h.triple.doc_id}
                     for i, h in enumerate(hits, 1)])
        return
    table = Table("#", "score", "triple", "source", "id")
    for i, h in enumerate(hits, 1):
        table.add_row(str(i) + ("+" if h.via == "expansion" else ""), f"{h.score:.3f}", h.triple.text(),
                      h.triple.chunk_id or h.triple.doc_id or "", h.triple.id)
    out.print(table)



@app.command("condense")
def condense(workspace: WorkspaceArg,
             mode: Annotated[str, typer.Option(help="cluster (model-free) or llm (f_con)")] = "",
             questions: Annotated[Path | None, typer.Option(help="questions, one per line, for the "
                                                               "top-10 token figure")] = None,
             undo: Annotated[bool, typer.Option("--undo", help="restore the KG as before condensing")] = False
             ) -> None:
    """Give same-meaning relations one canonical name and merge duplicate triples (reversible)."""
    from completion.condense_ws import condense_workspace, undo_condensation
    from completion.errors import CompletionError
    from pyramid.progress import RichProgress

    session = open_session(workspace)
    if undo:
        n = undo_condensation(session)
        out.print(f"condensation undone: {n} merged triples restored, canonical names reset", markup=False)
        return
    from completion.condense_ws import require_kg

    require_kg(session)
    mode = mode or session.settings.completion.condense_mode
    if mode not in ("cluster", "llm"):
        raise CompletionError(f"--mode {mode!r}: choose cluster or llm")
    view = _anchors(session)
    qs = read_lines(questions, "questions") if questions is not None else []
    with RichProgress(err) as progress:
        rep = condense_workspace(session, view, mode=mode, questions=qs, progress=progress)
    f, t = rep.facts, rep.tokens
    from rich.table import Table

    table = Table("", "before", "after")
    table.add_row("distinct relations", str(f.relations_before), str(f.relations_after))
    table.add_row("triples", str(f.triples_before), str(f.triples_after))
    table.add_row("(subject, object) facts", str(f.facts), f"{f.kept[0.6]} kept ({f.share(0.6):.1%})")
    table.add_row(f"tokens for the top-10 triples ({t.questions} questions)", f"{t.tokens_before:.0f}",
                  f"{t.tokens_after:.0f}")
    table.add_row("distinct facts in the top 10", f"{t.facts_before:.1f}", f"{t.facts_after:.1f}")
    out.print(table)
    out.print(f"mode {rep.mode}, {rep.anchors} ontology anchors, {rep.seconds:.1f} s; undo with "
              f"`polyrag kg condense {workspace} --undo`", markup=False)


def _anchors(session):
    """The ontology view for anchors; without an ontology layer, condensation runs without anchors."""
    from completion.errors import CompletionError
    from completion.types import OntologyView
    from completion.workspace_io import ontology_target

    try:
        return ontology_target(session).view()
    except CompletionError as e:
        err.print(f"no ontology anchors ({e}); relations are grouped by similarity only", markup=False)
        return OntologyView((), ())


@app.command("export")
def export(workspace: WorkspaceArg,
           fmt: Annotated[str, typer.Option("--format", help="csv, jsonl (as kg import reads it), graphml or rdf "
                                                            "(N-Triples)")] = "csv",
           output: OutputOpt = None) -> None:
    """Write the knowledge graph's triples for other tools (spreadsheets, Gephi/networkx, RDF stores)."""
    from pyramid.errors import WorkspaceError
    from pyramid.kg.export import FORMATS
    from pyramid.kg.export import export as export_kg

    if fmt not in FORMATS:
        from pyramid.errors import InputError

        raise InputError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
    kg = open_session(workspace).kg
    if not kg.exists:
        raise WorkspaceError(f"workspace {workspace} has no knowledge graph yet")
    emit(export_kg(kg.store().iter_triples(), fmt), output)
