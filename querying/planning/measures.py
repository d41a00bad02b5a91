"""Stage 2, the measure readings: made only for a question that ranks things by a value of theirs ("the
cheapest laptop", "the three heaviest headsets", "the highest price of any …"), compares a value with a
number ("laptops under 1,000 euros", "heavier than 2 kg", "released after 2023"), or asks for one value
over many ("the average price of our monitors", "the total weight").

Read by method: a superlative or a comparative is found by the parser's tags (JJS, RBS, JJR), the
dimension a gradable adjective measures comes from English (`english.GRADABLE`: the cheapest is the
lowest price), a unit after a number from the units people write (`english.UNIT_WORDS`); which datatype
property they mean is decided by the schema — the property's name and comment against the dimension
or the unit, among the numeric or date properties of the class asked about (its declared range)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pyramid.reading.english import (
    AGE,
    AUXILIARIES,
    CARDINALS,
    DETERMINERS,
    GRADABLE,
    ORDINALS,
    PREPOSITIONS,
    RANKING_ADJECTIVES,
    STOPWORDS,
    SUBJECT_PRONOUNS,
    UNIT_SPELLINGS,
    UNIT_WORDS,
    YEAR_WORDS,
    parser,
)
from pyramid.vocab import Term, Vocab
from querying.planning.absence import ABSENT
from querying.planning.anchors import strength
from querying.planning.cues import (
    COMPARING,
    COUNTING,
    GROUPED,
    NUMBER_RANKED,
    POLAR,
    TOTALS,
    comparison_op,
    counted_noun,
    noun_after,
    one_of,
    rounding,
    total_cue,
)
from querying.planning.names import SchemaNames, property_words
from querying.planning.records import Anchor, QuestionReading
from querying.planning.vectors import QueryVectors
from querying.planning.weights import FIRM
from querying.planning.wording import forms
from querying.sparql_plan import MAX_CANDIDATES, Aggregate, Comparison, Constraint, Order, QueryPlan, Step

NUMERIC = ("integer", "int", "long", "short", "decimal", "double", "float", "nonNegativeInteger",
           "positiveInteger", "gYear")
TEMPORAL = ("date", "dateTime", "dateTimeStamp")
# the words a question counting a whole class may hold beside its cue and the class ("how many … are there
# altogether", "do we currently have", "in total"): existence and totality in English's closed words
EXISTENTIAL = frozenset({"there", "exist", "exists", "existing", "total", "altogether", "overall", "currently",
                         "now", "today", "together", "number", "count", "us", "our", "you", "your", "them", "hold",
                         "holds", "own", "owns", "keep", "keeps", "list", "listed", "registered", "recorded", "known"})
# who holds the things counted: "how many books does *the library network* own"
_HOLDER = re.compile(r"\b(?:do|does|did)\s+(?P<holder>(?:[^\W\d_]+\s+){1,4}?)(?:own|have|hold|keep)\b", re.IGNORECASE)
ASKERS = frozenset({"we", "you", "i"})  # the asker's side: what "we" do with things of a class counts them all
MEASURE_LIKENESS = 0.3    # a dimension's words and a property's name, at least, when no unit decides
# the cues worth parsing a question for: a superlative, a comparison, a year, a total
_MAYBE = re.compile(r"\bby\b|\w+est\b|\bmost\b|\bleast\b|\w+er\s+than\b|\bexceeds?\b|\d|"
                    r"\b(?:average|mean|total|sum|maximum|minimum|together|altogether|combined)\b|"
                    r"\bhow\s+many\b|\bnumber\s+of\b", re.IGNORECASE)
_SUPERLATIVE_WORD = re.compile(r"\w{2,}est\b|\bmost\b|\bleast\b", re.IGNORECASE)
_NUMBER = r"(?P<pre>[€$£])?\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<unit>[€$£%]|[^\W\d_]+))?"
_COMPARE = re.compile(rf"\b(?P<cue>{COMPARING})\s+{_NUMBER}", re.IGNORECASE)
_COMPARATIVE = re.compile(rf"\b(?P<adj>[^\W\d_]+(?:er|ier))\s+than\s+{_NUMBER}", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+(?P<pre>[€$£])?\s?(?P<lo>\d[\d,]*(?:\.\d+)?)\s+and\s+[€$£]?\s?"
                      r"(?P<hi>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<unit>[€$£%]|[^\W\d_]+))?", re.IGNORECASE)
_SORTED = re.compile(r"\b(?:sorted|ordered|sort|order|ranked|arranged)\s+(?:them\s+)?by\s+(?:their\s+|the\s+)?"
                     r"(?P<words>[^\W\d_]+(?:\s+[^\W\d_]+)?)(?:[,\s]+(?:(?P<way>desc|asc)\w*|"
                     r"(?:(?P<much>most|least)\s+)?(?P<end>[^\W\d_]+)\s+first))?", re.IGNORECASE)
# two values of one thing compared: "longer than (they are) wide"; "whose width exceeds their length",
# "with a height greater than its width"
_PAIRED_ADJECTIVES = re.compile(r"\b(?P<adj>[^\W\d_]+(?:er|ier))\s+than\s+(?:(?:it|they)\s+(?:is|are|was|were)\s+)?"
                                r"(?P<adj2>[^\W\d_]+)\b", re.IGNORECASE)
_PAIRED_NOUNS = re.compile(rf"\b(?:whose|(?:with|has|have|having)\s+(?:a|an|the)|where\s+(?:the|its|their))\s+"
                           rf"(?P<n1>[^\W\d_]+(?:\s+[^\W\d_]+)?)\s+(?:is\s+|are\s+)?(?P<cue>exceeds?|{COMPARING})\s+"
                           rf"(?:its|their|the)\s+(?P<n2>[^\W\d_]+(?:\s+[^\W\d_]+)?)", re.IGNORECASE)
_AMOUNT = re.compile(rf"(?<![\w.]){_NUMBER}", re.IGNORECASE)
# the units a number may be written in: every unit name, and the spans of time people count in
UNIT_NAMES = frozenset({*(forms(u)[0] for u in UNIT_WORDS.values()), *UNIT_WORDS,
                        "day", "week", "month", "year", "hour", "minute", "second", "percent"})
_YEAR = re.compile(rf"\b(?P<cue>{one_of(YEAR_WORDS)})\s+(?P<year>1\d{{3}}|2\d{{3}})\b(?!\s*[^\W\d_])", re.IGNORECASE)



@dataclass(frozen=True)
class Ranked:
    """A superlative: what it measures (a dimension's words, or the noun naming the property), which
    end (+1 the most), how many, the noun it qualifies, and the places passed over ("the second …")."""

    dimension: str
    sign: int
    by_noun: bool
    k: int
    head: str
    skip: int = 0


@dataclass(frozen=True)
class Paired:
    """Two values of one thing compared with each other: what each side measures (a dimension's words,
    or the noun naming the property when `by_noun`) and the test."""

    left: str
    op: str
    right: str
    by_noun: bool


@dataclass(frozen=True)
class Compared:
    """A value compared with a number: the test, the number, the unit or noun after it, the comparative
    adjective's dimension (or the words before the cue)."""

    op: str
    number: str
    unit: str
    dimension: str
    year: bool = False
    span: tuple[int, int] = (0, 0)   # the number's place in the question's text
    noun: str = ""                   # the noun after the number ("more than 100 graduate students")


def base_adjective(word: str) -> str:
    """'cheapest' → 'cheap', 'heavier' → 'heavy', 'biggest' → 'big', 'widest' → 'wide' (the base a
    comparison table knows); the word itself when none fits."""
    w = word.lower()
    if w in GRADABLE or w in RANKING_ADJECTIVES:
        return w
    if w.endswith("ly") and len(w) > 4:  # "most recently", "most cheaply": the adjective the adverb is built on
        for cand in (w[:-2], w[:-3] + "y" if w.endswith("ily") else ""):
            if cand in GRADABLE:
                return cand
    for end in ("est", "er"):
        if w.endswith(end):
            stem = w[:-len(end)]
            for cand in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else "",
                         stem[:-1] + "y" if stem.endswith("i") else ""):
                if cand and (cand in GRADABLE or cand in RANKING_ADJECTIVES):
                    return cand
    return w


