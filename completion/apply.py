"""`polyrag complete apply`: accepted proposals → schema statements + instance statements → target.

Order, so that a failure changes nothing: read and validate the proposals file, build every
statement, check names against the ontology; then the target applies all of it in one transaction
and re-runs reasoning; only then are the schema version and the proposals' `applied` status written.
"""

from __future__ import annotations

from dataclasses import dataclass

from completion.errors import ReviewError
from completion.names import local_name, snake_name
from completion.proposals import Assertion, Proposal
from completion.review import CompletionFiles, State, now, remember
from completion.target import OWL, RDF_TYPE, RDFS, XSD, OntologyTarget, Statement
from completion.types import OntologyView
from completion.versions import SchemaHistory, Version
from pyramid.errors import Hint


@dataclass
class ApplyReport:
    version: Version
    proposals: list[str]
    schema_statements: int
    instance_statements: int
    skipped_instances: int
    target: dict[str, int]
    dl_check: str = ""      # what the DL reasoner said, or why it did not run


def resolve(name: str, base: str) -> str:
    """A local name in the base namespace, 'xsd:…', or a full IRI → IRI."""
    if name.startswith("xsd:"):
        return XSD + name[4:]
    if name.startswith(("http://", "https://", "urn:")):
        return name
    return base + name


def _terms(view: OntologyView) -> dict[str, str]:
    names = {local_name(c): c for c in view.classes}
    names.update({local_name(p.attribute): p.attribute for p in view.pairs})
    return names


def _attribute(p: Proposal, items: list[Assertion], view: OntologyView,
               classes: set[str]) -> tuple[list[Statement], list[Statement], int]:
    iri = resolve(p.name, view.base)
    domain = resolve(p.domain or "", view.base)
    if domain not in classes:
        raise ReviewError(f"proposal {p.id}: domain {p.domain!r} is not a class of the ontology "
                          f"(classes: {', '.join(sorted(local_name(c) for c in classes))})")
    rng = resolve(p.range or "xsd:string", view.base)
    is_object = not rng.startswith(XSD)
    if is_object and rng not in classes:
        raise ReviewError(f"proposal {p.id}: range {p.range!r} is neither xsd:… nor a class of the ontology")
    kind = OWL + ("ObjectProperty" if is_object else "DatatypeProperty")
    schema = [Statement(iri, RDF_TYPE, kind), Statement(iri, RDFS + "label", p.label, literal=True),
              Statement(iri, RDFS + "domain", domain), Statement(iri, RDFS + "range", rng), *_provenance(iri, p)]
    facts, skipped = [], 0
    for a in items:
        if a.subject_iri is None or a.subject_cls != domain:
            skipped += 1        # the curator moved the domain, or the subject is not an individual
            continue
        if is_object:
            if a.object_iri is None:
                skipped += 1
                continue
            facts.append(Statement(a.subject_iri, iri, a.object_iri))
        else:
            facts.append(Statement(a.subject_iri, iri, a.object, literal=True,
                                   datatype=rng if rng != XSD + "string" else None))
    return schema, facts, skipped


DCTERMS = "http://purl.org/dc/terms/"


def _provenance(iri: str, p: Proposal) -> list[Statement]:
    """Who accepted the term, when and why (Dublin Core terms), and the proposal it came from."""
    out = [Statement(iri, DCTERMS + "source", f"PolyRAG completion proposal {p.id}", literal=True)]
    if p.decided_by:
        out.append(Statement(iri, DCTERMS + "creator", p.decided_by, literal=True))
    if p.decided:
        out.append(Statement(iri, DCTERMS + "created", p.decided, literal=True, datatype=XSD + "dateTime"))
    if p.why:
        out.append(Statement(iri, DCTERMS + "description", p.why, literal=True))
    return out


def _class(p: Proposal, items: list[Assertion], view: OntologyView) -> tuple[list[Statement], list[Statement]]:
    iri = resolve(p.name, view.base)
    schema = [Statement(iri, RDF_TYPE, OWL + "Class"), Statement(iri, RDFS + "label", p.label, literal=True),
              Statement(iri, RDFS + "subClassOf", OWL + "Thing"), *_provenance(iri, p)]
    facts = []
    for a in items:
        ind = view.base + f"{p.name}_{snake_name(a.subject, max_words=8)}"
        facts += [Statement(ind, RDF_TYPE, iri), Statement(ind, RDFS + "label", a.subject, literal=True)]
    return schema, facts


