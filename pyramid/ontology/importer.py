"""Importing existing instance data: split schema from instances, reconcile case-mismatched IRIs, report.

`analyse(parsed, schema) -> Prepared` does the work in memory, before anything is written, over the
file's triples as N-Triples lines (rdfio.NTriples: LUBM(1)'s 154k triples in 0.3 s, where one
pyoxigraph object per triple took 0.8 s); `Prepared.instances` is that text, which the store
bulk-loads in Rust, while `describe(prepared, schema)` counts the report:

* Schema statements in the file (class/property declarations, subClassOf, domain, range, restrictions
  and the lists they use) are separated from the instances. The layer decides what to do with them
  (OntologyLayer.import_instances: they become the workspace schema when there is none yet, and are
  otherwise listed as ignored, so an instance file cannot quietly rewrite the curated schema — PolyU's
  file says DEPARTMENT ⊑ FACULTY, which would make every department a faculty).
* Case-mismatched IRIs: IRIs equal up to letter case. When exactly one of them carries data and the
  others carry only rdf:type / rdfs:label, they are one entity written two ways (PolyU types
  base:AAE1001 as COURSE while its facts sit on base:aae1001), so their statements are moved onto the
  data-bearing IRI. Groups with data on more than one spelling are reported and left alone.
* Noise values are reported, not dropped: empty strings, single characters, punctuation-only
  values. The imported file is the ground truth its users query; cleaning it is their decision.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox

from pyramid.ontology.rdfio import OWL, RDF, RDFS, NTriples, RdfFile, local_name, nt_literal
from pyramid.ontology.schema import _CLASS_TYPES, _PROPERTY_TYPES, Schema

_TYPE, _LABEL = RDF + "type", RDFS + "label"
_SCHEMA_TYPES = _CLASS_TYPES | _PROPERTY_TYPES | {OWL + "Restriction", OWL + "Ontology", RDFS + "Datatype",
                                                  OWL + "AllDisjointClasses"}
_SCHEMA_PREDICATES = {RDFS + "subClassOf", RDFS + "subPropertyOf", RDFS + "domain", RDFS + "range",
                      OWL + "equivalentClass", OWL + "equivalentProperty", OWL + "inverseOf",
                      OWL + "intersectionOf", OWL + "unionOf", OWL + "onProperty", OWL + "someValuesFrom",
                      OWL + "allValuesFrom", OWL + "hasValue", OWL + "disjointWith", OWL + "imports"}
_PUNCTUATION = re.compile(r"^[\W_]+$")
EXAMPLES = 5


def noise_kind(value: str) -> str | None:
    """Why a literal looks like extraction noise, or None."""
    text = value.strip()
    if not text:
        return "empty"
    if _PUNCTUATION.match(text):
        return "punctuation"
    if len(text) == 1:
        return "single character"
    return None


@dataclass
class InstanceImportReport:
    source: str
    graph: str = ""
    triples_in_file: int = 0
    instance_triples: int = 0
    schema_statements: int = 0
    schema_action: str = ""                     # "loaded as the workspace schema" / "ignored: ..."
    schema_ignored: list[str] = field(default_factory=list)
    classes: dict[str, int] = field(default_factory=dict)        # class IRI -> typed subjects
    properties: dict[str, int] = field(default_factory=dict)     # property IRI -> statements
    not_in_schema: list[str] = field(default_factory=list)       # classes/properties the schema lacks
    subjects: int = 0
    untyped_subjects: int = 0
    untyped_examples: list[str] = field(default_factory=list)
    noise: dict[str, dict[str, int]] = field(default_factory=dict)   # property -> kind -> count
    noise_examples: dict[str, list[str]] = field(default_factory=dict)
    case_groups: int = 0
    case_reconciled: int = 0
    case_examples: list[str] = field(default_factory=list)
    case_unresolved: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def render(self, short=local_name) -> str:
        lines = [f"imported {self.source} into graph {self.graph} in {self.seconds:.2f} s: "
                 f"{self.instance_triples:,} instance triples ({self.triples_in_file:,} in the file, "
                 f"{self.schema_statements} schema statements: {self.schema_action})"]
        for s in self.schema_ignored[:EXAMPLES]:
            lines.append(f"  ignored schema statement: {s}")
        lines.append("classes: " + (", ".join(f"{short(c)} {n:,}" for c, n in self.classes.items()) or "none"))
        lines.append("properties: " + (", ".join(f"{short(p)} {n:,}" for p, n in self.properties.items()) or "none"))
        if self.not_in_schema:
            lines.append("not in the workspace schema: " + ", ".join(map(short, self.not_in_schema)))
        lines.append(f"subjects: {self.subjects:,}; untyped: {self.untyped_subjects:,}"
                     + (f" (e.g. {', '.join(map(short, self.untyped_examples))})" if self.untyped_examples else ""))
        lines.append(f"case-mismatched IRI groups: {self.case_groups:,}; reconciled: {self.case_reconciled:,}"
                     + (f" (e.g. {'; '.join(self.case_examples[:3])})" if self.case_examples else ""))
        for u in self.case_unresolved[:EXAMPLES]:
            lines.append(f"  left alone (data on several spellings): {u}")
        total = sum(sum(k.values()) for k in self.noise.values())
        lines.append(f"values that look like noise: {total:,} (kept)")
        for prop, kinds in sorted(self.noise.items(), key=lambda kv: -sum(kv[1].values())):
            ex = ", ".join(repr(v) for v in self.noise_examples.get(prop, []))
            lines.append(f"  {short(prop)}: " + ", ".join(f"{n:,} {k}" for k, n in kinds.items())
                         + (f" (e.g. {ex})" if ex else ""))
        return "\n".join(lines)


@dataclass
class Prepared:
    instances: NTriples
    schema_triples: list[ox.Triple]
    report: InstanceImportReport  # counted by `describe`
    rows: list[list[str]]  # the instances as (s, p, o) terms, for `describe`


# the vocabularies above as N-Triples terms: the analysis reads lines of text (rdfio.NTriples)
_T_TYPE, _T_LABEL = f"<{_TYPE}>", f"<{_LABEL}>"
_T_SCHEMA_TYPES = {f"<{c}>" for c in _SCHEMA_TYPES}
_T_SCHEMA_PREDICATES = {f"<{p}>" for p in _SCHEMA_PREDICATES}
_TEXT_SUFFIXES = ("", "^^<http://www.w3.org/2001/XMLSchema#string>")  # and any "@lang" (rdf:langString)


def _iri(term: str) -> str:
    return term[1:-1]


def _split(triples: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """(schema statements, instance statements) of a file."""
    tbox: set = set()
    for s, p, o in triples:
        if (p == _T_TYPE and o in _T_SCHEMA_TYPES) or p in _T_SCHEMA_PREDICATES:
            tbox.add(s)
    if not tbox:
        return [], triples
    # blank nodes hanging off schema statements (restrictions, rdf lists) belong to the schema too
    by_subject: dict = defaultdict(list)
    for t in triples:
        by_subject[t[0]].append(t)
    todo = [o for s in list(tbox) for _, _, o in by_subject[s] if o.startswith("_:")]
    while todo:
        node = todo.pop()
        if node not in tbox:
            tbox.add(node)
            todo += [o for _, _, o in by_subject[node] if o.startswith("_:")]
    schema = [t for t in triples if t[0] in tbox]
    return schema, [t for t in triples if t[0] not in tbox]


def _reconcile(triples: list[list[str]], report: InstanceImportReport, short) -> list[list[str]]:
    iris = [s for s in dict.fromkeys([t[0] for t in triples]) if s[0] == "<"]  # in the order of the file
    lowered = [iri.lower() for iri in iris]
    if len(set(lowered)) == len(lowered):  # no two spellings of one IRI (the common case)
        return triples
    groups: dict[str, list[str]] = defaultdict(list)
    for low, iri in zip(lowered, iris):
        groups[low].append(iri)
    shared = {k: m for k, m in groups.items() if len(m) > 1}
    members = {m for ms in shared.values() for m in ms}
    data_preds: dict[str, set[str]] = defaultdict(set)
    for s, p, _ in triples:
        if s in members:
            data_preds[s].add(p)
    rename: dict[str, str] = {}
    for group in shared.values():
        report.case_groups += 1
        carriers = [m for m in group if data_preds[m] - {_T_TYPE, _T_LABEL}]
        if len(carriers) == 1:
            for m in group:
                if m != carriers[0]:
                    rename[m] = carriers[0]
                    if len(report.case_examples) < EXAMPLES:
                        report.case_examples.append(f"{short(_iri(m))} → {short(_iri(carriers[0]))}")
            report.case_reconciled += 1
        else:
            report.case_unresolved.append(", ".join(sorted(short(_iri(m)) for m in group)))
    fixed = ([rename.get(s, s), p, rename.get(o, o)] for s, p, o in triples)
    return [t.split(" ", 2) for t in dict.fromkeys(" ".join(t) for t in fixed)]


def analyse(parsed: RdfFile, schema: Schema) -> Prepared:
    """Split and reconcile a parsed file (read with `read_rdf(..., as_text=True)`, or as quads); the
    counts are `describe`'s."""
    short = Schema((), prefixes={**parsed.prefixes, **schema.prefixes}).short
    text = parsed.ntriples if parsed.ntriples is not None else NTriples.from_triples(parsed.quads)
    report = InstanceImportReport(source=str(parsed.path), triples_in_file=len(text))
    unique = list(dict.fromkeys(text.lines))  # a triple written twice is one triple
    split = [line.split(" ", 2) for line in unique]
    schema_triples, instances = _split(split)
    report.schema_statements = len(schema_triples)
    reconciled = _reconcile(instances, report, short)
    # the file's own lines when nothing was taken out or renamed (the common case for large files)
    text = NTriples(unique) if reconciled is split else NTriples([" ".join(t) for t in reconciled])
    report.instance_triples = len(reconciled)
    return Prepared(text, NTriples([" ".join(t) for t in schema_triples]).triples(), report, reconciled)