def _kind(p: Term) -> str:
    """'number', 'date' or '' by the property's declared range ('number' when none is declared)."""
    ends = {r.rsplit("#", 1)[-1] for r in p.ranges}
    if not ends:
        return "number"
    return "date" if ends & set(TEMPORAL) else "number" if ends & set(NUMERIC) else ""


def _dated(p: Term) -> bool:
    """The property's values are points in time: dates, or years (a year of birth, of founding: typed
    as years, or numbers whose name says they are years)."""
    return _kind(p) == "date" or any(r.rsplit("#", 1)[-1] == "gYear" for r in p.ranges) or \
        _kind(p) == "number" and "year" in forms(p.words)


class MeasureReadings:
    """The readings that order, filter or aggregate the things of a class by a value of theirs."""

    def __init__(self, vocab: Vocab, names: SchemaNames, vectors: QueryVectors) -> None:
        self.vocab, self.names, self.vectors = vocab, names, vectors

    def readings(self, question: str, anchors: list[Anchor], readings: list[QuestionReading]) -> list[QuestionReading]:
        """Empty unless the question ranks, compares or totals by a value its class has."""
        if not _MAYBE.search(question):
            return []
        named = [a for a in anchors if not a.is_value]
        text = _blanked(question, named)
        digits, said = rounding(text)
        if said is not None:  # "rounded to the nearest euro": how to write the answer, nothing measured
            text = text[:said[0]] + " " * (said[1] - said[0]) + text[said[1]:]
        ranked = self._ranked(_SORTED.sub(" ", text))  # "sorted by price, highest first" ranks nothing
        compared = _compared(text)
        paired = _paired(text)
        # a total per group ("the average price per supplier") is a ranking's (see rankings._grouped)
        total = total_cue(text) if not GROUPED.search(text) else None
        counting = bool(COUNTING.search(text))
        if ranked is not None and (total_cue(text) or NUMBER_RANKED.search(text)):
            return []  # "the highest average cost", "the largest number of staff": rankings' (see rankings)
        if ranked is None and not compared and not paired and total is None and not _SORTED.search(text) and \
                not (counting and not anchors and not readings):
            return []
        target = self._target(question, text, anchors, ranked)
        # "Does X cost more than 400 euros?": a yes/no question about one named thing measures that thing
        subject = named[0] if target is None and len(named) == 1 and POLAR.match(question) else None
        if subject is not None and subject.classes:
            target = subject.classes[0]
        if target is None:
            return []
        measures = [p for p in self.vocab.properties_of(target, "datatype") if _kind(p)]
        read = [(cmp, c) for cmp in compared if (c := self._constraint(cmp, measures)) is not None]
        filters = [c for _, c in read]
        pairs = [c for pair in paired if (c := self._pair(pair, measures)) is not None]
        order = self._order(ranked, measures) if ranked else self._sorted(text, target)
        aggregate = self._aggregate(total, measures) if total and order is None else None
        if total is not None and order is None and aggregate is None:
            return []  # a total of what this class does not hold: another reading's (a ranking by a total)
        if order is None and aggregate is None and not filters and not pairs and (
                anchors or readings or not counting or self.names.class_named_by(counted_noun(text, COUNTING)) != target
                or not self._only_counted(text, target)):
            return []  # nothing measured; a class counted as a whole only when nothing else is named, by its name
        out = []
        # a base reading that already reads a compared number as a value (the value index's "3 credits")
        # would say the comparison twice: only the bases that leave it to the filter
        said = [cmp.span for cmp, _ in read]
        bases = [r for r in self._within(target, readings)
                 if not any(a.is_value and _meets(a.spans, said) for a in r.anchors)]
        for base in [None, *bases]:
            constraints = [*(base.plan.constraints if base is not None else []), *filters]
            plan = QueryPlan(target=self.vocab.by_iri[target].name, constraints=constraints, compare=pairs,
                             candidates=list(subject.iris) if subject is not None else [])
            if order is not None:
                plan = plan.model_copy(update={"order": order})
            elif aggregate is not None:
                plan = plan.model_copy(update={"aggregate": aggregate[0], "returns": [aggregate[1]], "digits": digits})
            elif counting:
                plan = plan.model_copy(update={"count": True})
            out.append(self._reading(plan, target, base, order, aggregate, (subject,) if subject else ()))
        return out

    # -- what the question says
    def _ranked(self, text: str) -> Ranked | None:
        """The question's superlative by the parser's tags: "the cheapest laptop", "the most expensive",
        "the highest price" (a noun after a ranking adjective names the property). "The most
        departments" ranks a count, not a value (see rankings): None."""
        if not _SUPERLATIVE_WORD.search(text):
            return None  # the parser loads only for a question that may hold a superlative
        doc = parser()(text)
        for i, t in enumerate(doc):
            if t.tag_ not in ("JJS", "RBS"):
                continue
            sign, adj = 1, t
            if t.lower_ in ("most", "least"):
                nxt = doc[i + 1] if i + 1 < len(doc) else None
                verb = _verb_before(doc, i)
                if verb is not None and (nxt is None or nxt.pos_ == "PUNCT"):
                    # "weighs the least", "costs the most": the verb says what is measured
                    return Ranked(verb.text, 1 if t.lower_ == "most" else -1, False, 1, "")
                if nxt is None or nxt.tag_ not in ("JJ", "RB", "VBN"):
                    return None
                sign, adj = (1 if t.lower_ == "most" else -1), nxt
            k = _k_before(doc, i) if _k_before(doc, i) > 1 else _k_before(doc, adj.i + 2)
            base = base_adjective(adj.text)
            head = adj.head.text if adj.head.pos_ in ("NOUN", "PROPN") and adj.head.i > adj.i else ""
            after = [w.text for w in doc[adj.i + 1:adj.i + 3] if w.pos_ in ("NOUN", "PROPN")]
            if base in RANKING_ADJECTIVES and after and sign == 1:
                phrase = " ".join(after)
                if self.names.class_named_by(phrase) is None or self.names.attribute_named_by(phrase):
                    return Ranked(phrase, RANKING_ADJECTIVES[base], True, k, "")
            dimension, own = GRADABLE.get(base, (adj.text, 1))
            skip, span = _places(doc, i)
            return Ranked(dimension, sign * own, False, span or k, head, skip)
        return None

    def _target(self, question: str, text: str, anchors: list[Anchor], ranked: Ranked | None) -> str | None:
        """The class whose things are measured: the noun the superlative qualifies, the class asked for,
        else the one class the question names."""
        if ranked is not None and ranked.head:
            cls = self.names.class_named_by(ranked.head)
            if cls is not None:
                return cls
        asked = self.names.asked_class(question, anchors)
        if asked is not None:
            return asked
        groups = self.names.named_class_groups(text)
        return next(iter(groups[0])) if groups and len(groups[0]) == 1 else None

    def _only_counted(self, text: str, target: str) -> bool:
        """The question says nothing but how many things of the class there are ("How many loans are
        there in the system?", "How many people are on the staff?"): a count of the whole class answers
        it. A word the plan would not hold ("still out", "Irish", "in each genre", "with no fee", "longer
        than") asks for some of them, and the whole class is a wrong answer to it."""
        if GROUPED.search(text) or ABSENT.search(text) or _COMPARE.search(text) or "than" in text.lower().split():
            return False
        # the class's names, the words that count it ("magazine titles"), and who holds them ("does the
        # library network own"): none of them narrows the count
        own = {f for n in (*self.names.class_names[target], counted_noun(text, COUNTING)) for f in forms(n)}
        own |= {f for m in _HOLDER.finditer(text) for f in forms(m.group("holder"))}
        tokens = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
        for i, w in enumerate(tokens):
            before = tokens[max(0, i - 2):i]
            if len(w) == 1 or w in STOPWORDS | AUXILIARIES | DETERMINERS | SUBJECT_PRONOUNS | EXISTENTIAL or \
                    forms(w)[0] in own or COUNTING.fullmatch(w):
                continue
            # where they are counted ("in the system", "on our books", "at the company"), or what the asker
            # does with them ("do we sell", "do you offer")
            if before and (before[-1] in PREPOSITIONS | ASKERS or len(before) == 2 and before[0] in PREPOSITIONS
                           and before[1] in DETERMINERS):
                continue
            return False
        return True

    # -- which property
    def _measure(self, dimension: str, measures: list[Term], unit: str = "", year: bool = False) -> Term | None:
        """The property a dimension, a unit or a year means, among the class's numeric and date
        properties: a unit decides where one property's name or comment says it; else the nearest name
        by meaning, if near enough."""
        dates = [p for p in measures if _kind(p) == "date"]
        # a year, or an age ("the newest", "the oldest"), is read off a date where the class has one; an
        # age off a year too ("the youngest author": the latest year of birth)
        when = [p for p in measures if _dated(p)]
        pool = dates if year else when if dimension == AGE and when else \
            [p for p in measures if _kind(p) == "number"]
        if unit:
            said = [p for p in pool if forms(unit)[0] in {f for w in re.findall(r"[\w-]+", p.text.lower())
                                                           for f in forms(w)[:1]}]
            if len(said) == 1:
                return said[0]
            pool = said or pool
        if not pool:
            return None
        if len(pool) == 1 and (year or unit or dimension == AGE):  # a class's one date is its age
            return pool[0]
        if not dimension:
            return None
        sims = self.vectors.embed([property_words(p) for p in pool]) @ self.vectors.embed([dimension])[0]
        best = int(np.argmax(sims))
        return pool[best] if sims[best] >= MEASURE_LIKENESS else None

    def _order(self, ranked: Ranked, measures: list[Term]) -> Order | None:
        if ranked.by_noun:
            named = self.names.attribute_named_by(ranked.dimension)
            p = named if named in measures else self._measure(ranked.dimension, measures)
        else:
            p = self._measure(ranked.dimension, measures)
        if p is None:
            return None
        # a date measures age backwards: the oldest has the earliest date
        sign = -ranked.sign if ranked.dimension == AGE and _dated(p) else ranked.sign
        return Order(property=p.name, descending=sign > 0, k=ranked.k, skip=ranked.skip)

    def _sorted(self, text: str, target: str) -> Order | None:
        """"… sorted by price, highest first": every answer, in that order (any attribute the class has:
        text sorts as text)."""
        m = _SORTED.search(text)
        if m is None:
            return None
        held = self.vocab.properties_of(target, "datatype")
        named = self.names.attribute_named_by(m.group("words"))
        p = named if named in held else self._measure(m.group("words"), [q for q in held if _kind(q)])
        if p is None:
            return None
        return Order(property=p.name, descending=_descending(m, _dated(p)), k=MAX_CANDIDATES)

    def _constraint(self, cmp: Compared, measures: list[Term]) -> Constraint | None:
        if not cmp.year and any(self.names.names(c, set(forms(w))) for w in (cmp.unit, cmp.noun) if w
                                for c in self.names.class_names):
            return None  # "more than 3 employees", "over 100 graduate students" count things (see rankings)
        p = self._measure(cmp.dimension, measures, UNIT_SPELLINGS.get(cmp.unit, cmp.unit), cmp.year)
        return None if p is None else Constraint(path=[Step(property=p.name)], op=cmp.op, values=[cmp.number])

    def _pair(self, pair: Paired, measures: list[Term]) -> Comparison | None:
        """Both sides' properties, two of one kind (numbers, or dates), else None."""
        sides = []
        for words in (pair.left, pair.right):
            named = self.names.attribute_named_by(words) if pair.by_noun else None
            sides.append(named if named in measures else self._measure(words, measures))
        left, right = sides
        if left is None or right is None or left.iri == right.iri or _kind(left) != _kind(right):
            return None
        return Comparison(left=left.name, op=pair.op, right=right.name)

    def _aggregate(self, m: re.Match, measures: list[Term]) -> tuple[Aggregate, str] | None:
        words = m.group("words") or m.group("words2")
        fn = TOTALS[" ".join((m.group("fn") or m.group("fn2")).lower().split())]
        named = self.names.attribute_named_by(words)
        p = named if named in measures else self._measure(words, measures)
        if p is not None and named is None and _dated(p) and fn in ("avg", "sum"):
            return None  # "the average age": a total of ages, which a plan reads off dates only by arithmetic
        return None if p is None or _kind(p) != "number" and fn not in ("min", "max") else (fn, p.name)

    # -- the readings
    def _within(self, target: str, readings: list[QuestionReading]) -> list[QuestionReading]:
        """The plain readings of the measured class that keep what the question names ("the cheapest
        laptop *with a Dutch part*")."""
        return [r for r in readings if r.kind == "members" and r.answer_class == target and not r.plan.count
                and r.plan.rank is None and r.anchors and min(map(strength, r.anchors)) >= FIRM]

    def _reading(self, plan: QueryPlan, target: str, base: QuestionReading | None, order: Order | None,
                 aggregate: tuple[Aggregate, str] | None, subject: tuple[Anchor, ...]) -> QuestionReading:
        words = self.names.class_words[target]
        if aggregate is not None:
            p = self.vocab.get(aggregate[1])
            lead = f"what is the {aggregate[0]} {property_words(p) if p else ''} of the {words}"
        elif order is not None:
            p = self.vocab.get(order.property)
            lead = f"which {words} has the {'highest' if order.descending else 'lowest'} " \
                   f"{property_words(p) if p else ''}"
        else:
            lead = f"{'how many' if plan.count else 'which'} {words}"
        text = lead + ("" if base is None else " and " + base.spelled().rstrip("?")) + "?"
        held = base.anchors if base is not None else subject
        r = QuestionReading("members" if aggregate is None else "attribute", plan, text, held or (), 1,
                            target if aggregate is None else None, clause="{T}", asks=f"{lead}?",
                            mids=(target,) if aggregate is not None else ())
        r.evidence["measure"] = 1.0
        return r


