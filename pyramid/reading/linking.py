"""Linking a page's values to the schema by meaning, not by a list of labels: for each value, the facts
it could state, best first. A value that names a thing (a mention with a class's word in it, another
page's title, a named entity) goes to an object property whose range fits it (types decide; the
context's similarity to the property's words breaks ties); any other value goes to the datatype
property whose words are closest in meaning to its context (MiniLM), above `MIN_SIMILARITY`. Lists are
split on ";", ",", "/" and "and" for properties that are not names, titles or codes, when every item is
short. The entity's class (pyramid.reading.entity_class) chooses among the candidates."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from pyramid.normalise import codes_in, fold, name_key
from pyramid.reading.class_words import ClassWords, common_phrase, name_head, name_like, relational
from pyramid.reading.english import (
    POSSESSIVES,
    PREDICATIVE_AS,
    PROPERTY_NAME_FUNCTION_WORDS,
    participle_by,
    passive_agent,
)
from pyramid.reading.lessons import CorpusLessons, name_keys
from pyramid.reading.meaning import CONFIDENT, MIN_SIMILARITY, PropertyMeaning
from pyramid.reading.page import ReadFact, Segment
from pyramid.reading.shape_floors import ShapeFloors
from pyramid.reading.terms import (
    amount_in,
    counted_scales,
    is_named,
    quantity_number,
    shape_of,
    shaped_part,
    typed_form,
)
from pyramid.reading.values import MAX_ITEM_WORDS, NUMBER, name_before_noun
from pyramid.vocab import Vocab, singular

OBJECT_SIMILARITY = 0.15  # an object property needs at least this much of its label's meaning too
NUMBER_WORDS_SIMILARITY = 0.15  # a sentence's number whose noun means a numeric property less is none of its
MIN_THING_SHARE = 0.5     # a list whose items are less than this share names of things lists plain values
LIKENESS_WEIGHT = 0.5     # the share of what a value's likeness adds to its verb's meaning that counts
TYPED_LINK = 1.0          # what the other end's known class adds to a link's score (the types decide)
# words this close to a relation outweigh a class guessed from a word of a name ("undergraduate degree is from",
# 0.78 to univ-bench's undergraduateDegreeFrom, over "Calloway Institute"; "is student in", 0.57, does not make
# a department a university)
OVER_NAME_WORD = 0.7
REVERSED = 0.3            # a link the named thing holds to the page's entity, below one the entity holds itself
HELD_BY_FLOOR = TYPED_LINK - REVERSED + MIN_SIMILARITY  # …and the least score it is read at
DEFINING = 0.25           # what a property that defines the entity's class adds to its score (pyramid.reading.assembly)
MIN_IN_TITLE_CHARS = 2    # an item this short is inside any title by chance


# what a copula's complement or a predicative "as" says of the entity ("X is Chairperson", "X serves as
# Chairperson"): compared with the properties' words as any context is
ROLE_MEANING = "role"


def _passive_named(p) -> bool:
    """The property is named as a passive ("is being advised by"): its subject undergoes the verb."""
    return any(n.split()[-1:] == ["by"] for n in p.names)


class FactLinker:
    """A segment's values as candidate facts of the schema's properties, scored."""

    def __init__(self, vocab: Vocab, meaning: PropertyMeaning, lessons: CorpusLessons, words: ClassWords) -> None:
        self.vocab, self.meaning, self.lessons, self.words = vocab, meaning, lessons, words
        self._paged_count, self._paged = -1, set()
        self.shapes = ShapeFloors(meaning)

    def candidates(self, seg: Segment, title: str = "") -> list[list[tuple[float, ReadFact]]]:
        """For each value of the segment (a list field: each item), the facts it could state, best
        first: object properties whose range fits a value that names a thing (types decide; the
        label's meaning ranks), else datatype properties by the meaning of the label (with the item,
        for a list) — the entity's class chooses later. Names, titles and codes come from fields or
        the page's title, never from inside a sentence."""
        # a count said of someone else is the entity's only where its noun plainly means one of its
        # properties ("3 credits"): "40 students" on a course page is no credit value
        only = self.meaning.confident(seg.context) if seg.aside else None
        if seg.aside and only is None:
            return []
        items = self.lessons.items_of(seg)
        out = []
        label = self.label_sims(seg.context) if seg.kind == "field" else self.meaning.sims(seg.context)
        plain = float(label.max()) >= CONFIDENT
        kinds, named, quals = self._kinds(seg, items)
        out += named
        qualifier = " ".join(items[k] for k in sorted(quals))
        # a copula's complement ("X is Chairperson") or a predicative "as" ("X serves as Chairperson")
        # says what the entity is: its role
        # (a card's line is no such sentence: a column of them is learnt from what its items are like)
        says_role = seg.complement or (seg.kind == "prose" and seg.context.split()[-1:] == [PREDICATIVE_AS])
        for n, (item, kind) in enumerate(zip(items, kinds)):
            if n in quals:
                continue  # it says which relation the others are, and is no value itself
            # a list under a plain label: the label says what every item is; under a vague one, each
            # item helps say it; what qualifies the list's things says it with the label
            context = f"{seg.context}: {qualifier}" if qualifier else \
                seg.context if len(items) == 1 or plain else f"{seg.context}: {item}"
            raw = sims = label if context == seg.context else self.meaning.sims(context)
            if context != seg.context and not qualifier:  # what the label says alone still counts for each item
                raw = sims = np.maximum(sims, label)     # under it (a qualifier narrows what it says)
            if not seg.number and (seg.kind == "prose" or float(sims.max()) < CONFIDENT):
                # no label says it plainly: what the value resembles counts too — all of it when nothing
                # but the value was said ("X is Associate Professor"), half of what it adds to a verb's
                # meaning ("obtained Bachelor of Science" is a degree, whatever else it looks like)
                like = self.lessons.value_sims(item)
                if says_role:
                    sims = self._as_role(seg, item, sims)
                if seg.complement and self.words.kind_said(item):
                    pass  # a kind in a class's words ("X is one of the councillors") is like no value
                elif context == item:
                    sims = np.maximum(sims, like)
                else:
                    sims = sims + LIKENESS_WEIGHT * np.clip(like - sims, 0, None)
                meant = self.lessons.value_means.get((fold(seg.context), fold(item))) if seg.kind == "field" else None
                if meant is not None and fold(seg.context) not in self.lessons.label_means:
                    # an item of a vague column that values like it elsewhere say plainly what it is
                    sims = self.meaning.made_plain(sims, meant)
            in_title = bool(title) and len(fold(item)) > MIN_IN_TITLE_CHARS and f" {fold(item)} " in f" {fold(title)} "
            options = self._thing_options(seg, item, kind, raw, title, in_title)
            # a quantity ("$35.5 million", "114 min") is its number to a numeric property
            # … and the one sum of money a phrase holds ("Pay £6.75 on the door") is its number too
            number = (quantity_number(item, self._scales) or amount_in(item)) if not NUMBER.match(item.strip()) else None
            sims, item = self.shapes.by_shape(item, sims, seg.aside)
            if seg.kind == "prose" and seg.number:
                # a number a sentence counts with a noun that hardly means a numeric property ("a four-week
                # refit" of a ward) counts something else: its shape alone makes it none of theirs
                weak = (raw < NUMBER_WORDS_SIMILARITY) & (self.shapes.numeric > 0)
                sims = np.where(weak, np.minimum(sims, raw), sims)
            if number is not None and not seg.aside:
                sims = np.maximum(sims, self.shapes.numeric)
            options += self._value_options(seg, item, kind, (sims, raw), number, only, in_title, len(items))
            options.sort(key=lambda x: -x[0])
            if options:
                out.append(options)
        return out

    def _kinds(self, seg: Segment, items: list[str]) -> tuple[list[str | None], list[list[tuple[float, ReadFact]]],
                                                               set[int]]:
        """The class of the thing each item names (None: a plain value; items may be cut to the name), the
        things named with a kind word around them ("the drama genre", "Councillors A and B"), and the items
        that only say which relation links the others (`_qualifiers`)."""
        kinds = [self._mention_class(item, seg) if not seg.number else None for item in items]
        known = False  # an item is a known thing's name: no kind word of another class opens or closes it
        for k, item in enumerate(items):
            # "the Libraries and Archives portfolio": a known thing's name, then a noun that says what it is
            # to the entity — not its kind ("the Brindle Hill swimming pool" is a pool)
            bare = name_before_noun(item) if not seg.number else None
            if bare is not None and not self.words.class_word(" ".join(bare[1])) and \
                    ((cls := self.lessons.class_named(bare[0])) or name_key(bare[0]) in self.words.titles):
                items[k], kinds[k], known = bare[0], cls or "", True
            known = known or name_key(item) in self.words.titles
        # ("the Libraries and Archives team" names one department, not the archives of a kind "libraries")
        named = self._common_kinds(seg, items) if not seg.number and not known else []
        if named:  # the things are the names before the kind word; the items as written stay values
            return [None] * len(items), named, set()
        if len(items) > 1 and sum(k is not None for k in kinds) < MIN_THING_SHARE * len(items):
            # a list states one property: mostly plain values ("Expertise: metaphor, lexicon, Faculty of
            # Humanities") make its few names of things values like the rest, not links to things
            return [None] * len(items), [], set()
        if len(items) > 1 and len(set(kinds) - {None}) == 1:
            # a list mostly of things of one class states one property: its other items are of that class
            # too ("thriller and horror" where the corpus gave "horror" as a genre) — save one that says which
            # relation links them ("Degree: Master's degree, Ashcombe University"), which qualifies the rest
            cls = next(k for k in kinds if k is not None)
            quals = self._qualifiers(seg, items, kinds, cls)
            return [None if k in quals else cls for k in range(len(items))], [], quals

        return kinds, [], set()

    def _qualifiers(self, seg: Segment, items: list[str], kinds: list[str | None], cls: str) -> set[int]:
        """The items of a field's list of things that name none but plainly mean a relation to things of
        their class ("Master's degree" beside "Ashcombe University": a property ranging over universities)."""
        if seg.kind != "field":
            return set()
        ranged = np.array([p.kind == "object" and bool(p.ranges) and self.vocab.fits(cls, p.ranges)
                           for p in self.meaning.props])
        return {k for k, item in enumerate(items) if kinds[k] is None and not self._individual(seg, item)
                and float(np.where(ranged, self.meaning.sims(item), 0.0).max(initial=0.0)) >= CONFIDENT}

    def _value_options(self, seg: Segment, item: str, kind: str | None, scores: tuple[np.ndarray, np.ndarray],
                       number: str | None, only: str | None, in_title: bool, listed: int) -> list[tuple[float, ReadFact]]:
        """The datatype properties a value may state, at their scores (`scores`: with what the value is like,
        and the words' meaning alone)."""
        sims, raw = scores
        said = self._said_by_noun(item)
        # "took her doctorate", "his first degree": a thing of the entity's a sentence refers to, a value of a
        # property only where the words plainly say which — as is any value of a sentence for a property that
        # declares no domain (no type says whose it may be: "reading for a bachelor's degree" is no research)
        possessed = item.split()[:1] and item.split()[0].lower() in POSSESSIVES
        out = []
        for j, p in enumerate(self.meaning.props):
            if only is not None and p.iri != only:
                continue
            # a name, title or code comes from a field under a label that plainly says so, or one
            # that repeats the page's title (else from the title): "Expertise: organic synthesis" is
            # not the entity's name
            # … the number of a quantity to a numeric property only ("26 April" stays words elsewhere)
            stated = typed_form(p, number if number is not None and self.shapes.numeric[j] > 0 else item)
            score = float(sims[j])
            if p.iri in said:  # "the People First group" to "political group": the name before the noun
                stated, score = typed_form(p, said[p.iri][0]), max(score, said[p.iri][1])
            if p.kind == "datatype" and score >= MIN_SIMILARITY and self.lessons.takes(p, stated) and \
                    not (is_named(p) and (seg.kind == "prose" or (raw[j] < CONFIDENT and not in_title))) and \
                    not (seg.kind == "prose" and (possessed or not p.domains) and raw[j] < CONFIDENT) and \
                    not (kind and self._individual(seg, item) and raw[j] < CONFIDENT and not self._an_example(p.iri, item)):
                # (a thing of a known class, named as one — a page's title, an item under a class's label — is
                # a plain value only where the words plainly say so, or where the corpus gave it to the property
                # elsewhere: "Facility: The Plunge" on a district's page names a facility, and no address)
                value = seg.value if is_named(p) and listed > 1 else stated
                out.append((score, ReadFact("", p.iri, value, False, "", seg.context)))
        return out

    @cached_property
    def _role_property(self) -> np.ndarray:
        """The datatype property nearest in meaning to a role, at that similarity (0 for every other)."""
        role = np.where([p.kind == "datatype" for p in self.meaning.props], self.meaning.sims(ROLE_MEANING), 0.0)
        best = int(role.argmax()) if len(role) else 0
        return np.where(np.arange(len(role)) == best, role, 0.0)

    def _individual(self, seg: Segment, item: str) -> bool:
        """The value names one thing, or a class by its name alone: another page's title, an item under a
        label that names its class ("Facility: The Plunge"), "Role: skipper"; "Academic Staff" said of
        someone is a kind, a value of whatever property its words mean."""
        # (another page's title however the code beside it is written: "Organic Chemistry (CHEM 430)")
        return not seg.complement and (any(k in self.words.titles for k in name_keys(item)) or
                                       self.words.only_class_words(item) or
                                       (seg.kind == "field" and self.words.label_class(seg.context, head=True) is not None))

    def _an_example(self, prop: str, value: str) -> bool:
        """The corpus's fields gave the property this value (`CorpusLessons.examples`)."""
        return fold(value) in {fold(v) for v in self.lessons.examples.get(prop, ())}

    def _has_pages(self, ranges: tuple[str, ...]) -> bool:
        """Things of these classes have pages of their own in the corpus (their titles were typed so)."""
        if self._paged_count != len(self.lessons.titled):  # the lessons learn page classes as they go
            self._paged_count = len(self.lessons.titled)
            self._paged = {c for k in self.lessons.titled if (c := self.lessons.known.get(k))}
        return bool(ranges) and any(self.vocab.fits(c, ranges) for c in self._paged)

    def _said_by_noun(self, item: str) -> dict[str, tuple[str, float]]:
        """Datatype properties a value names with its own closing noun ("the HF7 postcode area", "the People
        First group"): for each, the name before the noun, and how plainly the noun says the property
        (`CONFIDENT` where the nouns are all the property's words, `MIN_SIMILARITY` where the noun is its
        head, the last of them: the entity's class then decides)."""
        bare = name_before_noun(item)
        if bare is None:
            return {}
        name, tail = bare
        nouns = {singular(w) for w in tail}
        out = {}
        for p in self.meaning.props:
            words = [w for w in p.words.split() if w not in PROPERTY_NAME_FUNCTION_WORDS]
            content = {singular(w) for w in words}
            if p.kind == "datatype" and words and singular(tail[-1]) in content:
                out[p.iri] = (name, CONFIDENT if content <= nouns else
                              MIN_SIMILARITY if singular(tail[-1]) == singular(name_head(" ".join(words))) else 0.0)
        return out

    def _as_role(self, seg: Segment, item: str, sims: np.ndarray) -> np.ndarray:
        """What a value said to be the entity's role or kind may state: a property for roles counts as much
        as the value's own meaning. A kind said in nothing but a class's words ("Northgate is one of the
        districts", "one of your elected councillors") types the entity, and is a value only of the
        property for roles or kinds (the one nearest a role in meaning)."""
        role = self.meaning.sims(ROLE_MEANING)
        if seg.complement and self.words.kind_said(item):
            return self._role_property  # only the schema's one property for roles or kinds
        return np.maximum(sims, role)

    def _thing_options(self, seg: Segment, item: str, kind: str | None, raw: np.ndarray, title: str,
                       in_title: bool) -> list[tuple[float, ReadFact]]:
        """The object properties a value naming a thing may state: those whose range fits its class."""
        # … unless the piece is another page's whole title: "situated in Harrowfield" on the page of
        # Harrowfield General Hospital names the town that has a page of its own
        another = name_key(item) in self.words.titles and name_key(item) != name_key(title)
        itself = (in_title and name_like(title) and not another) or bool(set(codes_in(item)) & set(codes_in(title)))
        # … nor is what a copula's complement says it is ("X is a professor"): its kind or role, not
        # another thing it relates to
        if kind is None or itself or seg.complement:
            return []
        # the entity itself (its code, its name or a piece of it) is no thing it links to: a parser that
        # hangs "COMP5327 (…)" on the department before it would make it one
        options: list[tuple[float, ReadFact]] = []
        for j, p in enumerate(self.meaning.props):
            # a property that declares no range takes a thing of any class: its class says nothing, the words must
            # (… and more of it than a link the parser alone suggests: a thing of a known class could go to any
            # such property, the words must say which)
            typed = bool(kind) and bool(p.ranges)
            floor = MIN_SIMILARITY if kind and not p.ranges else OBJECT_SIMILARITY
            if p.kind != "object" or (typed and not self.vocab.fits(kind, p.ranges)) or (not typed and raw[j] < floor):
                continue
            if not kind and raw[j] < CONFIDENT and not another and self._has_pages(p.ranges):
                # the range's things have pages of their own and this name has none: only words that plainly
                # mean the relation link it ("is run by Hollinsford City Council" names no officer)
                continue
            rng = kind or (p.ranges[0] if p.ranges else "")
            # a thing of a known class: the types decide (above any datatype reading); a name of no known
            # class competes with the datatype readings on meaning alone
            options.append(((TYPED_LINK if typed else 0.0) + float(raw[j]), ReadFact("", p.iri, item, True, rng, seg.context)))
        options += self._over_name_word(seg, item, kind, raw, another)
        # (what the thing does to the entity is its verb as written: "Ann Lee teaches it" is Ann Lee teaching)
        held = np.maximum(raw, self.meaning.sims(seg.active)) if seg.active else raw
        return options + (self._held_by(item, kind, held, seg.context, seg.active) if kind else [])

    def _over_name_word(self, seg: Segment, item: str, kind: str, raw: np.ndarray,
                        another: bool) -> list[tuple[float, ReadFact]]:
        """A class guessed from a word of the name alone ("Calloway *Institute* of Technology") gives way to
        words that plainly mean a relation (`OVER_NAME_WORD`) whose range is a kindred class (both under one class of the schema):
        "undergraduate degree is from" says a university gave it, whatever the name calls itself. A thing with
        a page of its own keeps the class its page gives it."""
        if another or seg.complement or self.words.class_word(item) != kind:
            return []
        above = self.vocab.ancestors(kind)
        out = []
        for j, p in enumerate(self.meaning.props):
            if p.kind != "object" or not p.ranges or raw[j] < OVER_NAME_WORD or self.vocab.fits(kind, p.ranges):
                continue
            kin = next((r for r in p.ranges if above & ({r} | self.vocab.ancestors(r))), None)
            if kin is not None:
                out.append((TYPED_LINK + float(raw[j]), ReadFact("", p.iri, item, True, kin, seg.context)))
        return out

    def _held_by(self, item: str, kind: str, raw: np.ndarray, context: str,
                 active: str = "") -> list[tuple[float, ReadFact]]:
        """The properties the named thing may hold to the page's entity ("Taught by Ann Lee" on a course's page,
        "Students supervised: A, B" on a supervisor's): both ends declared (or said by the schema), the thing of
        the domain, the words meaning the relation — below a link the page's entity holds itself (`REVERSED`);
        the entity's class checks the range."""
        # (one that defines the named thing's class may be said with fewer of its words, as `assembly.DEFINING`
        # raises it; where a label names that class, it says the relation plainly: "Faculty directory: A, B"
        # lists those who work for the page's department, a faculty member being one who works for something)
        lineage = {kind, *self.vocab.ancestors(kind)}
        # (… and so does a sentence's word for the class: "Professor Ann Lee chairs the department", a chair
        # being whoever heads one)
        labelled = self.words.label_class(context) or self.words.class_word(active or context)
        said = {labelled, *self.vocab.ancestors(labelled)} if labelled else set()
        # a participle before the named things' class ("Supervised students: A, B") says what they undergo,
        # the entity doing it: "supervised by" is what the property's words are to mean
        if labelled and (passive := participle_by(context)) and self.vocab.compatible(labelled, kind):
            raw = np.maximum(raw, self.meaning.sims(passive))
        # the property defining the class said the most narrowly says it most: a chair heads something, and
        # works for something as every faculty member does
        depth = {p.iri: max(len(self.vocab.ancestors(c)) for c in made) for p in self.meaning.props
                 if (made := self.vocab.defines.get(p.iri, set()) & said)}
        deepest = max(depth.values(), default=None)
        # a passive names its agent ("Taught by Ann Lee"): the named thing does the verb to the entity, as
        # plainly as the entity would hold a property said forwards — unless the property's own name is a
        # passive ("is being advised by"), which the entity holds
        agent = passive_agent(context)
        if agent is not None:
            raw = np.maximum(raw, self.meaning.sims(agent))

        def score(j: int, p) -> float:
            held = float(raw[j]) - (0.0 if agent is not None and not _passive_named(p) else REVERSED)
            if p.iri in depth:
                held = max(held, CONFIDENT + (DEFINING if depth[p.iri] == deepest else 0.0))
            return TYPED_LINK + held
        return [(score(j, p), ReadFact("", p.iri, item, True, kind, context, reverse=True))
                for j, p in enumerate(self.meaning.props)
                if p.kind == "object" and p.domains and p.ranges and self.vocab.fit(kind, p.domains) == 1.0
                # (a property with an inverse: the inverse says it forwards)
                and score(j, p) + (DEFINING if self.vocab.defines.get(p.iri, set()) & lineage else 0.0) >= HELD_BY_FLOOR
                and not self.vocab.inverses.get(p.iri)]

    def _common_kinds(self, seg: Segment, items: list[str]) -> list[list[tuple[float, ReadFact]]]:
        """Names before a common noun of their kind ("the drama and horror genres"), or after its plural
        ("Councillors Ann Lee and Bo Wu"): each a thing of that kind, for the object properties that range
        over it (the value as written stays what it was for every other reading: "core English
        proficiency course" is still a description)."""
        if (lead := self.words.leading_kind(seg.value)) is not None:
            cls, names = lead  # "Councillors Ann Lee and Bo Wu": the plural kind word opens the list
        elif (common := self.words.common_kind(items[-1]) if items else None) is not None:
            cls, parts = common
            # the kind word closing a list is every item's ("the romance and horror genres")
            names = [*(i for i in items[:-1] if not self.words.class_word(i)), *parts]
        else:
            return []
        props = [p for p in self.meaning.props if p.kind == "object" and p.ranges and self.vocab.fits(cls, p.ranges)]
        sims = self.meaning.sims(seg.context)
        index = {p.iri: j for j, p in enumerate(self.meaning.props)}
        return [[(TYPED_LINK + float(sims[index[p.iri]]), ReadFact("", p.iri, name, True, cls, seg.context)) for p in props]
                for name in names if props]

    def label_sims(self, label: str) -> np.ndarray:
        """`PropertyMeaning.sims` of a field's label, with the meaning its values taught
        (`learn_label_meanings`) made plain."""
        sims = self.meaning.sims(label)
        prop = self.lessons.label_means.get(fold(label))
        return sims if prop is None else self.meaning.made_plain(sims, prop)

    def _mention_class(self, value: str, seg: Segment) -> str | None:
        """The class of the thing a value names: a class word in it ("Department of …"), a name seen
        before as a thing of a class, a field whose label names a class ("Faculty: Business"); ""
        for a thing of no known class (another page's title, a name the parser saw); None for a
        plain value."""
        key = name_key(value)
        if shape_of(value) is not None or shaped_part(value) is not None:
            return None  # an address names no thing, whatever words its domain holds ("ann@x-hospital.org")
        if quantity_number(value) is not None:
            return None  # "up to 160 people" says how many, not who
        if relational(value, self.words.class_word) or value.split()[:1] and value.split()[0].lower() in POSSESSIVES:
            return None  # "Head of the Department of X" is a role in one; "its lead clinician" a description
        if seg.kind == "prose" and common_phrase(value) and \
                not any(k in self.lessons.known or k in self.words.titles for k in name_keys(value)):
            return None  # a sentence's common noun phrase describes ("work on plant immunity", "the department"): no name
        named = self.lessons.class_named(value)
        if named:
            return named
        if seg.kind == "field" and len(value.split()) <= MAX_ITEM_WORDS:
            # by the label's own class word ("Faculty: Business"), not by a name the corpus once typed: a
            # stray value "Research" under "Unit:" must not make every item under "research:" a unit
            by_label = self.words.label_class(seg.context, head=True)
            if by_label:
                return by_label
        if key in self.words.titles or seg.mention:
            return ""
        return None

    @cached_property
    def _scales(self) -> set[str]:
        return counted_scales(self.vocab)