def describe(prepared: Prepared, schema: Schema) -> InstanceImportReport:
    """Fill the report's counts (classes, properties, subjects, noise, what the schema lacks): apart
    from `analyse` so that they can be made while the store writes the instances."""
    report, instances = prepared.report, prepared.rows
    subjects = {t[0] for t in instances}
    types = [(s, o) for s, p, o in instances if p == _T_TYPE]
    typed = {s for s, _ in types}
    classes = Counter([o for _, o in types])
    props = Counter([p for _, p, _ in instances if p != _T_TYPE])
    noise: dict[str, Counter] = defaultdict(Counter)
    for p, o in [(p, o) for _, p, o in instances if o[0] == '"' and p != _T_TYPE]:
        value, suffix = nt_literal(o)
        if suffix in _TEXT_SUFFIXES or suffix[0] == "@":  # 1 is a fine integer
            kind = noise_kind(value)
            if kind:
                noise[p][kind] += 1
                examples = report.noise_examples.setdefault(_iri(p), [])
                if len(examples) < EXAMPLES and value not in examples:
                    examples.append(value)
    report.classes = {_iri(c) if c[0] == "<" else c: n for c, n in classes.most_common()}
    report.properties = {_iri(p): n for p, n in props.most_common()}
    report.subjects = len(subjects)
    untyped = sorted(_iri(s) for s in subjects - typed if s[0] == "<")
    report.untyped_subjects = len(untyped)
    report.untyped_examples = untyped[:EXAMPLES]
    report.noise = {_iri(p): dict(k) for p, k in noise.items()}
    if schema.classes or schema.properties:
        known = set(schema.classes) | set(schema.properties) | {_LABEL, RDFS + "comment", OWL + "sameAs"}
        report.not_in_schema = sorted(i for i in [*report.classes, *report.properties] if i not in known)
    return report
