"""Which documents are pages about one entity and which are free prose: decided per document by its
shape, once, for both layers of a build (`ontology.extract_method = auto`).

A page about one entity is named by its title — a few words with no finite verb ("Prof. Alice Chen",
"Department of Physics", not the headline "AI Lab opens") — and the schema-aware reader finds the
schema class of the thing it names. Those pages are read (pyramid.reading, no model); the rest — news,
stories, texts about many things — go to sentence extraction, which reads each sentence on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pyramid.corpus import Document
from pyramid.normalise import codes_in
from pyramid.reading.corpus import MAX_TITLE_WORDS, title_of
from pyramid.reading.english import FINITE_VERB_TAGS, parser
from pyramid.reading.page import PageReading


def names_one_thing(titles: Sequence[str]) -> list[bool]:
    """Each title reads as a name: at most MAX_TITLE_WORDS words and no finite verb (a headline says
    what happened: "AI Lab opens"). A capitalised word is part of a name whatever the tagger makes of
    it ("Dr Michael SING", "Prof. H.C. Man"); a title with a code in it names the thing the code names
    ("AAE1001 Introduction to …", however long)."""
    docs = parser().pipe(titles)
    return [bool(codes_in(t)) or (len(t.split()) <= MAX_TITLE_WORDS and
                                   not any(tok.tag_ in FINITE_VERB_TAGS and tok.text.islower() for tok in doc))
            for t, doc in zip(titles, docs)]


def pages_about_one_entity(docs: Sequence[Document], readings: Mapping[str, PageReading]) -> set[str]:
    """The ids of the documents to read as pages: titled by a name, and about a thing of the schema's
    classes by their reading."""
    named = names_one_thing([title_of(d) for d in docs])
    return {d.id for d, ok in zip(docs, named)
            if ok and (r := readings.get(d.id)) is not None and r.cls}
