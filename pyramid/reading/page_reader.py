"""Schema-aware reading of a page: its main entity and the facts the page states about it, for the
ontology (instances) and the knowledge graph (triples) alike — one reading per page.

    reader = PageReader(vocab, embedder, titles=...)     # titles: every page title of the corpus
    reading = reader.read(title, text)                   # -> Reading(entity, cls, facts)

1. **Segments.** "Label: value" lines (also "Label | value", "Label — value", "Label = value", label, tab,
   value, a label line followed by bullets, table rows, a header row over a table's one row, a short
   question over the lines that answer it) are fields; " // " parts a line as a line break would; a
   breadcrumb trail puts the page under the crumb before it; everything else is prose, cut into sentences.
   A sentence that opens with "Label: …" is a field too.
2. **Prose by a dependency parser** (spaCy's en_core_web_sm): in a sentence whose subject is the page's
   entity (its name, or a pronoun or "the department", "this subject" standing for it), every value the
   verb reaches — an object, the object of a preposition, a copula's complement, a number with its noun
   ("a level 2 subject of 3 credits") — is a candidate, with the words that lead to it from the verb as
   its context ("obtained … from", "belongs to", "level"). A count whose noun plainly means one of the
   schema's properties is the entity's in a sentence about someone else too ("Students who pass gain
   3 credits").
3. **Linking to the schema by meaning, not by a list of labels.** A value that names a thing (a mention
   with a class's word in it, another page's title, a named entity) goes to an object property whose
   range fits it (types decide; the context's similarity to the property's words breaks ties); any other
   value goes to the datatype property whose words are closest in meaning to its context (MiniLM), above
   `MIN_SIMILARITY`. Lists are split on ";", ",", "/" and "and" for properties that are not names,
   titles or codes, when every item is short. A field label too vague for its words to say a property
   ("Post", "Capacity") is read, once every page is linked, by what it holds: the property most of its
   values are given on other pages, under other labels or in sentences (`learn_label_meanings`); a
   vague column that no one property explains ("Education: PhD; Lund University") is read item by item,
   each as the values most like it are given elsewhere (`value_means`).
4. **The entity's class** is the one whose properties the page's facts fill most (the class a title
   names breaks a tie); facts that do not fit it are dropped. What the corpus teaches weighs in: a class
   whose every name carries its class word or a code doubts a title without it, and a property whose
   plainest label holds numbers takes no word. Its name, title and code properties come
   from the title when the page states none ("COMP3423 Human Computer Interaction").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.normalise import STOPWORDS, codes_in, fold, name_key, strip_titles
from pyramid.reading.english import CARDINALS, ENTITY_PRONOUNS, NAME_HEAD_PREPOSITIONS, parser
from pyramid.vocab import Term, Vocab, local_name, word_forms

MIN_SIMILARITY = 0.30     # a datatype property this far from a field's label (cosine) is not what it states
OBJECT_SIMILARITY = 0.15  # an object property needs at least this much of its label's meaning too
MAX_ITEM_WORDS = 8        # a list item longer than this is a sentence: the value is not a list
MAX_LABEL_WORDS = 5
MIN_THING_SHARE = 0.5     # a list whose items are less than this share names of things lists plain values
SHARED_BY = 3             # a word in this many property names is a prefix, not a meaning
CONFIDENT = 0.5           # a field label this close to one property, …
CONFIDENT_MARGIN = 0.1    # … and this much closer than to any other, plainly means it: its values are examples
MAX_EXAMPLES = 60
LABEL_SHARE = 0.5         # a vague label more than this share of whose values are one property's elsewhere means it
NEAR_SHARE = 0.4          # … or this share of whose items are like that property's values (topics said nowhere find none)
NEIGHBOUR = 0.6           # values this close (cosine) to an item under a vague label, given a property elsewhere, …
NEIGHBOURS = 5            # … among its this many closest, vote for what the item is
ITEM_AGREE = 0.8          # an item whose votes agree this much is read as they say
MAX_VOTERS = 2000         # values per property that may vote (the first met): enough to place most items
TITLE_MARGIN = 0.5        # a page's facts settle its class when the best class leads every other by this
MAX_TITLE_EXAMPLES = 300  # titles kept per class as examples of its names
MIN_TITLE_EXAMPLES = 5
SHAPE_SHARE = 0.85        # a shape this share of a class's learnt names have, its names have …
SHAPE_PENALTY = 1.0       # … and a title without it loses a typed fact's worth of votes for the class
MIN_SHAPE_EXAMPLES = 5    # values under a label before their shape (numbers or not) counts
TITLE_NEIGHBOURS = 5      # a title's resemblance to a class: mean cosine to this many closest examples
MIN_HEAD_COUNT = 2        # names sharing a head word this often, all of one class, make it the class's word
DESCRIPTION = "description"  # what the page's free text (sentences stating no fact) is, for the schema
MIN_DESCRIPTION_WORDS = 6
DESCRIPTION_SIMILARITY = 0.5
_ENTITY_LABELS = {"ORG", "FAC", "GPE", "LOC", "NORP", "PERSON"}  # NER kinds that name a thing
_VALUE_DEPS = ("dobj", "pobj", "attr", "oprd", "acomp", "appos")  # a verb reaches a value through these
LABEL_LIKE = re.compile(r"(^|[_\s])(name|title|code|label)$")
# a label and its value: "Label: v", "Label | v", "Label — v", "Label = v", "Label<TAB>v" (a table's row
# as text copied from a page)
_FIELD = re.compile(r"^\s*(?:[-•*·]\s*)?([^:|—–=\t\n]{1,60}?)[^\S\t]*(?::|：|\s\|\s|\s[—–]\s|\s=\s|\t+)\s*(.*)$")
# " // " splits a line into parts as a line break would ("X // Rank: … // Unit: …"); a URL's "//" has no spaces
_PART_BREAK = re.compile(r"\s+//\s+")
_COUNTED = re.compile(r"^(?:[^\W\d_]+\s+\d+(?:\.\d+)?|\d+(?:\.\d+)?\s+[^\W\d_]+)$")  # "Level 2", "3 credits"
_EMPHASIS = re.compile(r"\*\*|__|`")  # Markdown's bold and code marks: "**Position:** Professor"
MIN_PIPE_PARTS = 3  # "a | b | c" on a line that is no table row: parts, as lines; "Label | value" is a field
# "Label - value" (a spaced hyphen), tried when no other separator parts the line
_DASH_FIELD = re.compile(r"^\s*(?:[-•*·]\s+)?([^:|—–=\t\n\d]{1,60}?)\s+-\s+(\S.*)$")
# a question over the line that answers it ("What is X's role?" / "Professor"): an FAQ's label
MAX_QUESTION_WORDS = 12
_QUESTION_VALUE_WORDS = 40
_FIELD_AFTER_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z][\w ]{0,40}:\s)")
# "Code: X, Title: Y, Credits: 3": several fields on one line, each label a short phrase before ":"
_FIELD_AFTER_FIELD = re.compile(r",\s+(?=[A-Za-z][\w ]{0,40}:\s)")
MIN_INLINE_FIELDS = 3     # fewer is more likely a list whose item holds a colon ("Finance: Pricing")
_BULLET = re.compile(r"^\s*[-•*·]\s+(.+)$")
_DOT_LIST = re.compile(r"\s+[·•]\s+")  # items between spaced dots or bullets: "a · b · c"
_CRUMB = re.compile(r"\s+[>›»]\s+")
_WORD_NUMBER = re.compile(r"^([^\W\d_]{3,})-(\d+)$")  # "level-6", "year-2": a word and its number as one token


@dataclass(frozen=True)
class Segment:
    context: str            # the field's label, or the words leading to the value in a sentence
    value: str
    kind: str               # "field" | "prose"
    mention: bool = False   # the parser saw a name (an entity) in the value
    number: bool = False
    sentence: int = -1      # prose: which sentence of the page it came from
    aside: bool = False     # a count in a sentence about someone else ("Students who pass gain 3 credits")


@dataclass
class ReadFact:
    subject: str            # the entity's name (the page's entity, or a value's name for its class)
    prop: str               # property IRI
    value: str              # literal text, or the name of the thing it points to
    is_object: bool
    value_class: str = ""   # object facts: the class of the thing pointed to
    context: str = ""       # how the page said it (the KG's relation)


@dataclass
class Page:
    title: str
    segments: list[Segment]
    sentences: list[str]


@dataclass
class Reading:
    entity: str
    cls: str | None
    facts: list[ReadFact] = field(default_factory=list)
    mentions: dict[str, str] = field(default_factory=dict)   # name → class, for the things pointed to


class PageReader:
    def __init__(self, vocab: Vocab, embedder: Embedder, *, titles: Iterable[str] = ()) -> None:
        self.vocab, self.embedder = vocab, embedder
        self.titles = {name_key(t): t for t in titles}
        self._vec: dict[str, np.ndarray] = {}
        self.known: dict[str, str] = {}      # name key → class, for things pages named with their class
        self.heads: dict[str, str] = {}      # a name's head word → class ("school" → DEPARTMENT), learnt
        self.examples: dict[str, list[str]] = {}  # datatype property → values fields gave it, learnt
        self._value_vec: dict[str, np.ndarray] = {}
        self.title_examples: dict[str, list[str]] = {}   # class → titles of pages surely of it, learnt
        self.title_shapes: dict[str, set[str]] = {}      # class → what all its names carry, learnt
        self.numeric: set[str] = set()   # datatype properties whose plainest label's values are numbers, learnt
        self.labelled: dict[str, set[str]] = {}  # class → names fields gave under a label naming it, learnt
        self.label_means: dict[str, str] = {}  # folded vague field label → the property its values say it means, learnt
        self.value_means: dict[tuple[str, str], str] = {}  # (vague label, item), folded → what values like it are, learnt
        self._title_matrix: np.ndarray | None = None
        self.props = [p for p in vocab.properties if p.kind in ("object", "datatype")]
        self._class_words = {c.iri: {min(word_forms(w), key=len) for w in fold(c.words).split()}
                             for c in vocab.classes}

    # ------------------------------------------------------------------ meaning
    @cached_property
    def _prop_matrix(self) -> np.ndarray:
        return self.embedder.embed([self._prop_text(p) for p in self.props], kind="document")

    @cached_property
    def _shared_words(self) -> set[str]:
        """Words that many properties' names share ("has", "subject" in has_subject_code, …_title,
        …_level): they say nothing about which property a label means, and would pull every label
        that mentions them towards all those properties at once."""
        counts: dict[str, int] = {}
        for p in self.props:
            for w in set(p.words.split()):
                counts[w] = counts.get(w, 0) + 1
        return {w for w, n in counts.items() if n >= SHARED_BY} | {"has"}

    def _prop_text(self, p: Term) -> str:
        words = " ".join(w for w in p.words.split() if w not in self._shared_words) or p.words
        return f"{words}. {p.comment}" if p.comment else words

    def _embed_contexts(self, contexts: Iterable[str]) -> None:
        """`_sims`'s vectors for many contexts in one batch."""
        todo = {key: c for c in contexts if (key := fold(c)) not in self._vec}
        if todo:
            self._vec.update(zip(todo, self.embedder.embed([c or "value" for c in todo.values()], kind="query")))

    def _sims(self, context: str) -> np.ndarray:
        key = fold(context)
        if key not in self._vec:
            self._vec[key] = self.embedder.embed_one(context or "value", kind="query")
        return self._prop_matrix @ self._vec[key]

    @property
    def nlp(self):
        """spaCy's small English pipeline (tagger, parser, NER), from its PyPI package; loaded on the
        first page with prose."""
        return parser()

    # ------------------------------------------------------------------ reading
    def read(self, title: str, text: str) -> Reading:
        """One page on its own (what the reader has learnt so far helps)."""
        return self.link(self.segment(title, text))

    def read_all(self, pages: Iterable[tuple[str, str]]) -> list[Reading]:
        segmented = [self.segment(t, x) for t, x in pages]
        self.study(segmented)
        return self.link_all(segmented)

    def link_all(self, pages: list[Page], advance: Callable[[], None] | None = None) -> list[Reading]:
        """Every page linked; then what the linked fields taught (below) links the pages whose values
        were said without a label, or under a vague one, once more."""
        readings = []
        for page in pages:
            readings.append(self.link(page))
            if advance is not None:
                advance()
        meant = self.learn_label_meanings(pages, readings)
        if self.learn_linked(pages, readings) or meant:
            # the pages whose values no label said plainly: a sentence's, or a field's under a vague label
            readings = [self.link(p) if any(seg.kind == "prose" or self._vague(seg.context)
                                            for seg in p.segments) else r
                        for p, r in zip(pages, readings)]
        return readings

    def learn_label_meanings(self, pages: list[Page], readings: list[Reading]) -> bool:
        """A field label too vague to say a property ("Post: Professor") is read by what it holds. A
        column more than half (`LABEL_SHARE`) of whose values other labels and sentences give one
        property, word for word, means that property (`label_means`) — a column of one site states one
        thing, whatever MiniLM makes of its header. Else each item votes as the values said plainly
        (under plain labels, in sentences) for the properties its pages' class has are given: the same
        value when it is said there, else its `NEIGHBOURS` closest at cosine `NEIGHBOUR` or more (topics
        said nowhere word for word are like topics said elsewhere; a course's title is like a topic but no
        property of a person). A column most of whose votes are for what it is read as keeps that for
        all its items. Votes that near are weaker: a column means their property when a good part of it
        (`NEAR_SHARE`) votes and hardly any vote another way (`ITEM_AGREE`); a column of two kinds
        (degrees and the universities that gave them) keeps its reading, and each item whose own votes
        agree is read as they say (`value_means`). A label with fewer than `MIN_SHAPE_EXAMPLES` values is
        no column (a name before one value); a column whose values were linked as things keeps its link
        (a department caught in a noisy list of roles elsewhere is no role of the department column);
        every property votes, but a label or an item comes to mean only a datatype property, neither a
        name nor a code. True when anything was learnt."""
        given: dict[str, Counter] = {}          # folded value → (folded context, property) → times
        under: dict[str, list[str]] = {}        # vague field label → the folded values under it
        classes: dict[str, Counter] = {}        # vague field label → the classes of the pages it is on
        now: dict[str, Counter] = {}            # vague field label → the properties its values were given
        plainly: dict[str, Counter] = {}        # folded value → property → times a plain label or a sentence gave it
        surface: dict[str, str] = {}            # folded value → as a page wrote it (its vector may be made already)
        for page, reading in zip(pages, readings):
            if reading.cls is None:
                continue
            vague = set()
            for seg in page.segments:
                if seg.kind == "field" and not seg.number and self._vague(seg.context):
                    for item in self._items_of(seg):
                        under.setdefault(fold(seg.context), []).append(fold(item))
                        surface.setdefault(fold(item), item)
                    classes.setdefault(fold(seg.context), Counter())[reading.cls] += 1
                    vague.add(seg.context)
            for f in reading.facts:  # every property counts, so that a column of things stays theirs
                given.setdefault(fold(f.value), Counter())[(fold(f.context), f.prop)] += 1
                now.setdefault(fold(f.context), Counter())[f.prop] += 1
                if f.context not in vague:
                    plainly.setdefault(fold(f.value), Counter())[f.prop] += 1
                    surface.setdefault(fold(f.value), f.value)
        learnt, unsettled = False, {}
        for label, values in under.items():
            current = next(iter(now.get(label, Counter()).most_common(1)), (None, 0))[0]
            held = self.vocab.by_iri.get(current or "")
            if (held is not None and held.kind == "object") or len(values) < MIN_SHAPE_EXAMPLES:
                continue  # a column of things links them, whatever else their names were given
            votes: Counter = Counter()
            for value in values:
                elsewhere = Counter()
                for (other, prop), n in given.get(value, {}).items():
                    if other != label:
                        elsewhere[prop] += n
                if elsewhere:
                    votes[elsewhere.most_common(1)[0][0]] += 1
            prop, n = next(iter(votes.most_common(1)), (None, 0))
            if prop is not None and self._plain_value(prop) and n > LABEL_SHARE * len(values):
                if current != prop:
                    self.label_means[label] = prop
                    learnt = True
            else:
                unsettled[label] = (classes[label].most_common(1)[0][0], values, current)
        for label, voted in self._item_votes(unsettled, plainly, surface).items():
            _, values, current = unsettled[label]
            votes = Counter(voted[v].most_common(1)[0][0] for v in values if v in voted)
            prop, n = next(iter(votes.most_common(1)), (None, 0))
            if prop is not None and self._plain_value(prop) and n >= NEAR_SHARE * len(values) and \
                    n >= ITEM_AGREE * sum(votes.values()):
                self.label_means[label] = prop  # said plainly, for every item (read one by one they scatter)
                learnt = True
                continue
            if prop is None or prop == current:
                continue  # most of what it holds is what it is read as: a few odd items stay with the column
            for item, item_votes in voted.items():
                prop, n = item_votes.most_common(1)[0]
                if self._plain_value(prop) and n >= ITEM_AGREE * sum(item_votes.values()):
                    self.value_means[(label, item)] = prop
                    learnt = True
        return learnt

    def _item_votes(self, columns: dict[str, tuple[str, list[str], str | None]], plainly: dict[str, Counter],
                    surface: dict[str, str]) -> dict[str, dict[str, Counter]]:
        """Per vague label (its pages' class, its folded items, …): per item that values said plainly
        speak for, property → votes, among the properties the class has."""
        voters, owners, per_prop = [], [], Counter()
        for value, props in plainly.items():
            prop = props.most_common(1)[0][0]
            if per_prop[prop] < MAX_VOTERS and not _NUMBER.match(value) and len(value.split()) <= MAX_ITEM_WORDS:
                voters.append(value)
                owners.append(prop)
                per_prop[prop] += 1
        unsaid = sorted({v for _, values, _ in columns.values() for v in values
                         if v not in plainly and not _NUMBER.match(v) and len(v.split()) <= MAX_ITEM_WORDS})
        near = self._vectors([surface[v] for v in unsaid]) @ self._vectors([surface[v] for v in voters]).T \
            if unsaid and voters else np.zeros((len(unsaid), 0))
        row = {v: i for i, v in enumerate(unsaid)}
        out: dict[str, dict[str, Counter]] = {}
        for label, (cls, values, _) in columns.items():
            fits = {p: self._fits(cls, p) for p in per_prop.keys() | {p for v in values for p in plainly.get(v, ())}}
            mask = np.array([fits[p] for p in owners], dtype=bool)
            voted = out[label] = {}
            for v in dict.fromkeys(values):
                votes = Counter({p: n for p, n in plainly.get(v, {}).items() if fits[p]})
                if not votes and v in row and mask.any():
                    sims = np.where(mask, near[row[v]], -1.0)
                    top = np.argpartition(-sims, min(NEIGHBOURS, len(sims) - 1))[:NEIGHBOURS]
                    votes = Counter(owners[k] for k in top if sims[k] >= NEIGHBOUR)
                if votes:
                    voted[v] = votes
        return out

    def _vectors(self, texts: list[str]) -> np.ndarray:
        """The values' vectors, each made once (`prepare` made most of those read under vague labels)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._value_vec]
        if todo:
            self._value_vec.update(zip(todo, self.embedder.embed(todo, kind="document")))
        return np.array([self._value_vec[t] for t in texts], dtype=np.float32)

    def _plain_value(self, prop: str) -> bool:
        """A datatype property that is neither a name nor a code: what a vague label may come to mean."""
        term = self.vocab.by_iri.get(prop)
        return term is not None and term.kind == "datatype" and not _named(term)

    def _vague(self, label: str) -> bool:
        """No property is close enough to the label's words for it to say one plainly."""
        return float(self._sims(label).max()) < CONFIDENT

    def _label_sims(self, label: str) -> np.ndarray:
        """`_sims` of a field's label, with the meaning its values taught (`learn_label_meanings`) made plain."""
        sims = self._sims(label)
        prop = self.label_means.get(fold(label))
        return sims if prop is None else self._made_plain(sims, prop)

    def _made_plain(self, sims: np.ndarray, prop: str) -> np.ndarray:
        """`sims` with `prop` raised to a plain meaning, ahead of every other property."""
        sims = sims.copy()
        j = next(j for j, p in enumerate(self.props) if p.iri == prop)
        sims[j] = max(float(sims.max()) + CONFIDENT_MARGIN, CONFIDENT)
        return sims

    def learn_linked(self, pages: list[Page], readings: list[Reading]) -> bool:
        """Values that fields gave a datatype property once the page's class settled which property
        the label meant ("title = Assistant Professor" on a staff page is a position, though "title"
        alone is nearer a subject's title) are examples of it too, as `learn`'s are. True when any
        property gained one."""
        gained = False
        for page, reading in zip(pages, readings):
            if reading.cls is None:
                continue
            fields = {seg.context: fold(seg.value) for seg in page.segments if seg.kind == "field"}
            for f in reading.facts:
                term = self.vocab.by_iri.get(f.prop)
                # the field's whole value only: an item of a list under a vague label ("Expertise:
                # a, b, c") says less about the property than the field's one value does
                if f.is_object or term is None or term.kind != "datatype" or _named(term) or \
                        f.context not in fields or fold(f.value) != fields[f.context] or \
                        self.label_means.get(fold(f.context), f.prop) != f.prop:
                    continue
                bag = self.examples.setdefault(f.prop, [])
                # a value of many words is a sentence or a list left whole: as an example it would make
                # every value sharing a word with it look like the property's
                if len(bag) < MAX_EXAMPLES and f.value not in bag and len(f.value.split()) <= MAX_ITEM_WORDS:
                    bag.append(f.value)
                    gained = True
        if gained:
            for cached in ("_example_matrix", "_example_rows"):
                self.__dict__.pop(cached, None)
        return gained

    def study(self, pages: list[Page]) -> None:
        """Everything the corpus teaches, before any page is linked: names, values, then titles."""
        self.learn(pages)
        self.prepare(pages)
        self.learn_titles(pages)

    def learn_titles(self, pages: Iterable[Page]) -> None:
        """What the names of each class look like: the titles of pages whose facts alone leave no doubt
        about their class (a course code and credits; a position and research interests). A page whose
        facts hesitate ("X is Inventor in the Department of …": works for it, or offered by it?) is
        then settled by whose names its title resembles."""
        by_class: dict[str, list[str]] = {}
        for page in pages:
            options = [o for seg in page.segments for o in self.candidates(seg, page.title)]
            ranked = sorted(self._fact_votes(options).items(), key=lambda x: -x[1])
            if not ranked or ranked[0][1] < 1.0:
                continue
            best, score = ranked[0]
            rival = max((v for c, v in ranked[1:] if not self.vocab.compatible(c, best)), default=0.0)
            bag = by_class.setdefault(best, [])
            if score - rival >= TITLE_MARGIN and len(bag) < MAX_TITLE_EXAMPLES:
                bag.append(page.title)
        self.title_examples = {c: ts for c, ts in by_class.items() if len(ts) >= MIN_TITLE_EXAMPLES}
        # what every name of a class carries: its class word ("Department of …"), a code ("AAE1001 …");
        # a title without it hardly names a thing of that class (`_shape_doubts`). Learnt from the names
        # fields give under a label naming the class ("Home department: …", whatever words they hold) where
        # there are enough, else from these titles — which rest on the pages' typing, a mistyped page's
        # title included.
        names: dict[str, list[str]] = {c: list(ts) for c, ts in self.title_examples.items()}
        names.update({c: sorted(ns) for c, ns in self.labelled.items() if len(ns) >= MIN_TITLE_EXAMPLES})
        self.title_shapes = {c: {shape for shape, has in _title_shapes(self._family_word(c), c).items()
                                 if sum(map(has, ts)) >= SHAPE_SHARE * len(ts)}
                             for c, ts in names.items()}
        texts = [t for ts in self.title_examples.values() for t in ts]
        self._title_matrix = self.embedder.embed(texts, kind="document") if texts else None

    def prepare(self, pages: Iterable[Page]) -> None:
        """Embed, in one batch, every value that will be compared with the examples (one at a time
        they cost a model call each), and every label context the linking will compare with the
        properties, a list's items under a vague label included ("Expertise: sonar imaging")."""
        pages = list(pages)
        self._embed_contexts(seg.context for page in pages for seg in page.segments)
        self._embed_contexts(f"{seg.context}: {item}" for page in pages for seg in page.segments
                             if self._vague(seg.context)
                             and len(items := self._items_of(seg)) > 1 for item in items)
        texts = []
        for page in pages:
            texts.append(page.title)
            for seg in page.segments:
                if not seg.number and (seg.kind == "prose" or self._vague(seg.context)):
                    texts += _items(seg.value) if _is_list(seg.value) else [seg.value]
        texts = [t for t in dict.fromkeys(texts) if t not in self._value_vec]
        if texts:
            self._value_vec.update(zip(texts, self.embedder.embed(texts, kind="document")))

    def segment(self, title: str, text: str) -> Page:
        """The slow part (the parser), independent of every other page: cache it per page."""
        title = " ".join(title.split())
        segments, sentences = self.segments(title, text)
        return Page(title, segments, sentences)

    def learn(self, pages: Iterable[Page]) -> None:
        """What the corpus says about its own names and values, before linking any page:
        - things named with their class (a class word in the name, a field whose label names a
          class: "Department: School of Design") — and the head words such names share ("School
          of …" are departments here), so that a name met only in a sentence is typed too;
        - values of fields whose label plainly means one property: examples of what that property's
          values look like ("Professor", "Associate Professor" for a position), so that a value a
          sentence states without a telling verb ("X is Associate Professor in …") is linked by
          what it resembles."""
        heads: dict[str, dict[str, set[str]]] = {}   # head word → class → the names seen
        shapes: dict[str, dict[str, list[int]]] = {}  # property → label → [numbers, values] under it
        for page in pages:
            for seg in page.segments:
                if seg.number:
                    continue
                items = _items(seg.value) if _is_list(seg.value) else [seg.value]
                for item in items:
                    by_label = self._class_word(seg.context) if seg.kind == "field" and \
                        len(item.split()) <= MAX_ITEM_WORDS else None
                    kind = self._class_word(item) or by_label
                    if kind:
                        self.known.setdefault(name_key(item), kind)
                    if by_label:
                        self.labelled.setdefault(by_label, set()).add(item)
                    head = _head_word(item)
                    if by_label and head and not self._class_word(item):
                        heads.setdefault(head, {}).setdefault(by_label, set()).add(name_key(item))
                if seg.kind == "field":
                    prop = self._confident(seg.context)
                    if prop is not None:
                        tally = shapes.setdefault(prop, {}).setdefault(seg.context, [0, 0])
                        tally[0] += sum(bool(_NUMBER.match(x.strip())) for x in items)
                        tally[1] += len(items)
                        bag = self.examples.setdefault(prop, [])
                        for item in items:
                            if len(bag) < MAX_EXAMPLES and item not in bag:
                                bag.append(item)
        self._learn_numeric(shapes)
        for head, names in heads.items():
            cls, seen = max(names.items(), key=lambda x: len(x[1]))
            if len(seen) >= MIN_HEAD_COUNT and len(seen) >= 0.8 * sum(map(len, names.values())):
                self.heads[head] = cls
        for cached in ("_example_matrix", "_example_rows"):
            self.__dict__.pop(cached, None)

    def _confident(self, label: str) -> str | None:
        """The datatype property a field's label plainly means (close, and clearly closer than any other)."""
        sims = self._sims(label)
        datatype = [j for j, p in enumerate(self.props) if p.kind == "datatype"]
        if not datatype:
            return None
        ranked = sorted(datatype, key=lambda j: -sims[j])
        best = ranked[0]
        second = float(sims[ranked[1]]) if len(ranked) > 1 else 0.0
        # an object property near the label is no rival unless it is nearer: its values would name things,
        # and a field whose values name things gives no examples of a datatype property anyway
        nearest_object = max((float(sims[j]) for j, p in enumerate(self.props) if p.kind == "object"), default=0.0)
        if sims[best] >= CONFIDENT and sims[best] - second >= CONFIDENT_MARGIN and sims[best] >= nearest_object:
            return self.props[best].iri
        return None

    def _learn_numeric(self, shapes: dict[str, dict[str, list[int]]]) -> None:
        """A property whose plainest label (the nearest in meaning, with enough values) holds numbers
        takes numbers only: a word is not one of its values, whatever its label's meaning ("Rank:
        Professor" is no subject's level though "rank" means level), and is dropped from its examples."""
        index = {p.iri: j for j, p in enumerate(self.props)}
        for prop, labels in shapes.items():
            counted = [(float(self._sims(label)[index[prop]]), n, total) for label, (n, total) in labels.items()
                       if total >= MIN_SHAPE_EXAMPLES]
            if counted and (best := max(counted))[1] >= SHAPE_SHARE * best[2]:
                self.numeric.add(prop)
                self.examples[prop] = [v for v in self.examples.get(prop, []) if _NUMBER.match(v.strip())]
                for cached in ("_example_matrix", "_example_rows"):
                    self.__dict__.pop(cached, None)

    def _takes(self, p: Term, value: str) -> bool:
        """The datatype property takes the value: by its declared range, then by its examples' shape."""
        return _value_fits(p, value) and (p.iri not in self.numeric or bool(_NUMBER.match(value.strip())))

    @cached_property
    def _example_matrix(self) -> tuple[list[int], np.ndarray]:
        """Every example value's vector, with the index of its property."""
        owners, texts = [], []
        for j, p in enumerate(self.props):
            for v in self.examples.get(p.iri, []):
                owners.append(j)
                texts.append(v)
        vecs = self.embedder.embed(texts, kind="document") if texts else np.zeros((0, 1))
        return owners, vecs

    def _value_sims(self, value: str) -> np.ndarray:
        """Per property: how much the value resembles the property's example values (mean of the
        three closest); 0 for a property with no examples."""
        out = np.zeros(len(self.props))
        owners, vecs = self._example_matrix
        if not owners:
            return out
        vec = self._value_vec.get(value)
        if vec is None:
            vec = self._value_vec[value] = self.embedder.embed_one(value, kind="document")
        sims = vecs @ vec
        for j, rows in self._example_rows.items():
            out[j] = float(np.sort(sims[rows])[-3:].mean())
        return out

    @cached_property
    def _example_rows(self) -> dict[int, np.ndarray]:
        owners = np.asarray(self._example_matrix[0])
        return {int(j): np.flatnonzero(owners == j) for j in set(owners.tolist())}

    def link(self, page: Page) -> Reading:
        """The page's entity, its class and the facts the page states about it."""
        title = page.title
        options = [(seg, o) for seg in page.segments for o in self.candidates(seg, title)]
        cls = self.entity_class(title, [o for _, o in options])
        # a name, title or code has one value: the segment that says it best keeps it, the others
        # take their next reading
        best_named: dict[str, float] = {}
        for _, opts in options:
            sc, f = next(((sc, f) for sc, f in opts if self._fits(cls, f.prop)), (0.0, None))
            if f is not None and self._named_iri(f.prop):
                best_named[f.prop] = max(best_named.get(f.prop, 0.0), sc)
        chosen: list[ReadFact] = []
        used: set[int] = set()
        for seg, opts in options:
            fact = next((f for sc, f in opts if self._fits(cls, f.prop) and
                         (not self._named_iri(f.prop) or sc >= best_named.get(f.prop, 0.0))), None)
            if fact is not None:
                if self._named_iri(fact.prop):
                    best_named[fact.prop] = float("inf")  # taken
                chosen.append(replace(fact, subject=title))
                used.add(seg.sentence)
        rest = [s for n, s in enumerate(page.sentences) if n not in used]
        chosen += self.description(title, cls, rest, chosen)
        chosen += self.from_title(title, cls, chosen)
        out = Reading(title, cls, _unique(chosen))
        for f in out.facts:
            if f.is_object and f.value_class:
                out.mentions.setdefault(f.value, f.value_class)
        return out

    def _named_iri(self, prop: str) -> bool:
        p = self.vocab.by_iri.get(prop)
        return p is not None and _named(p)

    def description(self, title: str, cls: str | None, rest: list[str], facts: list[ReadFact]) -> list[ReadFact]:
        """The sentences that state no fact, together, for the class's property that means a
        description — when the schema has one and the page did not fill it."""
        text = " ".join(rest)
        if cls is None or len(text.split()) < MIN_DESCRIPTION_WORDS:
            return []
        sims = self._sims(DESCRIPTION)
        have = {f.prop for f in facts}
        best = max(((float(sims[j]), p) for j, p in enumerate(self.props)
                    if p.kind == "datatype" and self._fits(cls, p.iri) and p.domains), default=(0.0, None),
                   key=lambda x: x[0])
        if best[1] is None or best[0] < DESCRIPTION_SIMILARITY or best[1].iri in have:
            return []
        return [ReadFact(title, best[1].iri, text, False, "", DESCRIPTION)]

    # -- 1. segments
    def segments(self, title: str, text: str) -> tuple[list[Segment], list[str]]:
        """The page's fields and the values its sentences state, with its sentences (for what is
        left over: the description)."""
        out: list[Segment] = []
        prose: list[str] = []
        lines = [part.rstrip() for ln in text.splitlines() for part in _parts(_EMPHASIS.sub("", ln))]
        below = self._labels_above_values(lines, title)
        card = _card_block(lines) - set(below) - set(below.values())
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if not line or set(line) <= set("|-: "):
                continue
            if i - 1 in below:  # a label on its own line, its value on the next
                out.append(Segment(line.rstrip(":："), lines[below[i - 1]].strip(), "field"))
                i = below[i - 1] + 1
                continue
            if i - 1 in card and not (_DASH_FIELD.match(line) and self._field(line, title)):
                # a line of a card ("Dr Ann Lee / Associate Professor / School of Design"): a value on
                # its own, said as what the entity is — never run together with the next line as prose
                if _COUNTED.match(line):  # "Level 2", "3 credits": a number and its noun, read as a sentence
                    prose.append(line + ".")
                elif fold(line) != fold(title) and strip_titles(line) != strip_titles(title):
                    out.append(Segment(line, line, "prose"))
                continue
            cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else []
            if cells and i < len(lines) and lines[i].strip().startswith("|") and set(lines[i].strip()) <= set("|-: "):
                row = _one_row_below(cells, lines, i + 1)
                if row is not None and all(_label_like(c) for c in cells):
                    # a record laid out across: the header row's cells label the one row below it
                    out += [Segment(label, value, "field") for label, value in zip(cells, row) if value]
                    i += 2
                continue  # a table's header row (the rule line follows it): names the columns, states nothing
            if (answer := _answer_below(line, lines, i)) is not None:
                out.append(Segment(_question_label(line, title), answer[0], "field"))
                i = answer[1]
                continue
            field_ = self._field(line, title)
            if field_ is None and i < len(lines) and _BULLET.match(lines[i]) and _label_like(line) \
                    and not _FIELD.match(line) and not fold(line).startswith(fold(title)):
                field_ = (line.rstrip(":："), "")  # a label alone on its line ("Expertise"), bullets below
            if len(cells) == 2 and _label_like(cells[0]):
                out.append(Segment(cells[0], cells[1], "field"))
            elif field_ is not None and len(pieces := self._fields_in(line, title)) > 1:
                out += [Segment(label, value, "field") for label, value in pieces]
            elif field_ is not None:
                label, value = field_
                if not value:  # a label line, its values on the bullet lines below
                    items = []
                    while i < len(lines) and _BULLET.match(lines[i]):
                        items.append(_BULLET.match(lines[i]).group(1).strip())  # type: ignore[union-attr]
                        i += 1
                    value = "; ".join(items)
                if value:
                    out.append(Segment(label, value, "field"))
            elif fold(line) == fold(title):
                continue  # the page's name as a heading: states nothing, and would run into the next sentence
            elif len(crumbs := _CRUMB.split(line)) >= 3 and fold(crumbs[-1]) == fold(title):
                # a breadcrumb trail ("Home > Faculty of X > Department of Y"): the page sits under the crumb
                # before its own
                out.append(Segment("part of", crumbs[-2].strip(), "prose", mention=True))
            else:
                # "… a sentence. Research interests: a, b, c." — a field may follow sentences on a line
                for piece in _FIELD_AFTER_SENTENCE.split(line):
                    f = self._field(piece, title)
                    if f is not None and f[1]:
                        out.append(Segment(f[0], f[1].rstrip("."), "field"))
                    else:
                        prose.append(piece)
        sentences: list[str] = []
        if prose:
            doc = self.nlp(_stand_in(" ".join(prose), title))
            for n, sent in enumerate(doc.sents):
                sentences.append(sent.text.strip())
                out += self._sentence(sent, title, n)
        return out, sentences

    def _labels_above_values(self, lines: list[str], title: str) -> dict[int, int]:
        """{label line: value line} for labels written on a line of their own over their value (a
        definition list or a two-column table flattened to text: "Position" / "Professor" / "Unit" / …).
        A label line ends with a colon, or plainly means a property, or is a class's word alone; bare
        ones count only two or more in a run of lines, alternating with their values, since a card's
        single line ("Associate Professor") can look like a label too."""
        pairs: dict[int, int] = {}
        run: dict[int, int] = {}
        i = 0
        while i <= len(lines):
            line = lines[i].strip() if i < len(lines) else ""
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if line and nxt and self._label_line(line, title) and not self._label_line(nxt, title) \
                    and not _BULLET.match(nxt) and not _FIELD.match(nxt) and not nxt.endswith("?"):
                run[i] = i + 1
                i += 2
                continue
            if not line or i == len(lines) or i - 1 not in run.values():
                # a blank line, or a second line in a row that starts no pair, ends the run: keep its
                # pairs if there are two, or the labels that say they are labels (a colon)
                pairs.update({k: v for k, v in run.items() if len(run) >= 2 or lines[k].strip().endswith((":", "："))})
                run = {}
            i += 1
        return pairs

    def _label_line(self, line: str, title: str) -> bool:
        bare = line.rstrip(":：").strip()
        if not _label_like(bare) or fold(bare) == fold(title) or _NUMBER.match(bare) or \
                ((m := _FIELD.match(line)) and m.group(2).strip()) or _DASH_FIELD.match(line):
            return False  # a field already ("Name: X"): a label and its value on one line
        if line.endswith((":", "：")):
            return True
        only_class_words = bool(self._class_word(bare)) and \
            {min(word_forms(w), key=len) for w in fold(bare).split()} <= set().union(*self._class_words.values())
        return only_class_words or (not self._names_thing(bare) and float(self._sims(bare).max()) >= CONFIDENT)

    def _fields_in(self, line: str, title: str) -> list[tuple[str, str]]:
        """The fields of a line that holds several ("Code: X, Title: Y, Level: 2"), when every piece
        between the commas is a field with a value and none is a ";" list; else none."""
        if ";" in line:
            return []
        pieces = [self._field(piece, title) for piece in _FIELD_AFTER_FIELD.split(line)]
        ok = len(pieces) >= MIN_INLINE_FIELDS and all(f is not None and f[1] for f in pieces)
        return [f for f in pieces if f] if ok else []

    def _field(self, line: str, title: str) -> tuple[str, str] | None:
        if fold(line).startswith(fold(title)) and len(fold(title)) > 3:
            return None  # the line opens with the page's name ("AF3S01 Service-Learning: Financial …")
        m = _FIELD.match(line)
        if m and _label_like(m.group(1)) and not _sentence_start(m.group(1), title):
            return m.group(1).strip(), m.group(2).strip()
        # "Position - Professor": a spaced hyphen parts a label from its value when the left side reads as a
        # label (no digits, near some property's meaning) — "Hong Kong - China" or "AAE1001 - …" are not fields
        m = _DASH_FIELD.match(line)
        if m and _label_like(m.group(1)) and not _sentence_start(m.group(1), title) and \
                float(self._sims(m.group(1)).max()) >= MIN_SIMILARITY:
            return m.group(1).strip(), m.group(2).strip()
        return None

    def _about_entity(self, subject, title: str) -> bool:
        """The sentence's subject stands for the page's entity: a pronoun ("it", "she"), the entity's
        name, or a definite common noun phrase ("the department", "this painting") — not a phrase
        naming someone else ("her student Ola Berg")."""
        if subject.pos_ == "PRON":
            return True
        span = _span(subject)
        if subject.head.i > subject.i:
            # the subject's own phrase ends at its verb: an apposition the parser hangs on it from
            # further right ("The research of X spans a; [b], c") is not part of it
            span = span.doc[span.start:max(subject.i + 1, min(span.end, subject.head.i))]
        words = set(fold(span.text).split()) - ENTITY_PRONOUNS
        if not words:
            return True
        key = set(name_key(title).split())
        if key and len(words & key) / len(key) >= 0.5:
            return True
        if codes_in(span.text) and words <= key:
            return True  # the entity's code alone stands for it ("AAE1002 carries 3 credits")
        determined = any(t.dep_ == "det" and t.lower_ in ("the", "this", "that") for t in span)
        # or a thing of the entity's: "its projects", "current projects by X" (X stood in by a pronoun)
        owned = any(c.dep_ == "poss" and c.pos_ == "PRON" or
                    c.dep_ == "prep" and any(o.dep_ == "pobj" and o.pos_ == "PRON" for o in c.children)
                    for c in subject.children)
        return subject.pos_ == "NOUN" and (determined or owned) and not any(t.pos_ == "PROPN" for t in span)

    def _sentence(self, sent, title: str, n: int) -> list[Segment]:
        """What a sentence about the page's entity states: every value its verb reaches (an object, a
        preposition's object, a copula's complement, a number with its noun), with the words that lead
        there. Values inside a clause with a subject of its own ("… that costs account for one third")
        are about something else."""
        root = _lead_verb(sent) or sent.root
        subjects = [t for t in root.children if t.dep_ in ("nsubj", "nsubjpass")]
        if subjects and not self._about_entity(subjects[0], title):
            return self._entity_as_object(sent, subjects[0], title, n) + _counts_aside(sent, n)
        taken = {t.i for s in subjects for t in s.subtree if t.i < root.i}
        # … but not the words in apposition to the entity's stand-in ("It, Senior Lecturer, teaches …")
        taken -= {t.i for s in subjects if s.lower_ == "it" for a in s.children if a.dep_ == "appos" for t in a.subtree}
        out: list[Segment] = []
        listed = _semicolon_list(sent, root)
        if listed is not None:
            # "X spans a; b; c": one list value from the first object to the end (the parser hangs the
            # items anywhere: objects, conjuncts of the verb, appositions of the subject)
            context = " ".join(w.text for w in _path(listed[0], root) if w.pos_ in ("VERB", "AUX", "ADP")) or root.text
            if subjects and _said_through(subjects[0]):
                context = f"{subjects[0].text} {context}"
            out.append(Segment(context, listed.text.strip(" ,."), "prose", sentence=n))
            taken.update(t.i for t in listed)
        # a name the parser hangs from its last word ("by the Department of X and Y Engineering": "Department"
        # a modifier of "Engineering") is the value of that word: the objects inside it are no values of their own
        inner = {t.i for e in sent.ents if e.label_ in _ENTITY_LABELS and e.root.dep_ in _VALUE_DEPS
                 for t in e.root.subtree if t.i < e.root.i and t.i >= e.start}
        objects: dict[int, str] = {}  # the verb's direct objects that are values: token → value
        for tok in sent:
            if (tok.i in taken and not _WORD_NUMBER.match(tok.text)) or _in_other_clause(tok, root):
                continue
            if (m := _WORD_NUMBER.match(tok.text)) is not None:
                # "a level-6 subject" (in the entity's subject too: "This level-6 subject is …"): the word
                # names what the number is
                out.append(Segment(m.group(1), m.group(2), "prose", number=True, sentence=n))
                taken.add(tok.i)
                continue
            if _cardinal(tok) is not None and tok.dep_ in ("nummod", "appos", "attr", "dobj", "pobj", "npadvmod"):
                head = tok.head
                if tok.dep_ == "nummod" and head.pos_ in ("NOUN", "PROPN"):
                    context = _counted_noun(tok)
                else:
                    context = " ".join(w.text for w in _path(tok, root) if _cardinal(w) is None)
                out.append(Segment(context, _cardinal(tok) or tok.text, "prose", number=True, sentence=n))
                taken.add(tok.i)
            elif tok.dep_ in _VALUE_DEPS and tok.pos_ in ("NOUN", "PROPN", "X") and tok.i not in inner:
                if any(c.dep_ == "nummod" and _cardinal(c) is not None for c in tok.children):
                    continue  # "at level 3": the number is the value, the noun its context (below)
                span = _value_span(tok, self._names_thing)
                if self._names_thing(span.text):
                    span = _name_run(span)
                if any(t.i in taken for t in span) or not span.text.strip() or \
                        (len(span) == 1 and tok.pos_ == "NOUN" and tok.text.islower()):
                    continue  # "a subject": a bare common noun says nothing ("a PhD", "an MBA" do)
                taken.update(t.i for t in span)
                value = span.text.strip(" ,.")
                if tok.dep_ == "dobj" and tok.head == root:
                    objects[tok.i] = value
                if (tok.dep_ == "attr" and (tok.head == root or any(c.dep_ == "nsubj" and _stands_for_entity(c)
                                                                     for c in tok.head.children))) or \
                        (tok.dep_ == "appos" and tok.head.lower_ == "it"):
                    # "X is Chairperson", "X, Chairperson, …" (X stood in by "It"): what the entity is —
                    # its role, its kind
                    context = value
                elif (of := _object_of_prep(tok, root, objects)) is not None:
                    # "obtained a PhD from Lund University": what the verb reached is the PhD; the place is
                    # where the PhD is from, said of it ("PhD from"), not of the verb ("obtained from")
                    context = f"{objects[of]} {tok.head.text}"
                else:
                    context = " ".join(w.text for w in _path(tok, root) if w.pos_ in ("VERB", "AUX", "ADP")) or \
                        " ".join(w.text for w in _path(tok, root))
                    if subjects and _said_through(subjects[0]):
                        # "The research of X spans …": the noun the entity is said through is what is stated
                        context = f"{subjects[0].text} {context}"
                mention = any(e.start <= tok.i < e.end and e.label_ in _ENTITY_LABELS for e in sent.ents)
                out.append(Segment(context, value, "prose", mention=mention, sentence=n))
        return out + _counts_aside(sent, n, lambda tok: tok.i not in taken and _in_other_clause(tok, root))

    def _entity_as_object(self, sent, subject, title: str, n: int) -> list[Segment]:
        """"The Department of X runs MRN4410": a named thing does something to the page's entity, which
        is the object. The thing is a value of the entity through the verb read backwards ("runs by",
        as "is run by"); which property, the types decide (what the entity's class can point to)."""
        root = sent.root
        objects = [t for t in root.children if t.dep_ in ("dobj", "attr")]
        span = _span(subject)
        if not objects or not self._names_thing(span.text) or not self._about_entity(objects[0], title):
            return []
        words = [t for t in _name_run(span) if not (t.dep_ == "det" and t.i == span.start)]
        value = span.doc[words[0].i:words[-1].i + 1].text.strip(" ,.") if words else ""
        return [Segment(f"{root.text} by", value, "prose", mention=True, sentence=n)] if value else []

    def _names_thing(self, text: str) -> bool:
        """The words name a thing of the schema's classes: a class word in them, or another page's title."""
        return bool(self._class_word(text)) or name_key(text) in self.titles

    # -- 2. linking
    def _class_word(self, text: str) -> str | None:
        """The most specific class whose word the text holds ("Department of …" → DEPARTMENT)."""
        words = {min(word_forms(w), key=len) for w in fold(text).split()}
        named = [c for c, ws in self._class_words.items() if ws and ws <= words]
        return max(named, key=lambda c: len(self.vocab.ancestors(c))) if named else None

    def _class_named(self, text: str) -> str | None:
        """The class of the thing a name names: by a class word in it, else by what the corpus taught
        (the name seen with its class, or its head word)."""
        return self._class_word(text) or self.known.get(name_key(text)) or self.heads.get(_head_word(text))

    def _mention_class(self, value: str, seg: Segment) -> str | None:
        """The class of the thing a value names: a class word in it ("Department of …"), a name seen
        before as a thing of a class, a field whose label names a class ("Faculty: Business"); ""
        for a thing of no known class (another page's title, a name the parser saw); None for a
        plain value."""
        key = name_key(value)
        if _relational(value, self._class_word):
            return None
        named = self._class_named(value)
        if named:
            return named
        if seg.kind == "field" and len(value.split()) <= MAX_ITEM_WORDS:
            # by the label's own class word ("Faculty: Business"), not by a name the corpus once typed: a
            # stray value "Research" under "Unit:" must not make every item under "research:" a unit
            by_label = self._class_word(seg.context)
            if by_label:
                return by_label
        if key in self.titles or seg.mention:
            return ""
        return None

    def _things(self, value: str) -> list[str]:
        """Two things named as one value — "School of Accounting and Finance and Department of Applied
        Mathematics" — are two values: cut at an "and" where both sides name a thing of a class."""
        words = value.split()
        for i, w in enumerate(words):
            if w.lower() == "and" and 0 < i < len(words) - 1:
                left, right = " ".join(words[:i]), " ".join(words[i + 1:])
                # what follows the "and" must name a thing by its own words (a class word, a learnt head
                # word), not as a name the corpus once typed: "… of Building and Real Estate" is the tail of
                # one name; a second thing is named in full ("… Centre and Department of …")
                if self._class_named(left) and self._word_of(right):
                    return [left, *self._things(right)]
        return [value]

    def _items_of(self, seg: Segment) -> list[str]:
        return _items(seg.value) if _is_list(seg.value) else self._things(seg.value)

    def candidates(self, seg: Segment, title: str = "") -> list[list[tuple[float, ReadFact]]]:
        """For each value of the segment (a list field: each item), the facts it could state, best
        first: object properties whose range fits a value that names a thing (types decide; the
        label's meaning ranks), else datatype properties by the meaning of the label (with the item,
        for a list) — the entity's class chooses later. Names, titles and codes come from fields or
        the page's title, never from inside a sentence."""
        # a count said of someone else is the entity's only where its noun plainly means one of its
        # properties ("3 credits"): "40 students" on a course page is no credit value
        only = self._confident(seg.context) if seg.aside else None
        if seg.aside and only is None:
            return []
        items = self._items_of(seg)
        out = []
        label = self._label_sims(seg.context) if seg.kind == "field" else self._sims(seg.context)
        plain = float(label.max()) >= CONFIDENT
        kinds = [self._mention_class(item, seg) if not seg.number else None for item in items]
        if len(items) > 1 and sum(k is not None for k in kinds) < MIN_THING_SHARE * len(items):
            # a list states one property: mostly plain values ("Expertise: metaphor, lexicon, Faculty of
            # Humanities") make its few names of things values like the rest, not links to things
            kinds = [None] * len(items)
        for item, kind in zip(items, kinds):
            # a list under a plain label: the label says what every item is; under a vague one, each
            # item helps say it
            context = seg.context if len(items) == 1 or plain else f"{seg.context}: {item}"
            raw = sims = label if context == seg.context else self._sims(context)
            if context != seg.context:  # what the label says alone still counts for each item under it
                raw = sims = np.maximum(sims, label)
            if not seg.number and (seg.kind == "prose" or float(sims.max()) < CONFIDENT):
                # no label says it plainly: what the value resembles counts too — all of it when nothing
                # but the value was said ("X is Associate Professor"), half of what it adds to a verb's
                # meaning ("obtained Bachelor of Science" is a degree, whatever else it looks like)
                like = self._value_sims(item)
                sims = np.maximum(sims, like) if context == item else sims + 0.5 * np.clip(like - sims, 0, None)
                meant = self.value_means.get((fold(seg.context), fold(item))) if seg.kind == "field" else None
                if meant is not None and fold(seg.context) not in self.label_means:
                    # an item of a vague column that values like it elsewhere say plainly what it is
                    sims = self._made_plain(sims, meant)
            options: list[tuple[float, ReadFact]] = []
            in_title = bool(title) and len(fold(item)) > 2 and f" {fold(item)} " in f" {fold(title)} "
            itself = (in_title and _name_like(title)) or bool(set(codes_in(item)) & set(codes_in(title)))
            if kind is not None and not itself:
                # the entity itself (its code, its name or a piece of it) is no thing it links to: a
                # parser that hangs "COMP5327 (…)" on the department before it would make it one
                for j, p in enumerate(self.props):
                    if p.kind != "object" or (kind and p.ranges and not self.vocab.fits(kind, p.ranges)) or \
                            (not kind and raw[j] < OBJECT_SIMILARITY):
                        continue
                    rng = kind or (p.ranges[0] if p.ranges else "")
                    # a thing of a known class: the types decide (above any datatype reading); a name of
                    # no known class competes with the datatype readings on meaning alone
                    score = (1.0 if kind else 0.0) + float(raw[j])
                    options.append((score, ReadFact("", p.iri, item, True, rng, seg.context)))
            if _NUMBER.match(item.strip()) and not seg.aside:
                # a number: a property declared numeric takes it on its type, whatever its label's meaning
                sims = np.maximum(sims, self._numeric_floor)
            for j, p in enumerate(self.props):
                if only is not None and p.iri != only:
                    continue
                # a name, title or code comes from a field under a label that plainly says so, or one
                # that repeats the page's title (else from the title): "Expertise: organic synthesis" is
                # not the entity's name
                if p.kind == "datatype" and sims[j] >= MIN_SIMILARITY and self._takes(p, item) and \
                        not (_named(p) and (seg.kind == "prose" or (raw[j] < CONFIDENT and not in_title))):
                    value = seg.value if _named(p) and len(items) > 1 else item
                    options.append((float(sims[j]), ReadFact("", p.iri, value, False, "", seg.context)))
            options.sort(key=lambda x: -x[0])
            if options:
                out.append(options)
        return out

    @cached_property
    def _numeric_floor(self) -> np.ndarray:
        return np.array([MIN_SIMILARITY if p.kind == "datatype" and {local_name(r) for r in p.ranges} & _NUMERIC
                         else 0.0 for p in self.props])

    # -- 3. the entity's class
    def _fits(self, cls: str | None, prop: str) -> bool:
        p = self.vocab.by_iri.get(prop)
        return p is not None and (cls is None or not p.domains or self.vocab.fit(cls, p.domains) > 0.5)

    def entity_class(self, title: str, options: list[list[tuple[float, ReadFact]]]) -> str | None:
        """The class whose properties the page's values fill best: for each class, the sum over values
        of the best score among the facts it allows (declared on the class or above it)."""
        votes = self._fact_votes(options)
        for c, sim in self._title_votes(title).items():
            votes[c] += sim
        for c in self._shape_doubts(title):
            if c in votes:
                votes[c] = max(0.0, votes[c] - SHAPE_PENALTY)
        # the title is the entity's name: which class's name property has values like it
        like = self._value_sims(title) if self.examples else np.zeros(len(self.props))
        for j, p in enumerate(self.props):
            if _named(p) and like[j] >= CONFIDENT:
                for c in votes:
                    if self._declared_on(c, p.iri):
                        votes[c] += float(like[j])
        # the title names the entity's class only when it reads as a name: a sentence or an address that
        # merely mentions a department ("X is a professor in the Department of …") does not
        named = self._class_named(title) if _name_like(title) else None
        if named and named in votes and votes[named] > 0:   # the corpus names this page's entity with its class
            return named
        best = max(votes.values(), default=0.0)
        if best == 0.0:
            return named or None
        top = [c for c, n in votes.items() if n >= best - 1e-9]
        if named in top:
            return named
        return max(top, key=lambda c: len(self.vocab.ancestors(c)))  # the most specific

    def _shape_doubts(self, title: str) -> list[str]:
        """The classes whose every learnt name carries something this title lacks."""
        return [c for c, shapes in self.title_shapes.items()
                if any(not _title_shapes(self._family_word(c), c)[shape](title) for shape in shapes)]

    def _word_of(self, text: str) -> str | None:
        """The class a name's words say: a class word, or a head word the corpus taught ("School of …").
        Not the names remembered with their class (`known`): a name typed by its label would then carry
        its class "by its words" whatever they are."""
        return self._class_word(text) or self.heads.get(_head_word(text))

    def _family_word(self, cls: str) -> Callable[[str], str | None]:
        """`_word_of`, where a word of a class of the same family ("Faculty of …" for a department:
        DEPARTMENT is a kind of FACULTY) counts as the class's own."""
        def word(text: str) -> str | None:
            c = self._word_of(text)
            return cls if c is not None and self.vocab.compatible(c, cls) else c
        return word

    def _fact_votes(self, options: list[list[tuple[float, ReadFact]]]) -> dict[str, float]:
        votes: dict[str, float] = {}
        for c in self.vocab.classes:
            total = weak = 0.0
            for opts in options:
                # a weak datatype reading (a sentence's value, a vague label) is no evidence of the class;
                # a link to a name of no known class is weak evidence, and counts once however many there
                # are (a page of "X was appointed <journal>" sentences is no department of twenty faculties)
                own = [(sc, f) for sc, f in opts if self._declared_on(c.iri, f.prop)]
                total += max((sc for sc, f in own if sc >= CONFIDENT), default=0.0)
                weak = max([weak] + [sc for sc, f in own if f.is_object and sc < CONFIDENT])
            votes[c.iri] = total + weak
        return votes

    def _title_votes(self, title: str) -> dict[str, float]:
        """Per class with example titles: how much the title resembles them (mean of the closest few)."""
        if self._title_matrix is None:
            return {}
        vec = self._value_vec.get(title)
        if vec is None:
            vec = self._value_vec[title] = self.embedder.embed_one(title, kind="document")
        sims = self._title_matrix @ vec
        out, start = {}, 0
        for c, ts in self.title_examples.items():
            part = np.sort(sims[start:start + len(ts)])[-TITLE_NEIGHBOURS:]
            out[c] = float(part.mean())
            start += len(ts)
        return out

    def _declared_on(self, cls: str, prop: str) -> bool:
        p = self.vocab.by_iri[prop]
        return bool(p.domains) and self.vocab.fit(cls, p.domains) == 1.0

    def from_title(self, title: str, cls: str | None, facts: list[ReadFact]) -> list[ReadFact]:
        """The class's name / title / code properties from the title when the page states none."""
        if cls is None:
            return []
        have = {f.prop for f in facts}
        out = []
        lead = _LEADING_CODES.match(title)
        trail = None if lead else _TRAILING_CODES.match(title)
        code, rest = (lead.group(1).strip(), lead.group(2).strip()) if lead else \
            (trail.group(2).strip(), trail.group(1).strip()) if trail else ("", title)
        for p in self.vocab.properties_of(cls, "datatype"):
            words = local_name(p.iri).lower().replace("_", " ")
            if p.iri in have or not LABEL_LIKE.search(words) or self.vocab.fit(cls, p.domains) < 1.0:
                continue
            if words.endswith("code"):
                if code:  # "AAE3103/IC381 …": the codes as the title writes them
                    out.append(ReadFact(title, p.iri, code, False, "", "code"))
            else:
                out.append(ReadFact(title, p.iri, rest or title, False, "", words))
        return out


