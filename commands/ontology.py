"""`polyrag ontology load-schema|import|reason|stats|extract|export` and `polyrag sparql`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from commands.common import OutputOpt, WorkspaceArg, check_utf8, emit, positive_seconds, print_json

app = typer.Typer(help="Ontology layer: schema, instance import, reasoning, extraction, stats.", no_args_is_help=True)
out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="ontology")
    root.command("sparql")(sparql)


def _layer(workspace: Path, *, create: bool = False):
    # The layer alone: loading, importing and querying need no embedding model.
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.workspace import Workspace

    return OntologyLayer(Workspace.open(workspace, create=create))


def _print_rows(result, fmt: str) -> None:
    import sys

    from pyramid.ontology.results import FORMATS, serialize

    if fmt == "rows":
        print_json(result.rows)
    elif fmt in FORMATS:
        sys.stdout.flush()
        sys.stdout.buffer.write(serialize(result, fmt))
        sys.stdout.buffer.flush()
    else:
        from rich.table import Table

        table = Table(*result.variables)
        for row in result.rows:
            table.add_row(*("" if row.get(v) is None else str(row[v]) for v in result.variables))
        out.print(table)
    note = " (cut at the row cap; raise --limit)" if result.truncated else ""
    if getattr(result, "bag", False):  # query_worker: the union of the graphs too large to copy as a set
        note += "; the graphs share triples and are too large to merge here, so a row may repeat (add DISTINCT)"
    err.print(f"{len(result.rows)} rows in {result.ms:.0f} ms{note}")


def _check_schema_terms(layer, query: str) -> None:
    """Refuse a typed query that uses, as a class or a predicate, a term of the schema's namespaces
    that neither the schema nor the data knows (a typo returns 0 rows and looks like an answer).
    The same check as raw-mode queries (querying.sparql_raw.schema_problems), nearest names included."""
    from pyramid.errors import InputError
    from pyramid.ontology.safety import check_query
    from pyramid.vocab import Vocab
    from querying.sparql_raw import query_terms, schema_problems, vocab_namespaces

    prefixes = layer.prefixes
    check_query(query, prefixes)  # refusals and syntax errors first, with their own messages
    vocab = Vocab.from_schema(layer.schema)
    if not vocab.terms:
        return  # no schema to check against
    try:
        terms = query_terms(query, prefixes)
    except ValueError:
        return  # Oxigraph accepted it (SPARQL 1.2 syntax rdflib lacks): nothing to check terms with

    def in_data(iri: str, kind: str) -> bool:  # a term the data uses is real even if undeclared
        pattern = f"?s <{iri}> ?o" if kind == "property" else f"?s a <{iri}>"
        return bool(layer.store.run_trusted(f"ASK {{ {pattern} }}").rows[0]["ask"])

    problems = schema_problems(terms, vocab, namespaces=vocab_namespaces(vocab), known=in_data)
    if problems:
        raise InputError("not run: " + "; ".join(problems), path="query")



@app.command("load-schema")
def load_schema(workspace: WorkspaceArg,
                file: Annotated[Path, typer.Argument(help="OWL/RDFS file: Turtle, RDF/XML, N-Triples, JSON-LD")]
                ) -> None:
    """Make FILE the workspace schema (replacing the previous one); lists what validation found."""
    from pyramid.ontology.schema import Schema

    schema = Schema.load(file)  # a malformed file stops here, before the workspace is touched
    loaded = _layer(workspace, create=True).load_schema(schema)
    s = loaded.schema
    kinds = [p.kind for p in s.properties.values()]
    out.print(f"schema loaded from {file}: {len(s.classes)} classes, {kinds.count('object')} object and "
              f"{kinds.count('datatype')} datatype properties ({len(s.triples)} triples, namespace "
              f"{s.namespace or '-'}) in {loaded.seconds:.2f} s")
    if loaded.inferred is not None:
        out.print(f"inferred graph recomputed: {loaded.inferred:,} triples")
    for problem in loaded.problems:
        out.print(f"  warning: {problem}")

@app.command("import")
def import_(workspace: WorkspaceArg,
            file: Annotated[Path, typer.Argument(help="instance data: Turtle, RDF/XML, N-Triples, JSON-LD")],
            name: Annotated[str | None, typer.Option(help="graph name (default: the file name); "
                                                        "importing the same name again replaces it")] = None,
            reason: Annotated[bool, typer.Option("--reason/--no-reason",
                                                 help="materialise inferences afterwards")] = True,
            as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False) -> None:
    """Import instance data into its own graph and print what was found in it."""
    from pyramid.progress import RichProgress

    layer = _layer(workspace, create=True)
    with RichProgress(err) as progress:
        report = layer.import_instances(file, name=name, reason=reason, progress=progress)
    inferred = layer.reason() if reason and layer.inferred_state() != "fresh" else None
    if as_json:
        print_json({**report.to_dict(), "inferred": inferred.inferred if inferred else None})
        return
    out.print(report.render(layer.schema.short))
    if inferred:
        out.print(inferred.render())

@app.command("reason")
def reason_(workspace: WorkspaceArg) -> None:
    """Recompute the inferred graph (RDFS + OWL RL subset) from every asserted graph."""
    out.print(_layer(workspace).reason().render())

@app.command("stats")
def stats(workspace: WorkspaceArg, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Schema size, graphs, instances per class, schema problems."""
    data = _layer(workspace).stats()
    if as_json:
        print_json(data)
        return
    out.print(f"schema: {data['classes']} classes, {data['object_properties']} object and "
              f"{data['datatype_properties']} datatype properties")
    out.print(f"triples: {data['instance_triples']:,} instance, {data['schema_triples']:,} schema, "
              f"{data['inferred_triples']:,} inferred" + (" (stale: run `polyrag ontology reason`)"
                                                           if data["inferred_stale"] else ""))
    for name, g in data["graphs"].items():
        out.print(f"  graph {name}: {g['triples']:,} triples from {g['source']} ({g['loaded']})")
    if data["instances"]:
        out.print("instances: " + ", ".join(f"{c} {n:,}" for c, n in data["instances"].items()))
    for problem in data["schema_problems"]:
        out.print(f"  schema warning: {problem}")


