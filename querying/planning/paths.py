"""The paths a reading may walk from its answer to an anchor, one or two object properties long:
those the schema's domains and ranges allow, or those the data holds around the anchor; each with the
path in words ("{T} works for X"), how well it fits, and the classes it passes through. A path the data
holds goes one step further where the question names a class it passes through ("the country of the
*supplier* of X": X's supplier, its city, the city's country)."""

from __future__ import annotations

from pyramid.reading.english import AUXILIARIES
from pyramid.vocab import Term, Vocab
from querying.planning.names import SchemaNames
from querying.planning.records import Anchor, Neighbourhood
from querying.sparql_plan import Step

# (answer class IRI, steps as (property, inverse) from the answer to the anchor) →
# (the path in words, how well domains and ranges fit, the classes passed through)
Paths = dict[tuple[str, tuple[tuple[str, bool], ...]], tuple[str, float, tuple[str, ...]]]
UNTYPED_FIT = 0.8         # how well an anchor without a known class lands on a declared domain or range


def step_key(*steps: Step) -> tuple[tuple[str, bool], ...]:
    """Steps as a key of `Paths`."""
    return tuple((st.property, st.inverse) for st in steps)


def clause(left: str, step: Step, p: Term, right: str, name: str | None = None) -> str:
    """A step in words (the property's label, or `name`, another of its names): forward, "left p right";
    walked backwards, "right p left". A property named by a participle and "by" ("offered by") is read as
    the passive it is: "left is offered by right"."""
    said = name or p.words
    passive = said.endswith(" by") and said.split()[0] not in AUXILIARIES
    words = f"is {said}" if passive else said
    return f"{left} {words} {right}" if not step.inverse else f"{right} {words} {left}"


def verb_led(name: str) -> bool:
    """Does a property's name open with a verb, and so read as a relation in a clause ("works in", "refers
    to", "located in", "has unit")? English's auxiliaries, and a verb's -s, -ed or -en forms; a name that
    opens with a noun ("part of site", "member") would make no clause."""
    first = name.split()[0] if name.split() else ""
    return first in AUXILIARIES or (len(first) > 3 and first.endswith(("s", "ed", "en")) and not first.endswith("ss"))