# ------------------------------------------------------------------ helpers
_ONE_CODE = r"[A-Za-z]{2,6}\s?\d[0-9A-Za-z]{1,6}"
# a title that opens with codes ("COMP 5570", "FSN3405/ABCT3405", "EIE621-EIE623") and then names
_LEADING_CODES = re.compile(rf"^((?:{_ONE_CODE})(?:\s*[/&,-]\s*{_ONE_CODE})*(?:/\w+)*(?:\s*\([^)]*\))?)"
                            r"(?=\s|$)\s*[-–:]?\s*(.*)$")

# … or ends with them in brackets ("Charting Reefs (MRN4410)")
_TRAILING_CODES = re.compile(rf"^(.+?)\s*[(\[]\s*((?:{_ONE_CODE})(?:\s*[/&,-]\s*{_ONE_CODE})*)\s*[)\]]\s*$")


def _head_word(name: str) -> str:
    """The word a name of the form "School of …" / "Centre for …" starts with; "" for other names."""
    words = name_key(name).split()
    return words[0] if len(words) > 2 and words[1] in NAME_HEAD_PREPOSITIONS - {"and"} else ""


_NUMERIC = {"integer", "int", "decimal", "double", "float", "nonNegativeInteger", "positiveInteger", "long",
            "short", "gYear"}
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")