def _compared(text: str) -> list[Compared]:
    """Every value the question compares with a number: "under 1,000 euros", "heavier than 2 kg", "after
    2023" (a year against a date)."""
    out = []
    for m in _COMPARE.finditer(text):
        op = comparison_op(m.group("cue"))
        before = re.findall(r"[^\W\d_]+", text[:m.start()])[-1:]
        out.append(Compared(op, m.group("num").replace(",", ""), _unit(m), " ".join(before), span=m.span("num"),
                            noun=noun_after(text[m.end("num"):])))
    for m in _BETWEEN.finditer(text):  # "between 300 and 900 euros": both ends kept
        unit = (m.group("unit") or m.group("pre") or "").lower()
        before = re.findall(r"[^\W\d_]+", text[:m.start()])[-1:]
        for op, num in (("ge", m.group("lo")), ("le", m.group("hi"))):
            out.append(Compared(op, num.replace(",", ""), UNIT_WORDS.get(unit, unit), " ".join(before),
                                span=m.span("lo" if op == "ge" else "hi")))
    for m in _COMPARATIVE.finditer(text):
        base = base_adjective(m.group("adj"))
        if base in GRADABLE:
            dimension, sign = GRADABLE[base]
            out.append(Compared("gt" if sign > 0 else "lt", m.group("num").replace(",", ""), _unit(m), dimension,
                                span=m.span("num")))
    taken = [m.span() for m in (*_COMPARE.finditer(text), *_COMPARATIVE.finditer(text), *_BETWEEN.finditer(text))]
    for m in _AMOUNT.finditer(text):
        # "a warranty of 36 months", "weighing 2 kg": a number in a unit, compared with nothing, is that value
        if not any(a <= m.start() < b for a, b in taken) and m.group("unit") and forms(m.group("unit"))[:1] and \
                forms(m.group("unit"))[0] in UNIT_NAMES:
            before = re.findall(r"[^\W\d_]+", text[:m.start()])[-2:]
            out.append(Compared("eq", m.group("num").replace(",", ""), _unit(m), " ".join(before), span=m.span("num")))
    for m in _YEAR.finditer(text):
        before = re.findall(r"[^\W\d_]+", text[:m.start()])[-1:]
        out.append(Compared(YEAR_WORDS[m.group("cue").lower()], m.group("year"), "", " ".join(before), year=True,
                            span=m.span("year")))
    return out


