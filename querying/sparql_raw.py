"""Query_onto, raw mode: the model writes SPARQL from the schema; we check it and allow one repair.

    prompt (classes, properties with domain → range, prefixes, the entities linked in the question)
      → {"sparql": "..."} → parse (rdflib) → every IRI checked against the vocabulary and the
      label index → readable errors ("property ex:work_for does not exist; nearest: works_for")
      → run: no rows is one more error → at most one repair call with those errors → the valid
      query and its rows, or the errors

The caller runs the query through the safety layer like any other. Missing PREFIX declarations
(the most common slip of small models) are added before parsing rather than spent on a repair.
Each draft meets the safety check (pyramid.ontology.safety) before rdflib parses it: a refusal (an
update, SERVICE, FROM) is one more error for the repair, and a repair that is refused again raises
the refusal (QueryRefused), so the question fails as a layer error rather than as an answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pyramid.errors import InputError, QueryRefused
from pyramid.llm import LLM
from pyramid.ontology.labels import LabelIndex
from pyramid.ontology.safety import check_query
from pyramid.prompts import load_prompt
from pyramid.vocab import Vocab, local_name

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"
STANDARD = {"rdf": RDF, "rdfs": RDFS, "owl": OWL, "xsd": XSD}
# Vocabulary terms a query may use beyond the ontology's own (labels, typing, the class tree).
ALLOWED_PREDICATES = {RDF + "type", RDFS + "label", RDFS + "comment", RDFS + "subClassOf",
                      RDFS + "subPropertyOf", RDFS + "domain", RDFS + "range"}
MAX_REPAIRS = 1
RAW_SCHEMA = {"type": "object", "properties": {"sparql": {"type": "string", "minLength": 10, "maxLength": 900}},
              "required": ["sparql"], "additionalProperties": False}
Select = Callable[[str], list[dict[str, str]]]


@dataclass
class RawResult:
    query: str | None                      # the checked query, None when even the repair failed
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    rows: list[dict[str, str]] | None = None   # the checked query's rows (it ran to be checked)


def prefixes_of(vocab: Vocab, known: dict[str, str] | None = None) -> dict[str, str]:
    """rdf/rdfs/owl/xsd, the `known` prefixes (the layer's: those of the schema file), and one more
    per namespace of the vocabulary that none of them covers ('ex', 'ex2', …)."""
    out = {**STANDARD, **{p: ns for p, ns in (known or {}).items() if p}}
    for t in vocab.terms.values():
        ns = t.iri[: len(t.iri) - len(local_name(t.iri))]
        if ns not in out.values():
            name, n = "ex", 2
            while name in out:
                name, n = f"ex{n}", n + 1
            out[name] = ns
    return out


def schema_text(vocab: Vocab, prefixes: dict[str, str]) -> str:
    """The schema as the prompt shows it: classes, then properties as 'p: Domain → Range'."""
    def short(iri: str) -> str:
        for p, ns in prefixes.items():
            if iri.startswith(ns) and re.fullmatch(r"[A-Za-z_][\w\-]*", iri[len(ns):]):
                return f"{p}:{iri[len(ns):]}"
        return f"<{iri}>"

    lines = ["Classes: " + ", ".join(short(c.iri) for c in vocab.classes)]
    for p in vocab.properties:
        dom = " or ".join(short(d) for d in p.domains) or "anything"
        rng = " or ".join(short(r) for r in p.ranges) or ("a value" if p.kind == "datatype" else "anything")
        lines.append(f"{short(p.iri)}: {dom} → {rng}")
    return "\n".join(lines)


def _prefix_block(prefixes: dict[str, str]) -> str:
    return "\n".join(f"PREFIX {p}: <{ns}>" for p, ns in prefixes.items())


def add_missing_prefixes(query: str, prefixes: dict[str, str], main: str = "") -> str:
    """Declare the prefixes the query uses but does not declare. Small models invent prefix names
    ('ex:'); one we do not know is read as the ontology's main namespace `main`, and the IRI check then
    says whether the term exists there."""
    from pyramid.ontology.safety import tokens

    declared = {m.group(1) for m in re.finditer(r"(?i)PREFIX\s+([\w\-]*):", query)}
    used = {tok.split(":", 1)[0] for kind, tok, _ in tokens(query) if kind == "pname"}
    missing = {p: prefixes.get(p, main) for p in sorted(used - declared) if p in prefixes or main}
    return (_prefix_block(missing) + "\n" + query) if missing else query


# ------------------------------------------------------------------ checking a query
def _terms(node: Any, preds: set[str], types: set[str], others: set[str], in_pred: bool = False) -> None:
    """Collect IRIs from rdflib's algebra: predicates (paths included), rdf:type objects, the rest."""
    from rdflib.paths import Path
    from rdflib.plugins.sparql.parserutils import CompValue
    from rdflib.term import URIRef

    if isinstance(node, URIRef):
        (preds if in_pred else others).add(str(node))
    elif isinstance(node, Path):
        for attr in ("args", "arg", "path"):
            sub = getattr(node, attr, None)
            if sub is not None:
                _terms(sub, preds, types, others, True)
    elif isinstance(node, tuple) and len(node) == 3 and not isinstance(node, CompValue):
        s, p, o = node
        _terms(s, preds, types, others)
        _terms(p, preds, types, others, True)
        if str(p) == RDF + "type" and isinstance(o, URIRef):
            types.add(str(o))
        else:
            _terms(o, preds, types, others)
    elif isinstance(node, dict):
        for v in node.values():
            _terms(v, preds, types, others, in_pred)
    elif isinstance(node, (list, set, tuple)):
        for v in node:
            _terms(v, preds, types, others, in_pred)


@dataclass
class QueryTerms:
    """The IRIs of a parsed query by position: predicates (paths included), classes (objects of
    rdf:type) and the rest (subjects, objects, values)."""

    form: str                                   # "SELECT", "ASK", "CONSTRUCT", "DESCRIBE"
    predicates: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)
    triples: list[tuple[str, str, str]] = field(default_factory=list)  # ?var or IRI, IRI predicates only
    selected: list[str] = field(default_factory=list)                  # the projected variables' names
    bound: set[str] = field(default_factory=set)                       # every variable the pattern binds