def _value_fits(p: Term, value: str) -> bool:
    """A datatype property's declared range takes the value: a number for numeric ranges and years, a
    boolean word for booleans, an address for URIs; any text for strings and undeclared ranges."""
    ranges = {local_name(r) for r in p.ranges}
    value = value.strip()
    if ranges & _NUMERIC:
        return bool(_NUMBER.match(value))
    if "boolean" in ranges:
        return value.lower() in ("true", "false", "yes", "no")
    if "anyURI" in ranges:
        return value.lower().startswith(("http://", "https://", "www."))
    return True


def _named(p: Term) -> bool:
    """A name, title, code or label property: its value is never a list."""
    return bool(LABEL_LIKE.search(local_name(p.iri).lower().replace("_", " ")))


def _relational(value: str, class_word) -> bool:
    """"Head of the Department of X" names a role held in the department, not the department: a class
    word only after the phrase's head and its "of" (the head of "Department of X" is "Department")."""
    head, sep, rest = value.partition(" of ")
    return bool(sep) and class_word(head) is None and class_word(rest) is not None


def _name_like(title: str) -> bool:
    """A title that can be a name: short, no address in it."""
    return len(title.split()) <= MAX_ITEM_WORDS and "://" not in title and "www." not in title


def _title_shapes(class_named: Callable[[str], str | None], cls: str) -> dict[str, Callable[[str], bool]]:
    """Tests of a title's shape that a class's names may all pass: named with the class's word, a code."""
    return {"class word": lambda t: class_named(t) == cls, "code": lambda t: bool(codes_in(t))}


