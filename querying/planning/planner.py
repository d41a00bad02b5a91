"""The planner: runs the stages in order for one question — link, enumerate (and rank), keep the
readings that answer what the question asks, score, run for evidence, choose — and returns the
draft with its plan and its trace. Each stage's work is in its own module (see the package)."""

from __future__ import annotations

import dataclasses
import re

from pyramid.embeddings import Embedder
from pyramid.llm import LLM
from pyramid.ontology.labels import LabelIndex, LabelLink
from pyramid.ontology.values import ValueIndex
from pyramid.reading.english import DETERMINERS, STOPWORDS
from pyramid.vocab import Vocab
from querying.planning.absence import AbsenceReadings
from querying.planning.anchors import AnchorLinker
from querying.planning.asked import AskedKeeper
from querying.planning.choice import choose
from querying.planning.cues import COUNTING, DERIVED, GROUP_ASKED, LISTED, POLAR, counted_noun
from querying.planning.enumerate import ReadingEnumerator
from querying.planning.evidence import EvidenceRunner
from querying.planning.kinds import alternatives, kind_readings
from querying.planning.measures import MeasureReadings
from querying.planning.names import PERSON_NOUN, SchemaNames, property_words
from querying.planning.paths import PathFinder
from querying.planning.rankings import RankingReadings
from querying.planning.records import Anchor, PlanDraft, QuestionReading, Run, Uses
from querying.planning.scoring import ReadingScorer
from querying.planning.vectors import QueryVectors
from querying.planning.weights import GROUP_LIKENESS, GROUP_MARGIN, MEANT_HELD, MEANT_MARGIN
from querying.planning.wording import forms, masked, words_outside

MAX_OPTION_CANDIDATES = 200   # options of the answer class a plan names as its candidates, at most


