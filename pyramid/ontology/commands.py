"""`polyrag ontology ...`, `polyrag sparql` and the ontology benchmarks (registered by cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]
REPORTS = Annotated[Path, typer.Option("--out", help="report directory")]


def _console(stderr: bool = False):
    from rich.console import Console
    return Console(stderr=stderr, soft_wrap=True, highlight=False)


def _layer(workspace: Path, *, create: bool = False):
    # The layer alone: loading, importing and querying need no embedding model.
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.workspace import Workspace

    return OntologyLayer(Workspace.open(workspace, create=create))


def _print_json(obj) -> None:
    import json
    import sys

    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


def _print_rows(result, fmt: str) -> None:
    import csv
    import sys

    if fmt == "json":
        _print_json(result.rows)
    elif fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(result.variables)
        for row in result.rows:
            writer.writerow(["" if row.get(v) is None else row[v] for v in result.variables])
    else:
        from rich.table import Table

        table = Table(*result.variables)
        for row in result.rows:
            table.add_row(*("" if row.get(v) is None else str(row[v]) for v in result.variables))
        _console().print(table)
    note = " (cut at the row cap; raise --limit)" if result.truncated else ""
    _console(True).print(f"{len(result.rows)} rows in {result.ms:.0f} ms{note}")


def _check_schema_terms(layer, query: str) -> None:
    """Refuse a typed query that uses, as a class or a predicate, a term of the schema's namespaces
    that neither the schema nor the data knows (a typo returns 0 rows and looks like an answer).
    The same check as raw-mode queries (querying.sparql_raw.schema_problems), nearest names included."""
    from pyramid.errors import InputError
    from pyramid.ontology.vocab import Vocab
    from querying.sparql_raw import query_terms, schema_problems, vocab_namespaces
    from querying.sparql_safety import check_query

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


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add this feature's commands to the top-level app and the `bench` group."""
    onto = typer.Typer(help="Ontology layer: schema, instance import, reasoning, stats.", no_args_is_help=True)
    app.add_typer(onto, name="ontology")

    @onto.command("load-schema")
    def load_schema(workspace: WorkspaceArg,
                    file: Annotated[Path, typer.Argument(help="OWL/RDFS file: Turtle, RDF/XML, N-Triples, JSON-LD")]
                    ) -> None:
        """Make FILE the workspace schema (replacing the previous one); lists what validation found."""
        from pyramid.ontology.schema import Schema

        schema = Schema.load(file)  # a malformed file stops here, before the workspace is touched
        loaded = _layer(workspace, create=True).load_schema(schema)
        s = loaded.schema
        kinds = [p.kind for p in s.properties.values()]
        out = _console()
        out.print(f"schema loaded from {file}: {len(s.classes)} classes, {kinds.count('object')} object and "
                  f"{kinds.count('datatype')} datatype properties ({len(s.triples)} triples, namespace "
                  f"{s.namespace or '-'}) in {loaded.seconds:.2f} s")
        if loaded.inferred is not None:
            out.print(f"inferred graph recomputed: {loaded.inferred:,} triples")
        for problem in loaded.problems:
            out.print(f"  warning: {problem}")

    @onto.command("import")
    def import_(workspace: WorkspaceArg,
                file: Annotated[Path, typer.Argument(help="instance data: Turtle, RDF/XML, N-Triples, JSON-LD")],
                name: Annotated[Optional[str], typer.Option(help="graph name (default: the file name); "
                                                            "importing the same name again replaces it")] = None,
                reason: Annotated[bool, typer.Option("--reason/--no-reason",
                                                     help="materialise inferences afterwards")] = True,
                as_json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False) -> None:
        """Import instance data into its own graph and print what was found in it."""
        from pyramid.progress import RichProgress

        layer = _layer(workspace, create=True)
        with RichProgress(_console(True)) as progress:
            report = layer.import_instances(file, name=name, progress=progress)
        inferred = layer.reason() if reason and layer.inferred_state() != "fresh" else None
        if as_json:
            _print_json({**report.to_dict(), "inferred": inferred.inferred if inferred else None})
            return
        out = _console()
        out.print(report.render(layer.schema.short))
        if inferred:
            out.print(inferred.render())

    @onto.command("reason")
    def reason_(workspace: WorkspaceArg) -> None:
        """Recompute the inferred graph (RDFS + OWL RL subset) from every asserted graph."""
        _console().print(_layer(workspace).reason().render())

    @onto.command("stats")
    def stats(workspace: WorkspaceArg, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
        """Schema size, graphs, instances per class, schema problems."""
        data = _layer(workspace).stats()
        if as_json:
            _print_json(data)
            return
        out = _console()
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

    # `polyrag ontology extract` (f_ins) joins this group through register_extraction_and_bench (below).

    @app.command("sparql")
    def sparql(workspace: WorkspaceArg,
               query: Annotated[str, typer.Argument(help="a SELECT, ASK, CONSTRUCT or DESCRIBE query, or @FILE")],
               fmt: Annotated[str, typer.Option("--format", help="table, json or csv")] = "table",
               limit: Annotated[Optional[int], typer.Option(help="row cap (default ontology.row_cap)")] = None,
               timeout: Annotated[Optional[float], typer.Option(help="seconds (default ontology.timeout_s)")] = None
               ) -> None:
        """Run a read-only SPARQL query on the ontology store (updates, LOAD and SERVICE are refused).

        Prefixes rdf, rdfs, owl, xsd, the schema's own and ':' (the schema namespace) need no declaration."""
        from pyramid.errors import InputError

        if fmt not in ("table", "json", "csv"):
            raise InputError(f"unknown --format '{fmt}' (choose table, json or csv)")
        if query.startswith("@"):
            try:
                query = Path(query[1:]).read_text(encoding="utf-8")
            except OSError as err:
                raise InputError(f"cannot read the query file ({err.strerror})", path=query[1:]) from None
        layer = _layer(workspace)
        _check_schema_terms(layer, query)
        _print_rows(layer.query(query, timeout_s=timeout, row_cap=limit), fmt)

    @bench.command("lubm")
    def bench_lubm(universities: Annotated[int, typer.Option(min=1, help="universities to generate")] = 1,
                   departments: Annotated[Optional[int], typer.Option(min=1, help="departments per university "
                                                                      "(default: UBA's 15-25)")] = None,
                   seed: Annotated[int, typer.Option(help="generator seed")] = 0,
                   reference_timeout: Annotated[float, typer.Option(help="seconds allowed per rdflib query "
                                                                    "before it is stopped")] = 60.0,
                   out_dir: REPORTS = Path("reports")) -> None:
        """LUBM: load, materialise and the 14 queries, ours beside rdflib + owlrl; answer sets compared."""
        from benchmarks.lubm import run

        run(universities, out_dir, departments=departments, seed=seed, reference_timeout=reference_timeout)
        _console().print((out_dir / "lubm.md").read_text(encoding="utf-8"))

    register_extraction_and_bench(app, bench)  # part B's commands (below); keep this call last


# ---------------------------------------------------------------------------------------------------
# Part B: `polyrag ontology extract` (f_ins) and `polyrag bench acadchall`. Kept in its own block so
# the commands above and these can change independently.
def _ontology_group(app: typer.Typer) -> typer.Typer:
    """The `ontology` command group registered above (created here only if there is none yet)."""
    from pyramid.commands import command_group

    return command_group(app, "ontology", "Ontology layer: schema, instances, reasoning, extraction.")


def register_extraction_and_bench(app: typer.Typer, bench: typer.Typer) -> None:
    group = _ontology_group(app)

    @group.command("extract")
    def extract(workspace: Annotated[Path, typer.Argument(help="workspace directory")],
                limit: Annotated[Optional[int], typer.Option(help="first N documents only")] = None,
                reason: Annotated[bool, typer.Option("--reason/--no-reason", help="re-run reasoning "
                                                     "afterwards")] = True) -> None:
        """f_ins: instances of the schema's class-attribute pairs from the workspace's documents
        (one LLM call per chunk); resumable, failed chunks are retried by the next run."""
        from rich.console import Console

        from pyramid.ontology.extract import extract_instances
        from pyramid.progress import RichProgress
        from pyramid.session import Session
        from pyramid.workspace import Workspace
        from querying.ontology_qa import trusted_select

        session = Session(Workspace.open(workspace))
        layer = session.ontology
        with RichProgress(Console(stderr=True)) as progress:
            r = extract_instances(session.ws, layer, session.llm, session.embedder, select=trusted_select(layer),
                                  progress=progress, limit=limit)
            reasoned = layer.reason() if reason and r.documents else None
        out = Console()
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

    @bench.command("acadchall")
    def bench_acadchall(
            layer: Annotated[str, typer.Option(help="ontology (the layer alone) or a comma-separated waterfall, "
                                                    "e.g. ontology,kg,text")] = "ontology",
            sparql: Annotated[str, typer.Option("--sparql", help="plan (default) or raw")] = "plan",
            data: Annotated[Path, typer.Option(help="shared data directory")] = Path("../shared/data"),
            workspace: Annotated[Optional[Path], typer.Option(help="workspace to (re)use; default "
                                                              "reports/.cache/acadchall-ws")] = None,
            out_dir: Annotated[Path, typer.Option("--out", help="report directory")] = Path("reports"),
            limit: Annotated[Optional[int], typer.Option(help="first N questions only")] = None) -> None:
        """AcadChall dev MCQ/MAQ over the imported PolyU ontology: P/R/F1, share answered, LLM cost."""
        from rich.console import Console

        from benchmarks import acadchall
        from pyramid.errors import PolyragError
        from pyramid.progress import RichProgress

        layers = [x.strip() for x in layer.split(",") if x.strip()]
        if not layers or any(x not in ("ontology", "kg", "text") for x in layers) or sparql not in ("plan", "raw"):
            raise PolyragError("--layer takes ontology, kg, text (comma-separated); --sparql plan or raw")
        with RichProgress(Console(stderr=True)) as progress:
            d = acadchall.run(data, out_dir, workspace=workspace, layers=layers, mode=sparql, limit=limit,
                              progress=progress, name=None if sparql == "plan" else f"acadchall-{'-'.join(layers)}-raw")
        Console().print(acadchall.markdown(d))
