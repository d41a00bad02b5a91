"""What a schema's class definitions say of its properties: `C ≡ A ⊓ ∃p.F` (OWL 1's RDF/XML writes it as C's
own owl:intersectionOf) makes whatever has p to an F a C, so p runs from an A to an F; a restriction under
a class (`C ⊑ ∃p.F`) says only that p reaches an F. `Schema.domains_of` / `ranges_of` read the ends of a
property the schema declares none for from here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cached_property

import pyoxigraph as ox

from pyramid.ontology.rdfio import OWL, RDFS, is_datatype

Restriction = tuple[str, tuple[str, ...], bool]   # (property, filler classes, defining)


class ClassDefinitions:
    """The classes' definitions and restrictions, read once from the schema's triples."""

    def __init__(self, classes: Iterable[str], objects: Callable[[str, str], list], items: Callable[[object], list],
                 members: Callable[[object], list[str]]) -> None:
        self.classes = list(classes)
        self._objects, self._list, self._members = objects, items, members

    @cached_property
    def defining(self) -> dict[str, set[str]]:
        """Per property, the classes defined by having it (owl:equivalentClass or the class's own intersection
        restricting it): "Student ≡ Person ⊓ ∃takesCourse.Course" makes whatever takes a course a student."""
        out: dict[str, set[str]] = defaultdict(set)
        for cls, _, restrictions in self.all:
            for prop, _, defining in restrictions:
                if defining:
                    out[prop].add(cls)
        return dict(out)

    @cached_property
    def defined_by(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Classes defined as a named genus with a restriction on one property: class → (property, genus)."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        for cls, genus, restrictions in self.all:
            if genus and len(restrictions) == 1 and restrictions[0][2]:
                out[cls] = (restrictions[0][0], genus)
        return out

    @cached_property
    def restricted(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """Per property restricted somewhere: the genera of the classes defined by it, and its fillers."""
        genus: dict[str, dict[str, None]] = defaultdict(dict)
        fillers: dict[str, dict[str, None]] = defaultdict(dict)
        for _, named, restrictions in self.all:
            for prop, filler, defining in restrictions:
                fillers[prop].update(dict.fromkeys(filler))
                if defining:
                    genus[prop].update(dict.fromkeys(named))
        return {p: (tuple(genus[p]), tuple(fillers[p])) for p in set(genus) | set(fillers)}

    @cached_property
    def all(self) -> list[tuple[str, tuple[str, ...], list[tuple[str, tuple[str, ...], bool]]]]:
        """Each named class's restrictions: (class, the named members of its defining intersection, [(property,
        filler classes, defining)]) — defining when said by owl:equivalentClass or the class's own
        owl:intersectionOf (OWL 1's RDF/XML), not by rdfs:subClassOf."""
        out = []
        for cls in self.classes:
            named: list[str] = []
            restrictions: list[tuple[str, tuple[str, ...], bool]] = []
            for parts, defining in self._class_terms(cls):
                for part in parts:
                    if isinstance(part, ox.NamedNode):
                        named += [part.value] if defining and len(parts) > 1 else []
                    elif (r := self._restriction(part)) is not None:
                        restrictions.append((*r, defining))
            if restrictions:
                out.append((cls, tuple(dict.fromkeys(named)), restrictions))
        return out

    def implied(self, superclasses: Callable[[str], Iterable[str]]) -> dict[str, set[str]]:
        """Per class, the defined classes its own existential restrictions put it under — the one step of
        OWL reasoning a defined class asks for: `C ≡ A ⊓ ∃p.F`, `X ⊑ A` and `X ⊑ ∃p.E` with `E ⊑ F` make
        `X ⊑ C` (a graduate student, under Person and taking some graduate course, is a student whatever the
        schema's subclass tree says). `superclasses`: the declared ones, transitively."""
        def under(x: str) -> set[str]:
            return {x, *superclasses(x)}

        defined = [(c, genus, [(p, f) for p, f, d in rs if d]) for c, genus, rs in self.all if any(d for *_, d in rs)]
        out: dict[str, set[str]] = defaultdict(set)
        for x in self.classes:
            up = under(x)
            has = [r for y in up for r in self._existential(y)]
            for c, genus, needs in defined:
                if c in up or not set(genus) <= up:
                    continue
                if all(any(q == p and fillers and all(not want or under(e) & set(want) for e in fillers)
                           for q, fillers in has) for p, want in needs):
                    out[x].add(c)
        return dict(out)

    def _existential(self, cls: str) -> list[tuple[str, tuple[str, ...]]]:
        """The `∃p.E` a class is said to be under (rdfs:subClassOf a someValuesFrom restriction, alone or
        in an intersection): (p, the named classes E)."""
        out = []
        for term in self._objects(cls, RDFS + "subClassOf"):
            if not isinstance(term, ox.BlankNode):
                continue
            lists = self._objects("_:" + term.value, OWL + "intersectionOf")
            for part in (self._list(lists[0]) if lists else [term]):
                if not isinstance(part, ox.BlankNode):
                    continue
                key = "_:" + part.value
                on = [o.value for o in self._objects(key, OWL + "onProperty") if isinstance(o, ox.NamedNode)]
                some = [m for o in self._objects(key, OWL + "someValuesFrom") for m in self._members(o)
                        if not is_datatype(m)]
                if on and some:
                    out.append((on[0], tuple(m for m in some if m != OWL + "Thing")))
        return out

    def _class_terms(self, cls: str) -> list[tuple[list, bool]]:
        """The class expressions a class is said to equal or to be under, each as its intersection's parts,
        and whether it defines the class."""
        terms = [(self._list(lst), True) for lst in self._objects(cls, OWL + "intersectionOf")]
        for pred in (OWL + "equivalentClass", RDFS + "subClassOf"):
            for term in self._objects(cls, pred):
                lists = self._objects("_:" + term.value, OWL + "intersectionOf") if isinstance(term, ox.BlankNode) else []
                terms += [(self._list(lists[0]) if lists else [term], pred == OWL + "equivalentClass")]
        return terms

    def _restriction(self, node) -> tuple[str, tuple[str, ...]] | None:
        """An owl:Restriction's property and the classes its someValuesFrom / allValuesFrom names."""
        if not isinstance(node, ox.BlankNode):
            return None
        key = "_:" + node.value
        on = [o.value for o in self._objects(key, OWL + "onProperty") if isinstance(o, ox.NamedNode)]
        if not on:
            return None
        filler = [m for pred in ("someValuesFrom", "allValuesFrom") for o in self._objects(key, OWL + pred)
                  for m in self._members(o) if m != OWL + "Thing" and not is_datatype(m)]
        return on[0], tuple(dict.fromkeys(filler))

