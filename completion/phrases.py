"""'subject relation' phrases of both layers, in one format so they can share one embedding space.

Ontology: a class-attribute pair (STAFF, has_research_interest) reads 'staff has research interest'.
KG: a triple (Prof. Chih-yung WEN, has research interests in, aerodynamics) reads 'staff has research
interests in' when its subject is linked to an ontology class, and 'Prof. Chih-yung WEN has research
interests in' otherwise. Generalising the subject is what lets the KG's many triples about many
people pile up on a few phrases, so that a KG density and an ontology density can be compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from completion.linking import Typing
from completion.names import humanise
from completion.types import ClassAttribute, KGTriple, OntologyView


def _clean(text: str) -> str:
    return " ".join(text.split())


def pair_phrase(pair: ClassAttribute) -> str:
    return f"{humanise(pair.cls, pair.cls_label)} {humanise(pair.attribute, pair.attribute_label)}"


def ontology_phrases(pairs: Sequence[ClassAttribute]) -> list[str]:
    """One phrase per distinct class-attribute pair, in input order."""
    return list(dict.fromkeys(pair_phrase(p) for p in pairs))


@dataclass
class KGPhrases:
    """Distinct KG phrases, how many triples read each, and which phrase each triple reads."""

    texts: list[str]
    counts: np.ndarray            # (n_phrases,) triples per phrase
    of_triple: np.ndarray         # (n_triples,) phrase index of each triple
    typed_triples: int            # triples whose subject is linked to an ontology class
    typed_subjects: int
    subjects: int

    def members(self) -> list[np.ndarray]:
        """Triple indices per phrase."""
        order = np.argsort(self.of_triple, kind="stable")
        bounds = np.cumsum(np.bincount(self.of_triple, minlength=len(self.texts)))[:-1]
        return np.split(order, bounds)


def class_words(view: OntologyView | None, cls: str) -> str:
    label = ""
    if view is not None:
        label = next((p.cls_label for p in view.pairs if p.cls == cls and p.cls_label), "")
    return humanise(cls, label)


def kg_phrases(triples: Sequence[KGTriple], typing: Typing, view: OntologyView | None = None) -> KGPhrases:
    index: dict[str, int] = {}
    of_triple = np.empty(len(triples), dtype=np.int64)
    words: dict[str, str] = {}
    typed = 0
    for i, t in enumerate(triples):
        cls = typing.cls(t.subject)
        if cls is not None:
            typed += 1
            subject = words.get(cls) or words.setdefault(cls, class_words(view, cls))
        else:
            subject = _clean(t.subject)
        text = f"{subject} {_clean(t.relation)}"
        of_triple[i] = index.setdefault(text, len(index))
    counts = np.bincount(of_triple, minlength=len(index)) if len(triples) else np.zeros(0, np.int64)
    subjects = {t.subject for t in triples}
    return KGPhrases(texts=list(index), counts=counts, of_triple=of_triple, typed_triples=typed,
                     typed_subjects=sum(1 for s in subjects if typing.cls(s)), subjects=len(subjects))
