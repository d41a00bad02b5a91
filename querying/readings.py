"""Question → candidate readings → the best one's QueryPlan (Query_onto, plan mode).

Understanding by method, not by wording. Nothing here keys on how a question is phrased:

1. **Link.** The label index finds the instances the question names; the value index finds values
   of datatype properties ("mechatronics", a research interest). These are the anchors.
2. **Enumerate.** From the schema alone: for every anchor instance, every class it joins through a
   path of one or two object properties (either direction, domains and ranges permitting), and every
   datatype property of its class (an attribute); for every anchor value, the classes that hold it.
   Each reading also has a counting form. With two anchors, a reading that keeps both.
3. **Put in words and score.** Each reading is written as a short question built from the schema's
   own names ("X works for which faculty?", "what is the credit value of X?", "how many staff works
   for X?"), anchors as placeholders; the question, its anchors replaced the same way, is compared
   with every reading by embedding cosine (MiniLM). Longer paths pay a little.
4. **Evidence.** An option list is evidence: the class its members link to is the likely answer
   class. The best few readings are run (read-only, through the layer): a reading with no rows, or
   whose rows support none of the options, falls back; one whose answers are exactly of the class it
   asks for (not of a subclass that the schema only files under it) gains a little.
5. **The model** picks among the top readings, written out in full, only when they are too close to
   call (`ontology.reading_margin`) — a small constrained choice; otherwise no model call at all.

Every reading considered, its score and its evidence are in `Draft.decisions` (the trace).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.errors import PolyragError
from pyramid.llm import LLM
from pyramid.normalise import STOPWORDS, TITLES, fold
from pyramid.ontology.labels import LabelIndex, Link, Mention, without_possessive
from pyramid.ontology.values import ValueIndex, ValueMatch
from pyramid.prompts import load_prompt
from pyramid.vocab import Term, Vocab, word_forms
from querying.options import Value, is_none_option, select_options
from querying.sparql_plan import Constraint, QueryPlan, Rank, Step

# Scoring weights, on the scale of a cosine; every one is a measured choice (`polyrag bench acadchall`)
ASKS = 0.5                # × the cosine of the question with what the reading answers with, alone
STEP_COST = 0.03          # per property step beyond the first
QUANTITY = re.compile(r"\b(how\s+many|how\s+much|number\s+of|count|counts|counting|total|amount\s+of|tally|"
                      r"head\s?counts?)\b",
                      re.IGNORECASE)
COUNT_BONUS = 0.1         # a counting reading of a question that asks for a number
# the superlatives of quantity (English's closed set): "the most departments", "the fewest staff"
SUPERLATIVE = re.compile(r"\b(most|fewest|least|(?:largest|greatest|highest|biggest|smallest|lowest)\s+number\s+of)\b",
                         re.IGNORECASE)
FEWEST = re.compile(r"fewest|least|fewer|less|(?:smallest|lowest)\s+number\s+of", re.IGNORECASE)
# English's auxiliary verbs (a closed class): a question opening with one is a yes/no question
AUXILIARIES = ("is", "are", "was", "were", "be", "being", "been", "does", "do", "did", "has", "have", "had",
               "can", "could", "will", "would", "shall", "should", "may", "might", "must")
AUXILIARY = "(?:" + "|".join(AUXILIARIES) + ")"
POLAR = re.compile(rf"\s*{AUXILIARY}\b", re.IGNORECASE)
COMPARATIVE = re.compile(r"\b(more|fewer|less)\b", re.IGNORECASE)
THRESHOLD = re.compile(r"\b(more\s+than|fewer\s+than|less\s+than|at\s+least|at\s+most|over|under)\s+(\d+)\b",
                       re.IGNORECASE)
RANK_BONUS = 0.25         # a ranking reading (made only for such a question) over the plain readings
COUNTED_WORDS = 2         # "how many staff members …": the noun after the cue names what is counted
WHO = re.compile(r"\b(who|whom)\b", re.IGNORECASE)  # English asks for a person or a body with these
WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)     # …and for a place or a body with this
# "Which unit teaches X?": an interrogative determiner with a noun, then a verb and no auxiliary before
# the named thing — the noun is the clause's subject, a thing that acts on X, not a value of X ("What
# topics does X study?" has its noun as the object: a value may answer). English's closed classes only.
WHICH_SUBJECT = re.compile(rf"\b(?:which|what)\s+(?!{AUXILIARY}\b|of\b)[^\W\d](?:(?!\b{AUXILIARY}\b)[^?])*?"
                           rf"\b[XYZ]\b", re.IGNORECASE)
UNNAMED_VALUE = 0.2
MAX_ASKED_WORDS = 4       # words after "which"/"what" that may name the class asked for
# "X is employed as what?", "What does X serve as?": a predicative "as" asks for a role or a kind, a
# value of X, never another thing X is linked to
AS_WHAT = re.compile(r"\bas\s+(?:an?\s+)?(?:what|which)\b|\bas\s*\?\s*$", re.IGNORECASE)
# A value reading of a "where …?" question that does not name the value's property: values answer
# "where" only when their property says a place or a source ("graduated from", "located in"; English
# marks these with a closed set of prepositions); any other value ("what position") is no place
PLACE = 0.35
LOCATIVE = re.compile(r"\b(from|in|at|near|within|into|to)$")
NAMED = 0.1               # per class of the reading (or its attribute) that the question names in its own words
# × the share of what the question names that the reading uses (instances weigh 1; a value of
# several words 0.8, of one word 0.15: "part" may be a stored position, but rarely what is meant)
COVER = 0.3
OPTION_CLASS = 0.30       # × share of the options that are of the reading's answer class
SCHEMA_WORD = 0.55        # a one-word value span this close to a schema term's words is that term
EMPTY = 0.25              # a reading whose query returns nothing
OPTIONS_HIT = 0.15        # its rows support some option / none of them
# × share of its answers that are only filed under the class asked for, through a subclass (a
# department is a FACULTY by PolyU's axiom; had the question meant departments, it would say so, and
# the department reading would win on its words)
SUBCLASS_ONLY = 0.25
TRACE_READINGS = 6
STEM = 5                  # a property word this long names the property inside a longer word too
RUN_BUDGET = 16           # queries run for evidence, at most
MAX_CHOICES = 4
PLACEHOLDERS = ("X", "Y", "Z")

CHOICE_SCHEMA = {"type": "object", "properties": {"choice": {"type": "integer", "minimum": 1,
                                                             "maximum": MAX_CHOICES}},
                 "required": ["choice"], "additionalProperties": False}
Run = Callable[[QueryPlan], list[dict[str, str]]]
# instance IRIs → what the data joins them to (see Neighbourhood), None when it cannot say
Uses = Callable[[Sequence[str]], "Neighbourhood | None"]


# (answer class IRI, steps as (property, inverse) from the answer to the anchor) →
# (the path in words, how well domains and ranges fit, the classes passed through)
Paths = dict[tuple[str, tuple[tuple[str, bool], ...]], tuple[str, float, tuple[str, ...]]]


@dataclass(frozen=True)
class Neighbourhood:
    """What the data joins an anchor to, as the readings need it. Ways are relative to the nearer
    node: "out" when it is the subject, "in" when it is the object.

    attributes  datatype properties the anchor has
    one         (property, way, class of the neighbour)
    two         (property, way, class of the middle node, property, way, class of the far node)
    """

    attributes: frozenset[str] = frozenset()
    one: frozenset[tuple[str, str, str]] = frozenset()
    two: frozenset[tuple[str, str, str, str, str, str]] = frozenset()


@dataclass(frozen=True)
class Anchor:
    """Something the question names: instances (iris, their most specific classes) or a value of a
    datatype property (prop; stored: the values as the store writes them)."""

    spans: tuple[tuple[int, int], ...]
    text: str
    iris: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    prop: str = ""
    exact: bool = True
    stored: tuple[str, ...] = ()
    op: str = ""                 # a number compared ("more than 3 credits": gt); "" = eq / contains

    @property
    def is_value(self) -> bool:
        return bool(self.prop)


@dataclass
class Reading:
    kind: Literal["members", "attribute"]
    plan: QueryPlan
    text: str                              # the reading as a question, anchors as placeholders
    anchors: tuple[Anchor, ...]
    steps: int
    answer_class: str | None               # the class IRI of what it returns; None for values
    score: float = 0.0
    evidence: dict[str, float] = field(default_factory=dict)
    rows: list[dict[str, str]] | None = None
    clause: str = ""                       # members: the path with {T} for the answer, X for the anchor
    mids: tuple[str, ...] = ()             # classes the path passes through
    prop: str = ""                         # attribute: the property's words
    asks: str = ""                         # what it answers with, alone: "which department", "what position"
    # the same reading under each name of its answer class ("which course …", "which subject …"):
    # scored by the nearest, as one name of a class in brackets reads less like either
    variants: tuple[tuple[str, str], ...] = ()   # (text, asks)
    value_class: str | None = None         # attribute: the class whose instances its values name, if any

    def spelled(self) -> str:
        """The reading with its anchors written out (for the trace and the model's choice)."""
        text = self.text
        for ph, a in zip(PLACEHOLDERS, self.anchors):
            text = text.replace(ph, f'"{a.text}"', 1)
        return text


@dataclass
class Draft:
    question: str
    plan: QueryPlan | None
    rows: list[dict[str, str]] | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    readings: list[Reading] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    best: Reading | None = None

    def trace(self) -> dict:
        return {"decisions": self.decisions, "reason": self.reason,
                "readings": [f"{r.score:.3f} {r.spelled()} {r.evidence}" for r in self.readings[:TRACE_READINGS]]}


# ------------------------------------------------------------------ schema words
def class_names(vocab: Vocab, cls: Term) -> tuple[str, ...]:
    """A class's name, and the word its datatype properties share when there is one ('course' whose
    properties are has_subject_code, has_subject_title … is also 'subject')."""
    counts: dict[str, int] = {}
    for p in vocab.properties_of(cls.iri, "datatype"):
        if p.domains and vocab.fit(cls.iri, p.domains) == 1.0:
            for w in set(p.words.split()) - {"has", "is", "of", "the", "a", "in"}:
                counts[w] = counts.get(w, 0) + 1
    alias = [w for w, n in sorted(counts.items(), key=lambda kv: -kv[1]) if n >= 2 and w not in cls.words.split()]
    return (cls.words, alias[0]) if alias else (cls.words,)


def class_words(vocab: Vocab, cls: Term) -> str:
    """The class's names in one phrase, for the trace and the model: 'course (subject)'."""
    name, *alias = class_names(vocab, cls)
    return f"{name} ({alias[0]})" if alias else name


def property_words(p: Term) -> str:
    """'has credit value' → 'credit value'; 'works for' stays."""
    words = p.words
    return words[4:] if words.startswith("has ") else words


# ------------------------------------------------------------------ the planner
class ReadingPlanner:
    def __init__(self, vocab: Vocab, index: LabelIndex, values: ValueIndex, embedder: Embedder,
                 llm: LLM | None = None, *, margin: float = 0.02, value_classes: dict[str, str] | None = None) -> None:
        self.vocab, self.index, self.values, self.embedder, self.llm = vocab, index, values, embedder, llm
        self.margin = margin
        # datatype property IRI → the class whose instances its values name (prerequisites stored as codes)
        self.value_classes = value_classes or {}
        self._uses: Uses | None = None
        self._class_words = {c.iri: class_words(vocab, c) for c in vocab.classes}
        self._class_names = {c.iri: class_names(vocab, c) for c in vocab.classes}
        self._schema_words = sorted({*self._class_words.values(), *(property_words(p) for p in vocab.properties)})
        self._vectors: dict[str, np.ndarray] = {}

    # -- entry point
    def draft(self, question: str, options: list[str] | None = None, run: Run | None = None,
              uses: Uses | None = None) -> Draft:
        """`run` runs a plan (read-only); `uses` says which properties the named instances take part
        in, so readings through properties an anchor does not have are never made."""
        self._uses = uses
        d = Draft(question, None)
        anchors = self.anchors(question)
        d.decisions["anchors"] = "; ".join(f"{a.text!r} → {a.prop or ','.join(self._short(c) for c in a.classes)}"
                                           for a in anchors) or "none"
        readings = self.enumerate(anchors)
        readings += self.rankings(question, anchors, readings)
        if not anchors and not readings:
            d.reason = "nothing in the question links to the ontology"
            return d
        asked = self._asked_class(question, anchors)
        if asked and readings:
            # "Which subject covers X?" asks for a subject: a reading that answers with things of an
            # unrelated class (the staff who work on X) is no answer, however few readings there are
            kept = [r for r in readings if r.kind != "members" or r.answer_class is None
                    or self.vocab.compatible(r.answer_class, asked)]
            if len(kept) < len(readings):
                d.decisions["asked_class"] = (f"{self._short(asked)}: {len(readings) - len(kept)} reading(s) "
                                              "answering with another class set aside")
            if not kept:
                d.reason = (f"the question asks for a {self._class_words[asked]}, and no reading of the schema "
                            "that joins what it names answers with one")
                return d
            readings = kept
        if not readings:
            d.reason = "no path of the schema joins what the question names"
            return d
        option_links = [self.index.link(o) for o in options] if options else []
        self.score(question, readings, option_links)
        if run is not None:
            self.check(question, readings, run, options, option_links)
            if not readings:
                d.reason = "every reading that ran found nothing"
                return d
        readings.sort(key=lambda r: -r.score)
        d.readings = readings
        best = self._choose(d, question, readings)
        d.plan, d.rows, d.best, d.anchors = best.plan, best.rows, best, anchors
        if options and best.kind == "members" and not best.plan.count and best.answer_class:
            # the answer among the options of the answer class, as a reader of the list does (a long
            # list of staff is no answer, the options among them are)
            chosen = [lk.iri for links in option_links for lk in links
                      if any(self.vocab.compatible(c, best.answer_class) for c in lk.classes)]
            if chosen:
                d.plan = best.plan.model_copy(update={"candidates": list(dict.fromkeys(chosen))[:200]})
                d.rows = None
        d.decisions["reading"] = f"{best.spelled()} (score {best.score:.3f})"
        return d

    # -- 1. anchors
    def anchors(self, question: str) -> list[Anchor]:
        mentions = self.index.mentions(question)
        groups: dict[tuple[str, ...], list[Mention]] = {}
        for m in mentions:
            groups.setdefault(tuple(sorted(m.iris)), []).append(m)
        covered = [(m.start, m.end) for m in mentions]
        for m in re.finditer(r"\w[\w'’-]*", question):
            # one capitalised word that is a whole label as written ("Investments", a subject): the
            # label index leaves single words out, the readings decide whether it is meant
            end = without_possessive(question, m.start(), m.end())  # "OtherFaculties's departments"
            word = question[m.start():end]
            if len(word) >= 4 and word[0].isupper() and not any(a <= m.start() < b for a, b in covered) and \
                    word.lower() not in STOPWORDS:
                links = tuple(lk for lk in self.index.link(word, fuzzy=False) if lk.tier == "exact")
                if links:
                    groups.setdefault(tuple(sorted({lk.iri for lk in links})), []).append(
                        Mention(word, m.start(), end, links))
        out: list[Anchor] = []
        for iris, ms in groups.items():
            classes = self._specific({c for m in ms for c in m.classes if self.vocab.get(c)})
            if classes:
                out.append(Anchor(tuple((m.start, m.end) for m in ms), ms[0].text, iris, tuple(sorted(classes))))
        out = [_with_titles(self._with_class_word(a, question), question)
               for a in _merge_adjacent(sorted(out, key=lambda a: a.spans[0]), question)]
        named = {s for a in out for s in a.spans}
        words = self._words_outside(question, out)
        by_span: dict[tuple[int, int], list[ValueMatch]] = {}
        cues = [m.span() for m in SUPERLATIVE.finditer(question)]  # "the largest number of": no value
        # a class word inside a name ("Department" of "Department of Computing") is the name's, and a
        # value may hold the whole name ("head of the Department of Computing", a stored position)
        classy = [(s, e) for s, e in self._class_spans(question) if not any(a <= s and e <= b for a, b in named)]
        for v in self.values.matches(question, skip=classy + cues):
            inside = [(s, e) for s, e in named if v.start < e and s < v.end]
            # A value beside the names; a longer value around a name ("geospatial computer vision"
            # around a course "Computer Vision"); or a whole name that is also a value when the
            # question names the value's property ("whose research includes information technology",
            # a course title and a research interest): the readings of both compete.
            span = (v.start, without_possessive(question, v.start, v.end))  # as for names ("X's job title")
            if not inside or v.exact and (
                    all(v.start <= s and e <= v.end for s, e in inside) and span not in named
                    or span in named and self._names_property(v.prop, words)):
                by_span.setdefault((v.start, v.end), []).append(v)
        spans = list(by_span)
        schemaish = self._schemaish([question[a:b] for a, b in spans])
        for ((start, end), vs), drop in zip(by_span.items(), schemaish):
            if drop:
                continue
            for v in vs:  # a value held by two properties is two anchors
                if self.vocab.get(v.prop):
                    out.append(Anchor(((start, end),), v.text, prop=v.prop, exact=v.exact, stored=v.stored))
        out += self._numbers(question, [s for a in out for s in a.spans])
        return sorted(out, key=lambda a: a.spans[0])

    def _numbers(self, question: str, taken: list[tuple[int, int]]) -> list[Anchor]:
        """A number beside a word of a datatype property's name is that property's value ("level 4",
        "3 credits", "worth 3 credits"): the value index leaves numbers out, as a number alone could be
        any property's. The property's words that are also its class's names ("subject" of subject
        level) do not count: "the 3 subjects" names no level."""
        out = []
        words = [(m.start(), m.end(), self._forms(m.group())[0]) for m in re.finditer(r"[^\W\d_]+", question)]
        for m in _NUMBER_TOKEN.finditer(question):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            before = [w for s, e, w in words if e <= m.start()][-1:]
            after = [w for s, e, w in words if s >= m.end()][:1]
            beside = set(before + after)
            for p in self.vocab.properties:
                if p.kind != "datatype" or not p.domains:
                    continue
                own = {w for d in p.domains if d in self._class_names
                       for n in self._class_names[d] for w in self._forms(n)}
                if (set(self._forms(property_words(p))) - own - STOPWORDS) & beside:
                    cue = THRESHOLD.search(question, max(0, m.start() - 16), m.end())
                    op = _having(cue)[0] if cue and cue.end() == m.end() else ""
                    out.append(Anchor(((m.start(), m.end()),), m.group(), prop=p.name, stored=(m.group(),), op=op))
        return out

    def _schemaish(self, texts: list[str]) -> list[bool]:
        """Spans that name a term of the schema rather than a stored value: the words of a class or a
        property ('research interests'), or one word near them in meaning ('academics' near STAFF's
        words, 'work' near 'works for'); PolyU stores all of these as values too."""
        named = {self._forms(w) for w in self._schema_words}
        single = [t for t in texts if len(t.split()) == 1]
        sims: dict[str, float] = {}
        if single:
            terms = self._embed(self._schema_words)
            sims = dict(zip(single, (self._embed(single) @ terms.T).max(axis=1).tolist()))
        return [self._forms(t) in named or (len(t.split()) == 1 and sims[t] >= SCHEMA_WORD) for t in texts]

    @staticmethod
    def _forms(text: str) -> tuple[str, ...]:
        """The words of a text in one form each (singular where one exists), for comparing names."""
        return tuple(min(word_forms(w), key=len) for w in fold(text).split())

    def _words_outside(self, question: str, anchors: Sequence[Anchor]) -> set[str]:
        """The question's words (one form each) outside the spans of the instances it names."""
        masked = self.masked(question, anchors)
        return {self._forms(w)[0] for w in re.findall(r"\w+", masked) if w not in PLACEHOLDERS and fold(w)}

    def _names_property(self, prop: str, words: set[str]) -> bool:
        """The question's words hold a content word of the property's name, or a word built on it
        ("research", "researchers" for has_research_interest; "interested" for interest)."""
        term = self.vocab.get(prop)
        own = set(self._forms(property_words(term))) - STOPWORDS if term else set()
        return any(w == p or len(p) >= STEM and w.startswith(p) for w in words for p in own)

    def _names(self, cls: str, words: set[str]) -> bool:
        """The words hold one of the class's names whole ("subjects" names COURSE, also called subject)."""
        return any(set(self._forms(n)) <= words for n in self._class_names.get(cls, ()) if self._forms(n))

    def _with_class_word(self, a: Anchor, question: str) -> Anchor:
        """'the subject AAE6203': the word naming the anchor's own class is part of the mention, not
        what the question asks for (masked with it)."""
        names = {self._forms(w) for c in a.classes for w in re.findall(r"\w+", self._class_words.get(c, ""))}
        start, end = a.spans[0]
        before = re.search(r"(\w+)\s+$", question[:start])
        if before and self._forms(before.group(1)) in names:
            return Anchor(((before.start(1), end),) + a.spans[1:], a.text, a.iris, a.classes)
        return a

    def _class_spans(self, question: str) -> list[tuple[int, int]]:
        """Words of the question that name a class of the schema ('faculty', 'subjects'): they say
        what is asked for, they are not values (PolyU has a position "Faculty")."""
        names = {w for c in self.vocab.classes for n in (*c.names, self._class_words[c.iri]) for w in
                 re.findall(r"\w+", n.lower())}
        return [(m.start(), m.end()) for m in re.finditer(r"\w+", question) if word_forms(m.group().lower()) & names]

    def _specific(self, classes: set[str]) -> set[str]:
        """The classes that are not a superclass of another one in the set."""
        return {c for c in classes if not any(c in self.vocab.ancestors(o) for o in classes if o != c)}

    def _short(self, iri: str) -> str:
        t = self.vocab.get(iri)
        return t.name if t else iri

    # -- 2. readings
    def enumerate(self, anchors: list[Anchor]) -> list[Reading]:
        singles: list[list[Reading]] = [self._readings_of(a) for a in anchors]
        out = [r for rs in singles for r in rs]
        # two anchors: the readings of one class that keep both (one path each)
        for i in range(len(anchors)):
            for j in range(i + 1, len(anchors)):
                if _overlap(anchors[i], anchors[j]) or min(_strength(anchors[i]), _strength(anchors[j])) < 0.5:
                    continue
                for r1 in singles[i]:
                    for r2 in singles[j]:
                        if r1.kind == r2.kind == "members" and r1.steps == r2.steps == 1 and \
                                r1.plan.target == r2.plan.target and r1.plan.count == r2.plan.count:
                            out.append(self._both(r1, r2))
        return out

    def rankings(self, question: str, anchors: list[Anchor], readings: list[Reading]) -> list[Reading]:
        """"Which faculty has the most departments?": when a superlative of quantity is followed by a
        class's name (or a datatype property's), a reading per class that reaches it by a path of one or
        two steps, its instances ranked by how many they reach — alone, and within each plain reading of
        that class that keeps the question's anchors ("which department of faculty X has the most
        staff?"). A threshold ("more than 100 subjects") keeps every instance past it; a comparative
        ("X or Y: which has more staff?") ranks the instances the question names."""
        masked = self.masked(question, [a for a in anchors if not a.is_value])
        # a threshold ("more than 100 subjects") keeps every instance past it; a comparative between
        # the instances the question names ("X or Y: which has more staff?") ranks those only
        threshold = THRESHOLD.search(masked)
        compared = threshold is None and SUPERLATIVE.search(masked) is None and COMPARATIVE.search(masked) is not None
        cue_words = THRESHOLD if threshold else COMPARATIVE if compared else SUPERLATIVE
        cue = cue_words.search(masked)
        words = _counted(masked, cue_words) if cue else ""
        counted = self._class_named_by(words)
        attribute = self._attribute_named_by(words) if counted is None else None
        if cue is None or counted is None and attribute is None or \
                attribute is not None and any(a.prop == attribute.name for a in anchors):
            return []  # "more than 3 credits" compares the value, it counts nothing
        order: Literal["most", "fewest"] = "fewest" if FEWEST.match(cue.group(1)) else "most"
        having = _having(cue) if threshold else None
        if attribute is not None:  # "the most research interests": values of the property, counted
            c_words = property_words(attribute)
            paths = {(c.iri, _key(Step(property=attribute.name))): (f"{{T}} has {order} {c_words}", 1.0, ())
                     for c in self.vocab.classes if attribute.domains and self.vocab.fit(c.iri, attribute.domains) == 1.0}
        else:
            c_words = self._class_names[counted][0]
            paths = self._schema_paths(Anchor((), c_words, classes=(counted,)))
        out = []
        for (target, key), (text, fit, mids) in paths.items():
            if target == counted or fit < 1.0:
                continue
            cls = self.vocab.by_iri[target]
            rank = Rank(path=[Step(property=p, inverse=inv) for p, inv in key],
                        counted=self.vocab.by_iri[counted].name if counted else None, order=order, having=having)
            clause = text.replace("X", f"{cue.group(0) if having else order} {c_words}")
            lead = f"which {self._class_words[target]}"
            if compared:
                among = tuple(a for a in anchors if not a.is_value and
                              any(self.vocab.compatible(c, target) for c in a.classes))
                if len(among) >= 2:
                    plan = QueryPlan(target=cls.name, rank=rank, candidates=[i for a in among for i in a.iris][:50])
                    more = "fewer" if order == "fewest" else "more"
                    said = text.replace("X", c_words).replace("{T}", lead) + f"; which has {more} {c_words}, X or Y?"
                    r = Reading("members", plan, said, among, len(key), target, clause=clause, asks=f"{lead}?",
                                mids=mids)
                    r.evidence["fit"] = 1.0
                    out.append(r)
                continue
            within = [r for r in readings if r.kind == "members" and r.answer_class == target and not r.plan.count
                      and r.plan.rank is None and min(map(_strength, r.anchors), default=0) >= 0.5]
            for base in [None, *within]:
                plan = QueryPlan(target=cls.name, rank=rank,
                                 constraints=base.plan.constraints if base is not None else [])
                words = clause.replace("{T}", lead) + ("" if base is None else " and " + base.spelled().rstrip("?"))
                r = Reading("members", plan, words + "?", base.anchors if base is not None else (),
                            len(key), target, clause=clause, asks=f"{lead}?", mids=mids)
                r.evidence["fit"] = 1.0
                out.append(r)
        return out

    def _attribute_named_by(self, words: str) -> Term | None:
        """The datatype property these few words name ("research interests"), by its name's words."""
        forms = set(self._forms(words))
        named = [p for p in self.vocab.properties if p.kind == "datatype" and p.domains
                 and (own := set(self._forms(property_words(p))) - STOPWORDS) and own <= forms]
        return max(named, key=lambda p: len(p.words), default=None)

    def _asked_class(self, question: str, anchors: Sequence[Anchor]) -> str | None:
        """The class an interrogative determiner asks for by one of its names ("which subject …",
        "what staff member …"), the longest name that the words after it begin with; None when those
        words name no class ("what is …", "which of …")."""
        found = re.search(r"\b(?:which|what)\s+(.*)", self.masked(question, anchors), re.IGNORECASE)
        if found is None:
            return None
        after = self._forms(" ".join(re.findall(r"\w+", found.group(1))[:MAX_ASKED_WORDS]))
        best, size = None, 0
        for iri, names in self._class_names.items():
            for name in names:
                forms = self._forms(name)
                if forms and len(forms) > size and after[:len(forms)] == forms:
                    best, size = iri, len(forms)
        return best

    def _class_named_by(self, words: str) -> str | None:
        """The class these few words name ("departments", "staff members"), by its names or nearly."""
        if not words:
            return None
        forms = set(self._forms(words))
        for c in self.vocab.classes:
            if any(set(self._forms(n)) <= forms for n in self._class_names[c.iri]):
                return c.iri
        names = [(c.iri, n) for c in self.vocab.classes for n in self._class_names[c.iri]]
        sims = self._embed([n for _, n in names]) @ self._embed([words])[0]
        best = int(np.argmax(sims))
        return names[best][0] if sims[best] >= SCHEMA_WORD else None

    def _readings_of(self, a: Anchor) -> list[Reading]:
        out: list[Reading] = []
        near = self._uses(a.iris) if (self._uses is not None and not a.is_value) else None
        if a.is_value:
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
        def along(cls_iri: str, key: tuple[tuple[str, bool], ...], text: str, fit: float,
                  mids: tuple[str, ...]) -> list[Reading]:
            steps = [Step(property=prop, inverse=inverse) for prop, inverse in key]
            return self._members(self.vocab.by_iri[cls_iri], [Constraint(path=steps, op="eq", values=list(a.iris))],
                                 text, len(steps), (a,), fit=fit, mids=mids)

        paths = self._schema_paths(a) if near is None else self._data_paths(near)
        for (cls_iri, key), (text, fit, mids) in paths.items():
            out += along(cls_iri, key, text, fit, mids)
        if near is not None:
            # a step the schema allows but the data never takes from X: counted, it is a zero — "how many
            # subjects does X offer?" of a school that offers none is 0, not a count of something else
            for (cls_iri, key), (text, fit, mids) in self._schema_paths(a).items():
                if len(key) == 1 and (cls_iri, key) not in paths:
                    out += [r for r in along(cls_iri, key, text, fit, mids) if r.plan.count]
        for cls_iri in a.classes:
            cls = self.vocab.get(cls_iri)
            if cls is None:
                continue
            # every attribute the schema gives X's class, held or not: one X lacks ("the prerequisite
            # of a subject that has none") is no answer, not another attribute's value
            for p in self.vocab.properties_of(cls_iri, "datatype"):
                plan = QueryPlan(target=cls.name, candidates=list(a.iris)[:50], returns=[p.name])
                text, asks = _attribute_words(property_words(p))
                out.append(Reading("attribute", plan, text, (a,), 1, None, asks=asks, prop=property_words(p),
                                   value_class=self.value_classes.get(p.iri)))
        return out

    def _members(self, cls: Term, constraints: list[Constraint], clause: str, steps: int, anchors: tuple[Anchor, ...],
                 fit: float = 1.0, mids: tuple[str, ...] = ()) -> list[Reading]:
        base = QueryPlan(target=cls.name, constraints=constraints)
        out = []
        names = self._class_names[cls.iri]
        for count in (False, True):
            lead = "how many" if count else "which"
            text = clause.replace("{T}", f"{lead} {self._class_words[cls.iri]}")
            variants = tuple((clause.replace("{T}", f"{lead} {n}") + "?", f"{lead} {n}?") for n in names) \
                if len(names) > 1 else ()
            r = Reading("members", base.model_copy(update={"count": count}), text + "?", anchors, steps, cls.iri,
                        clause=clause, asks=f"{lead} {self._class_words[cls.iri]}?", mids=mids, variants=variants)
            r.evidence["fit"] = round(fit, 2)
            out.append(r)
        return out

    def _both(self, r1: Reading, r2: Reading) -> Reading:
        """One answer class, both anchors: "X offered by which department and Y offered by it?"."""
        lead = "how many" if r1.plan.count else "which"
        text = (r1.clause.replace("{T}", f"{lead} {self._class_words[r1.answer_class or '']}") + " and "
                + _retag(r2.clause, "X", "Y").replace("{T}", "it") + "?")
        plan = r1.plan.model_copy(update={"constraints": [*r1.plan.constraints, *r2.plan.constraints]})
        return Reading("members", plan, text, (*r1.anchors, *r2.anchors), max(r1.steps, r2.steps), r1.answer_class,
                       clause=r1.clause, asks=r1.asks)

    @staticmethod
    def _clause(left: str, step: Step, p: Term, right: str) -> str:
        """A step in words: forward, "left p right"; walked backwards, "right p left". A property named
        by a participle and "by" ("offered by") is read as the passive it is: "left is offered by right"."""
        passive = p.words.endswith(" by") and p.words.split()[0] not in AUXILIARIES
        words = f"is {p.words}" if passive else p.words
        return f"{left} {words} {right}" if not step.inverse else f"{right} {words} {left}"

    def _data_paths(self, near: Neighbourhood) -> Paths:
        """The readings' paths the data holds around the anchor: (answer class, steps from the answer
        to the anchor) → (the path in words, 1.0, the class passed through). An answer class is the
        neighbour's class or any class above it."""
        out: Paths = {}

        def step(prop: str, way: str) -> Step | None:
            # `way` is seen from the node nearer the anchor, and the plan walks from the answer inwards:
            # the nearer node is the object of a step walked forward ("in")
            term = self.vocab.by_iri.get(prop)
            if term is None or term.kind != "object":
                return None
            return Step(property=term.name, inverse=way != "in")

        for prop, way, cls in sorted(near.one):
            s1 = step(prop, way)
            if s1 is None or cls not in self.vocab.by_iri:
                continue
            for target in (cls, *self.vocab.ancestors(cls)):
                if target in self.vocab.by_iri:
                    out.setdefault((target, _key(s1)), (self._clause("{T}", s1, self.vocab.terms[s1.property], "X"),
                                                        1.0, ()))
        for p1, w1, mid, p2, w2, cls in sorted(near.two):
            inner, outer = step(p1, w1), step(p2, w2)
            if inner is None or outer is None or mid not in self.vocab.by_iri or cls not in self.vocab.by_iri \
                    or inner.property == outer.property:
                continue
            mid_words = self._class_words[mid]
            text = (self._clause(mid_words, inner, self.vocab.terms[inner.property], "X") + "; "
                    + self._clause("{T}", outer, self.vocab.terms[outer.property], mid_words))
            for target in (cls, *self.vocab.ancestors(cls)):
                key = (target, _key(outer, inner))
                # the most specific middle class words the reading (DEPARTMENT over FACULTY)
                if target in self.vocab.by_iri and (key not in out or out[key][2][0] in self.vocab.ancestors(mid)):
                    out[key] = (text, 1.0, (mid,))
        return out

    def _schema_paths(self, a: Anchor) -> Paths:
        """Without the data to ask: paths of one or two object properties from every class to the
        anchor's classes as domains and ranges allow, with how well they fit."""
        objs = [p for p in self.vocab.properties if p.kind == "object"]

        def hops(cls: str) -> list[tuple[Step, Term, tuple[str, ...], float]]:
            out = []
            for p in objs:
                if (f := self.vocab.fit(cls, p.domains)) > 0:
                    out.append((Step(property=p.name), p, p.ranges, f))
                if (f := self.vocab.fit(cls, p.ranges)) > 0:
                    out.append((Step(property=p.name, inverse=True), p, p.domains, f))
            return out

        def lands(declared: tuple[str, ...]) -> float:
            return max((self.vocab.fit(c, declared) for c in a.classes), default=0.8)

        found: Paths = {}
        for target in self.vocab.classes:
            for s1, p1, land1, f1 in hops(target.iri):
                if (f := lands(land1)) > 0:
                    found[(target.iri, _key(s1))] = (self._clause("{T}", s1, p1, "X"), f1 * f, ())
                for mid in self.vocab.classes:
                    fm = self.vocab.fit(mid.iri, land1) if mid.iri != target.iri else 0.0
                    if fm == 0:
                        continue
                    mid_words = self._class_words[mid.iri]
                    for s2, p2, land2, f2 in hops(mid.iri):
                        if s2.property != s1.property and (f := lands(land2)) > 0:
                            text = self._clause(mid_words, s2, p2, "X") + "; " + self._clause("{T}", s1, p1, mid_words)
                            found.setdefault((target.iri, _key(s1, s2)), (text, f1 * fm * f2 * f, (mid.iri,)))
        return found

    # -- 3. words and scores
    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for t, v in zip(missing, self.embedder.embed(missing, kind="query")):
                self._vectors[t] = v
        return np.stack([self._vectors[t] for t in texts]) if texts else np.zeros((0, 1), np.float32)

    def masked(self, question: str, anchors: Sequence[Anchor], *, values: bool = True) -> str:
        """The question with its anchors' spans as placeholders (values left as words if not `values`)."""
        # each span once, however many readings carry its anchor (masking a copy again cuts the text)
        unique = list({a.spans: a for a in anchors}.values())
        spans = sorted(((s, e, ph) for ph, a in zip(PLACEHOLDERS, unique) if values or not a.is_value
                        for s, e in a.spans), reverse=True)
        for s, e, ph in spans:
            question = question[:s] + ph + question[e:]
        return question

    @staticmethod
    def _values_spelled(text: str, anchors: Sequence[Anchor]) -> str:
        """A reading's words with its values written out: what a value says ("assistant professors") is
        part of what the question asks, so both are compared with their values in words."""
        for ph, a in zip(PLACEHOLDERS, anchors):
            if a.is_value:
                text = re.sub(rf"\b{ph}\b", lambda _m, t=a.text: t, text, count=1)
        return text

    def score(self, question: str, readings: list[Reading], option_links: list[list[Link]]) -> None:
        masks = [self.masked(question, r.anchors, values=False) for r in readings]
        qv = self.embedder.embed(list(dict.fromkeys(masks)), kind="query")
        qidx = {m: i for i, m in enumerate(dict.fromkeys(masks))}
        rv = self._embed([self._values_spelled(r.text, r.anchors) for r in readings])
        av = self._embed([r.asks for r in readings])
        extra = [t for r in readings for text, said in r.variants for t in (self._values_spelled(text, r.anchors), said)]
        if extra:
            self._embed(extra)
        # Does the question ask for a number, or for someone? English marks these with closed sets of
        # words (how many, number of, count …; who, whom): grammar, not a wording of any question set.
        # Embedding probes for the same distinctions separated the questions less well (measured).
        named = [a for a in {a.spans: a for r in readings for a in r.anchors}.values() if not a.is_value]
        # not inside a name ("Count Basie"), nor a superlative's ("the largest number of staff" ranks)
        plain = SUPERLATIVE.sub(" ", self.masked(question, named))
        quantity = bool(QUANTITY.search(plain))
        counted = _counted(plain) if quantity else ""
        cv = self._embed([counted])[0] if counted else None
        counted_words = {self._forms(w)[0] for w in counted.split()}
        someone = bool(WHO.search(self.masked(question, named)))
        place = bool(WHERE.search(self.masked(question, named)))
        which = bool(WHICH_SUBJECT.search(self.masked(question, named)))
        role = bool(AS_WHAT.search(self.masked(question, named)))
        words = self._words_outside(question, [a for r in readings for a in r.anchors if not a.is_value])
        weight = {a.spans: _strength(a) for r in readings for a in r.anchors}
        total = sum(weight.values()) or 1.0
        for i, r in enumerate(readings):
            q = qv[qidx[masks[i]]]
            sem, asks = float(np.dot(q, rv[i])), float(np.dot(q, av[i]))
            for text, said in r.variants:
                sem = max(sem, float(np.dot(q, self._vectors[self._values_spelled(text, r.anchors)])))
                asks = max(asks, float(np.dot(q, self._vectors[said])))
            if cv is not None and r.plan.count and r.answer_class:
                # what a count counts is the noun after its cue, not the whole question ("count the
                # people in X's departments" counts people): that noun against the counted class
                asks = float(np.dot(cv, self._embed([self._class_words[r.answer_class]])[0]))
            cover = sum({a.spans: weight[a.spans] for a in r.anchors}.values()) / total
            r.evidence["sem"], r.evidence["asks"], r.evidence["cover"] = round(sem, 3), round(asks, 3), round(cover, 2)
            r.score = (sem + ASKS * asks + COVER * cover - STEP_COST * (r.steps - 1)
                       - 0.1 * (1 - r.evidence.get("fit", 1.0)))
            # the question's own words name the answer's class, a class on the way, or the attribute
            named = [self._names(c, words) for c in ((r.answer_class,) if r.answer_class else ()) + r.mids]
            if counted and r.plan.count and r.answer_class:
                # what a count counts is named by its noun only: "how many academics across X's
                # *departments*" names the departments on the way, not as what is counted
                named[0] = self._names(r.answer_class, counted_words)
            if r.prop:
                named.append(set(self._forms(r.prop)) - {"has"} <= words)
            if r.value_class:  # values that are other instances' codes: "which subject must come first?"
                named.append(any(set(self._forms(n)) <= words for n in self._class_names[r.value_class]))
            if any(named):
                r.evidence["named"] = float(sum(named))
                r.score += NAMED * sum(named)
            if which and r.kind == "attribute" and not any(named) and not (
                    set(self._forms(r.prop)) - STOPWORDS - {"has"}) & words:
                r.evidence["which"] = 1.0
                r.score -= UNNAMED_VALUE
            if role and r.kind == "members":
                r.evidence["as_what"] = 1.0
                r.score -= EMPTY
            if someone and r.kind == "attribute":  # "who …?" asks for someone, not a value of something
                r.evidence["who"] = 1.0
                r.score -= EMPTY
            if place and r.kind == "attribute" and not any(named) and not LOCATIVE.search(r.prop):
                # "where …?" asks for a place or a body; a value only when the question names its property
                # ("where did X obtain a degree" names obtained_degree) or the property is a place's
                r.evidence["where"] = 1.0
                r.score -= PLACE
            if r.plan.rank is not None:  # only made for a superlative, a comparative or a threshold
                r.evidence["rank"] = 1.0
                r.score += RANK_BONUS
            if r.plan.count:  # a count only for a question that asks for a number
                r.evidence["quantity"] = float(quantity)
                r.score += COUNT_BONUS if quantity else -EMPTY
            if option_links:
                share = self._option_share(r, option_links)
                r.evidence["options_of_class"] = round(share, 2)
                r.score += OPTION_CLASS * share

    def _option_share(self, r: Reading, option_links: list[list[Link]]) -> float:
        """How far the options are things of the kind the reading answers with: 1 for an option of the
        answer class itself, ½ for one of a subclass of it; for a value reading, options naming no instance."""
        if r.plan.count:
            return 0.0
        if r.answer_class is None:
            return sum(not links for links in option_links) / len(option_links)
        cls = r.answer_class

        def fit(links: list[Link]) -> float:
            specific = self._specific({c for lk in links for c in lk.classes if self.vocab.get(c)})
            return 1.0 if cls in specific else 0.5 if any(cls in self.vocab.ancestors(c) for c in specific) else 0.0
        return sum(fit(links) for links in option_links) / len(option_links)

    # -- 4. evidence from running the best few
    def check(self, question: str, readings: list[Reading], run: Run, options: list[str] | None,
              option_links: list[list[Link]]) -> None:
        """Run the best readings until the best one has run (at most RUN_BUDGET runs): a reading that
        loses points here lets the next one up, which is run in its turn."""
        ids = [{lk.iri for lk in links} for links in option_links]
        for _ in range(RUN_BUDGET):
            readings.sort(key=lambda r: -r.score)
            if readings and readings[0].evidence.get("void"):
                readings.pop(0)  # no answer at all: the next one up runs in its turn
                continue
            if not readings or readings[0].rows is not None or "error" in readings[0].evidence:
                break
            self._evidence(readings[0], run, options, ids, question)
        readings[:] = sorted((r for r in readings if not r.evidence.get("void")), key=lambda r: -r.score)

    def _evidence(self, r: Reading, run: Run, options: list[str] | None, ids: list[set[str]], question: str) -> None:
        """Run the reading; a count is judged by the things it counts (their query runs too)."""
        members = r.plan.model_copy(update={"count": False}) if r.plan.count else r.plan
        try:
            rows = run(members)
            r.rows = run(r.plan) if r.plan.count else rows
        except PolyragError:  # a reading that cannot run is evidence against it
            r.evidence["error"] = 1.0
            r.score -= EMPTY
            return
        answers = _answers(rows) if r.kind == "members" else [v for row in rows for k, v in row.items()
                                                               if k.startswith("r")]
        if not answers:
            r.evidence["empty"] = 1.0
            r.score -= EMPTY
            if r.plan.count and not r.evidence.get("quantity"):
                # a zero is an answer only to a question that asks for a number: "Glassblowing — which
                # department runs it?" of a subject the data joins to no department is not "0"
                r.evidence["void"] = 1.0
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
            exact = self._exact_share(answers, r.answer_class)
            r.evidence["exact_class"] = round(exact, 2)
            r.score -= SUBCLASS_ONLY * (1 - exact)

    def _exact_share(self, answers: list[str], cls: str) -> float:
        """Share of the answers whose classes hold no proper subclass of `cls` (a department filed as a
        faculty by a subclass axiom is not what 'which faculty' asks for)."""
        subs = {c.iri for c in self.vocab.classes if cls in self.vocab.ancestors(c.iri)}
        if not subs:
            return 1.0
        return sum(not (set(self.index.classes_of(a)) & subs) for a in answers) / len(answers)

    # -- 5. the model, only for a close call
    def _choose(self, d: Draft, question: str, readings: list[Reading]) -> Reading:
        top = [r for r in readings[:MAX_CHOICES] if readings[0].score - r.score < self.margin]
        if len(top) < 2 or self.llm is None:
            d.decisions["choice"] = "best score" + ("" if len(top) < 2 else f" ({len(top)} within the margin; no model)")
            return readings[0]
        numbered = "\n".join(f"{i}. {r.spelled()}" for i, r in enumerate(top, 1))
        reply = self.llm.complete(load_prompt("querying", "ontology_choice").render(
            question=question, readings=numbered), CHOICE_SCHEMA, max_tokens=12).parsed
        pick = reply["choice"] - 1 if 1 <= reply["choice"] <= len(top) else 0
        d.decisions["choice"] = f"chosen by the model among {len(top)} close readings"
        return top[pick]


# ------------------------------------------------------------------ helpers
_NUMBER_TOKEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")
_PREPOSITIONS = {"about", "at", "by", "for", "from", "in", "into", "of", "on", "to", "with", "within"}


def _attribute_words(words: str) -> tuple[str, str]:
    """An attribute reading in words, and what it answers with. A property named by a verb phrase
    is read as one ("obtained degree": "X obtained what degree?"; "graduated from": "X graduated from
    what?"), not as a noun ("what is the graduated from of X?", which reads like neither)."""
    verb, _, rest = words.partition(" ")
    if rest and verb.endswith("ed") and verb not in AUXILIARIES:
        if rest.split()[0] in _PREPOSITIONS:
            return f"X {words} what?", f"{words} what?"
        return f"X {verb} what {rest}?", f"what {rest}?"
    return f"what is the {words} of X?", f"what {words}?"


_TITLE_BEFORE = re.compile(r"(?:\b(\w+)\.?\s+)$")


def _with_titles(a: Anchor, question: str) -> Anchor:
    """'Prof. Ann Lee': the titles before a name are part of the mention (the label index leaves them
    out of the span), not words of the question: left in the masked question, 'Prof' pulls it towards
    FACULTY and 'Dr' towards degrees."""
    start, end = a.spans[0]
    while (m := _TITLE_BEFORE.search(question[:start])) and fold(m.group(1)) in TITLES:
        start = m.start()
    return a if start == a.spans[0][0] else Anchor(((start, end),) + a.spans[1:], a.text, a.iris, a.classes)


def _merge_adjacent(anchors: list[Anchor], question: str) -> list[Anchor]:
    """Instances of one class written side by side, only brackets or separators between them, are one
    thing under two names ('FSN3416 (ABCT3416)', 'MM6201 / MM6202'): one anchor. When some instance
    answers to both names (a code, and a title that two subjects share), the names mean that one."""
    out: list[Anchor] = []
    for a in anchors:
        prev = out[-1] if out else None
        if prev is not None and prev.classes == a.classes and not prev.is_value and \
                question[prev.spans[-1][1]:a.spans[0][0]].strip(" ()[]/,&|-") == "":
            both = tuple(i for i in prev.iris if i in a.iris)
            out[-1] = Anchor(prev.spans + a.spans, prev.text, both or tuple(dict.fromkeys(prev.iris + a.iris)),
                             prev.classes)
        else:
            out.append(a)
    return out


# what may stand between a quantity cue and the noun it counts: quantifiers, the cue's own words,
# and the particles of phrasal verbs ("count up", "add up") — closed classes of English
_BEFORE_COUNTED = frozenset({"all", "any", "total", "number", "count", "amount", "up", "out", "together"})


def polar(draft: Draft, rows: list[dict[str, str]]) -> bool | None:
    """A yes/no question (English opens one with an auxiliary: "Does X work for Y?", "Is X a …?"):
    whether what it names besides the chosen reading's anchors is among that reading's answers — Y
    among the departments X works for. None when the question is no such question or names nothing
    else."""
    best = draft.best
    if best is None or not POLAR.match(draft.question) or best.plan.count or best.plan.rank is not None:
        return None
    used = {a.spans for a in best.anchors}
    others = [a for a in draft.anchors if a.spans not in used and not any(_overlap(a, b) for b in best.anchors)]
    if not others:
        return None
    found = {r.get("x", "") for r in rows}
    values = {fold(v) for r in rows for k, v in r.items() if k not in ("x", "x_label")}
    held = {a.spans: False for a in others}  # a span read two ways (a course, a research interest): either
    for a in others:
        held[a.spans] |= bool(set(a.iris) & found) if not a.is_value else fold(a.text) in values
    return all(held.values())


def _having(cue: re.Match) -> tuple[str, float]:
    """A threshold's comparison and number: "more than 100" → (gt, 100), "at most 5" → (le, 5)."""
    words = " ".join(cue.group(1).lower().split())
    op = {"more than": "gt", "over": "gt", "at least": "ge", "at most": "le"}.get(words, "lt")
    return op, float(cue.group(2))


def _counted(question: str, cue: re.Pattern = QUANTITY) -> str:
    """The words after the last quantity cue that has any ("number of staff members across …" →
    'staff members'): determiners skipped, up to COUNTED_WORDS words, stopping at a function word,
    a placeholder or punctuation. Empty when nothing follows the cue."""
    for m in reversed(list(cue.finditer(question))):
        compound = _compound_before(question, m)
        if compound:
            return compound
        words: list[str] = []
        for w in re.findall(r"[\w'-]+|[^\w\s]", question[m.end():]):
            lw = w.lower()
            if not words and lw in STOPWORDS | _BEFORE_COUNTED:
                continue
            if lw in STOPWORDS or w in PLACEHOLDERS or not re.match(r"\w", w) or len(words) == COUNTED_WORDS:
                break
            words.append(lw)
        if words:
            return " ".join(words)
    return ""


_NOUN_CUE = re.compile(r"(?:head\s?)?counts?|tally|total", re.IGNORECASE)
_AFTER_NOUN = re.compile(r"\s*(?:$|[?.!,;:]|(?:of|for|in|across|at|within|is|are|was|were)\b)", re.IGNORECASE)


def _compound_before(question: str, cue: re.Match) -> str:
    """'the total *staff* count of …', 'X's *student* tally?': a quantity noun used as a noun (followed by a
    preposition, a verb 'be' or the end, not by what a verb 'count' takes) counts the word before it."""
    if not _NOUN_CUE.fullmatch(cue.group(1)) or not _AFTER_NOUN.match(question[cue.end():]):
        return ""
    before = re.search(r"([^\W\d_]+)\s+$", question[:cue.start()])
    word = before.group(1) if before else ""
    if not word or word.lower() in STOPWORDS | _BEFORE_COUNTED or word in PLACEHOLDERS:
        return ""
    return word.lower()


def _key(*steps: Step) -> tuple[tuple[str, bool], ...]:
    return tuple((st.property, st.inverse) for st in steps)


def _strength(a: Anchor) -> float:
    if not a.is_value:
        return 1.0
    # a number is an anchor only beside its property's word ("level 4"): as plain as a phrase
    return 0.8 if a.exact and (len(a.text.split()) > 1 or _NUMBER_TOKEN.fullmatch(a.text)) else 0.15


def _overlap(a: Anchor, b: Anchor) -> bool:
    return any(s1 < e2 and s2 < e1 for s1, e1 in a.spans for s2, e2 in b.spans)


def _retag(text: str, old: str, new: str) -> str:
    return re.sub(rf"\b{old}\b", new, text)


def _answers(rows: list[dict[str, str]] | None) -> list[str]:
    return list(dict.fromkeys(r.get("x") or next(iter(r.values()), "") for r in rows or [] if r))


def _count(rows: list[dict[str, str]]) -> int:
    try:
        return int(float(next(iter(rows[0].values()))))
    except (IndexError, StopIteration, ValueError):
        return 0


def _values(rows: list[dict[str, str]]) -> list[Value]:
    out = []
    for r in rows:
        iri = r.get("x")
        out += [Value(v, iri) for k, v in r.items() if k != "x"] + ([Value(iri, iri)] if iri else [])
    return out
