"""What a field's label or a sentence's words mean for the schema: MiniLM similarity of a context to each
property's words, and the vectors of the values read.

The embedder runs in bfloat16, where a text's vector depends on the batch it was made in, and its disk
cache keys by text: which texts are embedded together, and in what order, is part of every result. Each
context and each value is embedded once, here, most of them in the batches the corpus lessons make
(pyramid.reading.lessons: `prepare`)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.normalise import fold
from pyramid.reading.english import PREPOSITIONS, PROPERTY_NAME_FUNCTION_WORDS, TOPIC_PREPOSITIONS
from pyramid.vocab import Term, Vocab, singular

MIN_SIMILARITY = 0.30     # a datatype property this far from a field's label (cosine) is not what it states
SHARED_BY = 3             # a word in this many property names is a prefix, not a meaning
CONFIDENT = 0.5           # a field label this close to one property, …
CONFIDENT_MARGIN = 0.1    # … and this much closer than to any other, plainly means it: its values are examples
SAID_WORD = 0.1           # what a context adds for saying a property's own telling words ("master's degree at")



class PropertyMeaning:
    """The schema's properties as vectors of their words, each context's similarity to all of them, and
    every value's vector, each made once."""

    def __init__(self, vocab: Vocab, embedder: Embedder) -> None:
        self.vocab, self.embedder = vocab, embedder
        self._vec: dict[str, np.ndarray] = {}        # folded context → its vector (a query)
        self._value_vec: dict[str, np.ndarray] = {}  # value as written → its vector (a document)
        self.props = [p for p in vocab.properties if p.kind in ("object", "datatype")]

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

    def embed_contexts(self, contexts: Iterable[str]) -> None:
        """`sims`'s vectors for many contexts in one batch."""
        todo = {key: c for c in contexts if (key := fold(c)) not in self._vec}
        if todo:
            self._vec.update(zip(todo, self.embedder.embed([c or "value" for c in todo.values()], kind="query")))

    def sims(self, context: str) -> np.ndarray:
        """Per property: the cosine of the context to the property's words; none where the context's
        preposition says a topic and the property's another relation."""
        key = fold(context)
        if key not in self._vec:
            self._vec[key] = self.embedder.embed_one(context or "value", kind="query")
        sims = self._prop_matrix @ self._vec[key]
        # MiniLM hardly tells "master's degree" from "bachelor's degree": the word said decides between names
        # that differ in it
        said = {_stem(w) for w in key.replace(":", " ").split()}
        sims = sims + SAID_WORD * np.array([len(said & ws) / len(ws) if ws else 0.0 for ws in self._telling_words])
        # a relation said with a preposition of topic ("published on", "work on", "writes about") states
        # what something is about: a property named with another preposition ("has published in" a venue,
        # "works in" a place) is another relation, however alike the verbs (MiniLM scores the verb and
        # hardly the preposition); what its values are like may still link it
        last = (fold(context.split(":")[0]).split() or [""])[-1]  # a list's item follows its label: "works on: x"
        if last in TOPIC_PREPOSITIONS:
            other = [bool(q) and q not in TOPIC_PREPOSITIONS for q in self._prop_prepositions]
            sims = np.where(other, np.minimum(sims, 0.0), sims)
        return sims

    @cached_property
    def _telling_words(self) -> list[set[str]]:
        """Each property's content words that few other names share (not "has", "degree" or "from" where three
        names hold them), stemmed."""
        return [{_stem(w) for w in p.words.split() if w not in self._shared_words and w not in PREPOSITIONS
                 and w not in PROPERTY_NAME_FUNCTION_WORDS} for p in self.props]

    @cached_property
    def _prop_prepositions(self) -> np.ndarray:
        """Each property's name's closing preposition ("in" for has_published_in), or ""."""
        return np.array([w[-1] if (w := p.words.split()) and w[-1] in PREPOSITIONS else "" for p in self.props])

    def vague(self, label: str) -> bool:
        """No property is close enough to the label's words for it to say one plainly."""
        return float(self.sims(label).max()) < CONFIDENT

    def made_plain(self, sims: np.ndarray, prop: str) -> np.ndarray:
        """`sims` with `prop` raised to a plain meaning, ahead of every other property."""
        sims = sims.copy()
        j = next(j for j, p in enumerate(self.props) if p.iri == prop)
        sims[j] = max(float(sims.max()) + CONFIDENT_MARGIN, CONFIDENT)
        return sims

    def confident(self, label: str) -> str | None:
        """The datatype property a field's label plainly means (close, and clearly closer than any other)."""
        sims = self.sims(label)
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

    def embed_values(self, texts: Iterable[str]) -> None:
        """The vectors of the values not embedded yet, in one batch (in order, each once)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._value_vec]
        if todo:
            self._value_vec.update(zip(todo, self.embedder.embed(todo, kind="document")))

    def vectors(self, texts: list[str]) -> np.ndarray:
        """The values' vectors, each made once (`prepare` made most of those read under vague labels)."""
        self.embed_values(texts)
        return np.array([self._value_vec[t] for t in texts], dtype=np.float32)

    def value_vector(self, value: str) -> np.ndarray:
        """One value's vector, made on its own when no batch made it."""
        vec = self._value_vec.get(value)
        if vec is None:
            vec = self._value_vec[value] = self.embedder.embed_one(value, kind="document")
        return vec


def _stem(word: str) -> str:
    """A word as names are compared: folded, without a possessive's "'s", singular."""
    word = word.strip(".,;:?!()\"").removesuffix("'s").removesuffix("’s")
    return singular(word) if word else word
