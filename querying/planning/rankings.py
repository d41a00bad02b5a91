"""Stage 2, the ranking readings: made only for a question with a superlative of quantity ("which
faculty has the most departments?"), a threshold ("more than 100 subjects") or a comparative ("X or
Y: which has more staff?") followed by what is counted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pyramid.vocab import Term, Vocab
from querying.planning.anchors import strength
from querying.planning.cues import (
    COMPARATIVE,
    COMPARING,
    COUNTING,
    FEWEST,
    GROUPED,
    SUPERLATIVE,
    THRESHOLD,
    TOTALS,
    comparison,
    comparison_op,
    counted_noun,
    total_cue,
)
from querying.planning.names import SchemaNames, property_words
from querying.planning.paths import PathFinder, Paths, step_key
from querying.planning.records import MAX_ANCHOR_IRIS, Anchor, QuestionReading
from querying.planning.weights import FIRM
from querying.planning.wording import forms, masked
from querying.sparql_plan import QueryPlan, Rank, Step

# "the highest average", "the lowest total": a ranking adjective before a total ranks by it
RANKED_TOTAL = re.compile(r"\b(highest|largest|greatest|biggest|top|lowest|smallest|least)\b", re.IGNORECASE)
LOWEST = {"lowest", "smallest", "least"}
# a total compared with a number ("an average cost above 30 euros"): a test every group must pass
TOTAL_PAST = re.compile(rf"\b({COMPARING})\s+[€$£]?\s?"
                        r"(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)
COMPARED = 2              # a comparative ranks the instances the question names: two of them at least


@dataclass(frozen=True)
class RankCue:
    """What the question ranks by: its cue, what is counted (a class, or a datatype property's
    values), in which order, and a threshold's comparison if it has one."""

    cue: re.Match
    compared: bool
    counted: str | None
    attribute: Term | None
    order: Literal["most", "fewest"]
    having: tuple[str, float] | None
    words: str                # what is counted, in the schema's words
    group: str | None = None  # "how many staff in each department": the class of every group, all kept
    fn: str = "count"         # "the average price per supplier": an aggregate of the attribute's values
    ranked: str | None = None  # "which supplier has the highest average cost": the class ranked by it


