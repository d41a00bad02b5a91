"""`polyrag complete run|show|accept|reject|apply|undo|history|plot`: the curator's commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from commands.common import WorkspaceArg, e, err, open_session, out

app = typer.Typer(help="Ontology completion: propose what the KG knows and the ontology lacks; a curator accepts "
                       "or rejects; apply extends the schema.", no_args_is_help=True)
IdArg = Annotated[str, typer.Argument(help="proposal id, e.g. P0003")]


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="complete")


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
        table.add_row(str(p.rank), e(p.id), p.status, e(display_name(p)) + flag, str(p.triples), str(subjects),
                      f"{p.score:.1f}", e(p.medoid[:50]))
    out.print(table)


def print_one(out, p) -> None:
    from completion.proposals import display_name

    out.print(f"[bold]{e(p.id)}[/] ({p.status}) {p.kind}: {e(display_name(p))}  label '{e(p.label)}'",
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
    for ev in p.evidence:
        src = f"  [chunk {ev.chunk_id}, document {ev.doc_id}]" if ev.chunk_id or ev.doc_id else ""
        say(f"  {ev.triple_id}: ({ev.subject}, {ev.relation}, {ev.object}){src}")
    say(f"would add {p.instances} instance statements, e.g.:")
    for s in p.instance_sample:
        say(f"  {s.subject_iri or s.subject} —{p.name}→ {s.object_iri or s.object}")
    if p.why:
        say(f"rejected because: {p.why}")



@app.command("run")
def run(workspace: WorkspaceArg,
        k: Annotated[int | None, typer.Option("-k", min=0, help="clusters (default: completion.k, 0 = by "
                                                           "silhouette)")] = None,
        top: Annotated[int, typer.Option(min=1, help="rows of the ranked table")] = 25) -> None:
    """Compare the KG with the ontology and write ranked proposals (WS/completion/proposals.yaml)."""
    from completion.review import CompletionFiles
    from completion.service import phrase_embedder, run_in_workspace
    from completion.workspace_io import kg_triples, ontology_target
    from pyramid.progress import RichProgress

    session = open_session(workspace)
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
              f"suppressed as already rejected or accepted. Details: polyrag complete show {workspace} ID",
              markup=False)

@app.command("show")
def show(workspace: WorkspaceArg, pid: IdArg) -> None:
    """One proposal in full: relations, evidence triples with their chunks, instances it would add."""
    from completion.review import show as show_one

    print_one(out, show_one(_files(workspace), pid))

@app.command("accept")
def accept(workspace: WorkspaceArg, pid: IdArg,
           name: Annotated[str | None, typer.Option("--name", help="the term's name instead of the "
                                                       "suggested one")] = None,
           domain: Annotated[str | None, typer.Option("--domain", help="the attribute's domain class "
                                                         "instead of the suggested one")] = None,
           label: Annotated[str | None, typer.Option("--label", help="the term's label (default: from the "
                                                        "name when renamed)")] = None,
           why: Annotated[str | None, typer.Option("--why", help="reason, written into the RDF on apply")] = None,
           by: Annotated[str | None, typer.Option("--by", help="curator's name (default: the login name)")] = None
           ) -> None:
    """Accept a proposal (the schema changes on `apply`)."""
    from completion.proposals import display_name
    from completion.review import accept as do_accept

    p = do_accept(_files(workspace), pid, name=name, domain=domain, label=label, why=why, by=by)
    out.print(f"accepted {p.id}: {display_name(p)}; run `polyrag complete apply {workspace}` to add it",
              markup=False)

@app.command("reject")
def reject(workspace: WorkspaceArg, pid: IdArg,
           why: Annotated[str | None, typer.Option("--why", help="reason, kept with the decision")] = None,
           by: Annotated[str | None, typer.Option("--by", help="curator's name (default: the login name)")] = None
           ) -> None:
    """Reject a proposal; later runs will not propose it again."""
    from completion.review import reject as do_reject

    p = do_reject(_files(workspace), pid, why=why, by=by)
    out.print(f"rejected {p.id} ({p.name}); it will not be proposed again", markup=False)

@app.command("apply")
def apply(workspace: WorkspaceArg) -> None:
    """Add the accepted terms to the schema and their instances to the store; new schema version; reason."""
    from completion.apply import apply_accepted
    from completion.review import CompletionFiles
    from completion.workspace_io import ontology_target

    session = open_session(workspace)
    rep = apply_accepted(CompletionFiles(session.ws), ontology_target(session),
                         dl_check=session.settings.completion.dl_check)
    out.print(f"schema version {rep.version.number}: {', '.join(rep.proposals)} applied "
              f"({rep.schema_statements} schema statements, {rep.instance_statements} instance statements"
              f"{f', {rep.skipped_instances} not applicable to the domain' if rep.skipped_instances else ''}); "
              f"reasoning re-run ({rep.target}). Diff: polyrag complete history {workspace} --diff "
              f"{rep.version.number}", markup=False)
    out.print(rep.dl_check, markup=False)

@app.command("undo")
def undo(workspace: WorkspaceArg) -> None:
    """Undo the last apply: the schema and the instances as they were before it; its proposals are
    accepted again."""
    from completion.apply import undo_last_apply
    from completion.review import CompletionFiles
    from completion.workspace_io import ontology_target

    session = open_session(workspace)
    v = undo_last_apply(CompletionFiles(session.ws), ontology_target(session))
    out.print(f"undid schema version {v.number} ({', '.join(v.proposals)}): the schema and instances are as "
              f"before it; its proposals are accepted again", markup=False)


@app.command("history")
def history(workspace: WorkspaceArg,
            diff: Annotated[int | None, typer.Option("--diff", help="print this version's diff")] = None
            ) -> None:
    """Schema versions written by `apply`, or one version's diff."""
    from completion.versions import SchemaHistory

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

@app.command("plot")
def plot(workspace: WorkspaceArg,
         out_path: Annotated[Path | None, typer.Option("--out", help="PNG file (default "
                                                          "WS/completion/completion.png)")] = None) -> None:
    """Figure-2-like picture of the last run: both layers' phrases, the high-priority region, medoids."""
    from completion.plot import plot as draw

    files = _files(workspace)
    path = draw(files.plot, out_path or files.root / "completion.png")
    out.print(f"wrote {path}", markup=False)

