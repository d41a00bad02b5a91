"""Stage 1, link: what the question names — instances by the label index (and a capitalised word
that is a whole label), values of datatype properties by the value index, and numbers beside a
property's word. These are the anchors every reading starts from."""

from __future__ import annotations

import re

from pyramid.normalise import fold
from pyramid.ontology.labels import LabelIndex, Mention, without_possessive
from pyramid.ontology.values import ValueIndex, ValueMatch
from pyramid.reading.english import STOPWORDS, TITLES
from pyramid.vocab import Vocab
from querying.planning.cues import NUMBER_TOKEN, SUPERLATIVE, THRESHOLD, THRESHOLD_REACH, comparison
from querying.planning.names import SchemaNames, property_words
from querying.planning.records import Anchor
from querying.planning.vectors import QueryVectors
from querying.planning.weights import PHRASE_STRENGTH, SCHEMA_WORD, WORD_STRENGTH
from querying.planning.wording import forms, words_outside

MIN_LABEL_WORD = 4        # a capitalised word this long may be a whole label on its own ("Investments")
_TITLE_BEFORE = re.compile(r"(?:\b(\w+)\.?\s+)$")


class AnchorLinker:
    """Finds the anchors of a question: instances, values and numbers, each with its spans."""

    def __init__(self, vocab: Vocab, index: LabelIndex, values: ValueIndex, names: SchemaNames,
                 vectors: QueryVectors) -> None:
        self.vocab, self.index, self.values, self.names, self.vectors = vocab, index, values, names, vectors

    def anchors(self, question: str) -> list[Anchor]:
        """Every anchor of the question, in the order of their first spans."""
        out = self._instances(question)
        named = {s for a in out for s in a.spans}
        words = words_outside(question, out)
        by_span: dict[tuple[int, int], list[ValueMatch]] = {}
        cues = [m.span() for m in SUPERLATIVE.finditer(question)]  # "the largest number of": no value
        # a class word inside a name ("Department" of "Department of Computing") is the name's, and a
        # value may hold the whole name ("head of the Department of Computing", a stored position)
        classy = [(s, e) for s, e in self.names.class_spans(question) if not any(a <= s and e <= b for a, b in named)]
        for v in self.values.matches(question, skip=classy + cues):
            inside = [(s, e) for s, e in named if v.start < e and s < v.end]
            # A value beside the names; a longer value around a name ("geospatial computer vision"
            # around a course "Computer Vision"); or a whole name that is also a value when the
            # question names the value's property ("whose research includes information technology",
            # a course title and a research interest): the readings of both compete.
            span = (v.start, without_possessive(question, v.start, v.end))  # as for names ("X's job title")
            if not inside or v.exact and (
                    all(v.start <= s and e <= v.end for s, e in inside) and span not in named
                    or span in named and self.names.names_property(v.prop, words)):
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

    def _instances(self, question: str) -> list[Anchor]:
        """The instances the question names, one anchor per set of instances, with the class word
        and titles before a name taken into its span, and names side by side merged."""
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
            if len(word) >= MIN_LABEL_WORD and word[0].isupper() and \
                    not any(a <= m.start() < b for a, b in covered) and word.lower() not in STOPWORDS:
                links = tuple(lk for lk in self.index.link(word, fuzzy=False) if lk.tier == "exact")
                if links:
                    groups.setdefault(tuple(sorted({lk.iri for lk in links})), []).append(
                        Mention(word, m.start(), end, links))
        out: list[Anchor] = []
        for iris, ms in groups.items():
            classes = self.names.specific({c for m in ms for c in m.classes if self.vocab.get(c)})
            if classes:
                out.append(Anchor(tuple((m.start, m.end) for m in ms), ms[0].text, iris, tuple(sorted(classes))))
        return [_with_titles(self._with_class_word(a, question), question)
                for a in _merge_adjacent(sorted(out, key=lambda a: a.spans[0]), question)]

    def _numbers(self, question: str, taken: list[tuple[int, int]]) -> list[Anchor]:
        """A number beside a word of a datatype property's name is that property's value ("level 4",
        "3 credits", "worth 3 credits"): the value index leaves numbers out, as a number alone could be
        any property's. The property's words that are also its class's names ("subject" of subject
        level) do not count: "the 3 subjects" names no level."""
        out = []
        words = [(m.start(), m.end(), forms(m.group())[0]) for m in re.finditer(r"[^\W\d_]+", question)]
        class_names = self.names.class_names
        for m in NUMBER_TOKEN.finditer(question):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            before = [w for s, e, w in words if e <= m.start()][-1:]
            after = [w for s, e, w in words if s >= m.end()][:1]
            beside = set(before + after)
            for p in self.vocab.properties:
                if p.kind != "datatype" or not p.domains:
                    continue
                own = {w for d in p.domains if d in class_names for n in class_names[d] for w in forms(n)}
                if (set(forms(property_words(p))) - own - STOPWORDS) & beside:
                    cue = THRESHOLD.search(question, max(0, m.start() - THRESHOLD_REACH), m.end())
                    op = comparison(cue)[0] if cue and cue.end() == m.end() else ""
                    out.append(Anchor(((m.start(), m.end()),), m.group(), prop=p.name, stored=(m.group(),), op=op))
        return out

    def _schemaish(self, texts: list[str]) -> list[bool]:
        """Spans that name a term of the schema rather than a stored value: the words of a class or a
        property ('research interests'), or one word near them in meaning ('academics' near STAFF's
        words, 'work' near 'works for'); PolyU stores all of these as values too."""
        named = {forms(w) for w in self.names.schema_words}
        single = [t for t in texts if len(t.split()) == 1]
        sims: dict[str, float] = {}
        if single:
            terms = self.vectors.embed(self.names.schema_words)
            sims = dict(zip(single, (self.vectors.embed(single) @ terms.T).max(axis=1).tolist()))
        return [forms(t) in named or (len(t.split()) == 1 and sims[t] >= SCHEMA_WORD) for t in texts]

    def _with_class_word(self, a: Anchor, question: str) -> Anchor:
        """'the subject AAE6203': the word naming the anchor's own class is part of the mention, not
        what the question asks for (masked with it)."""
        names = {forms(w) for c in a.classes for w in re.findall(r"\w+", self.names.class_words.get(c, ""))}
        start, end = a.spans[0]
        before = re.search(r"(\w+)\s+$", question[:start])
        if before and forms(before.group(1)) in names:
            return Anchor(((before.start(1), end),) + a.spans[1:], a.text, a.iris, a.classes)
        return a


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


def strength(a: Anchor) -> float:
    """How much an anchor weighs in what the question names (see weights.COVER)."""
    if not a.is_value:
        return 1.0
    # a number is an anchor only beside its property's word ("level 4"): as plain as a phrase
    return PHRASE_STRENGTH if a.exact and (len(a.text.split()) > 1 or NUMBER_TOKEN.fullmatch(a.text)) \
        else WORD_STRENGTH


def overlap(a: Anchor, b: Anchor) -> bool:
    """The two anchors share some of the question's text."""
    return any(s1 < e2 and s2 < e1 for s1, e1 in a.spans for s2, e2 in b.spans)
