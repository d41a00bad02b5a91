"""`ontology.extract_method = read`: each page's schema-aware reading (pyramid.reading) as its graph;
no model. The KG's triples come from the same reading (kg.mode = read).

A page's graph types and labels its entity and each thing it points to (so it stands alone when
another page is removed), then states its facts. Every page is linked again each build (what the
corpus teaches can change how an unchanged page reads; only the parse is cached), and a page's graph
is written only where it changed, in batches that switch together.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pyoxigraph as ox

from pyramid.corpus import Document
from pyramid.normalise import name_key, strip_titles
from pyramid.ontology.extractors.base import MAX_SLUG, RDF_TYPE, RDFS_LABEL, ExtractReport, InstanceJob
from pyramid.plugins import Entry, Registry
from pyramid.reading.corpus import read_corpus
from pyramid.reading.identity import without_code
from pyramid.reading.page import PageReading
from pyramid.workspace import atomic_write_json

WRITE_BATCH = 500       # page graphs written (and switched) together
MOST = 0.8              # a property's values this share of one narrower class than its range are said


class ReadFacts:
    name = "read"

    def extract(self, docs: list[Document], job: InstanceJob) -> None:
        """Each page's reading as its graph, written only where it changed."""
        got = job.readings() if job.readings is not None else \
            read_corpus(job.ws, job.layer.schema, job.embedder, docs, job.progress)
        task = job.progress.task("writing instances (read)", len(docs))
        batch: dict[str, list] = {}
        digests: dict[str, str] = {}

        def flush() -> None:  # the graphs switch together, then the state says so: a stop loses a batch at most
            if batch:
                job.layer.add_instances_many(batch)
                job.state.update(digests)
                atomic_write_json(job.state_path, job.state)
                batch.clear()
                digests.clear()

        for d in docs:
            reading = got.get(d.id)
            rows = instance_triples(reading, job.namespace) if reading is not None else []
            digest = "read:" + hashlib.sha256(repr(rows).encode()).hexdigest()[:16]
            job.report.chunks += 1
            if job.state.get(d.id) == digest:
                job.report.chunks_resumed += 1
            else:
                batch[d.id] = [ox.Triple(ox.NamedNode(s), ox.NamedNode(p), ox.Literal(o) if lit else ox.NamedNode(o))
                               for s, p, o, lit in rows]
                digests[d.id] = digest
                job.report.chunks_extracted += 1
                if len(batch) >= WRITE_BATCH:
                    flush()
            if reading is not None:
                job.report.facts += len(reading.facts)
                job.report.minted += len(reading.mentions) + 1
            job.report.documents += 1
            task.advance()
        flush()
        task.done()
        job.report.notes = range_notes(job.layer.schema, got.values())

    def outcome(self, r: ExtractReport) -> str:
        return (f"read: {r.chunks_extracted} page graphs written, {r.chunks_resumed} unchanged; "
                f"{r.facts} facts, {r.minted} instances named" + "".join(f"; {n}" for n in r.notes))


def range_notes(schema, readings) -> list[str]:
    """How the pages' objects sit against the schema's declared ranges: values of a property that are
    all of a narrower class than its range (works_for ranged on FACULTY, read as departments) are
    said, since a question about the range class will find them too (after reasoning)."""
    seen: dict[str, Counter] = {}
    for r in readings:
        for f in r.facts:
            if f.is_object and f.value_class:
                seen.setdefault(f.prop, Counter())[f.value_class] += 1
    notes = []
    for prop, counts in sorted(seen.items()):
        declared = schema.ranges_of(prop)
        top, n = counts.most_common(1)[0]
        if declared and top not in declared and n >= MOST * sum(counts.values()):
            notes.append(f"{schema.short(prop)}: {n} of {sum(counts.values())} values are "
                         f"{schema.short(top)}, its range says {', '.join(map(schema.short, declared))}")
    return notes


def instance_iri(namespace: str, name: str) -> str:
    """One IRI per name, whichever page names it ("Dr Ben Okafor" on his page and "Ben Okafor" in a
    subject's are one person): the name's key as a slug, with a digest when it is cut short."""
    key = name_key(name) or name.strip().lower()
    slug = "_".join(key.split())
    if len(slug) > MAX_SLUG:
        slug = slug[:MAX_SLUG] + "_" + hashlib.sha1(key.encode()).hexdigest()[:6]
    return namespace + slug


def instance_triples(reading: PageReading, namespace: str) -> list[tuple[str, str, str, bool]]:
    """(subject, predicate, object, object is a literal) for a page's reading: the entity typed with
    its class and labelled, each thing it points to typed and labelled (so the page's graph stands
    alone when another page is removed), and its facts."""
    def label(name: str) -> str:
        return strip_titles(name) or name

    def labels(iri: str, name: str) -> list[tuple[str, str, str, bool]]:
        # a name with a code is also named by its words alone ("CHEM 430: Organic Chemistry": "Organic Chemistry")
        return [(iri, RDFS_LABEL, x, True) for x in dict.fromkeys(filter(None, (label(name), without_code(name))))]

    subject = instance_iri(namespace, reading.entity)
    out = labels(subject, reading.entity)
    if reading.cls:
        out.append((subject, RDF_TYPE, reading.cls, False))
    for name, cls in reading.mentions.items():
        iri = instance_iri(namespace, name)
        out += labels(iri, name)
        if cls:
            out.append((iri, RDF_TYPE, cls, False))
    for f in reading.facts:
        if f.is_object and f.reverse:  # the named thing holds it to the page's entity
            out.append((instance_iri(namespace, f.value), f.prop, subject, False))
        elif f.is_object:
            out.append((subject, f.prop, instance_iri(namespace, f.value), False))
        else:
            out.append((subject, f.prop, " ".join(f.value.split()), True))
    return list(dict.fromkeys(out))


def register(registry: Registry) -> None:
    registry.register(Entry("read", ReadFacts, "the pages' schema-aware reading, no model (pages about one "
                            "entity each)", {"reads_pages": True}))
