"""Stage 2, enumerate: every reading of the anchors the schema allows — the classes an anchor instance
joins through a path (each in a plain and a counting form), every attribute of its class, the classes
that hold an anchor value, and with two anchors the readings of one class that keep both."""

from __future__ import annotations

import re

from pyramid.reading.english import AUXILIARIES, PARTICIPLE_PREPOSITIONS
from pyramid.vocab import Term, Vocab
from querying.planning.anchors import overlap, strength
from querying.planning.names import SchemaNames
from querying.planning.paths import PathFinder, verb_led
from querying.planning.paths import clause as step_clause  # `clause` is a reading's words here
from querying.planning.records import MAX_ANCHOR_IRIS, SHARE_DIGITS, Anchor, QuestionReading, Uses
from querying.planning.weights import FIRM, NARROWED_FIT
from querying.sparql_plan import Constraint, QueryPlan, Step

Key = tuple[tuple[str, bool], ...]


def attribute_words(words: str) -> tuple[str, str]:
    """An attribute reading in words, and what it answers with. A property named by a verb phrase
    is read as one ("obtained degree": "X obtained what degree?"; "graduated from": "X graduated from
    what?"), not as a noun ("what is the graduated from of X?", which reads like neither)."""
    verb, _, rest = words.partition(" ")
    if rest and verb.endswith("ed") and verb not in AUXILIARIES:
        if rest.split()[0] in PARTICIPLE_PREPOSITIONS:
            return f"X {words} what?", f"{words} what?"
        return f"X {verb} what {rest}?", f"what {rest}?"
    return f"what is the {words} of X?", f"what {words}?"


def _retag(text: str, old: str, new: str) -> str:
    return re.sub(rf"\b{old}\b", new, text)


