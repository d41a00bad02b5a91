"""Where applied proposals go: the `OntologyTarget` protocol, and one implementation over pyoxigraph.

`apply` must be all-or-nothing and re-run reasoning: completion writes its schema version only after
it returns, so a failure leaves both the store and the history as they were. Statements become
pyoxigraph terms here (`Statement.triple`): a datatype property's value stays a literal with its
datatype even when it reads like a URL, an object property's value is an IRI. `schema()` is the whole
schema as sorted N-Triples lines written by pyoxigraph (blank nodes, language tags and datatypes kept),
so a version file parses back to the same graph and a diff lists exactly the statements that changed.

`OxigraphTarget` (a plain store holding schema and instances in one graph) applies with one
transactional `Store.extend` and one transactional SPARQL update (RDFS typing from domains, ranges and
subclasses); the workspace's ontology layer is adapted to the same protocol in
`completion.ontology_adapter`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import pyoxigraph as ox

from completion.sources import PREFIXES, oxigraph_select, read_view
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


# The schema part of a store that mixes schema and instances in one graph: statements about declared
# terms, the ontology header and restrictions (a workspace keeps its schema in a graph of its own).
SCHEMA_QUERY = PREFIXES + """
SELECT ?s ?p ?o WHERE {
  VALUES ?t { owl:Class rdfs:Class owl:DatatypeProperty owl:ObjectProperty owl:AnnotationProperty rdf:Property
              owl:Ontology owl:Restriction }
  ?s a ?t . ?s ?p ?o .
}"""

# RDFS entailment of typing (rdfs2, rdfs3, rdfs9), enough for new attributes' domains and ranges and
# new classes; the ontology layer's own reasoner replaces this when completion runs on a workspace.
_REASON = PREFIXES + """
INSERT { ?s a ?d } WHERE { ?p rdfs:domain ?d . ?s ?p ?o . FILTER NOT EXISTS { ?s a ?d } } ;
INSERT { ?o a ?r } WHERE { ?p rdfs:range ?r . ?p a owl:ObjectProperty . ?s ?p ?o . FILTER(isIRI(?o))
                           FILTER NOT EXISTS { ?o a ?r } } ;
INSERT { ?x a ?super } WHERE { ?c rdfs:subClassOf+ ?super . ?x a ?c . FILTER(isIRI(?super))
                               FILTER NOT EXISTS { ?x a ?super } }
"""


class OxigraphTarget:
    """An ontology held in a pyoxigraph `Store` (in memory or on disk)."""

    def __init__(self, store) -> None:
        self.store = store

    def view(self) -> OntologyView:
        return read_view(oxigraph_select(self.store))

    def schema(self) -> list[str]:
        return nt_lines(ox.Triple(sol["s"], sol["p"], sol["o"]) for sol in self.store.query(SCHEMA_QUERY))

    def apply(self, schema: list[Statement], instances: Instances) -> dict[str, int]:
        statements = [*schema, *(st for group in instances.values() for st in group)]
        before = len(self.store)
        self.store.extend([ox.Quad(*st.triple(), ox.DefaultGraph()) for st in statements])
        added = len(self.store) - before
        self.store.update(_REASON)
        return {"added": added, "inferred": len(self.store) - before - added}
