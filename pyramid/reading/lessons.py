"""What the corpus teaches about its own names and values, and the state it leaves: the one object every
reading stage consults for what was learnt.

- before linking (`learn`): things named with their class ("Department: School of Design", "School of
  …" names), the head words such names share, example values of the properties that plain labels name,
  the properties whose plainest label holds numbers;
- `prepare`: every context and value the linking will compare, embedded in batches;
- after linking (`learn_linked`): values that fields gave a property once the page's class settled it.

The lessons about vague labels (pyramid.reading.label_meanings) and about each class's titles
(pyramid.reading.entity_class) are kept here too: `label_means`, `value_means`, `title_examples`,
`title_shapes`, `title_matrix`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property

import numpy as np

from pyramid.normalise import BRACKETED_CODE, fold, name_key
from pyramid.reading.class_words import ClassWords, common_phrase, head_word
from pyramid.reading.identity import without_code
from pyramid.reading.meaning import PropertyMeaning
from pyramid.reading.page import Page, PageReading, ReadFact, Segment
from pyramid.reading.terms import is_date, is_named, value_fits
from pyramid.reading.values import MAX_ITEM_WORDS, NUMBER, is_list, list_items, name_before_noun
from pyramid.vocab import Term, Vocab

MAX_EXAMPLES = 60         # example values kept per property: enough to say what its values look like
SHAPE_SHARE = 0.85        # a shape this share of a class's learnt names have, its names have …
MIN_SHAPE_EXAMPLES = 5    # values under a label before their shape (numbers or not) counts
MIN_HEAD_COUNT = 2        # names sharing a head word this often, all of one class, make it the class's word
HEAD_SHARE = 0.8          # … all but a few: this share of the names with the head word are of that class
_CLOSING_CODE = re.compile(rf"{BRACKETED_CODE}$")  # a name's code in brackets, closing it
MAX_COMMON_WORDS = 3       # a common noun this short beside a known one in "a and b" is a second value
CLOSEST_EXAMPLES = 3      # a value's likeness to a property: mean cosine to this many of its closest examples


def without_article(item: str) -> str:
    """A name without the article a sentence put before it ("the Iron Lens Award" → "Iron Lens Award"): in
    mid-sentence English the article is lower case, a name's own is not ("The Glass Window")."""
    rest = item[4:] if item.startswith("the ") else ""
    return rest if rest[:1].isupper() else item


def common_noun_before(item: str) -> tuple[str, str] | None:
    """A common noun put before a name ("studio Vesperline Films", "director Ana Ruiz"): the noun and the
    name; None when the item does not open with lower-case words followed by capitalised ones."""
    words = item.split()
    cut = next((i for i, w in enumerate(words) if w[:1].isupper()), 0)
    if 0 < cut <= MAX_COMMON_WORDS and cut < len(words) and all(w.isalpha() for w in words[:cut]):
        return " ".join(words[:cut]), " ".join(words[cut:])
    return None


def name_keys(name: str) -> list[str]:
    """A name's key, and that of its words without its code ("Organic Chemistry (CHEM 430)": "organic
    chemistry"), the ways one thing is named across a corpus."""
    bare = without_code(name)
    return [name_key(name), *([name_key(bare)] if bare else [])]


