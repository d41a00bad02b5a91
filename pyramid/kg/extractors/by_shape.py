"""`kg.mode = by-shape` (what `auto` settles on when `ontology.extract_method = auto`): each document by
its shape (pyramid.reading.shape), as the ontology's instances are — a page about one entity gives the
triples of its schema-aware reading (`read`, no model), any other text is read sentence by sentence
(`grounded` for the tiny default model, else `cascade`, as `auto` chooses without pages).
"""

from __future__ import annotations

from pyramid.corpus import Document
from pyramid.kg.extractors.base import ExtractedTriples, TripleExtractor, TripleJob
from pyramid.kg.extractors.read import ReadTriples
from pyramid.plugins import Entry, Registry
from pyramid.reading.shape import pages_about_one_entity

_ADDED = ("chunks", "chunks_extracted", "chunks_resumed", "documents_pending", "dropped_ungrounded",
          "duplicates_dropped")


class TriplesByShape:
    name = "by-shape"
    unit = "documents read"

    def __init__(self, sentences: TripleExtractor) -> None:
        self.sentences = sentences  # the strategy for text that is no page about one entity

    def extract(self, docs: list[Document], job: TripleJob) -> ExtractedTriples:
        readings = job.readings() if job.readings is not None else {}
        pages = pages_about_one_entity(docs, readings)
        parts = [ReadTriples().extract([d for d in docs if d.id in pages], job)] if pages else []
        if len(pages) < len(docs):
            parts.append(self.sentences.extract([d for d in docs if d.id not in pages], job))
        # names read from prose must meet the pages' names: resolved by meaning once any prose is in
        out = ExtractedTriples(resolve="exact" if len(pages) == len(docs) else "embedding")
        for part in parts:
            out.ready += part.ready
            out.keys.update(part.keys)
            out.items += part.items
            out.failed_chunks += part.failed_chunks
            for name in _ADDED:
                setattr(out, name, getattr(out, name) + getattr(part, name))
        return out


def _build(llm, cfg) -> TriplesByShape:
    from pyramid.kg.extractors import TRIPLE_EXTRACTORS, choose

    return TriplesByShape(TRIPLE_EXTRACTORS.get(choose("auto", llm)).build(llm, cfg))


def register(registry: Registry) -> None:
    registry.register(Entry("by-shape", _build, "each document by its shape: the reading's triples for pages "
                            "about one entity, sentence extraction for other text", {"reads_pages": True}))
