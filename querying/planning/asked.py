"""Stage 2½, keep: of the readings enumerated, those that answer what the question asks — the class
it asks for by name ("which ward", "Name the town of …"), a thing and not a value for "which <noun>",
a time for "when", someone for "who", a place for "where", the relation it names by its words, and a
path through every kind of thing it names. Each check reads English's closed classes and the schema's
own names; where no reading is left the draft says why and the question is passed down: a reading that
answers another question is a wrong answer, worse than none."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from pyramid.reading.english import (
    IRREGULAR_BASE,
    NUMBER_WORDS,
    PART_OF_WORDS,
    PERSON,
    PLACE,
    PLACE_PREPOSITIONS,
    STOPWORDS,
)
from pyramid.reading.terms import holds_time
from pyramid.vocab import Vocab
from querying.planning.cues import (
    AMOUNT,
    ASKS_WHERE,
    ASKS_WHO,
    COUNTING,
    LOCATIVE,
    SIZE_ASKED,
    WHEN,
    asks_a_number,
    asks_number_of_things,
    counted_noun,
    embedding_phrase,
)
from querying.planning.names import SchemaNames, property_words
from querying.planning.records import PLACEHOLDERS, Anchor, PlanDraft, QuestionReading
from querying.planning.weights import LIKENESS_MARGIN
from querying.planning.wording import (
    agent_said,
    all_forms,
    forms,
    masked,
    names_content_words,
    property_content_words,
    says_every_word,
    words_outside,
)

MAX_APPOSITIVE = 3            # words before a named thing that may say what it is ("the librarian Ms")
EMBEDDED_STEPS = 2            # from a thing said of another to the answer: one to the other, one on
NAMED_RELATION_WORDS = 2      # content words a property's name needs for a question to name it by them alone
Check = Callable[[PlanDraft, str, list[Anchor], list[QuestionReading]], "list[QuestionReading] | None"]


_IN_PLACE = frozenset({"in", "at", "near", "within", "inside"})  # a relation named with one of these says where


def _or_why(d: PlanDraft, kept: list[QuestionReading], reason: str) -> list[QuestionReading] | None:
    """The readings a check kept; none left, the draft says why and the question is passed down."""
    if not kept:
        d.reason = reason
        return None
    return kept


def _per_group(r: QuestionReading) -> bool:
    """The reading answers with a number per thing: a count or a total of what each reaches ("how many
    plants at each nursery", "the total height of plants per nursery")."""
    return r.plan.rank is not None and r.plan.rank.every


def _counts(r: QuestionReading) -> bool:
    """The reading answers with a count: of its things, or of what each of them reaches."""
    return r.plan.count or (_per_group(r) and r.plan.rank is not None and r.plan.rank.fn == "count")


def _steps_from(r: QuestionReading, a: Anchor) -> int:
    """How many steps the reading's answer lies from the named thing (a value of the thing itself is one).
    A reading that does not use the thing is counted as two, so only the class check can set it aside."""
    extra = 1 if r.kind == "attribute" else 0
    if set(a.iris) & set(r.plan.candidates):
        return extra
    paths = [len(c.path) for c in r.plan.constraints if set(a.iris) & set(c.values)]
    return min(paths) + extra if paths else EMBEDDED_STEPS


class AskedKeeper:
    """The checks, in order; each returns the readings it keeps, or None (the draft's reason said)."""

    def __init__(self, vocab: Vocab, names: SchemaNames) -> None:
        self.vocab, self.names = vocab, names

    def keep(self, d: PlanDraft, question: str, anchors: list[Anchor],
             readings: list[QuestionReading]) -> list[QuestionReading] | None:
        checks: list[Check] = [self.of_asked_class, self.of_asked_time, self.of_asked_number, self.of_someone,
                               self.of_where, self.of_counted, self.of_embedded, self.of_named_relation,
                               self.of_named_classes, self.of_said_steps]
        kept: list[QuestionReading] | None = readings
        for check in checks:
            if kept is None:
                return None
            kept = check(d, question, anchors, kept)
        return kept

    def of_asked_class(self, d: PlanDraft, question: str, anchors: list[Anchor],
                       readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """The readings that answer with the class the question asks for by name, if it does; None
        (the draft's reason said) when none does."""
        asked = self.names.asked_class(question, anchors)
        if not readings:
            return readings
        if not asked:
            return self._of_asked_noun(d, question, anchors, readings)
        # "Which subject covers X?" asks for a subject: a reading that answers with things of an
        # unrelated class (the staff who work on X) is no answer, however few readings there are; nor is
        # a value ("Which unit is X based on?" answered "2009"), unless its values name things of that class
        words = words_outside(question, anchors)
        kept = [self._narrowed(r, asked) for r in readings if self._answers_with(r, asked, words)]
        if len(kept) < len(readings):
            d.decisions["asked_class"] = (f"{self.names.short(asked)}: {len(readings) - len(kept)} reading(s) "
                                          "answering with another class set aside")
        if not kept:
            d.reason = (f"the question asks for a {self.names.class_words[asked]}, and no reading of the schema "
                        "that joins what it names answers with one")
            return None
        return kept

    def _narrowed(self, r: QuestionReading, asked: str) -> QuestionReading:
        """A reading that answers with a class above the one asked for answers with things that may be of the
        asked one only: "Which valley is X in?" read as the places X is in is the valleys among them, not a hut
        (`EvidenceRunner` keeps what the data files under the asked class, or under nothing narrower than the
        answer's: a prize filed only as an award may be the festival prize asked for)."""
        if r.kind != "members" or not r.answer_class or r.answer_class == asked or \
                r.answer_class not in self.vocab.ancestors(asked):
            return r
        return dataclasses.replace(r, asked_class=asked)

    def _of_asked_noun(self, d: PlanDraft, question: str, anchors: list[Anchor],
                       readings: list[QuestionReading]) -> list[QuestionReading]:
        """A noun asked for that names no class ("Which *number* do I ring for the branch that X works
        at?") is not answered with the things of a class the question names elsewhere: that class is
        what the question goes through (the branch), not what it asks for."""
        _, phrase = self.names.asked_words(question, anchors)
        if not [w for w in phrase if w not in STOPWORDS | NUMBER_WORDS]:
            return readings
        words = words_outside(question, anchors)
        kept = [r for r in readings if not (r.kind == "members" and r.answer_class
                                            and self.names.names(r.answer_class, words))]
        if kept and len(kept) < len(readings):
            d.decisions["asked_noun"] = (f"{' '.join(phrase)!r} names no class: {len(readings) - len(kept)} reading(s) "
                                         "answering with a class the question goes through set aside")
            return kept
        return readings

    def _answers_with(self, r: QuestionReading, asked: str, words: set[str]) -> bool:
        """The reading answers with things of the asked class (or of one related to it by subclassing),
        or with the value of a property the question names whole ("which subject code": the words after
        "which" go on past the class's name into the property's)."""
        if r.kind == "members":
            return r.answer_class is None or self.vocab.compatible(r.answer_class, asked)
        if r.value_class is not None and self.vocab.compatible(r.value_class, asked):
            return True
        return any(own and own <= words for own in map(property_content_words, r.property_names()))

    def of_someone(self, d: PlanDraft, question: str, anchors: list[Anchor],
                   readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """"Who …?" asks for someone: a thing, not a value of one ("Who heads the unit where X works?" is
        not answered with X's e-mail address), nor a thing of the class the question talks about ("the
        unit": the someone heads it); None (the reason said) when no reading gives someone."""
        if not ASKS_WHO.search(question):
            return readings
        talked_about = self._talked_about(question, anchors)
        said = words_outside(question, anchors)
        kept = [r for r in readings if (r.kind == "members" and not talked_about(r.answer_class))
                or r.value_class is not None or (r.kind == "attribute" and agent_said(r.prop, said))]
        # … and of the classes left, those whose names are nearly as much a person's as the likeliest
        # one's (a clinician, not a medical specialty): the schema says no class is people, its names do
        kept = self._likeliest(kept, PERSON)
        return _or_why(d, kept, "the question asks who, and no reading of the schema that joins what it names gives someone")

    def _talked_about(self, question: str, anchors: list[Anchor]) -> Callable[[str | None], bool]:
        """Is a class one the question names as what it talks about — named, and not the class it asks
        for ("Who is the head librarian of …", "Where is X taught — which department …")?"""
        words, asked = words_outside(question, anchors), self.names.asked_class(question, anchors)
        described = self._in_apposition(question, anchors)

        def talked_about(cls: str | None) -> bool:
            return bool(cls) and self.names.names(cls, words) and not (asked and self.vocab.compatible(cls, asked)) \
                and cls not in described
        return talked_about

    def _in_apposition(self, question: str, anchors: list[Anchor]) -> set[str]:
        """The classes named right before a named thing of theirs ("the *librarian* Ms Okafor"): the
        noun says what the thing is, it names no other thing the question talks about."""
        out = set()
        for a in anchors:
            for start, _ in a.spans:
                before = re.findall(r"[^\W\d_]+", question[:start])[-MAX_APPOSITIVE:]
                for k in range(1, len(before) + 1):
                    cls = self.names.class_named_by(" ".join(before[-k:]))
                    if cls is not None and any(self.vocab.compatible(cls, c) for c in a.classes) and \
                            self.names.names(cls, set(forms(" ".join(before[-k:])))):
                        out.add(cls)
        return out

    def _likeliest(self, readings: list[QuestionReading], probe: str) -> list[QuestionReading]:
        """The value readings, and the readings whose answer class reads as `probe` nearly as much as the
        likeliest one's (within `weights.LIKENESS_MARGIN`)."""
        likeness = self.names.likeness({r.answer_class for r in readings if r.answer_class}, probe)
        best = max(likeness.values(), default=0.0)
        return [r for r in readings if not r.answer_class or likeness[r.answer_class] >= best - LIKENESS_MARGIN]

    def of_where(self, d: PlanDraft, question: str, anchors: list[Anchor],
                 readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """"Where …?" asks for a place: not for a thing of a class the question talks about ("Where is
        the ceremony of the *prize* that X won held?" is not answered with the prize) nor a value that
        says no place; None (the reason said) when no reading is left."""
        if not ASKS_WHERE.search(question):
            return readings
        words, talked_about = words_outside(question, anchors), self._talked_about(question, anchors)
        # … nor for a value that says no place, unless the question names its property ("where did X
        # obtain a degree")
        kept = [r for r in readings if not (r.kind == "members" and talked_about(r.answer_class))
                and not (r.kind == "attribute" and not any(LOCATIVE.search(n) for n in r.property_names())
                         and not names_content_words(r.property_names()) & words)]
        kept = self._likeliest(kept, PLACE)  # a town, not the librarian of a branch
        return _or_why(d, kept, "the question asks where, and no reading of what it names answers with a place")

    def of_counted(self, d: PlanDraft, question: str, anchors: list[Anchor],
                   readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """"How many works has X directed?" counts things of a class it names: no value of them (their
        budgets) answers it, unless the question names that value's property; None when nothing is left."""
        text = masked(question, anchors)
        counted = set(forms(counted_noun(text, COUNTING))) if COUNTING.search(text) else set()
        if not counted or not any(self.names.names(c.iri, counted) for c in self.vocab.classes):
            return readings
        words = words_outside(question, anchors)
        kept = [r for r in readings if r.kind != "attribute" or names_content_words(r.property_names()) & words]
        return _or_why(d, kept, "the question counts things, and no reading of what it names counts them")

    def of_embedded(self, d: PlanDraft, question: str, anchors: list[Anchor],
                    readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """A thing named inside a phrase about another thing ("the person who supervises X", "the department X
        belongs to", "Where did X's advisor …") is not what the answer is joined to: the answer lies at least
        two steps from it, one to the other thing and one on, and the way passes a thing of the class the phrase
        names ("the person": not X's university's alumni); a phrase that names no class ("X's mentor") names one
        relation, and the answer lies exactly two steps away. Other readings are set aside ("Which university
        awarded a PhD to the person who supervises X?" is not X's own degree); none left, the question is
        passed down."""
        far = [(a, said) for a in anchors if not a.is_value and (said := self._embedded(question, a)) is not None]
        if not far:
            return readings
        kept = [r for r in readings if all(self._through(r, a, kinds) for a, kinds in far)]
        if len(kept) < len(readings):
            d.decisions["embedded"] = (f"{', '.join(repr(a.text) for a, _ in far)} said of another thing: "
                                       f"{len(readings) - len(kept)} reading(s) not reaching the answer through it set aside")
        return _or_why(d, kept, f"the question asks about the thing {far[0][0].text!r} is said of, and no reading of "
                                "the schema reaches its answer through such a thing")

    def _embedded(self, question: str, a: Anchor) -> set[str] | None:
        """The classes the phrase a named thing is said inside names (none: a relational noun, "X's mentor"),
        or None where it is said plainly. A clause with no relative word after a noun that names the thing's
        own kind is an apposition ("the subject X comes under …")."""
        said = embedding_phrase(masked(question, [a]))
        if said is None:
            return None
        words = set(forms(said[0]))
        named = {c.iri for c in self.vocab.classes if self.names.names(c.iri, words)}
        own = {k for c in a.classes for k in (c, *self.vocab.ancestors(c))}
        return None if said[1] and named & own else named

    def _through(self, r: QuestionReading, a: Anchor, kinds: set[str]) -> bool:
        """Does the reading reach its answer from the named thing through the other thing the phrase says?"""
        steps = _steps_from(r, a)
        if not kinds:
            return steps == EMBEDDED_STEPS
        return steps >= EMBEDDED_STEPS and any(self.vocab.compatible(m, k) for m in self._beside(r, a) for k in kinds)

    def _beside(self, r: QuestionReading, a: Anchor) -> tuple[str, ...]:
        """The classes of what lies one step from the named thing along the reading: the declared end of the step
        that reaches it; where the schema declares none, every class the reading passes."""
        for c in r.plan.constraints:
            t = self.vocab.get(c.path[-1].property) if c.path and set(a.iris) & set(c.values) else None
            end = (t.ranges if c.path[-1].inverse else t.domains) if t is not None else ()
            if end:
                return tuple(end)
        owner = self.vocab.get(r.plan.target) if r.kind == "attribute" else None
        return (*r.mids, *((owner.iri,) if owner is not None else ()))

    def of_named_relation(self, d: PlanDraft, question: str, anchors: list[Anchor],
                          readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """A question that names a property by every content word of a name of two or more ("What does
        X provide care in?" names 'provides care in') asks about that relation: the readings that use it;
        None (the reason said) when none does — the data lacks it for X, and a reading through other
        relations answers another question. A count answers only a question that asks for a number."""
        text = masked(question, anchors)
        said = all_forms(" ".join(w for w in re.findall(r"\w+", text) if w not in PLACEHOLDERS))
        named = {p.name for p in self.vocab.properties if len(property_content_words(property_words(p)))
                 >= NAMED_RELATION_WORDS and says_every_word(property_words(p), said)}
        if not named:
            return readings
        quantity = asks_number_of_things(text)
        kept = [r for r in readings if named & r.plan.properties() and (quantity or not r.plan.count)]
        if not kept:
            d.reason = (f"the question names {', '.join(sorted(named))}, and no reading of what it names uses it "
                        "(the ontology does not hold it for them)")
            return None
        if len(kept) < len(readings):
            d.decisions["named_relation"] = f"{', '.join(sorted(named))}: {len(readings) - len(kept)} reading(s) set aside"
        return kept

    def of_named_classes(self, d: PlanDraft, question: str, anchors: list[Anchor],
                         readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """Every kind of thing the question names in its own words ("the town of the *hospital* that X
        refers patients to"; "a hospital or clinic" is one kind or the other) is one the reading answers
        with, passes through or starts from: a reading that leaves one out answers a shorter question
        (X's own town); None (the reason said) when every reading does."""
        groups = self.names.named_class_groups(masked(question, anchors))
        if not groups:
            return readings

        def covers(r: QuestionReading) -> bool:
            counted = self.vocab.get(r.plan.rank.counted) if r.plan.rank and r.plan.rank.counted else None
            met = {c for c in (r.answer_class, *r.mids, *(c for a in r.anchors for c in a.classes),
                               counted.iri if counted else None) if c}
            used = r.plan.properties()
            return all(any(self.vocab.compatible(n, c) and self._reaches(n, c, used) for n in group for c in met)
                       for group in groups)
        kept = [r for r in readings if covers(r)]
        if not kept:
            said = ", ".join(" or ".join(self.names.class_words[c] for c in sorted(g)) for g in groups)
            d.reason = f"the question names {said}, and no reading of the schema that joins what it names passes through it"
            return None
        if len(kept) < len(readings):
            d.decisions["named_classes"] = f"{len(readings) - len(kept)} reading(s) leaving a named class out set aside"
        return kept

    def of_said_steps(self, d: PlanDraft, question: str, anchors: list[Anchor],
                      readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """A reading that passes through things the question does not name must take a relation it says in
        one of its steps: "the department Amara Conti belongs to", "X's advisor", "the staff of the faculty" say
        the way; "Which valley is Ossenau in?" read through the trail that comes out at Ossenau and leads up a
        summit answers another question. None (the reason said) when every reading does so."""
        # (what a thing lacks is read by the absence readings' own rules: querying.planning.absence)
        mids = [r for r in readings if r.mids and not r.plan.absent]
        if not mids:
            return readings
        # (a verb said in any of its forms: "Does X hold …?" says "held at")
        words = {IRREGULAR_BASE.get(w, w) for w in words_outside(question, anchors)}
        text = masked(question, anchors)
        named = {c for g in self.names.named_class_groups(text) for c in g}
        # "Which town is the Heron in?", "parts from a supplier in Belgium": a boat is in the town its marina
        # stands in, a supplier in the country its city lies in — a chain of places said by a preposition of place
        where = bool(ASKS_WHERE.search(question) or PLACE_PREPOSITIONS & {w.lower() for w in re.findall(r"\w+", text)})

        told: dict[str, tuple[bool, bool]] = {}  # property name → (its words said, a name of it says where)

        def tells(name: str) -> tuple[bool, bool]:
            if name not in told:
                t = self.vocab.get(name)
                told[name] = (False, False) if t is None else \
                    (bool({IRREGULAR_BASE.get(w, w) for w in names_content_words([property_words(t), *t.names])} & words),
                     any(LOCATIVE.search(n) or _IN_PLACE & set(n.lower().split()) for n in t.names))
            return told[name]

        def part_of(name: str) -> bool:
            t = self.vocab.get(name)
            return t is not None and bool(PART_OF_WORDS & {w for n in (t.words, *t.names) for w in n.lower().split()})

        def passed(m: str, before: str, after: str) -> bool:
            """An unnamed class on the way is passed by a step the question says, a chain of places, or a part of
            what lies beyond it ("the staff across the Faculty of Science" work for its departments, which belong
            to it)."""
            return any(tells(p)[0] for p in (before, after)) or (where and tells(before)[1] and tells(after)[1]) \
                or part_of(after)

        def said(r: QuestionReading) -> bool:
            unnamed = [i for i, m in enumerate(r.mids) if not any(self.vocab.compatible(m, c) for c in named)]
            if not unnamed:
                return True
            path = r.plan.constraints[0].path if len(r.plan.constraints) == 1 else []
            if len(path) == len(r.mids) + 1:  # the answer, then each class on the way, then the anchor
                return all(passed(r.mids[i], path[i].property, path[i + 1].property) for i in unnamed)
            if r.plan.constraints and all(c.path and part_of(c.path[-1].property) for c in r.plan.constraints):
                return True
            steps = [tells(name) for name in r.plan.properties()]
            return any(w for w, _ in steps) or (where and bool(steps) and all(loc for _, loc in steps))
        kept = [r for r in readings if not r.mids or r.plan.absent or said(r)]
        if len(kept) < len(readings):
            d.decisions["said_steps"] = (f"{len(readings) - len(kept)} reading(s) through relations the question "
                                         "does not say set aside")
        return _or_why(d, kept, "every reading passes through things the question does not name, by relations it does not say")

    def _reaches(self, named: str, met: str, used: set[str]) -> bool:
        """A reading meets a class the question names through one it meets: that class or a narrower one, or a
        broader one where the named class is defined by a property the reading uses ("Who chairs X?": a chair
        is whoever heads something — a person who is a member of X is no chair)."""
        defining = self.vocab.defined_by.get(named)
        if named == met or named in self.vocab.ancestors(met) or not defining:
            return True
        return any((p := self.vocab.by_iri.get(iri)) is not None and p.name in used for iri in defining)

    def of_asked_time(self, d: PlanDraft, question: str, anchors: list[Anchor],
                      readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """A question that asks when ("When did X open?", "In which year …") is answered by a time:
        the readings whose property holds times; None (the reason said) when no reading gives one — a
        list of departments is no answer to "when", whatever else the question names."""
        if not WHEN.search(question):
            return readings
        kept = [r for r in readings if r.kind == "attribute" and not r.plan.count
                and any((p := self.vocab.get(name)) is not None and holds_time(p) for name in r.plan.returns)]
        return _or_why(d, kept, "the question asks when, and no reading of the schema that joins what it names gives a time")

    def of_asked_number(self, d: PlanDraft, question: str, anchors: list[Anchor],
                        readings: list[QuestionReading]) -> list[QuestionReading] | None:
        """A question that asks for a number ("How many …", "What is the size of …", "How long …") is
        answered by a count or a value that names no thing (the value of the thing a superlative picks:
        "What does the cheapest monitor cost?"), never by things ("What is the size of the
        team on X?" answered with its head). "How much did X cost?" asks for an amount: a value that is no
        time; no count of things (the studios that made X) answers it. None (the reason said) when no
        reading gives a number."""
        text = masked(question, anchors)
        if not asks_a_number(text):
            return readings
        # (a measure, like an amount, is no count and no time: "How high is X?" is not answered with the day a
        # tour up it takes place)
        amount = bool(AMOUNT.search(text) or SIZE_ASKED.search(text)) and not COUNTING.search(text)
        kept = [r for r in readings if self._gives_number(r, amount)]
        return _or_why(d, kept, "the question asks for a number, and no reading of the schema that joins what it "
                                "names gives one")

    def _gives_number(self, r: QuestionReading, amount: bool) -> bool:
        """Does the reading answer with a number: a count (not for an amount), a total per group, or a
        value that names no thing (for an amount, no time)?"""
        if _counts(r):
            return not amount
        if _per_group(r):
            return True
        if not (r.kind == "attribute" or r.plan.returns or r.plan.order is not None) or r.value_class is not None:
            return False
        return not (amount and any((p := self.vocab.get(name)) is not None and holds_time(p) for name in r.plan.returns))
