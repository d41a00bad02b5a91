"""`kg.mode = read`: the KG's triples are the pages' schema-aware reading (pyramid.reading), the one
the ontology's instances come from too; no model.

A page's reading becomes triples whose relation is the schema property's name in words (its
canonical name the property's own) and whose ends are typed with their classes' names. The reading
of an unchanged page can change when the corpus teaches the reader something new, so each page's
triples are keyed by their digest and reloaded where they changed. The reading already gave every
name its key: entities are resolved exactly, no embedding of names.
"""

from __future__ import annotations

import hashlib

from pyramid.corpus import Document
from pyramid.errors import Hint, WorkspaceError
from pyramid.kg.extractors.base import ExtractedTriples, TripleJob
from pyramid.kg.model import RawTriple, Sourced
from pyramid.normalise import strip_titles
from pyramid.plugins import Entry, Registry
from pyramid.reading.page import PageReading
from pyramid.vocab import local_name


def reading_triples(reading: PageReading | None) -> list[RawTriple]:
    """A page's reading as KG triples: the relation is the schema property's name in words, its
    canonical name the property's own; the ends are typed with their classes' names."""
    if reading is None:
        return []
    head = strip_titles(reading.entity) or reading.entity
    head_type = local_name(reading.cls) if reading.cls else ""
    out = []
    for f in reading.facts:
        name = local_name(f.prop)
        tail = strip_titles(f.value) or f.value if f.is_object else " ".join(f.value.split())
        if not tail.strip():
            continue
        tail_type = local_name(f.value_class) if f.value_class else ""
        if f.reverse:  # the named thing holds it to the page's entity
            out.append(RawTriple(tail, name.replace("_", " "), head, tail_type, head_type, canonical=name))
        else:
            out.append(RawTriple(head, name.replace("_", " "), tail, head_type, tail_type, canonical=name))
    return out


class ReadTriples:
    name = "read"
    unit = "pages read"

    def extract(self, docs: list[Document], job: TripleJob) -> ExtractedTriples:
        got = job.readings() if job.readings is not None else {}
        if not got:
            raise WorkspaceError("KG mode read needs the workspace's schema to read the pages against",
                                 hint=Hint(param="schema", values="FILE"))
        triples = {d.id: reading_triples(got.get(d.id)) for d in docs}
        out = ExtractedTriples(resolve="exact")
        out.keys = {d.id: "read:" + hashlib.sha256(repr(triples[d.id]).encode()).hexdigest()[:16] for d in docs}
        out.ready = [d for d in docs if job.loaded.get(d.id) != out.keys[d.id]]
        out.items = [Sourced(t, d.id, None) for d in out.ready for t in triples[d.id]]
        out.chunks = out.chunks_extracted = len(out.ready)
        out.chunks_resumed = len(docs) - len(out.ready)
        return out


def register(registry: Registry) -> None:
    registry.register(Entry("read", lambda llm, cfg: ReadTriples(), "the triples of the pages' schema-aware "
                            "reading (ontology.extract_method = read), no model", {"reads_pages": True}))
