"""`polyrag complete ...`, `polyrag kg condense` and `polyrag bench completion` (registered by cli.py).

Imports stay inside the command functions so `polyrag --help` does not load numpy, scipy or models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

WorkspaceArg = Annotated[Path, typer.Argument(help="workspace directory")]
WorkspaceOpt = Annotated[Path, typer.Option("--workspace", "-w", help="workspace directory (default: the "
                                            "current directory)")]
IdArg = Annotated[str, typer.Argument(help="proposal id, e.g. P0003")]


def _console():
    from rich.console import Console

    return Console(), Console(stderr=True)


def _e(value) -> str:
    """User data (names, relations, ids, paths) printed through rich: '[chunk c0]' is text, not markup."""
    from rich.markup import escape

    return escape(str(value))


def _session(workspace: Path):
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    return Session(Workspace.open(workspace))


def _files(workspace: Path):
    from completion.review import CompletionFiles
    from pyramid.workspace import Workspace

    return CompletionFiles(Workspace.open(workspace))


def print_proposals(out, proposals, *, limit: int = 25) -> None:
    from rich.table import Table

    from completion.proposals import display_name

    table = Table("rank", "id", "status", "proposal", "triples", "subjects", "score", "medoid")
    for p in proposals[:limit]:
        subjects = p.typed_subjects if p.kind == "attribute" else p.subjects
        flag = " (generic)" if p.generic else ""
        table.add_row(str(p.rank), _e(p.id), p.status, _e(display_name(p)) + flag, str(p.triples), str(subjects),
                      f"{p.score:.1f}", _e(p.medoid[:50]))
    out.print(table)


def print_one(out, p) -> None:
    from completion.proposals import display_name

    out.print(f"[bold]{_e(p.id)}[/] ({p.status}) {p.kind}: {_e(display_name(p))}  label '{_e(p.label)}'",
              highlight=False)

    def say(text: str) -> None:   # user data through and through: plain text, one line per item
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    say(f"rank {p.rank}, score {p.score:.2f}, mean priority {p.priority:.3g}; {p.triples} triples, "
        f"{p.subjects} subjects ({p.typed_subjects} typed); medoid '{p.medoid}'")
    if p.covered_by:
        say(f"covered by the existing attribute {p.covered_by}")
    if p.generic:
        say("generic: most of its triples use a relation of function words only")
    say("relations: " + "; ".join(f"{r.text} ({r.count})" for r in p.relations))
    say("evidence:")
    for e in p.evidence:
        src = f"  [chunk {e.chunk_id}, document {e.doc_id}]" if e.chunk_id or e.doc_id else ""
        say(f"  {e.triple_id}: ({e.subject}, {e.relation}, {e.object}){src}")
    say(f"would add {p.instances} instance statements, e.g.:")
    for s in p.instance_sample:
        say(f"  {s.subject_iri or s.subject} —{p.name}→ {s.object_iri or s.object}")
    if p.why:
        say(f"rejected because: {p.why}")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add this feature's commands to the top-level app and the `bench` group."""
    complete = typer.Typer(help="Ontology completion: propose what the KG knows and the ontology lacks; "
                                "a curator accepts or rejects; apply extends the schema.",
                           no_args_is_help=True)
    app.add_typer(complete, name="complete")

    @complete.command("run")
    def run(workspace: WorkspaceArg,
            k: Annotated[int | None, typer.Option("-k", help="clusters (default: completion.k, 0 = by "
                                                               "silhouette)")] = None,
            top: Annotated[int, typer.Option(help="rows of the ranked table")] = 25) -> None:
        """Compare the KG with the ontology and write ranked proposals (WS/completion/proposals.yaml)."""
        from completion.review import CompletionFiles
        from completion.service import phrase_embedder, run_in_workspace
        from completion.workspace_io import kg_triples, ontology_target
        from pyramid.progress import RichProgress

        out, err = _console()
        session = _session(workspace)
        cfg = session.settings.completion
        if k is not None:
            cfg = cfg.model_copy(update={"k": k})
        target = ontology_target(session)
        triples = kg_triples(session)
        files = CompletionFiles(session.ws)
        with RichProgress(err) as progress:
            result = run_in_workspace(files, target, triples, phrase_embedder(session.embedder, cfg), cfg, progress)
        s = result.stats
        out.print(f"{s['kg_triples']} triples → {s['kg_phrases']} KG phrases ({s['typed_triples']} triples typed "
                  f"through {s['typed_subjects']} linked subjects), {s['ontology_phrases']} ontology phrases; "
                  f"PCA {s['pca_dim']}-d ({s['pca_explained']:.0%} of the variance); region {s['region_phrases']} "
                  f"phrases; k = {s['k']} (silhouette {s['silhouette']:.3f}); {s['seconds']['total']:.1f} s",
                  markup=False)
        print_proposals(out, files.load().proposals, limit=top)
        out.print(f"{s['covered']} clusters only reword existing attributes; {s['suppressed_rejected']} "
                  f"suppressed as already rejected or accepted. Details: polyrag complete show ID -w {workspace}",
                  markup=False)

    @complete.command("show")
    def show(pid: IdArg, workspace: WorkspaceOpt = Path(".")) -> None:
        """One proposal in full: relations, evidence triples with their chunks, instances it would add."""
        from completion.review import show as show_one

        out, _ = _console()
        print_one(out, show_one(_files(workspace), pid))

    @complete.command("accept")
    def accept(pid: IdArg, workspace: WorkspaceOpt = Path("."),
               name: Annotated[str | None, typer.Option("--name", help="the term's name instead of the "
                                                           "suggested one")] = None,
               domain: Annotated[str | None, typer.Option("--domain", help="the attribute's domain class "
                                                             "instead of the suggested one")] = None) -> None:
        """Accept a proposal (the schema changes on `apply`)."""
        from completion.proposals import display_name
        from completion.review import accept as do_accept

        out, _ = _console()
        p = do_accept(_files(workspace), pid, name=name, domain=domain)
        out.print(f"accepted {p.id}: {display_name(p)}; run `polyrag complete apply {workspace}` to add it",
                  markup=False)

    @complete.command("reject")
    def reject(pid: IdArg, workspace: WorkspaceOpt = Path("."),
               why: Annotated[str | None, typer.Option("--why", help="reason, kept with the decision")] = None
               ) -> None:
        """Reject a proposal; later runs will not propose it again."""
        from completion.review import reject as do_reject

        out, _ = _console()
        p = do_reject(_files(workspace), pid, why=why)
        out.print(f"rejected {p.id} ({p.name}); it will not be proposed again", markup=False)

    @complete.command("apply")
    def apply(workspace: WorkspaceArg) -> None:
        """Add the accepted terms to the schema and their instances to the store; new schema version; reason."""
        from completion.apply import apply_accepted
        from completion.review import CompletionFiles
        from completion.workspace_io import ontology_target

        out, _ = _console()
        session = _session(workspace)
        rep = apply_accepted(CompletionFiles(session.ws), ontology_target(session))
        out.print(f"schema version {rep.version.number}: {', '.join(rep.proposals)} applied "
                  f"({rep.schema_statements} schema statements, {rep.instance_statements} instance statements"
                  f"{f', {rep.skipped_instances} not applicable to the domain' if rep.skipped_instances else ''}); "
                  f"reasoning re-run ({rep.target}). Diff: polyrag complete history {workspace} --diff "
                  f"{rep.version.number}", markup=False)

    @complete.command("history")
    def history(workspace: WorkspaceArg,
                diff: Annotated[int | None, typer.Option("--diff", help="print this version's diff")] = None
                ) -> None:
        """Schema versions written by `apply`, or one version's diff."""
        from completion.versions import SchemaHistory

        out, _ = _console()
        hist = SchemaHistory(_files(workspace).history)
        if diff is not None:
            text = hist.diff(diff)
            if not text:
                from completion.errors import ReviewError

                raise ReviewError(f"no schema version {diff} (versions: "
                                  f"{', '.join(str(v.number) for v in hist.versions()) or 'none yet'})")
            out.print(text, highlight=False, markup=False)
            return
        for v in hist.versions():
            out.print(f"v{v.number:04d}  {v.created}  +{v.added} -{v.removed} schema lines, {v.instances} "
                      f"instance statements  ({', '.join(v.proposals)})", markup=False)

    @complete.command("plot")
    def plot(workspace: WorkspaceArg,
             out_path: Annotated[Path | None, typer.Option("--out", help="PNG file (default "
                                                              "WS/completion/completion.png)")] = None) -> None:
        """Figure-2-like picture of the last run: both layers' phrases, the high-priority region, medoids."""
        from completion.plot import plot as draw

        out, _ = _console()
        files = _files(workspace)
        path = draw(files.plot, out_path or files.root / "completion.png")
        out.print(f"wrote {path}", markup=False)

    _register_condense(app)

    @bench.command("completion")
    def bench_completion(data: Annotated[Path, typer.Option(help="PolyU data directory")] = Path("../shared/data"),
                         out_dir: Annotated[Path, typer.Option("--out", help="report directory")] = Path("reports"),
                         workspace: Annotated[Path | None, typer.Option(
                             help="a workspace where polyu_onto.ttl and poly_kg.json were already imported "
                                  "(`polyrag ontology import`, `polyrag kg import --on-error skip`): a copy of it "
                                  "is used instead of importing them again")] = None
                         ) -> None:
        """Hide-and-recover of three PolyU attributes in an imported workspace, run time, and condensation."""
        from benchmarks import completion as bench_mod
        from pyramid.progress import RichProgress

        out, err = _console()
        with RichProgress(err) as progress:
            bench_mod.run(data, out_dir, progress=progress, workspace=workspace)
        out.print((out_dir / "completion.md").read_text(encoding="utf-8"), markup=False)