class RankingReadings:
    """The readings that rank the instances of a class by how many things they reach."""

    def __init__(self, vocab: Vocab, names: SchemaNames, paths: PathFinder) -> None:
        self.vocab, self.names, self.paths = vocab, names, paths

    def rankings(self, question: str, anchors: list[Anchor], readings: list[QuestionReading]) -> list[QuestionReading]:
        """"Which faculty has the most departments?": when a superlative of quantity is followed by a
        class's name (or a datatype property's), a reading per class that reaches it by a path of one or
        two steps, its instances ranked by how many they reach — alone, and within each plain reading of
        that class that keeps the question's anchors ("which department of faculty X has the most
        staff?"). A threshold ("more than 100 subjects") keeps every instance past it; a comparative
        ("X or Y: which has more staff?") ranks the instances the question names."""
        rc = self._cue(question, anchors) or self._grouped(question, anchors) or self._ranked_total(question, anchors)
        if rc is None:
            return []
        out = []
        for (target, key), (text, fit, mids) in self._paths(rc).items():
            if target == rc.counted or fit < 1.0 or (rc.group or rc.ranked) not in (None, target):
                continue
            rank = Rank(path=[Step(property=p, inverse=inv) for p, inv in key],
                        counted=self.vocab.by_iri[rc.counted].name if rc.counted else None, order=rc.order,
                        having=rc.having, every=rc.group is not None, fn=rc.fn)
            clause = text.replace("X", f"{rc.cue.group(0) if rc.having else rc.order} {rc.words}")
            lead = f"which {self.names.class_words[target]}"
            name = self.vocab.by_iri[target].name
            if rc.compared:
                among = tuple(a for a in anchors if not a.is_value and
                              any(self.vocab.compatible(c, target) for c in a.classes))
                if len(among) >= COMPARED:
                    plan = QueryPlan(target=name, rank=rank,
                                     candidates=[i for a in among for i in a.iris][:MAX_ANCHOR_IRIS])
                    more = "fewer" if rc.order == "fewest" else "more"
                    said = text.replace("X", rc.words).replace("{T}", lead) + f"; which has {more} {rc.words}, X or Y?"
                    out.append(_ranking(plan, said, among, key, target, clause, lead, mids))
                continue
            within = [r for r in readings if r.kind == "members" and r.answer_class == target and not r.plan.count
                      and r.plan.rank is None and min(map(strength, r.anchors), default=0) >= FIRM]
            for base in [None, *within]:
                plan = QueryPlan(target=name, rank=rank, constraints=base.plan.constraints if base is not None else [])
                words = clause.replace("{T}", lead) + ("" if base is None else " and " + base.spelled().rstrip("?"))
                out.append(_ranking(plan, words + "?", base.anchors if base is not None else (), key, target,
                                    clause, lead, mids))
        return out

    def _cue(self, question: str, anchors: list[Anchor]) -> RankCue | None:
        """The question's ranking cue and what it counts; None when it has none, or when it compares a
        value the question gives ("more than 3 credits" compares the value, it counts nothing)."""
        text = masked(question, [a for a in anchors if not a.is_value])
        # a threshold ("more than 100 subjects") keeps every instance past it; a comparative between
        # the instances the question names ("X or Y: which has more staff?") ranks those only
        threshold = THRESHOLD.search(text)
        compared = threshold is None and SUPERLATIVE.search(text) is None and COMPARATIVE.search(text) is not None
        cue_words = THRESHOLD if threshold else COMPARATIVE if compared else SUPERLATIVE
        cue = cue_words.search(text)
        words = counted_noun(text, cue_words) if cue else ""
        counted = self.names.class_named_by(words)
        attribute = self.names.attribute_named_by(words) if counted is None else None
        if cue is None or counted is None and attribute is None or \
                attribute is not None and any(a.prop == attribute.name for a in anchors):
            return None
        order: Literal["most", "fewest"] = "fewest" if FEWEST.match(cue.group(1)) else "most"
        having = comparison(cue) if threshold else None
        c_words = property_words(attribute) if attribute is not None else self.names.class_names[counted][0]
        return RankCue(cue, compared, counted, attribute, order, having, c_words)

    def _grouped(self, question: str, anchors: list[Anchor]) -> RankCue | None:
        """"How many employees work in each department?": a count per group, every group kept."""
        text = masked(question, [a for a in anchors if not a.is_value])
        group, counting, total = GROUPED.search(text), COUNTING.search(text), total_cue(text)
        if group is None or counting is None and total is None:
            return None
        grouped = self.names.class_named_by(group.group("group"))
        if total is not None and counting is None:
            return self._grouped_total(total, grouped)
        counted = self.names.class_named_by(counted_noun(text, COUNTING))
        if grouped is None or counted is None or grouped == counted:
            return None
        return RankCue(counting, False, counted, None, "most", None, self.names.class_names[counted][0], grouped)

    def _ranked_total(self, question: str, anchors: list[Anchor]) -> RankCue | None:
        """"Which supplier has the highest average part cost?": the asked class's things ranked by an
        aggregate of the values they reach, the first kept."""
        text = masked(question, [a for a in anchors if not a.is_value])
        top, total = RANKED_TOTAL.search(text), total_cue(text)
        asked = self.names.asked_class(question, anchors)
        if total is None or asked is None:
            return None
        past = TOTAL_PAST.search(text, total.end())  # "an average unit cost above 30": every group past it
        if (top is None or top.end() > total.start()) and past is None:
            return None
        rc = self._grouped_total(total, asked)
        if rc is None:
            return None
        if past is not None:
            having = (comparison_op(past.group(1)), float(past.group(2).replace(",", "")))
            return RankCue(rc.cue, False, None, rc.attribute, "most", having, rc.words, None, rc.fn, asked)
        way: Literal["most", "fewest"] = "fewest" if top.group(1).lower() in LOWEST else "most"
        return RankCue(rc.cue, False, None, rc.attribute, way, None, rc.words, None, rc.fn, asked)

    def _grouped_total(self, total: re.Match, grouped: str | None) -> RankCue | None:
        """"The average unit cost of parts per supplier": an aggregate of an attribute's values, per group."""
        words = total.group("words") or total.group("words2") or ""
        attribute = self.names.attribute_named_by(words) or self._by_head(words)
        if grouped is None or attribute is None or not attribute.domains:
            return None
        return RankCue(total, False, None, attribute, "most", None, property_words(attribute), grouped,
                       TOTALS[" ".join((total.group("fn") or total.group("fn2")).lower().split())])

    def _by_head(self, words: str) -> Term | None:
        """The one datatype property whose name ends in the last of these words ("part cost" → unit
        cost: English puts a name's kind last)."""
        said = forms(words)
        if not said:
            return None
        fits = [p for p in self.vocab.properties if p.kind == "datatype" and p.domains
                and forms(property_words(p))[-1:] == said[-1:]]
        return fits[0] if len(fits) == 1 else None

    def _paths(self, rc: RankCue) -> Paths:
        """The paths from a ranked class to what is counted."""
        attribute = rc.attribute
        if attribute is not None and rc.fn != "count":  # the group's path to the things that hold the values
            holder = attribute.domains[0]
            ends = {(c.iri, ()): (f"{{T}} has {rc.words}", 1.0, ()) for c in self.vocab.classes
                    if self.vocab.fit(c.iri, attribute.domains) == 1.0}
            walks = {**ends, **self.paths.schema_paths(Anchor((), rc.words, classes=(holder,)))}
            return {(t, (*key, *step_key(Step(property=attribute.name)))): (text, fit, (*mids, holder))
                    for (t, key), (text, fit, mids) in walks.items()}
        if attribute is not None:  # "the most research interests": values of the property, counted
            return {(c.iri, step_key(Step(property=attribute.name))): (f"{{T}} has {rc.order} {rc.words}", 1.0, ())
                    for c in self.vocab.classes if attribute.domains and self.vocab.fit(c.iri, attribute.domains) == 1.0}
        assert rc.counted is not None
        return self.paths.schema_paths(Anchor((), rc.words, classes=(rc.counted,)))


def _ranking(plan: QueryPlan, text: str, anchors: tuple[Anchor, ...], key: tuple[tuple[str, bool], ...], target: str,
             clause: str, lead: str, mids: tuple[str, ...]) -> QuestionReading:
    r = QuestionReading("members", plan, text, anchors, len(key), target, clause=clause, asks=f"{lead}?", mids=mids)
    r.evidence["fit"] = 1.0
    return r