MAX_TERM_CHARS = 10_000


def query_terms(query: str, prefixes: dict[str, str] | None = None) -> QueryTerms:
    """Parse `query` (rdflib; `prefixes` count as declared) and sort its IRIs; raises ValueError with a
    readable message (line and column when known) for a query that does not parse, or one longer than
    MAX_TERM_CHARS: rdflib's parse runs in the caller's process, outside any query timeout, at up to
    ~50 µs a character (3.5 s for a 98 kB VALUES block), and a typo check is for queries people write."""
    from rdflib.plugins.sparql import prepareQuery

    if len(query) > MAX_TERM_CHARS:
        raise ValueError(f"the query is longer than {MAX_TERM_CHARS:,} characters: its terms are not checked")
    try:
        parsed = prepareQuery(query, initNs=prefixes or {})
    except Exception as err:  # noqa: BLE001 — pyparsing's ParseException and rdflib's own errors alike
        where = f" (line {err.lineno}, column {err.col})" if hasattr(err, "lineno") else ""
        raise ValueError(f"syntax error{where}: {str(err).split('(at char')[0].strip()}") from None
    out = QueryTerms(parsed.algebra.name.replace("Query", "").upper())
    _terms(parsed.algebra, out.predicates, out.classes, out.others)
    _patterns(parsed.algebra.get("p"), out)
    out.selected = [str(v) for v in parsed.algebra.get("PV") or []]
    return out


