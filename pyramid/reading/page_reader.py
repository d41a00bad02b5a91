"""Schema-aware reading of a page: its main entity and the facts the page states about it, for the
ontology (instances) and the knowledge graph (triples) alike — one reading per page.

    reader = PageReader(vocab, embedder, titles=...)     # titles: every page title of the corpus
    reading = reader.read(title, text)                   # -> PageReading(entity, cls, facts)

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

Where each stage lives (this module composes them; `PageReader` is the one entry):

    page.py            Segment, Page, ReadFact, PageReading: what a reading is made of
    segments.py        1. a page's lines → fields, cards, prose          (PageSegmenter)
    prose.py           2. sentences by the dependency parser             (ProseReader)
    meaning.py         MiniLM similarity of contexts to properties; value vectors (PropertyMeaning)
    class_words.py     which class a name's words say                    (ClassWords)
    lessons.py         what the corpus teaches, and the state it leaves  (CorpusLessons)
    label_meanings.py  what vague labels mean, learnt after linking      (VagueLabelLessons)
    linking.py         3. a segment's values → candidate facts           (FactLinker)
    entity_class.py    4. the entity's class; what each class's titles look like (EntityClassifier)
    assembly.py        the page's reading: facts that fit the class, description, title facts (PageAssembler)
    values.py, terms.py  a value's shape (lists, numbers); what a property takes and where it applies
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pyramid.embeddings import Embedder
from pyramid.normalise import name_key
from pyramid.reading.assembly import PageAssembler, drop_contradicted, drop_shared_addresses
from pyramid.reading.class_words import ClassWords
from pyramid.reading.entity_class import EntityClassifier
from pyramid.reading.identity import one_thing_per_name, without_code
from pyramid.reading.label_meanings import VagueLabelLessons
from pyramid.reading.lessons import CorpusLessons
from pyramid.reading.linking import FactLinker
from pyramid.reading.meaning import PropertyMeaning
from pyramid.reading.page import Page, PageReading, ReadFact, Segment
from pyramid.reading.prose import ProseReader
from pyramid.reading.segments import PageSegmenter
from pyramid.vocab import Vocab

__all__ = ["Page", "PageReader", "PageReading", "ReadFact", "Segment"]


class PageReader:
    """Reads pages against a schema: segments each page (the slow, per-page part), studies the corpus,
    then links every page. Each stage is an object of its own (see the module's docstring); they share
    the property meanings and the corpus lessons."""

    def __init__(self, vocab: Vocab, embedder: Embedder, *, titles: Iterable[str] = ()) -> None:
        self.vocab, self.embedder = vocab, embedder
        self.titles = {name_key(t): t for t in titles}
        self.meaning = PropertyMeaning(vocab, embedder)
        self.words = ClassWords(vocab, self.titles)
        self.lessons = CorpusLessons(vocab, self.meaning, self.words)
        self.vague_labels = VagueLabelLessons(vocab, self.meaning, self.lessons)
        self.linker = FactLinker(vocab, self.meaning, self.lessons, self.words)
        self.classifier = EntityClassifier(vocab, self.meaning, self.lessons, self.linker)
        self.assembler = PageAssembler(vocab, self.meaning, self.linker, self.classifier)
        known = [n for t in self.titles.values() for n in (t, without_code(t)) if n]
        prose = ProseReader(self.words.names_thing, self.words.class_word, self.words.kind_word, known)
        self.segmenter = PageSegmenter(self.meaning, self.words, prose)

    # -- what the corpus taught (the lessons' own objects: changes to them are the reader's)
    @property
    def examples(self) -> dict[str, list[str]]:
        return self.lessons.examples

    @property
    def label_means(self) -> dict[str, str]:
        return self.lessons.label_means

    @property
    def value_means(self) -> dict[tuple[str, str], str]:
        return self.lessons.value_means

    @property
    def title_shapes(self) -> dict[str, set[str]]:
        return self.lessons.title_shapes

    @property
    def nlp(self):
        """spaCy's small English pipeline (tagger, parser, NER), loaded on the first page with prose."""
        return self.segmenter.prose.nlp

    # -- reading
    def read(self, title: str, text: str) -> PageReading:
        """One page on its own (what the reader has learnt so far helps)."""
        return self.link(self.segment(title, text))

    def read_all(self, pages: Iterable[tuple[str, str]]) -> list[PageReading]:
        segmented = [self.segment(t, x) for t, x in pages]
        self.study(segmented)
        return self.link_all(segmented)

    def segment(self, title: str, text: str) -> Page:
        """The slow part (the parser), independent of every other page: cache it per page."""
        title = " ".join(title.split())
        segments, sentences = self.segments(title, text)
        return Page(title, segments, sentences)

    def segments(self, title: str, text: str) -> tuple[list[Segment], list[str]]:
        """The page's fields and the values its sentences state, with its sentences."""
        return self.segmenter.segments(title, text)

    def study(self, pages: list[Page]) -> None:
        """Everything the corpus teaches, before any page is linked: names, values, then titles."""
        self.lessons.learn(pages)
        self.lessons.prepare(pages)
        self.classifier.learn_titles(pages)

    def link(self, page: Page) -> PageReading:
        """The page's entity, its class and the facts the page states about it."""
        return self.assembler.link(page)

    def link_all(self, pages: list[Page], advance: Callable[[], None] | None = None) -> list[PageReading]:
        """Every page linked; then what the linked fields taught (below) links the pages whose values
        were said without a label, or under a vague one, once more."""
        readings = []
        for page in pages:
            readings.append(self.link(page))
            if advance is not None:
                advance()
        # the types of both ends: a name that is another page's title is a thing of that page's class
        titled = self.lessons.learn_page_classes([p.title for p in pages], [r.cls for r in readings])
        meant = self.learn_label_meanings(pages, readings)
        learnt = self.learn_linked(pages, readings) or meant
        if learnt or titled:
            # the pages whose values no label said plainly (a sentence's, or a field's under a vague label) —
            # what they name is now known to have, or not to have, a page of its class —, and those naming a
            # title whose class was just learnt
            readings = [self.link(p) if any(seg.kind == "prose" or self.meaning.vague(seg.context)
                                            for seg in p.segments) or self._names_any(p, titled)
                        else r for p, r in zip(pages, readings)]
        return one_thing_per_name(self.vocab, drop_shared_addresses(drop_contradicted(self.vocab, readings)))

    def _names_any(self, page: Page, keys: set[str]) -> bool:
        """The page names one of these titles somewhere in a value (a list not yet cut at its "and" too)."""
        values = [f" {name_key(seg.value)} " for seg in page.segments]
        return bool(keys) and any(f" {k} " in v for v in values for k in keys)

    def learn_label_meanings(self, pages: list[Page], readings: list[PageReading]) -> bool:
        """What vague field labels mean, by what their values are elsewhere (pyramid.reading.label_meanings)."""
        return self.vague_labels.learn_label_meanings(pages, readings)

    def learn_linked(self, pages: list[Page], readings: list[PageReading]) -> bool:
        """Values that fields gave a property once their page's class settled it, as examples of it."""
        return self.lessons.learn_linked(pages, readings)

    def candidates(self, seg: Segment, title: str = "") -> list[list[tuple[float, ReadFact]]]:
        """For each value of the segment, the facts it could state, best first (pyramid.reading.linking)."""
        return self.linker.candidates(seg, title)

    def _field(self, line: str, title: str) -> tuple[str, str] | None:
        """A line's label and value when it is one field (pyramid.reading.segments)."""
        return self.segmenter.field_of(line, title)

    def _shape_doubts(self, title: str) -> list[str]:
        """The classes whose every learnt name carries something this title lacks."""
        return self.classifier.shape_doubts(title)
