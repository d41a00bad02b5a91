"""Importing existing instance data: split schema from instances, reconcile case-mismatched IRIs, report.

`analyse(parsed, schema) -> Prepared` does all the work in memory, before anything is written:

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

from pyramid.ontology.rdfio import OWL, RDF, RDFS, RdfFile, local_name
from pyramid.ontology.schema import _CLASS_TYPES, _PROPERTY_TYPES, Schema

_TYPE, _LABEL = RDF + "type", RDFS + "label"
_SCHEMA_TYPES = _CLASS_TYPES | _PROPERTY_TYPES | {OWL + "Restriction", OWL + "Ontology", RDFS + "Datatype",
                                                  OWL + "AllDisjointClasses"}
_SCHEMA_PREDICATES = {RDFS + "subClassOf", RDFS + "subPropertyOf", RDFS + "domain", RDFS + "range",
                      OWL + "equivalentClass", OWL + "equivalentProperty", OWL + "inverseOf",
                      OWL + "intersectionOf", OWL + "unionOf", OWL + "onProperty", OWL + "someValuesFrom",
                      OWL + "allValuesFrom", OWL + "hasValue", OWL + "disjointWith", OWL + "imports"}
_TEXT_TYPES = {"http://www.w3.org/2001/XMLSchema#string", RDF + "langString"}
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
class ImportReport:
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
    instances: list[ox.Triple]
    schema_triples: list[ox.Triple]
    report: ImportReport


def _split(triples: list[ox.Triple]) -> tuple[list[ox.Triple], list[ox.Triple]]:
    """(schema statements, instance statements) of a file."""
    tbox: set = set()
    for t in triples:
        if (t.predicate.value == _TYPE and isinstance(t.object, ox.NamedNode) and t.object.value in _SCHEMA_TYPES) \
                or t.predicate.value in _SCHEMA_PREDICATES:
            tbox.add(t.subject)
    # blank nodes hanging off schema statements (restrictions, rdf lists) belong to the schema too
    by_subject: dict = defaultdict(list)
    for t in triples:
        by_subject[t.subject].append(t)
    todo = [t.object for s in list(tbox) for t in by_subject[s] if isinstance(t.object, ox.BlankNode)]
    while todo:
        node = todo.pop()
        if node not in tbox:
            tbox.add(node)
            todo += [t.object for t in by_subject[node] if isinstance(t.object, ox.BlankNode)]
    schema = [t for t in triples if t.subject in tbox]
    return schema, [t for t in triples if t.subject not in tbox]


def _reconcile(triples: list[ox.Triple], report: ImportReport, short) -> list[ox.Triple]:
    data_preds: dict[str, set[str]] = defaultdict(set)
    for t in triples:
        if isinstance(t.subject, ox.NamedNode):
            data_preds[t.subject.value].add(t.predicate.value)
    groups: dict[str, list[str]] = defaultdict(list)
    for iri in data_preds:
        groups[iri.lower()].append(iri)
    rename: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        report.case_groups += 1
        carriers = [m for m in members if data_preds[m] - {_TYPE, _LABEL}]
        if len(carriers) == 1:
            for m in members:
                if m != carriers[0]:
                    rename[m] = carriers[0]
                    if len(report.case_examples) < EXAMPLES:
                        report.case_examples.append(f"{short(m)} → {short(carriers[0])}")
            report.case_reconciled += 1
        else:
            report.case_unresolved.append(", ".join(sorted(map(short, members))))
    if not rename:
        return triples
    nodes = {old: ox.NamedNode(new) for old, new in rename.items()}

    def fix(term):
        return nodes.get(term.value, term) if isinstance(term, ox.NamedNode) else term

    return list(dict.fromkeys(ox.Triple(fix(t.subject), t.predicate, fix(t.object)) for t in triples))


def analyse(parsed: RdfFile, schema: Schema) -> Prepared:
    short = Schema((), prefixes={**parsed.prefixes, **schema.prefixes}).short
    report = ImportReport(source=str(parsed.path), triples_in_file=len(parsed.quads))
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in parsed.quads]
    schema_triples, instances = _split(triples)
    report.schema_statements = len(schema_triples)
    instances = _reconcile(instances, report, short)
    report.instance_triples = len(instances)

    classes: Counter = Counter()
    props: Counter = Counter()
    typed: set = set()
    subjects: set = set()
    noise: dict[str, Counter] = defaultdict(Counter)
    for t in instances:
        subjects.add(t.subject)
        p = t.predicate.value
        if p == _TYPE:
            typed.add(t.subject)
            classes[t.object.value] += 1
            continue
        props[p] += 1
        if isinstance(t.object, ox.Literal) and t.object.datatype.value in _TEXT_TYPES:  # 1 is a fine integer
            kind = noise_kind(t.object.value)
            if kind:
                noise[p][kind] += 1
                examples = report.noise_examples.setdefault(p, [])
                if len(examples) < EXAMPLES and t.object.value not in examples:
                    examples.append(t.object.value)
    report.classes = dict(classes.most_common())
    report.properties = dict(props.most_common())
    report.subjects = len(subjects)
    untyped = sorted(s.value for s in subjects - typed if isinstance(s, ox.NamedNode))
    report.untyped_subjects = len(untyped)
    report.untyped_examples = untyped[:EXAMPLES]
    report.noise = {p: dict(k) for p, k in noise.items()}
    if schema.classes or schema.properties:
        known = set(schema.classes) | set(schema.properties) | {_LABEL, RDFS + "comment", OWL + "sameAs"}
        report.not_in_schema = sorted(i for i in [*classes, *props] if i not in known)
    return Prepared(instances, schema_triples, report)
