"""`Schema`: the ontology's classes and properties, read from any OWL/RDFS file, validated, saved.

The schema keeps every triple of its source (so restrictions, unions and anything it does not model
survive a save) and derives typed views from them:

    schema = Schema.load("ontology_schemas/academic.ttl")     # Turtle, RDF/XML, N-Triples, JSON-LD
    schema.classes      -> dict[iri, SchemaClass]     (declared owl:Class / rdfs:Class IRIs)
    schema.properties   -> dict[iri, SchemaProperty]  (object, datatype and annotation properties)
    schema.namespace    -> str                        (the namespace most of its own terms use)
    schema.label(iri)   -> str     rdfs:label (English or untagged first), else the humanised local
                                   name: has_research_interest -> "has research interest"
    schema.local_name(iri), schema.comment(iri)
    schema.superclasses(iri) / schema.subclasses(iri)      -> list[str], transitive, self excluded
    schema.superproperties(iri) / schema.subproperties(iri)
    schema.properties_of(class_iri) -> list[SchemaProperty]  domain is the class or a superclass
                                   (domains inherited from superproperties count; so does owl:Thing)
    schema.domains_of(prop_iri) / schema.ranges_of(prop_iri) -> effective, with superproperties
    schema.nearest("reserch interest", kind="property", n=5) -> list[str]   closest terms by name,
                                   for messages like "property X does not exist; nearest: ..."
    schema.resolve(name, kind) -> str | None   an IRI, prefixed name, local name or label to one IRI
    schema.validate()   -> list[str]   readable problems (dangling references, cycles, no domain, ...)
    schema.save(path)   -> None        syntax from the extension; Schema.load(p) == schema afterwards
    Schema.from_triples(triples)       e.g. from the store's schema graph

Equality compares the triples (blank nodes canonicalised), so `load(save(s)) == s`.
`SchemaClass` / `SchemaProperty` are frozen dataclasses; domains and ranges given as an owl:unionOf
list are listed as the union's member classes.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

import pyoxigraph as ox

from pyramid.normalise import fold
from pyramid.ontology.definitions import ClassDefinitions
from pyramid.ontology.rdfio import (
    OWL,
    RDF,
    RDFS,
    STANDARD_PREFIXES,
    XSD,
    is_datatype,
    local_name,
    namespace_of,
    rdf_format_for,
    read_rdf,
)

Kind = Literal["class", "property", "any"]
PropertyKind = Literal["object", "datatype", "annotation"]

_CLASS_TYPES = {OWL + "Class", RDFS + "Class"}
_OBJECT_TYPES = {OWL + "ObjectProperty", OWL + "TransitiveProperty", OWL + "SymmetricProperty",
                 OWL + "InverseFunctionalProperty", OWL + "AsymmetricProperty", OWL + "ReflexiveProperty",
                 OWL + "IrreflexiveProperty"}
_PROPERTY_TYPES = _OBJECT_TYPES | {OWL + "DatatypeProperty", OWL + "AnnotationProperty", RDF + "Property",
                                   OWL + "FunctionalProperty"}
# Classes every OWL/RDFS tool knows; referring to them is never dangling.
BUILTIN_CLASSES = {OWL + "Thing", OWL + "Nothing", RDFS + "Resource", RDFS + "Class", OWL + "Class",
                   RDFS + "Literal", RDFS + "Datatype", RDF + "Property"}


def humanise(name: str) -> str:
    """has_research_interest -> "has research interest"; takesCourse -> "takes course"; STAFF -> "staff"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return " ".join(re.split(r"[\s_\-.]+", spaced)).strip().lower()


def _norm(text: str) -> str:
    """A term's name as one token for comparing spellings: 'has_name', 'hasName', 'Has name' meet."""
    return fold(text).replace(" ", "")


@dataclass(frozen=True)
class SchemaClass:
    iri: str
    label: str
    comment: str = ""
    parents: tuple[str, ...] = ()          # direct named superclasses (rdfs:subClassOf, intersection members)
    equivalents: tuple[str, ...] = ()      # named owl:equivalentClass partners