def sparql(workspace: WorkspaceArg,
           query: Annotated[str, typer.Argument(help="a SELECT, ASK, CONSTRUCT or DESCRIBE query, or @FILE")],
           fmt: Annotated[str, typer.Option("--format", help="table, rows (JSON list of plain rows), or a W3C "
                                            "format: json, xml, csv, tsv (SELECT/ASK); turtle, ntriples, "
                                            "jsonld (CONSTRUCT/DESCRIBE)")] = "table",
           limit: Annotated[int | None, typer.Option(min=1, help="row cap (default ontology.row_cap)")] = None,
           timeout: Annotated[float | None, typer.Option(callback=positive_seconds,
                                                         help="seconds (default ontology.timeout_s)")] = None
           ) -> None:
    """Run a read-only SPARQL query on the ontology store (updates, LOAD and SERVICE are refused).

    Prefixes rdf, rdfs, owl, xsd, the schema's own and ':' (the schema namespace) need no declaration."""
    from pyramid.errors import InputError
    from pyramid.ontology.results import FORMATS

    if fmt not in ("table", "rows", *FORMATS):
        raise InputError(f"unknown --format '{fmt}' (choose table, rows, {', '.join(FORMATS)})")
    source = query[1:] if query.startswith("@") else None
    if source is not None:
        try:
            query = Path(source).read_text(encoding="utf-8")
        except OSError as problem:
            raise InputError(f"cannot read the query file ({problem.strerror})", path=source) from None
        except UnicodeDecodeError as problem:
            raise InputError(f"the query file is not UTF-8 text (byte 0x{problem.object[problem.start]:02x} at "
                             f"offset {problem.start})", path=source) from None
    try:
        check_utf8(query, "query")
        layer = _layer(workspace)
        _check_schema_terms(layer, query)
        rows = layer.query(query, timeout_s=timeout, row_cap=limit, typed=fmt in FORMATS)
    except InputError as problem:  # the query's own faults, said of the file it came from
        raise problem.at(source) if source is not None and problem.path == "query" else problem from None
    _print_rows(rows, fmt)


@app.command("extract")
def extract(workspace: WorkspaceArg,
            limit: Annotated[int | None, typer.Option(min=1, help="first N documents only")] = None,
            reason: Annotated[bool, typer.Option("--reason/--no-reason", help="re-run reasoning "
                                                 "afterwards")] = True) -> None:
    """f_ins: instances of the schema's class-attribute pairs from the workspace's documents
    (one LLM call per chunk); resumable, failed chunks are retried by the next run."""
    from commands.common import open_session
    from pyramid.ontology.extract import extract_instances
    from pyramid.progress import RichProgress

    session = open_session(workspace)
    layer = session.ontology
    with RichProgress(err) as progress:
        r = extract_instances(session.ws, layer, session.llm, session.embedder, select=layer.select_trusted,
                              progress=progress, limit=limit)
        reasoned = layer.reason() if reason and r.documents else None
    if r.removed:
        out.print(f"{r.removed} documents no longer in the corpus: their instances were removed")
    out.print(f"{r.documents} documents written, {r.chunks} chunks: {r.chunks_extracted} extracted now, "
              f"{r.chunks_resumed} from an earlier run; {r.facts} facts ({r.linked} names linked to existing "
              f"instances, {r.minted} new, {r.dropped} dropped as not in their chunk or off-schema)")
    per_chunk = r.usage.seconds / r.chunks_extracted if r.chunks_extracted else 0.0
    out.print(f"cost: {r.usage.line()}; {per_chunk:.1f} s per chunk; {r.seconds:.1f} s in all")
    if reasoned is not None:
        out.print(reasoned.render())
    if r.failed_chunks:
        out.print(f"[yellow]{len(r.failed_chunks)} chunks failed[/] ({', '.join(r.failed_chunks[:5])}); "
                  f"{r.documents_pending} documents wait for them: run the command again to retry")


@app.command("export")
def export(workspace: WorkspaceArg,
           part: Annotated[str, typer.Option(help="schema, instances, inferred or all")] = "all",
           fmt: Annotated[str, typer.Option("--format", help="turtle, ntriples, jsonld or nquads (graph names "
                                                            "kept)")] = "turtle",
           output: OutputOpt = None) -> None:
    """Write the ontology (or one part of it) as one RDF document."""
    from pyramid.ontology.export import export as export_rdf

    emit(export_rdf(_layer(workspace), part, fmt), output)