def plan(accepted: list[Proposal], assertions: dict[str, list[Assertion]], view: OntologyView, *,
         workspace: str | None = None):
    """Schema statements, and instance statements per proposal id, for the accepted proposals;
    raises ReviewError on any clash (its hint names `workspace`)."""
    existing = _terms(view)
    classes = set(view.classes)
    seen: dict[str, str] = {}
    for p in accepted:
        if p.name in existing:
            raise ReviewError(f"proposal {p.id}: {p.name!r} already names a term of the ontology "
                              f"({existing[p.name]})", hint=Hint(action="rename_proposal", target=workspace))
        if p.name in seen:
            raise ReviewError(f"proposals {seen[p.name]} and {p.id} are both named {p.name!r}; rename one")
        seen[p.name] = p.id
        if p.kind == "class":
            classes.add(resolve(p.name, view.base))   # an attribute accepted together may use it
    schema: list[Statement] = []
    facts: dict[str, list[Statement]] = {}
    skipped = 0
    for p in sorted(accepted, key=lambda x: x.kind != "class"):
        if p.kind == "class":
            s, f = _class(p, assertions.get(p.id, []), view)
        else:
            s, f, n = _attribute(p, assertions.get(p.id, []), view, classes)
            skipped += n
        schema += s
        facts[p.id] = list(dict.fromkeys(f))
    return schema, facts, skipped


def check_with_reasoner(before: list[str], schema: list[Statement], mode: str) -> str:
    """HermiT on the schema with `schema` added (completion.dl_check); ReviewError when the proposals
    make it inconsistent or a class unsatisfiable. Returns what was checked, in words."""
    from completion.dl_check import ReasonerUnavailable, hermit, introduced
    from completion.target import nt_lines

    if mode == "off":
        return "not checked by a DL reasoner (completion.dl_check = off)"
    try:
        old = hermit(before)
        new = hermit(sorted(set(before) | set(nt_lines(s.triple() for s in schema))))
    except ReasonerUnavailable as err:
        if mode == "require":
            raise ReviewError(f"the extended schema could not be checked: {err} (completion.dl_check = require)") \
                from None
        return f"not checked by a DL reasoner: {err}"
    problems = introduced(old, new)
    if problems:
        raise ReviewError("HermiT refuses the extended schema: " + "; ".join(problems)
                          + " — nothing was applied; reject or change the proposal")
    return f"HermiT: consistent, no class made unsatisfiable ({old.seconds + new.seconds:.1f} s)"


def apply_accepted(files: CompletionFiles, target: OntologyTarget, *, dl_check: str = "auto") -> ApplyReport:
    with files.ws.writing("complete apply"):
        doc = files.load()
        state: State = files.state()
        for p in doc.proposals:          # rejections made by editing the file count too
            remember(state, p)
        accepted = [p for p in doc.proposals if p.status == "accepted"]
        if not accepted:
            counts = {s: sum(1 for p in doc.proposals if p.status == s) for s in ("proposed", "rejected", "applied")}
            raise ReviewError("nothing to apply: no proposal is accepted "
                              f"({counts['proposed']} proposed, {counts['rejected']} rejected, {counts['applied']} "
                              "applied)", hint=Hint(action="accept_proposal", target=str(files.ws.root)))
        view = target.view()
        schema, facts, skipped = plan(accepted, files.load_assertions({p.id for p in accepted}), view,
                                      workspace=str(files.ws.root))
        before = target.schema()
        checked = check_with_reasoner(before, schema, dl_check)   # before anything is written
        outcome = target.apply(schema, facts)          # all or nothing, then reasoning
        after = target.schema()
        instances = sum(len(f) for f in facts.values())
        history = SchemaHistory(files.history)
        version = history.record(before, after, created=now(), proposals=[p.id for p in accepted],
                                 instances=instances)
        for p in accepted:
            p.status, p.version, p.decided = "applied", version.number, now()
        files.save(doc)
        files.save_state(state)
        return ApplyReport(version, [p.id for p in accepted], len(schema), instances, skipped, outcome, checked)


def undo_last_apply(files: CompletionFiles, target: OntologyTarget) -> Version:
    """Put the schema and the instances back as they were before the last apply; its proposals are
    accepted again (apply re-applies them; reject drops them)."""
    with files.ws.writing("complete undo"):
        history = SchemaHistory(files.history)
        versions = history.versions()
        if not versions:
            raise ReviewError("nothing to undo: no apply has been made (polyrag complete history shows none)")
        last = versions[-1]
        target.unapply(history.schema(last.number - 1), list(last.proposals))
        doc = files.load()
        for p in doc.proposals:
            if p.version == last.number:
                p.status, p.version = "accepted", None
        files.save(doc)
        return history.drop_last()


def preview_accepted(files: CompletionFiles, target: OntologyTarget) -> list[str]:
    """The schema statements (N-Triples) an apply would add now; nothing is written."""
    from completion.target import nt_lines

    doc = files.load()
    accepted = [p for p in doc.proposals if p.status == "accepted"]
    if not accepted:
        return []
    schema, _, _ = plan(accepted, files.load_assertions({p.id for p in accepted}), target.view(),
                        workspace=str(files.ws.root))
    return nt_lines(s.triple() for s in schema)