def _parts(line: str) -> list[str]:
    """A line's parts, each read as a line: " // " parts a line; so does " | " when it parts three or
    more pieces on a line that is not a table's row."""
    out = []
    for part in _PART_BREAK.split(line):
        pieces = part.split(" | ")
        if len(pieces) >= MIN_PIPE_PARTS and not part.lstrip().startswith("|"):
            out += [p.strip() for p in pieces]
        else:
            out.append(part)
    return out


def _one_row_below(header: list[str], lines: list[str], i: int) -> list[str] | None:
    """The cells of the table's only row, at line i, when the table has at least `MIN_PIPE_PARTS`
    columns (two columns are label and value, row by row) and that row has as many cells."""
    if len(header) < MIN_PIPE_PARTS or i >= len(lines) or not lines[i].strip().startswith("|") or \
            (i + 1 < len(lines) and lines[i + 1].strip().startswith("|")):
        return None
    row = [c.strip() for c in lines[i].strip().strip("|").split("|")]
    return row if len(row) == len(header) else None


def _answer_below(line: str, lines: list[str], i: int) -> tuple[str, int] | None:
    """(the answer, the index after it) when `line` is a short question and the lines from `i` up to
    the next question or blank line answer it with values, not sentences; else None."""
    if not line.endswith("?") or len(line.split()) > MAX_QUESTION_WORDS:
        return None
    values = []
    while i < len(lines) and lines[i].strip() and not lines[i].strip().endswith("?"):
        values.append(lines[i].strip())
        i += 1
    # a long line is a sentence unless it is a list of mostly short items ("a · b · c …" runs long)
    if not values or any(v.endswith(".") or (len(v.split()) > _QUESTION_VALUE_WORDS and not _short_items(v))
                         for v in values):
        return None
    items = [m.group(1).strip() if (m := _BULLET.match(v)) else v for v in values]
    return "; ".join(items), i


