"""One answer row as a comparable key, shared by every side of the LUBM benchmark (the ontology
layer, rdflib, owlrl's closure in Oxigraph, the SPARQL-rule fixpoint): values as strings, unbound
as "", so answer sets from different engines compare as plain sets."""

from __future__ import annotations

from collections.abc import Iterable


def answer_key(row: Iterable[object]) -> tuple[str, ...]:
    return tuple("" if v is None else str(v) for v in row)
