"""The planner: runs the stages in order for one question — link, enumerate (and rank), keep the
readings of the class the question asks for, score, run for evidence, choose — and returns the
draft with its plan and its trace. Each stage's work is in its own module (see the package)."""

from __future__ import annotations

from pyramid.embeddings import Embedder
from pyramid.llm import LLM
from pyramid.ontology.labels import LabelIndex, LabelLink
from pyramid.ontology.values import ValueIndex
from pyramid.reading.terms import holds_time
from pyramid.vocab import Vocab
from querying.planning.anchors import AnchorLinker
from querying.planning.choice import choose
from querying.planning.cues import ASKS_WHO, WHEN
from querying.planning.enumerate import ReadingEnumerator
from querying.planning.evidence import EvidenceRunner
from querying.planning.names import SchemaNames
from querying.planning.paths import PathFinder
from querying.planning.rankings import RankingReadings
from querying.planning.records import Anchor, PlanDraft, QuestionReading, Run, Uses
from querying.planning.scoring import ReadingScorer
from querying.planning.vectors import QueryVectors
from querying.planning.weights import SOMEONE_MARGIN
from querying.planning.wording import property_content_words, words_outside

MAX_OPTION_CANDIDATES = 200   # options of the answer class a plan names as its candidates, at most


class ReadingPlanner:
    """Question → readings → the best one's QueryPlan, over one vocabulary, label index and value
    index; embeddings are shared by every stage, one text embedded once."""

    def __init__(self, vocab: Vocab, index: LabelIndex, values: ValueIndex, embedder: Embedder,
                 llm: LLM | None = None, *, margin: float = 0.02, value_classes: dict[str, str] | None = None) -> None:
        self.vocab, self.index, self.values, self.embedder, self.llm = vocab, index, values, embedder, llm
        self.margin = margin
        # datatype property IRI → the class whose instances its values name (prerequisites stored as codes)
        self.value_classes = value_classes or {}
        vectors = QueryVectors(embedder)
        self.names = SchemaNames(vocab, vectors)
        paths = PathFinder(vocab, self.names)
        self.linker = AnchorLinker(vocab, index, values, self.names, vectors)
        self.enumerator = ReadingEnumerator(vocab, self.names, paths, self.value_classes)
        self.ranker = RankingReadings(vocab, self.names, paths)
        self.scorer = ReadingScorer(vocab, self.names, vectors)
        self.runner = EvidenceRunner(vocab, index)

    def anchors(self, question: str) -> list[Anchor]:
        """What the question names (stage 1)."""
        return self.linker.anchors(question)

    def draft(self, question: str, options: list[str] | None = None, run: Run | None = None,
              uses: Uses | None = None) -> PlanDraft:
        """`run` runs a plan (read-only); `uses` says which properties the named instances take part
        in, so readings through properties an anchor does not have are never made."""
        d = PlanDraft(question, None)
        anchors = self.anchors(question)
        d.decisions["anchors"] = "; ".join(f"{a.text!r} → {a.prop or ','.join(self.names.short(c) for c in a.classes)}"
                                           for a in anchors) or "none"
        readings = self.enumerator.enumerate(anchors, uses)
        readings += self.ranker.rankings(question, anchors, readings)
        if not anchors and not readings:
            d.reason = "nothing in the question links to the ontology"
            return d
        kept = self._of_asked_class(d, question, anchors, readings)
        if kept is not None:
            kept = self._of_asked_time(d, question, kept)
        if kept is not None:
            kept = self._of_someone(d, question, anchors, kept)
        if kept is None:
            return d
        readings = kept
        if not readings:
            d.reason = "no path of the schema joins what the question names"
            return d
        option_links = [self.index.link(o) for o in options] if options else []
        self.scorer.score(question, readings, option_links)
        if run is not None:
            self.runner.check(question, readings, run, options, option_links)
            if not readings:
                d.reason = "every reading that ran found nothing"
                return d
        readings.sort(key=lambda r: -r.score)
        d.readings = readings
        best = choose(d, question, readings, self.llm, self.margin)
        d.plan, d.rows, d.best, d.anchors = best.plan, best.rows, best, anchors
        self._among_options(d, best, options, option_links)
        d.decisions["reading"] = f"{best.spelled()} (score {best.score:.3f})"
        return d

    def _of_asked_class(self, d: PlanDraft, question: str, anchors: list[Anchor],
                        readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """The readings that answer with the class the question asks for by name, if it does; None
        (the draft's reason said) when none does."""
        asked = self.names.asked_class(question, anchors)
        if not (asked and readings):
            return readings
        # "Which subject covers X?" asks for a subject: a reading that answers with things of an
        # unrelated class (the staff who work on X) is no answer, however few readings there are; nor is
        # a value ("Which unit is X based on?" answered "2009"), unless its values name things of that class
        words = words_outside(question, anchors)
        kept = [r for r in readings if self._answers_with(r, asked, words)]
        if len(kept) < len(readings):
            d.decisions["asked_class"] = (f"{self.names.short(asked)}: {len(readings) - len(kept)} reading(s) "
                                          "answering with another class set aside")
        if not kept:
            d.reason = (f"the question asks for a {self.names.class_words[asked]}, and no reading of the schema "
                        "that joins what it names answers with one")
            return None
        return kept

    def _answers_with(self, r: QuestionReading, asked: str, words: set[str]) -> bool:
        """The reading answers with things of the asked class (or of one related to it by subclassing),
        or with the value of a property the question names whole ("which subject code": the words after
        "which" go on past the class's name into the property's)."""
        if r.kind == "members":
            return r.answer_class is None or self.vocab.compatible(r.answer_class, asked)
        if r.value_class is not None and self.vocab.compatible(r.value_class, asked):
            return True
        own = property_content_words(r.prop)
        return bool(own) and own <= words

    def _of_someone(self, d: PlanDraft, question: str, anchors: list[Anchor], readings: list[QuestionReading]
                    ) -> list[QuestionReading] | None:
        """"Who …?" asks for someone: a thing, not a value of one ("Who heads the unit where X works?" is
        not answered with X's e-mail address), nor a thing of the class the question talks about ("the
        unit": the someone heads it); None (the reason said) when no reading gives someone."""
        if not ASKS_WHO.search(question):
            return readings
        words = words_outside(question, anchors)
        kept = [r for r in readings if (r.kind == "members" and not (r.answer_class and
                                                                     self.names.names(r.answer_class, words)))
                or r.value_class is not None]
        # … and of the classes left, those whose names are nearly as much a person's as the likeliest
        # one's (a clinician, not a medical specialty): the schema says no class is people, its names do
        likeness = self.names.person_likeness({r.answer_class for r in kept if r.answer_class})
        best = max(likeness.values(), default=0.0)
        kept = [r for r in kept if not r.answer_class or likeness[r.answer_class] >= best - SOMEONE_MARGIN]
        if not kept:
            d.reason = "the question asks who, and no reading of the schema that joins what it names gives someone"
            return None
        return kept

    def _of_asked_time(self, d: PlanDraft, question: str, readings: list[QuestionReading]
                       ) -> list[QuestionReading] | None:
        """A question that asks when ("When did X open?", "In which year …") is answered by a time:
        the readings whose property holds times; None (the reason said) when no reading gives one — a
        list of departments is no answer to "when", whatever else the question names."""
        if not WHEN.search(question):
            return readings
        kept = [r for r in readings if r.kind == "attribute" and not r.plan.count
                and any((p := self.vocab.get(name)) is not None and holds_time(p) for name in r.plan.returns)]
        if not kept:
            d.reason = "the question asks when, and no reading of the schema that joins what it names gives a time"
            return None
        return kept

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