def _kg_group(app: typer.Typer) -> typer.Typer:
    from pyramid.commands import command_group

    return command_group(app, "kg", "The knowledge-graph layer.")


def _register_condense(app: typer.Typer) -> None:
    @_kg_group(app).command("condense")
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

        out, err = _console()
        session = _session(workspace)
        if undo:
            n = undo_condensation(session)
            out.print(f"condensation undone: {n} merged triples restored, canonical names reset", markup=False)
            return
        from completion.condense_ws import require_kg

        require_kg(session)
        mode = mode or session.settings.completion.condense_mode
        if mode not in ("cluster", "llm"):
            raise CompletionError(f"--mode {mode!r}: choose cluster or llm")
        view = _anchors(session, err)
        qs = []
        if questions is not None:
            from pyramid.errors import InputError

            try:
                qs = [q.strip() for q in questions.read_text(encoding="utf-8").splitlines() if q.strip()]
            except OSError as e:
                raise InputError(f"cannot read questions ({e})", path=questions) from None
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


def _anchors(session, err):
    """The ontology view for anchors; without an ontology layer, condensation runs without anchors."""
    from completion.errors import CompletionError
    from completion.types import OntologyView
    from completion.workspace_io import ontology_target

    try:
        return ontology_target(session).view()
    except CompletionError as e:
        err.print(f"no ontology anchors ({e}); relations are grouped by similarity only", markup=False)
        return OntologyView((), ())