def _paired(text: str) -> list[Paired]:
    """Every pair of one thing's values the question compares: "longer than they are wide" (each
    adjective's dimension; the first one's end says the test), "whose width exceeds their length"."""
    out = []
    for m in _PAIRED_ADJECTIVES.finditer(text):
        first, second = base_adjective(m.group("adj")), base_adjective(m.group("adj2"))
        if first in GRADABLE and second in GRADABLE and GRADABLE[first][0] != GRADABLE[second][0]:
            out.append(Paired(GRADABLE[first][0], "gt" if GRADABLE[first][1] > 0 else "lt", GRADABLE[second][0], False))
    for m in _PAIRED_NOUNS.finditer(text):
        cue = m.group("cue").lower()
        op = "gt" if cue.startswith("exceed") else comparison_op(cue)
        out.append(Paired(m.group("n1"), op, m.group("n2"), True))
    return out


def _unit(m: re.Match) -> str:
    """The unit a number is written with, in words ("kg" → kilogram, "€500" → euro); "" for none."""
    unit = (m.group("unit") or m.group("pre") or "").lower()
    return UNIT_WORDS.get(unit, unit)


def _k_before(doc, i: int) -> int:
    """"the three heaviest", "the 2 most expensive": how many the superlative keeps (1 when unsaid)."""
    before = doc[i - 1] if i > 0 else None
    if before is not None and before.like_num:
        word = before.lower_
        number = CARDINALS.get(word, word)
        if number.isdigit() and 0 < int(number) <= 100:
            return int(number)
    return 1


