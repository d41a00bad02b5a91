"""`ontology.extract_method = auto`: each document by its shape (pyramid.reading.shape) —
a page about one entity read against the schema (`read`, no model), any other text by sentence
extraction (`grounded`, the model for close calls only). So a site's pages build fast and a news item
or a story is still read sentence by sentence. The KG takes the same split (kg.mode auto → by-shape).
"""

from __future__ import annotations

from dataclasses import replace

from pyramid.corpus import Document
from pyramid.ontology.extractors.base import ExtractReport, InstanceJob
from pyramid.ontology.extractors.grounded import GroundedFacts
from pyramid.ontology.extractors.read import ReadFacts
from pyramid.plugins import Entry, Registry
from pyramid.reading.corpus import read_corpus
from pyramid.reading.shape import pages_about_one_entity


class FactsByShape:
    name = "auto"

    def extract(self, docs: list[Document], job: InstanceJob) -> None:
        readings = job.readings() if job.readings is not None else \
            read_corpus(job.ws, job.layer.schema, job.embedder, docs, job.progress)
        pages = pages_about_one_entity(docs, readings)
        if pages:
            ReadFacts().extract([d for d in docs if d.id in pages], replace(job, readings=lambda: readings))
        notes = list(job.report.notes)
        if len(pages) < len(docs):
            GroundedFacts().extract([d for d in docs if d.id not in pages], job)
        job.report.notes = [f"{len(pages)} pages read, {len(docs) - len(pages)} documents by sentence", *notes]

    def outcome(self, r: ExtractReport) -> str:
        return (f"auto: {r.documents} documents, {r.facts} facts ({r.linked} linked, {r.minted} instances named)"
                + "".join(f"; {n}" for n in r.notes))


def register(registry: Registry) -> None:
    registry.register(Entry("auto", FactsByShape, "each document by its shape: pages about one entity read "
                            "against the schema (read), other text by sentence (grounded)", {"reads_pages": True}))