class ReadingEnumerator:
    """The plain readings of a question's anchors (members of a class, attributes), written in the
    schema's words. Where the data can say what an anchor takes part in (`uses`), paths it never
    takes are not read."""

    def __init__(self, vocab: Vocab, names: SchemaNames, paths: PathFinder, value_classes: dict[str, str]) -> None:
        self.vocab, self.names, self.paths = vocab, names, paths
        # datatype property IRI → the class whose instances its values name (prerequisites stored as codes)
        self.value_classes = value_classes

    def enumerate(self, anchors: list[Anchor], uses: Uses | None = None,
                  named: frozenset[str] = frozenset(), either: frozenset[tuple[int, int]] = frozenset(),
                  polar: bool = False, words: frozenset[str] = frozenset(),
                  passed: frozenset[str] | None = None) -> list[QuestionReading]:
        """Every anchor's readings, in the anchors' order, then those that keep two anchors. `named`:
        the classes the question names, whose things' attributes one step from an anchor are read too;
        `either`: the pairs of anchors joined by "or" ("in Belgium or the Netherlands"), read as one
        choice along one path, not as two conditions; `polar`: a yes/no question (see _readings_of);
        `words`: the question's words outside what it names (one form each); `passed`: the named classes a
        path may take a third step through (all of `named` unless said)."""
        things = [a for a in anchors if not a.is_value]
        singles: list[list[QuestionReading]] = [
            self._readings_of(a, uses, named, frozenset(c for b in things if b is not a and not overlap(a, b)
                                                        for c in b.classes) if polar else frozenset(), words, polar,
                              named if passed is None else passed)
            for a in anchors]
        out = [r for rs in singles for r in rs]
        # two anchors: the readings of one class that keep both (one path each)
        for i in range(len(anchors)):
            for j in range(i + 1, len(anchors)):
                if overlap(anchors[i], anchors[j]) or min(strength(anchors[i]), strength(anchors[j])) < FIRM:
                    continue
                for r1 in singles[i]:
                    for r2 in singles[j]:
                        if (i, j) in either:
                            if r1.kind == r2.kind == "members" and r1.plan.target == r2.plan.target and \
                                    r1.plan.count == r2.plan.count and \
                                    [c.path for c in r1.plan.constraints] == [c.path for c in r2.plan.constraints]:
                                out.append(self._either(r1, r2))
                        elif r1.kind == r2.kind == "members" and r1.steps == r2.steps == 1 and \
                                r1.plan.target == r2.plan.target and r1.plan.count == r2.plan.count:
                            out.append(self._both(r1, r2))
        return out

    def _readings_of(self, a: Anchor, uses: Uses | None, named: frozenset[str] = frozenset(),
                     related: frozenset[str] = frozenset(), words: frozenset[str] = frozenset(),
                     polar: bool = False, passed: frozenset[str] = frozenset()) -> list[QuestionReading]:
        """One anchor's readings: the classes its paths reach (or that hold a value), then its attributes.
        `related`: the classes of the other things a yes/no question names ("Does A mentor B?"), for which
        a step the schema allows and the data never takes from A is read too: its nothing is the "no".
        So is one of a relation whose verb the question says, between things of one kind ("Who does X
        report to?" of someone who reports to nobody: nothing is the answer, not the other end's) or in a
        yes/no question ("Has X ever borrowed anything?": nothing borrowed is the "no")."""
        if a.is_value:
            return self._holders(a)
        out: list[QuestionReading] = []
        near = uses(a.iris) if uses is not None else None

        def along(cls_iri: str, key: Key, text: str, fit: float, mids: tuple[str, ...]) -> list[QuestionReading]:
            steps = [Step(property=prop, inverse=inverse) for prop, inverse in key]
            # a path of two steps may lead back to X ("the unit headed by the one who heads X" is X):
            # what the question names is never its answer
            exclude = list(a.iris)[:MAX_ANCHOR_IRIS] if len(steps) > 1 else []
            return self._members(self.vocab.by_iri[cls_iri], [Constraint(path=steps, op="eq", values=list(a.iris))],
                                 text, len(steps), (a,), fit=fit, mids=mids, exclude=exclude)

        paths = self.paths.schema_paths(a) if near is None else self.paths.data_paths(near)
        if near is not None and passed:
            paths |= self.paths.further(paths, passed, named)
        for (cls_iri, key), (text, fit, mids) in paths.items():
            out += along(cls_iri, key, text, fit, mids)
            if near is not None and len(key) == 1 and any(self.vocab.compatible(cls_iri, n) for n in named):
                out += self._attributes_through(a, cls_iri, key, text)
        if near is not None:
            # a step the schema allows but the data never takes from X: counted, it is a zero — "how many
            # subjects does X offer?" of a school that offers none is 0, not a count of something else
            for (cls_iri, key), (text, fit, mids) in self.paths.schema_paths(a, longest=1).items():
                if (cls_iri, key) not in paths:
                    said = self._said(key[0][0], words)
                    kin = said and self._between_kin(key[0][0])
                    unheld = kin or said and polar or any(self.vocab.compatible(cls_iri, c) for c in related)
                    for r in along(cls_iri, key, text, fit, mids):
                        if unheld and not r.plan.count:
                            r.evidence["unheld"] = 1.0
                            if said:  # its verb said (see _said): the scorer need not look again
                                r.evidence["said"] = 1.0
                        if not (r.plan.count or unheld):
                            # never answers (the data holds nothing there), but may be what the question
                            # means: then no other reading answers it (planner._meant_found_nothing)
                            r.evidence["lacked"] = 1.0
                        out.append(r)
        return out + self._attributes(a)

    def _said(self, prop: str, words: frozenset[str]) -> bool:
        """The question says a content word of the relation's name ("borrowed" of "borrowed by")."""
        return bool(words) and self.names.names_property(prop, set(words))

    def _between_kin(self, prop: str) -> bool:
        """The relation joins things of one kind (a domain and a range that fit each other): only word
        order tells its ends apart."""
        p = self.vocab.get(prop)
        return p is not None and any(self.vocab.compatible(d, g) for d in p.domains for g in p.ranges)

    def _holders(self, a: Anchor) -> list[QuestionReading]:
        """An anchor value: the members of every class that may hold it."""
        out: list[QuestionReading] = []
        prop = self.vocab.get(a.prop)
        assert prop is not None
        values = list(a.stored) if a.exact and a.stored else [a.text]
        constraint = Constraint(path=[Step(property=prop.name)], values=values,
                                op=a.op or ("eq" if a.exact and a.stored else "contains"))
        for cls in self.vocab.classes:
            if prop.domains and self.vocab.fit(cls.iri, prop.domains) < 1.0:
                continue
            out += self._members(cls, [constraint], f"{{T}} {prop.words} X", 1, (a,))
        return out

    def _attributes(self, a: Anchor) -> list[QuestionReading]:
        """An anchor instance: a reading per datatype property of its classes."""
        out: list[QuestionReading] = []
        for cls_iri in a.classes:
            cls = self.vocab.get(cls_iri)
            if cls is None:
                continue
            # every attribute the schema gives X's class, held or not: one X lacks ("the prerequisite
            # of a subject that has none") is no answer, not another attribute's value
            for p in self.vocab.properties_of(cls_iri, "datatype"):
                plan = QueryPlan(target=cls.name, candidates=list(a.iris)[:MAX_ANCHOR_IRIS], returns=[p.name])
                out.append(self._attribute(plan, p, (a,), 1, "X"))
        return out

    def _attribute(self, plan: QueryPlan, p: Term, anchors: tuple[Anchor, ...], steps: int, thing: str,
                   mids: tuple[str, ...] = ()) -> QuestionReading:
        """An attribute reading, worded by each name the schema gives the property: a label may be a
        phrase ("can be reached at") where the local name says what it is ("email address")."""
        names = tuple(dict.fromkeys(n.removeprefix("has ") for n in p.names))
        text, asks = attribute_words(names[0])
        variants = tuple((t.replace("X", thing), s) for t, s in map(attribute_words, names)) if len(names) > 1 else ()
        return QuestionReading("attribute", plan, text.replace("X", thing), anchors, steps, None, asks=asks,
                               prop=names[0], prop_names=names, mids=mids, variants=variants,
                               value_class=self.value_classes.get(p.iri))

    def _attributes_through(self, a: Anchor, cls_iri: str, key: Key, clause: str) -> list[QuestionReading]:
        """The attributes of the things one step from X that the question names by their kind ("the
        number to ring for the *site* that runs X"): a reading per datatype property of their class."""
        cls = self.vocab.by_iri[cls_iri]
        steps = [Step(property=prop, inverse=inverse) for prop, inverse in key]
        # "{T} runs ward X" → "the site that runs ward X"; "X belongs to {T}" → "the site that X belongs to"
        rest = clause.replace("{T}", "").strip()
        thing = f"the {self.names.class_words[cls_iri]} that {rest}"
        prop, inverse = key[-1]
        term = self.vocab.get(prop)
        # the path runs from the thing asked about: an inverse step reaches it as the property's object
        end = (term.ranges if inverse else term.domains) if term is not None else ()
        narrowed = bool(end) and cls_iri not in end and any(d in self.vocab.ancestors(cls_iri) for d in end)
        out = []
        for p in self.vocab.properties_of(cls_iri, "datatype"):
            plan = QueryPlan(target=cls.name, constraints=[Constraint(path=steps, op="eq", values=list(a.iris))],
                             returns=[p.name])
            r = self._attribute(plan, p, (a,), 2, thing, mids=(cls_iri,))
            if narrowed:
                r.evidence["fit"] = NARROWED_FIT
            out.append(r)
        return out

    def _members(self, cls: Term, constraints: list[Constraint], clause: str, steps: int, anchors: tuple[Anchor, ...],
                 fit: float = 1.0, mids: tuple[str, ...] = (), exclude: list[str] | None = None
                 ) -> list[QuestionReading]:
        """The members of `cls` along a path, as "which …" and as "how many …"."""
        base = QueryPlan(target=cls.name, constraints=constraints, exclude=exclude or [])
        out = []
        names = self.names.class_names[cls.iri]
        words = self.names.class_words[cls.iri]
        spelled = self._relation_names(constraints, clause)
        for count in (False, True):
            lead = "how many" if count else "which"
            text = clause.replace("{T}", f"{lead} {words}")
            variants = tuple((clause.replace("{T}", f"{lead} {n}") + "?", f"{lead} {n}?") for n in names) \
                if len(names) > 1 else ()
            # the relation by each of its other names ("is based on ward" is also "works in")
            variants += tuple((c.replace("{T}", f"{lead} {words}") + "?", f"{lead} {words}?") for c in spelled)
            r = QuestionReading("members", base.model_copy(update={"count": count}), text + "?", anchors, steps,
                                cls.iri, clause=clause, asks=f"{lead} {words}?", mids=mids, variants=variants)
            r.evidence["fit"] = round(fit, SHARE_DIGITS)
            out.append(r)
        return out

    def _relation_names(self, constraints: list[Constraint], said: str) -> list[str]:
        """A one-step path's clause spelled with each other name of its property that reads as a relation
        (`verb_led`): a schema names a relation by its label, its local name and other labels, and a
        question may use any of them. [] for a longer path, or a clause not made from the property."""
        if len(constraints) != 1 or len(constraints[0].path) != 1:
            return []
        step = constraints[0].path[0]
        p = self.vocab.get(step.property)
        if p is None or p.kind != "object":
            return []
        if said != step_clause("{T}", step, p, "X"):
            return []
        return [step_clause("{T}", step, p, "X", name=n) for n in p.names if verb_led(n) and n != p.words]

    def _both(self, r1: QuestionReading, r2: QuestionReading) -> QuestionReading:
        """One answer class, both anchors: "X offered by which department and Y offered by it?"."""
        lead = "how many" if r1.plan.count else "which"
        text = (r1.clause.replace("{T}", f"{lead} {self.names.class_words[r1.answer_class or '']}") + " and "
                + _retag(r2.clause, "X", "Y").replace("{T}", "it") + "?")
        plan = r1.plan.model_copy(update={"constraints": [*r1.plan.constraints, *r2.plan.constraints]})
        return QuestionReading("members", plan, text, (*r1.anchors, *r2.anchors), max(r1.steps, r2.steps),
                               r1.answer_class, clause=r1.clause, asks=r1.asks)

    def _either(self, r1: QuestionReading, r2: QuestionReading) -> QuestionReading:
        """One path, either anchor at its end: "which supplier is based in X or Y?"."""
        lead = "how many" if r1.plan.count else "which"
        text = r1.clause.replace("{T}", f"{lead} {self.names.class_words[r1.answer_class or '']}").replace(
            "X", "X or Y") + "?"
        constraints = [c.model_copy(update={"values": list(dict.fromkeys([*c.values, *d.values]))})
                       for c, d in zip(r1.plan.constraints, r2.plan.constraints)]
        plan = r1.plan.model_copy(update={"constraints": constraints,
                                          "exclude": list(dict.fromkeys([*r1.plan.exclude, *r2.plan.exclude]))})
        r = QuestionReading("members", plan, text, (*r1.anchors, *r2.anchors), r1.steps, r1.answer_class,
                            clause=r1.clause, asks=r1.asks, mids=r1.mids)
        r.evidence["fit"] = min(r1.evidence.get("fit", 1.0), r2.evidence.get("fit", 1.0))
        return r
