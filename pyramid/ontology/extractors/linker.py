"""Name → IRI of an existing instance of a class (the label index, then embeddings), else a new IRI:
how the chunk extractors link what they read to the store."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.ontology.extractors.base import RDF_TYPE, RDFS_LABEL, Fact, slug
from pyramid.ontology.labels import LabelIndex, fold_words


class Linker:
    """Name → IRI of an existing instance of the class (label index, then embeddings), else a new IRI."""

    def __init__(self, index: LabelIndex, embedder: Embedder, threshold: float, namespace: str) -> None:
        self.index, self.embedder, self.threshold, self.namespace = index, embedder, threshold, namespace
        self._vectors: dict[str, tuple[list[str], np.ndarray]] = {}
        self.minted: dict[tuple[str, str], str] = {}  # (class, folded name) → IRI minted in this run

    def _class_vectors(self, cls_iri: str) -> tuple[list[str], np.ndarray]:
        if cls_iri not in self._vectors:
            entries = [e for e in self.index.entries if cls_iri in e.classes and not e.acronym]
            iris = [e.iri for e in entries]
            matrix = self.embedder.embed([e.surface for e in entries]) if entries else np.zeros((0, 1), np.float32)
            self._vectors[cls_iri] = (iris, matrix)
        return self._vectors[cls_iri]

    def recall(self, facts: Iterable[Fact]) -> None:
        """Know again the names a stopped run minted: their chunks' facts are journalled but not yet in the
        store (nor in the label index), and without them a resumed run mints a second IRI for a person
        one chunk typed Professor and a later one AcademicStaff."""
        known = {e.iri for e in self.index.entries}
        types: dict[str, str] = {}
        labels: dict[str, str] = {}
        for f in facts:
            if f.property == RDF_TYPE:
                types.setdefault(f.subject, f.value)
            elif f.property == RDFS_LABEL:
                labels.setdefault(f.subject, f.value)
        for iri, cls in types.items():
            if iri in labels and iri not in known:
                self.minted.setdefault((cls, " ".join(fold_words(labels[iri]))), iri)

    def link(self, name: str, cls_iri: str) -> tuple[str, bool]:
        """(IRI, True if it is an existing instance)."""
        hits = self.index.link(name, classes=[cls_iri], limit=1)
        if hits and hits[0].score >= self.threshold:
            return hits[0].iri, True
        key = (cls_iri, " ".join(fold_words(name)))
        if key in self.minted:
            return self.minted[key], False
        iris, matrix = self._class_vectors(cls_iri)
        if iris:
            sims = np.dot(matrix, self.embedder.embed_one(name, kind="document"))
            best = int(np.argmax(sims))
            if sims[best] >= self.threshold:
                return iris[best], True
        cls_name = re.split(r"[#/]", cls_iri)[-1].lower()
        digest = hashlib.sha1(f"{cls_iri}\x00{key[1]}".encode()).hexdigest()[:6]
        iri = f"{self.namespace}{cls_name}_{slug(name)}_{digest}"
        self.minted[key] = iri
        return iri, False