class CorpusLessons:
    """What the corpus taught, and how to read a name or a value with it."""

    def __init__(self, vocab: Vocab, meaning: PropertyMeaning, words: ClassWords) -> None:
        self.vocab, self.meaning, self.words = vocab, meaning, words
        self.known: dict[str, str] = {}      # name key → class, for things pages named with their class
        self.titled: set[str] = set()        # name keys of pages' titles typed by their pages' readings
        self.heads: dict[str, str] = {}      # a name's head word → class ("school" → DEPARTMENT), learnt
        self.examples: dict[str, list[str]] = {}  # datatype property → values fields gave it, learnt
        self.title_examples: dict[str, list[str]] = {}   # class → titles of pages surely of it, learnt
        self.title_shapes: dict[str, set[str]] = {}      # class → what all its names carry, learnt
        self.numeric: set[str] = set()   # datatype properties whose plainest label's values are numbers, learnt
        self.labelled: dict[str, set[str]] = {}  # class → names fields gave under a label naming it, learnt
        self.label_means: dict[str, str] = {}  # folded vague field label → the property its values say it means, learnt
        self.value_means: dict[tuple[str, str], str] = {}  # (vague label, item), folded → what values like it are, learnt
        self.title_matrix: np.ndarray | None = None  # the vectors of `title_examples`, class after class

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
                items = list_items(seg.value) if is_list(seg.value) else [seg.value]
                for item in items:
                    by_label = self.words.label_class(seg.context) if seg.kind == "field" and \
                        len(item.split()) <= MAX_ITEM_WORDS else None
                    # (a sentence's common noun phrase, "work on plant immunity", names no thing of a class)
                    kind = (None if seg.kind == "prose" and common_phrase(item) else self.words.class_word(item)) or by_label
                    if kind:
                        self.known.setdefault(name_key(item), kind)
                    if by_label:
                        self.labelled.setdefault(by_label, set()).add(item)
                    head = head_word(item)
                    if by_label and head and not self.words.class_word(item):
                        heads.setdefault(head, {}).setdefault(by_label, set()).add(name_key(item))
                if seg.kind == "field":
                    prop = self.meaning.confident(seg.context)
                    if prop is not None:
                        tally = shapes.setdefault(prop, {}).setdefault(seg.context, [0, 0])
                        tally[0] += sum(bool(NUMBER.match(x.strip())) for x in items)
                        tally[1] += len(items)
                        bag = self.examples.setdefault(prop, [])
                        for item in items:
                            # a class's name ("Role: councillor") says what the entity is, not what the
                            # property's values look like
                            # … nor is a thing's name (another page's title)
                            if len(bag) < MAX_EXAMPLES and item not in bag and not self.words.only_class_words(item) \
                                    and not self._names_thing(item):
                                bag.append(item)
        self._learn_numeric(shapes)
        for head, names in heads.items():
            cls, seen = max(names.items(), key=lambda x: len(x[1]))
            if len(seen) >= MIN_HEAD_COUNT and len(seen) >= HEAD_SHARE * sum(map(len, names.values())):
                self.heads[head] = cls
        self._forget_examples()

    def _learn_numeric(self, shapes: dict[str, dict[str, list[int]]]) -> None:
        """A property whose plainest label (the nearest in meaning, with enough values) holds numbers
        takes numbers only: a word is not one of its values, whatever its label's meaning ("Rank:
        Professor" is no subject's level though "rank" means level), and is dropped from its examples."""
        index = {p.iri: j for j, p in enumerate(self.meaning.props)}
        for prop, labels in shapes.items():
            counted = [(float(self.meaning.sims(label)[index[prop]]), n, total) for label, (n, total) in labels.items()
                       if total >= MIN_SHAPE_EXAMPLES]
            if counted and (best := max(counted))[1] >= SHAPE_SHARE * best[2]:
                self.numeric.add(prop)
                self.examples[prop] = [v for v in self.examples.get(prop, []) if NUMBER.match(v.strip())]
                self._forget_examples()

    def prepare(self, pages: Iterable[Page]) -> None:
        """Embed, in one batch, every value that will be compared with the examples (one at a time
        they cost a model call each), and every label context the linking will compare with the
        properties, a list's items under a vague label included ("Expertise: sonar imaging")."""
        pages = list(pages)
        self.meaning.embed_contexts(seg.context for page in pages for seg in page.segments)
        self.meaning.embed_contexts(f"{seg.context}: {item}" for page in pages for seg in page.segments
                                    if self.meaning.vague(seg.context)
                                    and len(items := self.items_of(seg)) > 1 for item in items)
        texts = []
        for page in pages:
            texts.append(page.title)
            for seg in page.segments:
                if not seg.number and (seg.kind == "prose" or self.meaning.vague(seg.context)):
                    texts += list_items(seg.value) if is_list(seg.value) else [seg.value]
        self.meaning.embed_values(texts)

    def learn_linked(self, pages: list[Page], readings: list[PageReading]) -> bool:
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
                if f.is_object and self._typed_by_field(f, fields):
                    gained = True
                    continue
                # the field's whole value only: an item of a list under a vague label ("Expertise:
                # a, b, c") says less about the property than the field's one value does
                if f.is_object or term is None or term.kind != "datatype" or is_named(term) or \
                        f.context not in fields or fold(f.value) != fields[f.context] or \
                        self.label_means.get(fold(f.context), f.prop) != f.prop:
                    continue
                bag = self.examples.setdefault(f.prop, [])
                # a value of many words is a sentence or a list left whole: as an example it would make
                # every value sharing a word with it look like the property's
                # … nor is a thing's name one ("Research group: Marine Biology Unit", a person's page title)
                if len(bag) < MAX_EXAMPLES and f.value not in bag and len(f.value.split()) <= MAX_ITEM_WORDS \
                        and not self.words.only_class_words(f.value) and not self._names_thing(f.value):
                    bag.append(f.value)
                    gained = True
        if gained:
            self._forget_examples()
        return gained

    def _names_thing(self, value: str) -> bool:
        """The value names a thing: a class's word in it, a name the corpus typed, a page's title."""
        return bool(self.class_named(value)) or any(k in self.words.titles for k in name_keys(value))

    def _typed_by_field(self, f: ReadFact, fields: dict[str, str]) -> bool:
        """A thing a field's plain label links to ("Specialty: Renal Medicine") is of the property's
        range wherever else it is named ("treats patients under Renal Medicine"): the corpus types the
        name. True when the name is new."""
        key = name_key(f.value)
        label = f.context
        plain = label in fields and (self.meaning.confident(label) == f.prop or
                                     self.label_means.get(fold(label)) == f.prop or
                                     f.value_class == self.words.label_class(label, head=True))
        if not plain or not f.value_class or not key or key in self.known or key in self.words.titles:
            return False
        self.known[key] = f.value_class
        return True

    @cached_property
    def _example_matrix(self) -> tuple[list[int], np.ndarray]:
        """Every example value's vector, with the index of its property."""
        owners, texts = [], []
        for j, p in enumerate(self.meaning.props):
            for v in self.examples.get(p.iri, []):
                owners.append(j)
                texts.append(v)
        vecs = self.meaning.embedder.embed(texts, kind="document") if texts else np.zeros((0, 1))
        return owners, vecs

    @cached_property
    def _example_rows(self) -> dict[int, np.ndarray]:
        owners = np.asarray(self._example_matrix[0])
        return {int(j): np.flatnonzero(owners == j) for j in set(owners.tolist())}

    def value_sims(self, value: str) -> np.ndarray:
        """Per property: how much the value resembles the property's example values (mean of the
        three closest); 0 for a property with no examples."""
        out = np.zeros(len(self.meaning.props))
        owners, vecs = self._example_matrix
        if not owners:
            return out
        sims = vecs @ self.meaning.value_vector(value)
        for j, rows in self._example_rows.items():
            out[j] = float(np.sort(sims[rows])[-CLOSEST_EXAMPLES:].mean())
        return out

    def takes(self, p: Term, value: str) -> bool:
        """The datatype property takes the value: by its declared range, then by its examples' shape."""
        return value_fits(p, value) and (p.iri not in self.numeric or bool(NUMBER.match(value.strip())))

    def learn_page_classes(self, titles: list[str], classes: list[str | None]) -> set[str]:
        """The class each page's reading gave its entity, for its title as a name wherever it is named
        ("The Glass Window" is a film, so no company is headquartered in it) — where neither the title's
        own words nor an earlier lesson say what it is. The name keys learnt."""
        new = set()
        for title, cls in zip(titles, classes):
            for key in name_keys(title):  # "CHEM 430: Organic Chemistry" is "Organic Chemistry" too
                if cls and key and key not in self.known and not self.words.class_word(title):
                    self.known[key] = cls
                    new.add(key)
        self.titled |= new
        return new

    def class_named(self, text: str, *, as_title: bool = False) -> str | None:
        """The class of the thing a name names: by a class word in it, else by what the corpus taught
        (the name seen with its class, or its head word). `as_title`: the name is the page's own title,
        whose class its page's first reading gave (`learn_page_classes`) — not evidence for itself."""
        keys = name_keys(text)
        known = None if as_title and keys[0] in self.titled else next(filter(None, map(self.known.get, keys)), None)
        return self.words.class_word(text) or known or self.heads.get(head_word(text))

    def word_of(self, text: str) -> str | None:
        """The class a name's words say: a class word, or a head word the corpus taught ("School of …").
        Not the names remembered with their class (`known`): a name typed by its label would then carry
        its class "by its words" whatever they are."""
        return self.words.class_word(text) or self.heads.get(head_word(text))

    def family_word(self, cls: str) -> Callable[[str], str | None]:
        """`word_of`, where a word of a class of the same family ("Faculty of …" for a department:
        DEPARTMENT is a kind of FACULTY) counts as the class's own."""
        def word(text: str) -> str | None:
            c = self.word_of(text)
            return cls if c is not None and self.vocab.compatible(c, cls) else c
        return word

    def things(self, value: str) -> list[str]:
        """Two things named as one value — "School of Accounting and Finance and Department of Applied
        Mathematics" — are two values: cut at an "and" where both sides name a thing of a class."""
        bare = name_before_noun(value)
        if name_key(without_article(bare[0] if bare else value)) in self.words.titles:
            return [value]  # a page's title ("Libraries and Archives"), whatever noun follows it, is one name
        words = value.split()
        for i, w in enumerate(words):
            if w.lower() == "and" and 0 < i < len(words) - 1:
                left, right = " ".join(words[:i]), " ".join(words[i + 1:])
                # what follows the "and" must name a thing by its own words (a class word, a learnt head
                # word), not as a name the corpus once typed: "… of Building and Real Estate" is the tail of
                # one name; a second thing is named in full ("… Centre and Department of …")
                if self.class_named(left) and self.word_of(right):
                    return [left, *self.things(right)]
                nxt = without_article(right).split(" and ")[0]
                # (… or two names each closed by its own code: "Genetics (BIOL 432) and Ecology (BIOL 210)")
                coded = _CLOSING_CODE.search(left) is not None and _CLOSING_CODE.search(nxt) is not None
                if (self.titled.intersection(name_keys(left)) and self.titled.intersection(name_keys(nxt))) or \
                        coded or self._known_pair(left, nxt):
                    return [left, *self.things(right)]  # two pages' titles or two known names ("X and the Y")
        return [value]

    def _known_pair(self, left: str, right: str) -> bool:
        """Two names the corpus gave a class, each whole; or two common nouns of a few words, one of them
        a name of a class the corpus knows ("thriller and horror" where a field gave "horror" as a genre).
        Names in capitals need both: "Accounting and Finance" may be one name."""
        kinds = [self.known.get(name_key(x)) for x in (left, right)]
        if all(kinds):
            return True
        common = all(x.islower() and len(x.split()) <= MAX_COMMON_WORDS for x in (left, right))
        return common and any(kinds)

    def items_of(self, seg: Segment) -> list[str]:
        if is_date(seg.value):  # "May 17, 2004" is one value, its comma no list's
            return [seg.value]
        value = self._with_lead(seg)
        items = list_items(value) if is_list(value) else self.things(value)
        return [self._as_titled(self.bare_name(without_article(x))) for x in items]

    def _as_titled(self, item: str) -> str:
        """A name whose page's title opens with its own article ("Bridge of Halloran Point" where the page
        is "The Bridge of Halloran Point") is written as the page writes it: one thing, one label."""
        title = self.words.titles.get(name_key(item))
        return title if title is not None and fold(title) == fold(f"the {item}") else item

    def _with_lead(self, seg: Segment) -> str:
        """A sentence's value with the capitalised preposition the verb's phrase took from it, where the
        two open a page's title ("are Beyond" + "Pier and Low Tide": "Beyond the Pier and Low Tide"):
        in mid-sentence the capital says the preposition is the name's."""
        lead = seg.context.split()[-1:] if seg.kind == "prose" else []
        if not lead or not lead[0][:1].isupper():
            return seg.value
        for cut in [m.start() for m in re.finditer(r",|\s+and\s+", seg.value)] + [len(seg.value)]:
            title = self.words.titles.get(name_key(f"{lead[0]} {seg.value[:cut]}"))
            if title:
                return title + seg.value[cut:]
        return seg.value

    def bare_name(self, item: str) -> str:
        """The name in "studio Vesperline Films" when the corpus knows it (a page's title, a name it typed)."""
        split = common_noun_before(item)
        if split is None:
            return item
        key = name_key(split[1])
        return split[1] if key in self.titled or key in self.known or key in self.words.titles else item

    def _forget_examples(self) -> None:
        """The example values changed: their vectors are made again when next needed."""
        for cached in ("_example_matrix", "_example_rows"):
            self.__dict__.pop(cached, None)