def _patterns(node: Any, out: QueryTerms) -> None:
    """The triple patterns with a plain IRI predicate, and every variable a pattern binds (BIND and
    aggregate aliases included)."""
    from rdflib.plugins.sparql.parserutils import CompValue
    from rdflib.term import URIRef, Variable

    if isinstance(node, Variable):
        out.bound.add(str(node))
    elif isinstance(node, tuple) and len(node) == 3 and not isinstance(node, CompValue):
        if isinstance(node[1], URIRef):
            out.triples.append(tuple(f"?{t}" if isinstance(t, Variable) else str(t) for t in node))  # type: ignore[arg-type]
        for t in node:
            _patterns(t, out)
    elif isinstance(node, dict):
        for k, v in node.items():
            if k not in ("PV", "_vars"):  # what is projected, not what binds it
                _patterns(v, out)
    elif isinstance(node, (list, set, tuple)):
        for v in node:
            _patterns(v, out)


def fit_problems(terms: QueryTerms, vocab: Vocab) -> list[str]:
    """What the schema rules out: a property used on a variable typed with a class its domain (or,
    as object, its range) excludes, a datatype property whose object is a typed thing, and a selected
    variable that nothing binds."""
    types: dict[str, set[str]] = {}
    for s_, p, o in terms.triples:
        if p == RDF + "type" and s_.startswith("?"):
            types.setdefault(s_, set()).add(o)
    problems = []
    for s_, p, o in terms.triples:
        t = vocab.get(p)
        if t is None or t.kind == "class":
            continue
        for var, declared, end in ((s_, t.domains, "subject"), (o, t.ranges, "object")):
            held = {c for c in types.get(var, ()) if vocab.get(c) is not None}
            if declared and held and all(vocab.fit(c, declared) == 0 for c in held) and \
                    not (end == "object" and t.kind == "datatype"):
                want = " or ".join(local_name(d) for d in declared)
                problems.append(f"{local_name(p)} takes a {want} as its {end}, but {var} is a "
                                f"{' and '.join(sorted(local_name(c) for c in held))}")
        if t.kind == "datatype" and types.get(o):
            problems.append(f"{local_name(p)} holds a value, but {o} is typed as a class")
    problems += [f"?{v} is selected but nothing in the WHERE clause binds it" for v in terms.selected
                 if v not in terms.bound]
    return problems


def schema_problems(terms: QueryTerms, vocab: Vocab, *, namespaces: set[str] | None = None,
                    known: Callable[[str, str], bool] = lambda iri, kind: False) -> list[str]:
    """'property X does not exist; nearest: …' / 'class X does not exist; nearest: …' for every
    predicate and class of the query that is not a schema term of that kind. With `namespaces`, only
    IRIs in those namespaces are checked (a query may use other vocabularies). `known(iri, kind)` can
    vouch for a term the schema lacks (e.g. the data uses it); kind is "property" or "class"."""
    def checked(iri: str) -> bool:
        return namespaces is None or (iri[: len(iri) - len(local_name(iri))] in namespaces
                                      and not iri.startswith((RDF, RDFS, OWL, XSD)))

    problems: list[str] = []
    for iri in sorted(terms.predicates):
        t = vocab.get(iri)
        if iri not in ALLOWED_PREDICATES and (t is None or t.kind == "class") and checked(iri) \
                and not known(iri, "property"):
            near = vocab.nearest(local_name(iri), ("object", "datatype"))
            problems.append(f"property {local_name(iri)} does not exist; nearest: {', '.join(near)}")
    for iri in sorted(terms.classes):
        t = vocab.get(iri)
        if (t is None or t.kind != "class") and checked(iri) and not known(iri, "class"):
            near = vocab.nearest(local_name(iri), "class")
            problems.append(f"class {local_name(iri)} does not exist; nearest: {', '.join(near)}")
    return problems


def vocab_namespaces(vocab: Vocab) -> set[str]:
    return {t.iri[: len(t.iri) - len(local_name(t.iri))] for t in vocab.terms.values()}


