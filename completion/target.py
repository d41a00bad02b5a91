"""Where applied proposals go: the `OntologyTarget` protocol, and one implementation over pyoxigraph.

`apply` must be all-or-nothing and re-run reasoning: completion writes its schema version only after
it returns, so a failure leaves both the store and the history as they were. `OxigraphTarget` does
this with one transactional `Store.extend` and one transactional SPARQL update (RDFS typing from
domains, ranges and subclasses); the workspace's ontology layer is adapted to the same protocol in
`completion.workspace_io`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

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

    def nt(self) -> str:
        """The N-Triples line (sorted lines of these make a readable, diffable schema)."""
        if not self.literal:
            obj = f"<{self.o}>"
        else:
            esc = self.o.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
            obj = f'"{esc}"' + (f"^^<{self.datatype}>" if self.datatype and self.datatype != XSD + "string" else "")
        return f"<{self.s}> <{self.p}> {obj} ."


class OntologyTarget(Protocol):
    def view(self) -> OntologyView: ...
    def schema(self) -> list[Statement]: ...
    def apply(self, schema: list[Statement], instances: list[Statement]) -> dict[str, int]: ...


SCHEMA_QUERY = PREFIXES + """
SELECT ?s ?p ?o WHERE {
  VALUES ?t { owl:Class rdfs:Class owl:DatatypeProperty owl:ObjectProperty rdf:Property }
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

    def schema(self) -> list[Statement]:
        out = []
        for sol in self.store.query(SCHEMA_QUERY):
            o = sol["o"]
            literal = type(o).__name__ == "Literal"
            out.append(Statement(sol["s"].value, sol["p"].value, o.value, literal,
                                 o.datatype.value if literal else None))
        return sorted(set(out), key=Statement.nt)

    def apply(self, schema: list[Statement], instances: list[Statement]) -> dict[str, int]:
        import pyoxigraph as ox

        def term(st: Statement) -> ox.Quad:
            obj = (ox.Literal(st.o, datatype=ox.NamedNode(st.datatype)) if st.literal and st.datatype
                   else ox.Literal(st.o) if st.literal else ox.NamedNode(st.o))
            return ox.Quad(ox.NamedNode(st.s), ox.NamedNode(st.p), obj, ox.DefaultGraph())

        before = len(self.store)
        self.store.extend([term(s) for s in [*schema, *instances]])
        added = len(self.store) - before
        self.store.update(_REASON)
        return {"added": added, "inferred": len(self.store) - before - added}
