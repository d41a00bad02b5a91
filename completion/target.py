"""Where applied proposals go: the `OntologyTarget` protocol and the statements it applies.

`apply` must be all-or-nothing and re-run reasoning: completion writes its schema version only after
it returns, so a failure leaves both the store and the history as they were. Statements become
pyoxigraph terms here (`Statement.triple`): a datatype property's value stays a literal with its
datatype even when it reads like a URL, an object property's value is an IRI. `schema()` is the whole
schema as sorted N-Triples lines written by pyoxigraph (blank nodes, language tags and datatypes kept),
so a version file parses back to the same graph and a diff lists exactly the statements that changed.

The workspace's ontology layer is adapted to the protocol in `completion.ontology_adapter`
(`LayerTarget`), the one implementation the library needs; the tests keep a plain-store one of their
own (tests/completion_fixtures.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import pyoxigraph as ox

from completion.types import OntologyView

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"


@dataclass(frozen=True)
class Statement:
    """One RDF triple; `o` is an IRI unless `literal` (then `datatype` is its type IRI, or None)."""

    s: str
    p: str
    o: str
    literal: bool = False
    datatype: str | None = None

    def triple(self) -> ox.Triple:
        if not self.literal:
            obj = ox.NamedNode(self.o)
        elif self.datatype and self.datatype != XSD + "string":
            obj = ox.Literal(self.o, datatype=ox.NamedNode(self.datatype))
        else:
            obj = ox.Literal(self.o)
        return ox.Triple(ox.NamedNode(self.s), ox.NamedNode(self.p), obj)


# Instances to add, per proposal id (the workspace keeps each proposal's instances in its own graph).
Instances = Mapping[str, Sequence[Statement]]


def nt_lines(triples: Iterable[ox.Triple]) -> list[str]:
    """Sorted, distinct N-Triples lines (pyoxigraph's own serialiser, so nothing is lost)."""
    text = ox.serialize(list(dict.fromkeys(triples)), format=ox.RdfFormat.N_TRIPLES).decode("utf-8")
    return sorted(line for line in text.splitlines() if line.strip())


class OntologyTarget(Protocol):
    def view(self) -> OntologyView: ...
    def schema(self) -> list[str]: ...
    def apply(self, schema: list[Statement], instances: Instances) -> dict[str, int]: ...
    def unapply(self, schema_lines: list[str], proposal_ids: list[str]) -> None: ...