class ReadingPlanner:
    """Question → readings → the best one's QueryPlan, over one vocabulary, label index and value
    index; embeddings are shared by every stage, one text embedded once."""

    def __init__(self, vocab: Vocab, index: LabelIndex, values: ValueIndex, embedder: Embedder,
                 llm: LLM | None = None, *, margin: float = 0.02, value_classes: dict[str, str] | None = None,
                 single: frozenset[tuple[str, str]] = frozenset(),
                 held: dict[tuple[str, str, str], float] | None = None) -> None:
        """`single`: the object properties (IRI, "out" | "in") the data holds once per thing at that end;
        `held`: (IRI, "out" | "in", class IRI) → the share of the class's things holding the property there."""
        self.vocab, self.index, self.values, self.embedder, self.llm = vocab, index, values, embedder, llm
        self.margin = margin
        self.held = held or {}
        # datatype property IRI → the class whose instances its values name (prerequisites stored as codes)
        self.value_classes = value_classes or {}
        vectors = QueryVectors(embedder)
        self.names = SchemaNames(vocab, vectors)
        paths = PathFinder(vocab, self.names)
        self.linker = AnchorLinker(vocab, index, values, self.names, vectors)
        self.enumerator = ReadingEnumerator(vocab, self.names, paths, self.value_classes)
        self.ranker = RankingReadings(vocab, self.names, paths)
        self.scorer = ReadingScorer(vocab, self.names, vectors, single)
        self.runner = EvidenceRunner(vocab, index)
        self.keeper = AskedKeeper(vocab, self.names)
        self.measurer = MeasureReadings(vocab, self.names, vectors)
        self.absences = AbsenceReadings(vocab, self.names)

    def anchors(self, question: str) -> list[Anchor]:
        """What the question names (stage 1)."""
        return self.linker.anchors(question)

    def draft(self, question: str, options: list[str] | None = None, run: Run | None = None,
              uses: Uses | None = None) -> PlanDraft:
        """`run` runs a plan (read-only); `uses` says which properties the named instances take part
        in, so readings through properties an anchor does not have are never made."""
        d = PlanDraft(question, None)
        derived = DERIVED.search(question)
        if derived and not self.names.schema_says(derived.group(0)):
            d.reason = f"it asks for a value derived from others ({derived.group(0)!r}), which a plan cannot say"
            return d
        if PERSON_NOUN in forms(question):
            self.names.name_people()
        anchors = self.anchors(question)
        d.decisions["anchors"] = "; ".join(f"{a.text!r} → {a.prop or ','.join(self.names.short(c) for c in a.classes)}"
                                           for a in anchors) or "none"
        named, passed = self._named(question, anchors)
        readings = self.enumerator.enumerate(anchors, uses, named, _either(question, anchors), passed=passed,
                                             polar=bool(POLAR.match(question)),
                                             words=frozenset(words_outside(question, anchors)))
        # the steps the data never takes from what the question names: no answer, but maybe what it means
        lacked = [r for r in readings if r.evidence.get("lacked")]
        readings = [r for r in readings if not r.evidence.get("lacked")]
        readings += self.ranker.rankings(question, anchors, readings)
        # a question that asks what kind a thing is, for things lacking something, or that ranks, compares
        # or totals things by a value of theirs, is read that way only
        offered = alternatives(question, self.names.named_class_groups)
        plain = readings
        if offered is not None:  # "Is X a graduate or an undergraduate student?" asks which, not whether
            readings = kind_readings(question, anchors, self.vocab, offered)
            if not readings:
                d.reason = "it asks which of two kinds a thing is, and the ontology holds it as neither or both"
                return d
        else:
            readings = kind_readings(question, anchors, self.vocab) or \
                self.absences.readings(question, anchors, readings) or self.measurer.readings(question, anchors, readings) \
                or readings
        if not anchors and not readings:
            d.reason = "nothing in the question links to the ontology"
            return d
        enumerated = list(readings)
        d.enumerated = len(enumerated)
        # (the two kinds offered are the answer's: no check of what else the question names applies)
        kept = readings if offered is not None else self.keeper.keep(d, question, anchors, readings)
        if kept is None:
            return d
        readings = kept
        if not readings:
            d.reason = "no path of the schema joins what the question names"
            return d
        # (kept by the same checks as the readings, on a draft of their own: their reasons are not the question's;
        # none where the question is read as asking what kind a thing is, what it lacks, or a measure of it)
        lacked = (self.keeper.keep(PlanDraft(question, None), question, anchors, lacked) or []) \
            if lacked and readings is plain else []
        option_links = [self.index.link(o) for o in options] if options else []
        self.scorer.score(question, readings + lacked, option_links)
        prior = {id(r): r.score for r in readings + lacked}
        if run is not None:
            ran = readings + lacked
            self.runner.check(question, readings, run, options, option_links)
            if not readings:
                return self._found_nothing(d, ran, anchors)
            if self._meant_found_nothing(d, question, ran, readings, prior):
                return d
        readings.sort(key=lambda r: -r.score)
        d.readings = readings
        best = choose(d, question, readings, self.llm, self.margin)
        d.plan, d.rows, d.best, d.anchors = best.plan, best.rows, best, anchors
        more = self._also_asked(question, best, enumerated, anchors)
        if more:  # "the price, weight and release date of X": every attribute asked, in one plan
            d.plan, d.rows = best.plan.model_copy(update={"returns": [*best.plan.returns, *more]}), None
        self._among_options(d, best, options, option_links)
        d.decisions["reading"] = f"{best.spelled()} (score {best.score:.3f})"
        return d

    def _named(self, question: str, anchors: list[Anchor]) -> tuple[frozenset[str], frozenset[str]]:
        """The classes the question names, with those whose attribute it names ("the email address of the
        head of X": the head's); and of them, those a path may pass through: not the class asked for, where
        the question names it once ("Which university is X part of?" names the answer, not a third step)."""
        plain = masked(question, anchors)
        groups = self.names.named_class_groups(plain)
        attributed = {c for p in self.names.attributes_said(words_outside(question, anchors)) for c in p.domains}
        # the class asked for by "which …", or counted by "how many …"
        asked = {self.names.asked_class(question, anchors)}
        if COUNTING.search(plain):
            asked |= {c for g in self.names.named_class_groups(counted_noun(plain, COUNTING)) for c in g}
        answer = [g for g in groups if any(c in asked and sum(c in h for h in groups) == 1 for c in g)]
        named = frozenset(c for g in groups for c in g) | attributed
        return named, frozenset(c for g in groups if g not in answer for c in g) | attributed

    def _also_asked(self, question: str, best: QuestionReading, readings: list[QuestionReading],
                    anchors: list[Anchor]) -> list[str]:
        """The other attributes of the same things a question that lists several names by every content
        word ("e-mail address and phone number"); none unless the best reading returns an attribute."""
        if best.kind != "attribute" or best.plan.aggregate or len(best.plan.returns) != 1:
            return []
        same = {r.plan.returns[0]: r.prop for r in readings
                if r.kind == "attribute" and len(r.plan.returns) == 1 and r.plan.returns[0] not in best.plan.returns
                and (r.plan.target, r.plan.candidates, r.plan.constraints) ==
                (best.plan.target, best.plan.candidates, best.plan.constraints)}
        group = GROUP_ASKED.search(question)
        if group is not None and same and self.names.attribute_named_by(group.group("noun")) is None:
            return self._of_a_kind(group.group("noun"), best.plan.returns[0], same)
        if not LISTED.search(question):
            return []
        words = words_outside(question, [a for a in anchors if not a.is_value])
        content = {name: [forms(w)[0] for w in re.findall(r"\w+", prop) if forms(w) and forms(w)[0] not in STOPWORDS
                          and w != "has"] for name, prop in same.items()}
        heads = [c[-1] for c in content.values() if c]
        # every content word said, or the name's head (English puts its kind last: "price" of "list
        # price") where no other attribute of these things ends in it
        return [name for name, c in content.items()
                if c and (set(c) <= words or c[-1] in words and heads.count(c[-1]) == 1)]

    def _of_a_kind(self, noun: str, first: str, same: dict[str, str]) -> list[str]:
        """The other attributes one plural noun asks for with the first ("all the contact details": the
        e-mail address and the phone number): those whose words mean what the noun says nearly as much
        as the likeliest one's (`weights.GROUP_MARGIN`), and enough (`weights.GROUP_LIKENESS`)."""
        names = [first, *same]
        words = [property_words(p) if (p := self.vocab.get(n)) else n for n in names]
        sims = self.names.vectors.embed(words) @ self.names.vectors.embed([noun])[0]
        floor = max(float(sims.max()) - GROUP_MARGIN, GROUP_LIKENESS)
        if sims[0] < floor:
            return []  # the best reading's own attribute is not of the kind asked for: not a group
        return [n for n, sim in zip(names[1:], sims[1:]) if sim >= floor]

    def _meant_found_nothing(self, d: PlanDraft, question: str, ran: list[QuestionReading],
                             left: list[QuestionReading], prior: dict[int, float]) -> bool:
        """The reading that means the question best, by the schema's words, found nothing for what it names,
        and the one that would answer instead means it clearly less (`weights.MEANT_MARGIN`) through other
        relations: "Which topic does X work on?" of someone whose research the data lacks is not answered
        with the group X works for. The draft says why; the question is passed down. (A yes/no question's
        nothing is its "no": see `_found_nothing`.)"""
        if POLAR.match(question) or not left:
            return False
        best = max(left, key=lambda r: r.score)
        used = best.plan.properties()
        for r in sorted(ran, key=lambda r: -prior[id(r)]):
            if prior[id(r)] <= prior[id(best)] + MEANT_MARGIN:
                return False
            found_nothing = r.evidence.get("empty") and not r.evidence.get("unheld") or r.evidence.get("lacked")
            # (a longer way round that finds nothing is no sign: its extra steps are what the question did not say;
            # a shorter one reads closer to the question by its shortness alone, and is a sign where the question
            # says its relation: "Which courses does X teach?" is not answered through X's students)
            shorter_said = r.steps == best.steps or r.steps < best.steps and r.evidence.get("relation_said")
            if found_nothing and shorter_said and not r.plan.properties() <= used and self._commonly_held(r):
                d.reason = (f"the reading that means the question best ({r.spelled()}) finds nothing for what it "
                            f"names, and the next one up ({best.spelled()}) answers another question")
                d.decisions["meant"] = f"{r.spelled()} (score {prior[id(r)]:.3f} before it ran) found nothing"
                return True
        return False

    def _commonly_held(self, r: QuestionReading) -> bool:
        """Things of the anchor's kind commonly hold the relation the reading takes from it (`weights.MEANT_HELD`
        of them): that X lacks it says the data missed it, and the question is about it; a relation few hold is
        seldom what a question means, however its words read."""
        anchors = [a for a in r.anchors if not a.is_value]
        if not anchors:
            return False
        if r.kind == "attribute" and not r.plan.constraints and r.plan.returns:
            name, way = r.plan.returns[0], "out"
        elif len(r.plan.constraints) == 1:
            last = r.plan.constraints[0].path[-1]
            name, way = last.property, "out" if last.inverse else "in"
        else:
            return False
        p = self.vocab.get(name)
        return p is not None and any(self.held.get((p.iri, way, c), 0.0) >= MEANT_HELD
                                     for a in anchors for c in a.classes)

    def _found_nothing(self, d: PlanDraft, ran: list[QuestionReading], anchors: list[Anchor]) -> PlanDraft:
        """Every reading that ran found nothing: no answer, except to a yes/no question, whose answer
        is then "no" under any of them (the best one is shown)."""
        # a count of nothing ran as a zero: what the schema allows and the data never holds for X
        empty = [r for r in ran if r.kind == "members" and r.rows is not None and
                 (not r.rows or r.plan.count and all(v in ("0", "0.0") for row in r.rows for v in row.values()))]
        if not POLAR.match(d.question) or not empty:
            d.reason = "every reading that ran found nothing"
            return d
        best = max(empty, key=lambda r: r.score)
        best = dataclasses.replace(best, plan=best.plan.model_copy(update={"count": False}))
        d.plan, d.rows, d.best, d.anchors, d.readings = best.plan, [], best, anchors, [best]
        d.decisions["reading"] = f"{best.spelled()} (score {best.score:.3f}; every reading found nothing)"
        return d

    def _among_options(self, d: PlanDraft, best: QuestionReading, options: list[str] | None,
                       option_links: list[list[LabelLink]]) -> None:
        """The answer among the options of the answer class, as a reader of the list does (a long list
        of staff is no answer, the options among them are)."""
        if options and best.kind == "members" and not best.plan.count and best.answer_class:
            chosen = [lk.iri for links in option_links for lk in links
                      if any(self.vocab.compatible(c, best.answer_class) for c in lk.classes)]
            if chosen:
                d.plan = best.plan.model_copy(update={"candidates": list(dict.fromkeys(chosen))[:MAX_OPTION_CANDIDATES]})
                d.rows = None


def _either(question: str, anchors: list[Anchor]) -> frozenset[tuple[int, int]]:
    """The pairs of anchors (their indexes) with only "or" between them: one choice, either of them."""
    out = set()
    for i in range(len(anchors) - 1):
        a, b = anchors[i], anchors[i + 1]
        gap = question[a.spans[-1][1]:b.spans[0][0]].strip(" ,").lower().split()
        if gap[:1] == ["or"] and len(gap) <= 2 and (len(gap) == 1 or gap[1] in DETERMINERS):
            out.add((i, i + 1))
    return frozenset(out)