def check_raw(query: str, vocab: Vocab, index: LabelIndex, exists: Callable[[str], bool]) -> list[str]:
    """Readable problems of `query`: syntax, form, and every IRI that is not a schema term or a
    known instance (with the nearest names)."""
    try:
        terms = query_terms(query)
    except ValueError as err:
        return [str(err)]
    if terms.form != "SELECT":
        return [f"write a SELECT query (got {terms.form})"]
    problems = schema_problems(terms, vocab) + fit_problems(terms, vocab)
    for iri in sorted(terms.others - terms.predicates - terms.classes):
        if vocab.get(iri) is not None or iri.startswith((RDF, RDFS, OWL, XSD)):
            continue
        if not index.classes_of(iri) and not exists(iri):
            near = [lk.iri for lk in index.link(local_name(iri), limit=3)]
            problems.append(f"instance <{iri}> does not exist" +
                            (f"; nearest: {', '.join(f'<{n}>' for n in near)}" if near else ""))
    return problems


# ------------------------------------------------------------------ the model writes, we check
def write_query(llm: LLM, question: str, vocab: Vocab, index: LabelIndex, select: Select, *,
                known_prefixes: dict[str, str] | None = None, namespace: str = "") -> RawResult:
    prefixes = prefixes_of(vocab, known_prefixes)
    hints = _entity_hints(question, index, vocab)

    def exists(iri: str) -> bool:
        return bool(select(f"SELECT ?p WHERE {{ {{ <{iri}> ?p ?o }} UNION {{ ?s ?p <{iri}> }} }} LIMIT 1"))

    result = RawResult(None)
    prompt = load_prompt("querying", "ontology_raw").render(
        prefixes=_prefix_block(prefixes), schema=schema_text(vocab, prefixes), entities=hints, question=question)
    refused: QueryRefused | None = None
    for attempt in range(1 + MAX_REPAIRS):
        reply = llm.complete(prompt, RAW_SCHEMA, max_tokens=300).parsed
        draft = add_missing_prefixes(reply["sparql"].strip(), prefixes, namespace)
        result.attempts, result.drafts = attempt + 1, [*result.drafts, draft]
        try:
            check_query(draft, prefixes)
            refused, problems = None, check_raw(draft, vocab, index, exists)
        except QueryRefused as err:
            refused, problems = err, [str(err)]
        except InputError as err:  # too long, nested too deep, no query form
            refused, problems = None, [str(err)]
        if not problems:
            rows, problems = _ran(draft, select)
            if not problems or attempt == MAX_REPAIRS:  # a query that runs is kept, rows or none
                result.query, result.rows, result.errors = draft, rows, []
                return result
        result.errors = problems
        prompt = load_prompt("querying", "ontology_raw_repair").render(
            prefixes=_prefix_block(prefixes), schema=schema_text(vocab, prefixes), question=question,
            query=draft, errors="\n".join(f"- {p}" for p in problems))
    if refused is not None:
        raise refused
    return result


def _ran(query: str, select: Select) -> tuple[list[dict[str, str]], list[str]]:
    """Run a checked query: (its rows, no problems), or (no rows, the empty result as a problem to
    repair). A query that fails when run (a timeout) is the layer failing, not a draft to repair: raised."""
    rows = select(query)
    return rows, [] if rows else ["the query ran and found nothing: check each property's direction "
                                  "(domain → range) and the entities' IRIs"]


def _entity_hints(question: str, index: LabelIndex, vocab: Vocab) -> str:
    lines = []
    for m in index.mentions(question):
        classes = ", ".join(sorted({vocab.get(c).name for c in m.classes if vocab.get(c)})) or "?"
        lines.append(f'"{m.text}" = ' + " or ".join(f"<{i}>" for i in m.iris[:3]) + f" ({classes})")
    return "\n".join(lines) or "(none recognised)"


def iris_in(query: str) -> Iterable[str]:
    """Full IRIs written in <…> in a query (for tests and messages)."""
    return re.findall(r"<([^<>\s]+)>", query)