def _question_label(question: str, title: str) -> str:
    """What a question asks, as a label: the page's name and a possessive taken out ("What is Dr X's
    role?" → "What is role")."""
    text = question.rstrip("?").strip()
    if title:
        text = re.sub(re.escape(title) + r"(?:['’]s)?", " ", text, flags=re.IGNORECASE)
    return " ".join(text.split()) or question


def _label_like(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= MAX_LABEL_WORDS and not text.rstrip().endswith((".", "?", "!")) and \
        any(ch.isalpha() for ch in text)


def _sentence_start(label: str, title: str) -> bool:
    """'Dr X is …' wrongly split at a colon later in the line: the 'label' is the start of a sentence
    about the entity (its name), not a field name."""
    return bool(set(name_key(label).split()) & set(name_key(title).split()) - STOPWORDS) and \
        len(label.split()) > 2


def _is_list(value: str) -> bool:
    """Several values: items mostly short (a sentence with commas is one value), or split on ";"."""
    items = _items(value)
    if len(items) < 2:
        return False
    lengths = sorted(len(x.split()) for x in items)
    short = len(items) >= 4 and lengths[len(lengths) // 2] <= MAX_ITEM_WORDS // 2  # a long list, one item long
    return ";" in value or bool(_DOT_LIST.search(value)) or lengths[-1] <= MAX_ITEM_WORDS or short


def _short_items(value: str) -> bool:
    """A list whose typical (median) item is a few words: values, however long the line."""
    lengths = sorted(len(x.split()) for x in _items(value))
    return len(lengths) >= 2 and lengths[len(lengths) // 2] <= MAX_ITEM_WORDS


def _items(value: str) -> list[str]:
    """A list's items: split on ";" when there is one (items may hold commas and "and"), or on a spaced
    middle dot or bullet ("a · b · c", a common inline list), else on "," and "/", the last two of a
    comma list joined by "and" being two items."""
    value = value.strip(" .")
    if ";" in value:
        parts = value.split(";")
    elif _DOT_LIST.search(value):
        parts = _DOT_LIST.split(value)
    else:
        parts = re.split(r"\s*,\s*(?:and\s+)?|\s+/\s+", value)
        if len(parts) > 1 and " and " in parts[-1]:  # "a, b and c": the list's own "and" is its last
            parts = parts[:-1] + parts[-1].rsplit(" and ", 1)
    return [x.strip(" .") for x in parts if x.strip(" .")]


def _object_of_prep(tok, root, objects: dict[int, str]) -> int | None:
    """The direct object (a value already read) a preposition's object is said of: the preposition hangs
    from that object, or from the verb beside it ("obtained [a PhD] [from X]")."""
    prep = tok.head
    if tok.dep_ != "pobj" or prep.dep_ != "prep":
        return None
    if prep.head.i in objects:
        return prep.head.i
    if prep.head == root:
        return next((c.i for c in root.children if c.i in objects and c.i < prep.i), None)
    return None


def _span(tok):
    return tok.doc[min(t.i for t in tok.subtree):max(t.i for t in tok.subtree) + 1]


def _value_span(tok, names_thing):
    """The value a token heads: its subtree without what leads on to other values — a preposition
    phrase naming a thing ("Chairperson [in the Department of …]", "PhD in Accounting [from Lingnan
    University]"), a clause ("a subject [offered by …]"), a number with the words it counts — and
    without determiners."""
    cut = []
    for a in tok.children:
        if a.dep_ in ("acl", "relcl") or (a.dep_ == "nummod" and _cardinal(a) is not None):
            cut.append(a)
            cut += [w for w in tok.children if w.dep_ in ("nmod", "compound") and a.i - 2 <= w.i < a.i]
        elif a.dep_ == "prep" and not (tok.text[:1].isupper() and a.lower_ in NAME_HEAD_PREPOSITIONS):
            objs = [w for w in a.children if w.dep_ == "pobj"]
            if any(names_thing(_span(o).text) or o.pos_ == "PROPN" for o in objs) or \
                    any(_cardinal(w) is not None for w in a.subtree):
                cut.append(a)
    # deeper down too: "Director of … Programme [in the School of …]", "the Department of X[, where they …]"
    cut += [t for t in tok.subtree if t.dep_ == "prep" and t.i != tok.i and t.lower_ not in NAME_HEAD_PREPOSITIONS and
            any(names_thing(_span(o).text) for o in t.children if o.dep_ == "pobj")]
    cut += [t for t in tok.subtree if t.dep_ == "relcl" and t.i != tok.i]
    cut_ids = {w.i for a in cut for w in a.subtree}
    keep = [t for t in tok.subtree if t.i not in cut_ids]
    keep = [t for t in keep if t.dep_ not in ("det", "punct") or t.text in "-'&()"]
    if not keep:
        return tok.doc[tok.i:tok.i + 1]
    return tok.doc[min(t.i for t in keep):max(t.i for t in keep) + 1]


def _stand_in(text: str, title: str) -> str:
    """The page's own name replaced by "It" before parsing: names with commas, initials or characters
    the parser has never seen ("Cheung Kwong-chak, Gary is …") break its sentences; a pronoun never does,
    and a sentence whose subject is a pronoun is about the page's entity."""
    variants = sorted({v for v in (title.strip(), strip_titles(title)) if len(v.split()) >= 2 or len(v) > 3},
                      key=len, reverse=True)
    for v in variants:
        pattern = rf"(?i)(?<![\w-])(?:the\s+)?{re.escape(v)}(?![\w-])('s)?"
        text = re.sub(pattern, lambda m: "Its" if m.group(1) else "It", text)
    return text


def _said_through(subject) -> bool:
    """A common noun the entity is said through: "the research of X", "projects by X", "her projects"."""
    return subject.pos_ == "NOUN" and any(c.dep_ in ("prep", "poss") for c in subject.children)


def _name_run(span):
    """A name cut short by the parse ("Department of Building Environment and [Energy Engineering]"):
    extended over the capitalised words that follow it, and over "and", "of", "&" between them."""
    doc, end = span.doc, span.end
    while end < len(doc) and doc[end].is_sent_start is not True:
        word = doc[end]
        if word.text[:1].isupper() and word.is_alpha:
            end += 1
        elif word.lower_ in ("and", "of", "&", "for") and end + 1 < len(doc) and doc[end + 1].text[:1].isupper() \
                and doc[end + 1].is_alpha and doc[end + 1].pos_ != "AUX":
            end += 2
        else:
            break
    return doc[span.start:end]


def _cardinal(tok) -> str | None:
    """A counted number's digits ("3", "three" → "3"); None for anything else, ordinals, fractions
    ("one third") and list markers ("1)", "(2)") included."""
    after = tok.doc[tok.i + 1].text if tok.i + 1 < len(tok.doc) else ""
    if after == ")" or (after == "." and (tok.is_sent_start or tok.i == 0)):
        return None  # "1)", and "2." opening a line; "at level 3." ends a sentence
    if any(c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
        return None  # a part of a set, not a count: "one of the units", "two of its subjects"
    if tok.text.isdigit():
        return tok.text
    word = CARDINALS.get(tok.lower_)
    if word is not None and not (tok.head.i != tok.i and tok.head.like_num and tok.head.i > tok.i):
        return word
    return None


def _counts_aside(sent, n: int, where: Callable[[object], bool] = lambda tok: True) -> list[Segment]:
    """The counts of a sentence (or of its clauses `where` says) about someone else, each with its noun
    ("Students who pass gain 3 credits": "credits", 3) — the entity's when the noun plainly means one
    of its properties."""
    return [Segment(_counted_noun(tok), _cardinal(tok) or tok.text, "prose", number=True, sentence=n, aside=True)
            for tok in sent if tok.dep_ == "nummod" and tok.head.pos_ == "NOUN" and _cardinal(tok) is not None
            and where(tok)]


def _lead_verb(sent):
    """In a sentence that lists values with semicolons, the verb before the first semicolon that has a
    subject: the parser may root such a sentence at a verb inside an item ("… spans a; b ameliorates
    c; d"), which would hide the clause that states the list. None for other sentences."""
    semis = [t.i for t in sent if t.text == ";"]
    if not semis:
        return None
    return next((t for t in sent if t.i < semis[0] and t.pos_ in ("VERB", "AUX")
                 and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)), None)


def _semicolon_list(sent, root):
    """The span of a list of values after the verb, its items separated by semicolons (the first
    object's left edge to the sentence's end); None when the sentence has no such list."""
    if not any(t.text == ";" and t.i > root.i for t in sent):
        return None
    first = next((t for t in sent if t.i > root.i and t.dep_ in ("dobj", "attr", "oprd", "pobj")
                  and t.pos_ in ("NOUN", "PROPN", "X")), None)
    if first is None:
        return None
    start = min(t.i for t in first.subtree if t.dep_ not in ("det", "punct")) if len(list(first.subtree)) else first.i
    end = sent.end
    while end > start and sent.doc[end - 1].is_punct:
        end -= 1
    span = sent.doc[start:end]
    return span if ";" in span.text else None


_CARD_WORD = re.compile(r"[^\W\d_][\w'’.-]*|\d\w*")
_CARD_JOINS = NAME_HEAD_PREPOSITIONS | {"&", "the", "in", "on", "at"}


def _card_line(line: str) -> bool:
    """A short line that only names something: every word capitalised (or a word that joins a name),
    no field, no list mark, no sentence's end."""
    line = line.strip()
    if not line or line[-1] in ".!?:;" or _FIELD.match(line) or _BULLET.match(line) or "|" in line:
        return False
    words = _CARD_WORD.findall(line)
    return bool(words) and len(line.split()) <= MAX_ITEM_WORDS and \
        all(w[0].isupper() or w[0].isdigit() or w.lower() in _CARD_JOINS for w in words)


def _card_block(lines: list[str]) -> set[int]:
    """The lines of cards: two or more name lines in a row (a heading alone is no card)."""
    out: set[int] = set()
    run: list[int] = []
    for n, line in enumerate([*lines, ""]):
        if line.strip() and _card_line(line):
            run.append(n)
            continue
        if len(run) >= 2:
            out.update(run)
        run = []
    return out


def _counted_noun(tok) -> str:
    """"a level 3 subject of 3 credits": the noun a number counts, with the words just before the number."""
    before = [w for w in tok.head.children if w.dep_ in ("nmod", "compound", "amod") and w.i < tok.i]
    return " ".join(w.text for w in before + [tok.head])


def _stands_for_entity(subject) -> bool:
    """A personal pronoun (or the stand-in for the entity's name): on a page about one thing, it."""
    return subject.pos_ == "PRON" and subject.lower_ in ENTITY_PRONOUNS


def _in_other_clause(tok, root) -> bool:
    """Between the value and the sentence's verb is a clause with a subject of its own — unless that
    subject is a pronoun for the entity ("…, where they are Professor") or a relative pronoun standing
    for what the entity is said to be ("X is one of the units that make up Y": X makes up Y; "X is a
    chemist who works at Y")."""
    t = tok.head
    while t.i != root.i and t.head.i != t.i:
        if t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass") and not _stands_for_entity(c)
                                             for c in t.children) and not _says_of_complement(t, root):
            return True
        t = t.head
    return False


def _says_of_complement(clause, root) -> bool:
    """A relative clause ("that make up Y") whose subject is its relative pronoun and whose noun is the
    complement of the sentence's copula ("is one of the units", "is a chemist"), or inside it."""
    subject = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if clause.dep_ != "relcl" or subject is None or subject.tag_ not in ("WDT", "WP"):
        return False
    if root.lemma_ != "be" and root.pos_ != "AUX":
        return False
    t = clause.head
    while t.i != root.i and t.head.i != t.i:
        if t.dep_ == "attr" and t.head.i == root.i:
            return True
        t = t.head
    return False


def _path(tok, root) -> list:
    """The words from the verb down to a value: prepositions, verbs and the nouns passed through."""
    words = []
    t = tok.head
    while t is not None and t != tok:
        if t.dep_ in ("prep", "agent") or t.pos_ in ("VERB", "AUX", "NOUN", "PROPN", "ADP"):
            words.append(t)
        if t == root or t.head == t:
            break
        t = t.head
    return sorted(words, key=lambda w: w.i)


def _unique(facts: list[ReadFact]) -> list[ReadFact]:
    seen, out = set(), []
    for f in facts:
        key = (f.prop, fold(f.value))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