class PathFinder:
    """The paths from every class to an anchor, by the schema or by the data around the anchor."""

    def __init__(self, vocab: Vocab, names: SchemaNames) -> None:
        self.vocab, self.names = vocab, names
        self._schema_paths: dict[tuple[tuple[str, ...], int], Paths] = {}
        self._hop_table: dict[str, list[tuple[Step, Term, tuple[str, ...], float]]] | None = None

    def data_paths(self, near: Neighbourhood) -> Paths:
        """The readings' paths the data holds around the anchor: (answer class, steps from the answer
        to the anchor) → (the path in words, 1.0, the class passed through). An answer class is the
        neighbour's class or any class above it."""
        out: Paths = {}
        vocab = self.vocab

        def step(prop: str, way: str) -> Step | None:
            # `way` is seen from the node nearer the anchor, and the plan walks from the answer inwards:
            # the nearer node is the object of a step walked forward ("in")
            term = vocab.by_iri.get(prop)
            if term is None or term.kind != "object":
                return None
            return Step(property=term.name, inverse=way != "in")

        def fits(prop: str, way: str, far: str, near_cls: str | None = None) -> bool:
            # types of both ends: a node also filed under a class its property's declared range (domain,
            # walked backwards) rules out is read only as what the property says it is (a ward's
            # specialty, once misread as a site, is no site of the ward)
            term = vocab.by_iri[prop]
            ends = (term.domains, term.ranges) if way == "out" else (term.ranges, term.domains)
            return vocab.fit(far, ends[1]) > 0 and (near_cls is None or vocab.fit(near_cls, ends[0]) > 0)

        for prop, way, cls in sorted(near.one):
            s1 = step(prop, way)
            if s1 is None or cls not in vocab.by_iri or not fits(prop, way, cls):
                continue
            for target in (cls, *vocab.ancestors(cls)):
                if target in vocab.by_iri:
                    out.setdefault((target, step_key(s1)), (clause("{T}", s1, vocab.terms[s1.property], "X"),
                                                            1.0, ()))
        for p1, w1, mid, p2, w2, cls in sorted(near.two):
            inner, outer = step(p1, w1), step(p2, w2)
            if inner is None or outer is None or mid not in vocab.by_iri or cls not in vocab.by_iri \
                    or inner.property == outer.property or not (fits(p1, w1, mid) and fits(p2, w2, cls, mid)):
                continue
            mid_words = self.names.class_words[mid]
            text = (clause(mid_words, inner, vocab.terms[inner.property], "X") + "; "
                    + clause("{T}", outer, vocab.terms[outer.property], mid_words))
            for target in (cls, *vocab.ancestors(cls)):
                key = (target, step_key(outer, inner))
                # the most specific middle class words the reading (DEPARTMENT over FACULTY)
                if target in vocab.by_iri and (key not in out or out[key][2][0] in vocab.ancestors(mid)):
                    out[key] = (text, 1.0, (mid,))
        return out

    def further(self, paths: Paths, through: frozenset[str], answers: frozenset[str] = frozenset()) -> Paths:
        """Two-step paths the data holds, one schema step longer, where the question names a class
        (`through`) they pass through or end at: English says a third step by naming what it walks through ("the
        country of the supplier of X"), and only then is it read — every two-step path of a schema
        taken a step further would read questions nobody asked. The step lands on the class its property
        declares, or on one of `answers` (the classes the question names) that fits there."""
        vocab, hops, out = self.vocab, self._hops(), {}
        for (end, key), (text, fit, mids) in paths.items():
            if len(key) != 2 or not any(vocab.compatible(c, n) for c in (end, *mids) for n in through):
                continue
            words = self.names.class_words[end]
            for s, p, land, f in hops[end]:
                back = Step(property=p.name, inverse=not s.inverse)
                if p.name in {prop for prop, _ in key}:
                    continue
                for target in [*land, *answers]:
                    k = (target, step_key(back) + key)
                    if target != end and target in vocab.by_iri and k not in paths and (ft := vocab.fit(target, land)) > 0:
                        out.setdefault(k, (text.replace("{T}", words) + "; " + clause("{T}", back, p, words),
                                           fit * f * ft, (end, *mids)))
        return out

    def schema_paths(self, a: Anchor, longest: int = 2) -> Paths:
        """Without the data to ask: paths of one or two (up to `longest`) object properties from every
        class to the anchor's classes as domains and ranges allow, with how well they fit. Kept per
        anchor classes: a schema of some forty classes has hundreds of thousands of two-step paths."""
        key = (a.classes, longest)
        if (known := self._schema_paths.get(key)) is None:
            known = self._schema_paths[key] = self._walk(a.classes, longest)
        return dict(known)

    def _hops(self) -> dict[str, list[tuple[Step, Term, tuple[str, ...], float]]]:
        """Every class's one-step moves: (the step, its property, where it lands, how well it fits)."""
        if self._hop_table is None:
            vocab = self.vocab
            objs = [p for p in vocab.properties if p.kind == "object"]
            table: dict[str, list[tuple[Step, Term, tuple[str, ...], float]]] = {}
            for cls in vocab.classes:
                out = table[cls.iri] = []
                for p in objs:
                    if (f := vocab.fit(cls.iri, p.domains)) > 0:
                        out.append((Step(property=p.name), p, p.ranges, f))
                    if (f := vocab.fit(cls.iri, p.ranges)) > 0:
                        out.append((Step(property=p.name, inverse=True), p, p.domains, f))
            self._hop_table = table
        return self._hop_table

    def _walk(self, classes: tuple[str, ...], longest: int) -> Paths:
        vocab, hops = self.vocab, self._hops()
        landing: dict[tuple[str, ...], float] = {}
        middles: dict[tuple[str, ...], list[tuple[str, float]]] = {}

        def lands(declared: tuple[str, ...]) -> float:
            if (f := landing.get(declared)) is None:
                f = landing[declared] = max((vocab.fit(c, declared) for c in classes), default=UNTYPED_FIT)
            return f

        def mids(declared: tuple[str, ...]) -> list[tuple[str, float]]:
            if (m := middles.get(declared)) is None:
                m = middles[declared] = [(c.iri, f) for c in vocab.classes if (f := vocab.fit(c.iri, declared)) > 0]
            return m

        # the second steps that reach the anchor, per middle class, worked out once
        last = {c: [(s2, p2, f2, f) for s2, p2, land2, f2 in moves if (f := lands(land2)) > 0]
                for c, moves in hops.items()} if longest > 1 else {}
        found: Paths = {}
        for target in vocab.classes:
            for s1, p1, land1, f1 in hops[target.iri]:
                if (f := lands(land1)) > 0:
                    found[(target.iri, step_key(s1))] = (clause("{T}", s1, p1, "X"), f1 * f, ())
                if longest < 2:
                    continue
                for mid, fm in mids(land1):
                    if mid == target.iri:
                        continue
                    for s2, p2, f2, f in last[mid]:
                        k = (target.iri, ((s1.property, s1.inverse), (s2.property, s2.inverse)))
                        if s2.property == s1.property or k in found:
                            continue
                        words = self.names.class_words[mid]
                        found[k] = (clause(words, s2, p2, "X") + "; " + clause("{T}", s1, p1, words), f1 * fm * f2 * f,
                                    (mid,))
        return found