@dataclass(frozen=True)
class SchemaProperty:
    iri: str
    kind: PropertyKind
    label: str
    comment: str = ""
    domains: tuple[str, ...] = ()
    ranges: tuple[str, ...] = ()
    parents: tuple[str, ...] = ()          # direct rdfs:subPropertyOf
    inverse_of: tuple[str, ...] = ()
    equivalents: tuple[str, ...] = ()
    transitive: bool = False
    symmetric: bool = False
    functional: bool = False


class Schema:
    """Classes and properties of an ontology, derived from its triples (see the module docstring)."""

    def __init__(self, triples: Iterable[ox.Triple], *, prefixes: dict[str, str] | None = None,
                 source: str | None = None) -> None:
        self.triples: tuple[ox.Triple, ...] = tuple(dict.fromkeys(triples))
        self.prefixes = dict(prefixes or {})
        self.source = source
        self._index()

    # ------------------------------------------------------------------ construction
    @classmethod
    def load(cls, path: str | Path) -> Schema:
        """Any OWL/RDFS file; `InputError` with line and column for a malformed one."""
        parsed = read_rdf(path)
        return cls((ox.Triple(q.subject, q.predicate, q.object) for q in parsed.quads),
                   prefixes=parsed.prefixes, source=str(path))

    @classmethod
    def from_triples(cls, triples: Iterable[ox.Triple], *, prefixes: dict[str, str] | None = None) -> Schema:
        return cls(triples, prefixes=prefixes)

    @classmethod
    def empty(cls) -> Schema:
        return cls(())

    def save(self, path: str | Path) -> None:
        """Write the schema (all its triples) atomically; the syntax follows the extension (.ttl default)."""
        from pyramid.workspace import atomic_write_bytes

        path = Path(path)
        fmt = rdf_format_for(path)
        prefixes = {**STANDARD_PREFIXES, **self.prefixes}
        if self.namespace and self.namespace not in prefixes.values():
            prefixes[""] = self.namespace
        data = ox.serialize(self.triples, format=fmt,
                            prefixes=prefixes if fmt in (ox.RdfFormat.TURTLE, ox.RdfFormat.TRIG,
                                                         ox.RdfFormat.RDF_XML) else None)
        atomic_write_bytes(path, data or b"")

    def _index(self) -> None:
        by_sp: dict[tuple[str, str], list] = defaultdict(list)
        types: dict[str, set[str]] = defaultdict(set)
        for t in self.triples:
            key = ("_:" + t.subject.value) if isinstance(t.subject, ox.BlankNode) else t.subject.value
            by_sp[(key, t.predicate.value)].append(t.object)
            if t.predicate.value == RDF + "type" and isinstance(t.object, ox.NamedNode):
                types[key].add(t.object.value)
        self._by_sp = by_sp

        def objects(s: str, p: str) -> list:
            return by_sp.get((s, p), [])

        def members(term) -> list[str]:
            """Named classes meant by a class term: itself, or the members of an owl:unionOf list."""
            if isinstance(term, ox.NamedNode):
                return [term.value]
            if isinstance(term, ox.BlankNode):
                out = []
                for lst in objects("_:" + term.value, OWL + "unionOf"):
                    out += [m.value for m in self._list(lst) if isinstance(m, ox.NamedNode)]
                return out
            return []

        def text(s: str, p: str) -> str:
            values = [o for o in objects(s, p) if isinstance(o, ox.Literal)]
            values.sort(key=lambda lit: (lit.language not in (None, "en"), lit.language or "", lit.value))
            return values[0].value if values else ""

        self._objects, self._members, self._text = objects, members, text
        classes: dict[str, SchemaClass] = {}
        props: dict[str, SchemaProperty] = {}
        for s, ts in types.items():
            if s.startswith("_:"):
                continue
            if ts & _CLASS_TYPES:
                parents = [o.value for o in objects(s, RDFS + "subClassOf") if isinstance(o, ox.NamedNode)]
                # C ≡ A ⊓ …, said as C's own intersection or an equivalent (or super-) class expression: C ⊑ A
                expressions = [o for p in (OWL + "equivalentClass", RDFS + "subClassOf") for o in objects(s, p)
                               if isinstance(o, ox.BlankNode)]
                for lst in objects(s, OWL + "intersectionOf") + [x for e in expressions
                                                                 for x in objects("_:" + e.value, OWL + "intersectionOf")]:
                    parents += [m.value for m in self._list(lst) if isinstance(m, ox.NamedNode)]
                equivalents = {o.value for o in objects(s, OWL + "equivalentClass") if isinstance(o, ox.NamedNode)}
                classes[s] = SchemaClass(s, self._label_of(s), text(s, RDFS + "comment"),
                                         tuple(dict.fromkeys(parents)), tuple(sorted(equivalents)))
            if ts & _PROPERTY_TYPES:
                ranges = tuple(dict.fromkeys(m for o in objects(s, RDFS + "range") for m in members(o)))
                if ts & _OBJECT_TYPES:
                    kind: PropertyKind = "object"
                elif OWL + "DatatypeProperty" in ts:
                    kind = "datatype"
                elif OWL + "AnnotationProperty" in ts:
                    kind = "annotation"
                else:  # rdf:Property / owl:FunctionalProperty alone: the range decides
                    kind = "datatype" if not ranges or any(is_datatype(r) for r in ranges) else "object"
                props[s] = SchemaProperty(
                    s, kind, self._label_of(s), text(s, RDFS + "comment"),
                    domains=tuple(dict.fromkeys(m for o in objects(s, RDFS + "domain") for m in members(o))),
                    ranges=ranges,
                    parents=tuple(o.value for o in objects(s, RDFS + "subPropertyOf") if isinstance(o, ox.NamedNode)),
                    inverse_of=tuple(o.value for o in objects(s, OWL + "inverseOf") if isinstance(o, ox.NamedNode)),
                    equivalents=tuple(o.value for o in objects(s, OWL + "equivalentProperty")
                                      if isinstance(o, ox.NamedNode)),
                    transitive=OWL + "TransitiveProperty" in ts, symmetric=OWL + "SymmetricProperty" in ts,
                    functional=OWL + "FunctionalProperty" in ts)
        # inverseOf is symmetric; record it on both sides
        for p in list(props.values()):
            for q in p.inverse_of:
                if q in props and p.iri not in props[q].inverse_of:
                    old = props[q]
                    props[q] = SchemaProperty(**{**old.__dict__, "inverse_of": old.inverse_of + (p.iri,)})
        self.classes: dict[str, SchemaClass] = dict(sorted(classes.items()))
        self.properties: dict[str, SchemaProperty] = dict(sorted(props.items()))
        # what the definitions imply of the tree: a class under one by its restrictions is under it
        implied = ClassDefinitions(self.classes, objects, self._list, members).implied(self.superclasses)
        for iri, more in implied.items():
            old = self.classes[iri]
            parents = tuple(dict.fromkeys(old.parents + tuple(sorted(more))))
            self.classes[iri] = SchemaClass(**{**old.__dict__, "parents": parents})

    def _list(self, head) -> list:
        """Items of an RDF collection (rdf:first / rdf:rest), cycle-safe."""
        out, seen = [], set()
        node = head
        while isinstance(node, ox.BlankNode) and node.value not in seen:
            seen.add(node.value)
            out += self._by_sp.get(("_:" + node.value, RDF + "first"), [])
            rest = self._by_sp.get(("_:" + node.value, RDF + "rest"), [])
            node = rest[0] if rest else None
        return out

    def _label_of(self, iri: str) -> str:
        return self._text(iri, RDFS + "label") or humanise(local_name(iri))

    # ------------------------------------------------------------------ lookups
    @cached_property
    def namespace(self) -> str:
        """The namespace most of the schema's own classes and properties live in ("" when empty)."""
        spaces = Counter(namespace_of(i) for i in [*self.classes, *self.properties]
                         if not i.startswith((OWL, RDFS, RDF, XSD)))
        return spaces.most_common(1)[0][0] if spaces else ""

    def label(self, iri: str) -> str:
        term = self.classes.get(iri) or self.properties.get(iri)
        return term.label if term else self._label_of(iri)

    def labels(self, iri: str) -> list[str]:
        """Every rdfs:label / skos label of a term, then its humanised local name (for label indexes)."""
        out = [o.value for p in (RDFS + "label", "http://www.w3.org/2004/02/skos/core#prefLabel",
                                 "http://www.w3.org/2004/02/skos/core#altLabel")
               for o in self._objects(iri, p) if isinstance(o, ox.Literal)]
        return list(dict.fromkeys([*out, humanise(local_name(iri))]))

    def comment(self, iri: str) -> str:
        return self._text(iri, RDFS + "comment")

    @staticmethod
    def local_name(iri: str) -> str:
        return local_name(iri)

    def _closure(self, start: str, step) -> list[str]:
        seen: dict[str, None] = {}
        todo = list(step(start))
        while todo:
            x = todo.pop()
            if x != start and x not in seen:
                seen[x] = None
                todo += step(x)
        return list(seen)

    def _class_up(self, iri: str) -> list[str]:
        c = self.classes.get(iri)
        back = [o.iri for o in self.classes.values() if iri in o.equivalents]
        return [*(c.parents + c.equivalents if c else ()), *back]

    @cached_property
    def _class_down(self) -> dict[str, list[str]]:
        down: dict[str, list[str]] = defaultdict(list)
        for c in self.classes.values():
            for up in self._class_up(c.iri):
                down[up].append(c.iri)
        return down

    def superclasses(self, iri: str) -> list[str]:
        return self._closure(iri, self._class_up)

    def subclasses(self, iri: str) -> list[str]:
        return self._closure(iri, lambda x: self._class_down.get(x, []))

    def _prop_up(self, iri: str) -> list[str]:
        p = self.properties.get(iri)
        back = [o.iri for o in self.properties.values() if iri in o.equivalents]
        return [*(p.parents + p.equivalents if p else ()), *back]

    def superproperties(self, iri: str) -> list[str]:
        return self._closure(iri, self._prop_up)

    def subproperties(self, iri: str) -> list[str]:
        return [p for p in self.properties if iri in self.superproperties(p)]

    def domains_of(self, prop: str, *, declared: bool = False) -> list[str]:
        """Domains of the property and of its superproperties (x p y entails x q y entails x a D). Where
        none is declared, what the rest of the schema says (`_said_ends`), unless `declared`. A domain that
        is a class defined by having the property ("TeachingAssistant ≡ Person ⊓ ∃teachingAssistantOf.Course")
        stands for its genus (Person): a thing becomes one by having the property, it is not one before."""
        found = list(dict.fromkeys(d for q in [prop, *self.superproperties(prop)] if q in self.properties
                                   for d in self.properties[q].domains))
        if declared:
            return found
        if not found:
            return self._said_ends(prop)[0]
        defined = self._definitions.defined_by
        return list(dict.fromkeys(g for d in found for g in (defined[d][1] if defined.get(d, ("",))[0] == prop
                                                             else (d,))))

    def ranges_of(self, prop: str, *, declared: bool = False) -> list[str]:
        found = list(dict.fromkeys(r for q in [prop, *self.superproperties(prop)] if q in self.properties
                                   for r in self.properties[q].ranges))
        return found if found or declared else self._said_ends(prop)[1]

    def _said_ends(self, prop: str) -> tuple[list[str], list[str]]:
        """A property's domain and range where neither it nor a superproperty declares them, from what the
        schema says elsewhere, in this order: class definitions that restrict it ("Employee ≡ Person ⊓
        ∃worksFor.Organization": a Person, an Organization; a filler of any restriction on it is a range),
        then a superproperty's such ends, then its inverse's declared ends swapped ("member" from an
        Organization to a Person: "memberOf" from a Person to an Organization)."""
        for q in [prop, *self.superproperties(prop)]:
            genus, fillers = self._definitions.restricted.get(q, ((), ()))
            if genus or fillers:
                return list(genus), list(fillers)
        for q in [prop, *self.superproperties(prop)]:
            for inv in self.properties[q].inverse_of if q in self.properties else ():
                if inv in self.properties:
                    dom = self.domains_of(inv, declared=True)
                    rng = [r for r in self.ranges_of(inv, declared=True) if not is_datatype(r)]
                    if dom or rng:
                        return rng, dom
        return [], []

    def defining_properties(self) -> dict[str, set[str]]:
        """Per property, the classes defined by having it ("Student ≡ Person ⊓ ∃takesCourse.Course" makes
        whatever takes a course a student): `pyramid.ontology.definitions`."""
        return self._definitions.defining

    @cached_property
    def _definitions(self) -> ClassDefinitions:
        return ClassDefinitions(self.classes, self._objects, self._list, self._members)

    def properties_of(self, class_iri: str) -> list[SchemaProperty]:
        """Properties a member of the class can have: domain is the class, a superclass or owl:Thing."""
        lineage = {class_iri, *self.superclasses(class_iri), OWL + "Thing"}
        return [p for p in self.properties.values() if lineage & set(self.domains_of(p.iri))]

    def _candidates(self, kind: Kind) -> list[str]:
        if kind == "class":
            return list(self.classes)
        if kind == "property":
            return list(self.properties)
        return [*self.classes, *self.properties]

    def _keys(self, iri: str) -> set[str]:
        return {_norm(k) for k in (local_name(iri), self.label(iri))} - {""}

    def nearest(self, name: str, kind: Kind = "any", n: int = 5) -> list[str]:
        """IRIs whose local name or label is closest to `name` (typo- and case-tolerant), best first."""
        wanted = _norm(local_name(name) if ("/" in name or "#" in name) else name.rsplit(":", 1)[-1])
        if not wanted:
            return []
        scored = []
        for iri in self._candidates(kind):
            best = 0.0
            for key in self._keys(iri):
                ratio = difflib.SequenceMatcher(None, wanted, key).ratio()
                if wanted in key or key in wanted:  # "interest" should find has_research_interest
                    ratio = max(ratio, 0.6 + 0.4 * min(len(wanted), len(key)) / max(len(wanted), len(key)))
                best = max(best, ratio)
            scored.append((best, iri))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [iri for score, iri in scored[:n] if score > 0.3]

    def resolve(self, name: str, kind: Kind = "any") -> str | None:
        """A full IRI, prefixed name (ex:foo), local name or label → the one matching IRI, else None."""
        pool = self._candidates(kind)
        if name in pool:
            return name
        if ":" in name and not name.startswith(("http://", "https://", "urn:")):
            prefix, rest = name.split(":", 1)
            spaces = {**STANDARD_PREFIXES, **self.prefixes, "": self.namespace}
            if prefix in spaces and spaces[prefix] + rest in pool:
                return spaces[prefix] + rest
            name = rest
        hits = [i for i in pool if local_name(i) == name] or \
               [i for i in pool if _norm(name) in self._keys(i)]
        return hits[0] if len(hits) == 1 else None

    # ------------------------------------------------------------------ validation
    def validate(self) -> list[str]:
        """Readable problems, sorted: dangling references, cycles, kind/range mismatches, no domain."""
        problems: list[str] = []
        known_classes = set(self.classes) | BUILTIN_CLASSES
        short = self.short

        def check_class(iri: str, role: str) -> None:
            if iri not in known_classes and not is_datatype(iri):
                near = self.nearest(iri, "class", 3)
                hint = f"; nearest: {', '.join(map(short, near))}" if near else ""
                problems.append(f"class {short(iri)} ({role}) is not declared{hint}")

        for c in self.classes.values():
            for parent in c.parents + c.equivalents:
                check_class(parent, f"superclass of {short(c.iri)}")
        for p in self.properties.values():
            for d in p.domains:
                check_class(d, f"domain of {short(p.iri)}")
            for r in p.ranges:
                if p.kind == "datatype" and not is_datatype(r):
                    problems.append(f"datatype property {short(p.iri)} has the class {short(r)} as range")
                elif p.kind == "object" and is_datatype(r):
                    problems.append(f"object property {short(p.iri)} has the datatype {short(r)} as range")
                elif p.kind == "object":
                    check_class(r, f"range of {short(p.iri)}")
            for q in p.parents + p.inverse_of + p.equivalents:
                if q not in self.properties and not q.startswith((RDF, RDFS, OWL)):
                    problems.append(f"property {short(q)} (related to {short(p.iri)}) is not declared")
            if not self.domains_of(p.iri, declared=True) and p.kind != "annotation":
                problems.append(f"property {short(p.iri)} has no domain")
        for restriction_prop in self._restriction_properties():
            if restriction_prop not in self.properties:
                problems.append(f"property {short(restriction_prop)} (used in a restriction) is not declared")
        for both in sorted(set(self.classes) & set(self.properties)):
            problems.append(f"{short(both)} is declared both as a class and as a property")
        for cycle in self._cycles({c: [x for x in self.classes[c].parents if x in self.classes] for c in self.classes}):
            problems.append("subclass cycle: " + " ⊑ ".join(map(short, cycle)))
        for cycle in self._cycles({p: [x for x in self.properties[p].parents if x in self.properties]
                                   for p in self.properties}):
            problems.append("subproperty cycle: " + " ⊑ ".join(map(short, cycle)))
        labels = Counter(self.label(i).lower() for i in self.classes)
        for lab, count in labels.items():
            if count > 1:
                problems.append(f"{count} classes share the label '{lab}'")
        return sorted(dict.fromkeys(problems))

    def _restriction_properties(self) -> set[str]:
        return {o.value for (s, p), objs in self._by_sp.items() if p == OWL + "onProperty"
                for o in objs if isinstance(o, ox.NamedNode)}

    @staticmethod
    def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
        """Each elementary cycle once (as found by DFS), e.g. [A, B, A]."""
        cycles, state = [], {}
        for root in graph:
            stack = [(root, iter(graph[root]))]
            path = [root]
            state[root] = state.get(root, 1)
            if state[root] == 2:
                continue
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    stack.pop()
                    path.pop()
                    state[node] = 2
                elif state.get(nxt) == 1 and nxt in path:
                    cycles.append(path[path.index(nxt):] + [nxt])
                elif nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(graph.get(nxt, []))))
                    path.append(nxt)
        return cycles

    def short(self, iri: str) -> str:
        """A prefixed name when a prefix fits (rdfs:label), the local name in the schema's own
        namespace (has_name), else the IRI."""
        for prefix, space in {**STANDARD_PREFIXES, **self.prefixes}.items():
            if prefix and space and iri.startswith(space) and re.fullmatch(r"[\w.-]*", iri[len(space):]):
                return f"{prefix}:{iri[len(space):]}"
        if self.namespace and iri.startswith(self.namespace) and re.fullmatch(r"[\w.-]+", iri[len(self.namespace):]):
            return iri[len(self.namespace):]
        return iri

    # ------------------------------------------------------------------ equality
    @cached_property
    def _canonical(self) -> ox.Dataset:
        ds = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in self.triples)
        ds.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
        return ds

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Schema):
            return NotImplemented
        return len(self.triples) == len(other.triples) and self._canonical == other._canonical

    __hash__ = None  # type: ignore[assignment]  # mutable-looking; compare, don't hash

    def __repr__(self) -> str:
        return (f"Schema({len(self.classes)} classes, {len(self.properties)} properties, "
                f"{len(self.triples)} triples, namespace={self.namespace!r})")