def _meets(spans: tuple[tuple[int, int], ...], others: list[tuple[int, int]]) -> bool:
    return any(s < e2 and s2 < e for s, e in spans for s2, e2 in others)


def _blanked(question: str, named: list[Anchor]) -> str:
    """The question with each named thing written as X and spaces to its length: no number inside a
    name is read ("Quill 112"), and every other word keeps its place (spans match the anchors')."""
    chars = list(question)
    for a in named:
        for s, e in a.spans:
            chars[s:e] = list("X" + " " * (e - s - 1))
    return "".join(chars)


def _verb_before(doc, i: int):
    """The verb right before "the most"/"the least" ("weighs the least"), or None."""
    j = i - 1
    if j >= 0 and doc[j].lower_ == "the":
        j -= 1
    return doc[j] if j >= 0 and doc[j].pos_ == "VERB" else None


def _places(doc, i: int) -> tuple[int, int]:
    """"the second cheapest": (1, 1); "the 11th to 20th largest": (10, 10); (0, 0) when unsaid."""
    before = [t.lower_ for t in doc[max(0, i - 4):i]]
    ordinals = [_ordinal(w) for w in before]
    found = [n for n in ordinals if n]
    if len(found) >= 2 and "to" in before and found[-1] >= found[-2]:
        return found[-2] - 1, found[-1] - found[-2] + 1
    if ordinals and ordinals[-1] and ordinals[-1] > 1:
        return ordinals[-1] - 1, 1
    return 0, 0


def _ordinal(word: str) -> int:
    """'second' → 2, '11th' → 11; 0 for anything else."""
    if word in ORDINALS:
        return ORDINALS[word]
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
    return int(m.group(1)) if m else 0


def _descending(m: re.Match, dates: bool) -> bool:
    """Which way a sort runs: "desc", "widest first", "most expensive first", "oldest first" (of dates:
    the earliest, ascending); ascending when unsaid."""
    if m.group("way"):
        return m.group("way").lower() == "desc"
    end = m.group("end")
    if not end:
        return False
    base = base_adjective(end)
    dimension, sign = GRADABLE.get(base, ("", RANKING_ADJECTIVES.get(base, 1)))
    sign = -sign if m.group("much") and m.group("much").lower() == "least" else sign
    return (sign < 0) if dimension == AGE and dates else sign > 0
