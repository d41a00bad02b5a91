"""Stage 4, evidence: the best readings run (read-only, through the layer) until the best one has
run. A reading that cannot run, finds nothing, only restates the question, or supports none of the
options loses points and lets the next one up; one whose answers are exactly of the class it asks
for keeps its place."""

from __future__ import annotations

import re

from pyramid.errors import PolyragError
from pyramid.normalise import fold
from pyramid.ontology.labels import LabelIndex, LabelLink
from pyramid.vocab import Vocab
from querying.options import Value, is_none_option, select_options
from querying.planning.records import SHARE_DIGITS, QuestionReading, Run
from querying.planning.weights import EMPTY, OPTIONS_HIT, SUBCLASS_ONLY
from querying.planning.wording import forms
from querying.sparql_plan import as_number

RUN_BUDGET = 16           # queries run for evidence, at most
ONE_EACH_RECOUNTS = 3     # counts along a relation held once that are run to see whether this one is more


class EvidenceRunner:
    """Runs readings and adds what their rows say to their scores."""

    def __init__(self, vocab: Vocab, index: LabelIndex) -> None:
        self.vocab, self.index = vocab, index

    def check(self, question: str, readings: list[QuestionReading], run: Run, options: list[str] | None,
              option_links: list[list[LabelLink]]) -> None:
        """Run the best readings until the best one has run (at most RUN_BUDGET runs): a reading that
        loses points here lets the next one up, which is run in its turn."""
        ids = [{lk.iri for lk in links} for links in option_links]
        self._recount_one_each(readings, run)
        for _ in range(RUN_BUDGET):
            readings.sort(key=lambda r: -r.score)
            if readings and readings[0].evidence.get("void"):
                readings.pop(0)  # no answer at all: the next one up runs in its turn
                continue
            if not readings or readings[0].rows is not None or "error" in readings[0].evidence:
                break
            self._evidence(readings[0], run, options, ids, question)
        readings[:] = sorted((r for r in readings if not r.evidence.get("void")), key=lambda r: -r.score)

    @staticmethod
    def _recount_one_each(readings: list[QuestionReading], run: Run) -> None:
        """A count along a relation most things hold once lost points as "one, always" (scoring); where it
        would lead without them, it runs: more than one for this anchor ("How many sites is X responsible
        for?" of a manager of two) gives the points back."""
        best = max((r.score for r in readings), default=0.0)
        for r in [r for r in readings if r.evidence.get("one_each") == -1.0 and r.score + EMPTY > best][:ONE_EACH_RECOUNTS]:
            try:
                counted = [v for row in run(r.plan) for v in row.values()]
            except PolyragError:
                continue
            if counted and (as_number(counted[0]) or 0.0) > 1:
                r.evidence["one_each"] = 0.0
                r.score += EMPTY

    def _may_be_asked(self, rows: list[dict[str, str]], asked: str | None) -> list[dict[str, str]]:
        """The rows whose thing may be of the asked class: its most specific classes are that class, below it or
        above it — a hut is no valley, a place filed as nothing narrower may be one."""
        if asked is None:
            return rows

        def may(iri: str) -> bool:
            cs = set(self.index.classes_of(iri))
            own = [c for c in cs if not any(c in self.vocab.ancestors(o) for o in cs if o != c)]
            return not own or any(self.vocab.compatible(c, asked) for c in own)
        return [row for row in rows if may(row.get("x", ""))]

    def _evidence(self, r: QuestionReading, run: Run, options: list[str] | None, ids: list[set[str]],
                  question: str) -> None:
        """Run the reading; a count is judged by the things it counts (their query runs too)."""
        members = r.plan.model_copy(update={"count": False}) if r.plan.count else r.plan
        try:
            rows = self._may_be_asked(run(members), r.asked_class)
            r.rows = run(r.plan) if r.plan.count else rows
        except PolyragError:  # a reading that cannot run is evidence against it
            r.evidence["error"] = 1.0
            r.score -= EMPTY
            return
        answers = _answers(rows) if r.kind == "members" else [v for row in rows for k, v in row.items()
                                                               if k.startswith("r") or k == "value"]
        if not answers:
            r.evidence["empty"] = 1.0
            if not r.evidence.get("unheld"):  # a step the data never takes from X was read to find nothing
                r.score -= EMPTY
            if r.plan.count and not r.evidence.get("quantity"):
                # a zero is an answer only to a question that asks for a number: "Glassblowing — which
                # department runs it?" of a subject the data joins to no department is not "0"
                r.evidence["void"] = 1.0
            return
        rank = r.plan.rank
        if rank is not None and rank.fn == "count" and rank.order == "most" and rank.having is None and \
                not rank.every and all(row.get("n") == "1" for row in rows):
            # "the most" of what each holds one of (the head of a department) ranks nothing: every one ties
            r.evidence["one_each"] = 1.0
            r.score -= EMPTY
            return
        if r.kind == "attribute" and all(f" {fold(v)} " in f" {fold(question)} " for v in answers):
            # the question states this value already (a subject's title beside its code): not what it asks
            r.evidence["stated"] = 1.0
            r.score -= EMPTY
            return
        if options and not r.plan.count:
            hit = [i for i in select_options(options, _values(rows), option_ids=ids, allow_none=True)
                   if not is_none_option(options[i])]
            r.evidence["options_hit"] = float(len(hit))
            r.score += OPTIONS_HIT if hit else -OPTIONS_HIT
        if r.kind == "members" and r.answer_class:
            exact = self._exact_share(answers, r.answer_class, question)
            r.evidence["exact_class"] = round(exact, SHARE_DIGITS)
            r.score -= SUBCLASS_ONLY * (1 - exact)

    def _exact_share(self, answers: list[str], cls: str, question: str) -> float:
        """Share of the answers whose classes hold no proper subclass of `cls` (a department filed as a
        faculty by a subclass axiom is not what 'which faculty' asks for). A class with no instances
        of its own is answered by its subclasses' (an abstract "professor" counts every rank), and so is
        a class the question names by a noun that heads a subclass's name: "films" asks for short films
        too (English heads a noun phrase with its last word)."""
        said = {forms(w)[0] for w in re.findall(r"[a-z]+", question.lower())}
        heads = {h for n in self.vocab.by_iri[cls].names if n.split() and (h := forms(n.split()[-1])[0]) in said}
        subs = frozenset(c.iri for c in self.vocab.classes if cls in self.vocab.ancestors(c.iri)
                         and not any(n.split() and forms(n.split()[-1])[0] in heads for n in c.names))
        if not subs or not self.index.has_own(cls, subs):
            return 1.0
        return sum(not (set(self.index.classes_of(a)) & subs) for a in answers) / len(answers)


def _answers(rows: list[dict[str, str]] | None) -> list[str]:
    return list(dict.fromkeys(r.get("x") or next(iter(r.values()), "") for r in rows or [] if r))


def _values(rows: list[dict[str, str]]) -> list[Value]:
    out = []
    for r in rows:
        iri = r.get("x")
        out += [Value(v, iri) for k, v in r.items() if k != "x"] + ([Value(iri, iri)] if iri else [])
    return out
