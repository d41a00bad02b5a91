"""A small pyramid for completion tests: a STAFF/DEPARTMENT ontology and a KG about the same people.

The KG says, for every staff member, things the ontology has an attribute for (position, works for)
and things it has none for (research interests, e-mail), under several wordings each, plus a few
triples about untyped subjects. Names are written differently in the two layers ('Prof. Ada CHAN'
in the KG, 'Ada Chan' in the ontology), as in the PolyU data. `OxigraphTarget` applies proposals to
a plain Oxigraph store, for tests without a workspace.
"""

from __future__ import annotations

import pyoxigraph as ox

from completion.sources import PREFIXES as SPARQL_PREFIXES
from completion.sources import oxigraph_select, read_view
from completion.target import Instances, Statement, nt_lines
from completion.types import KGTriple, OntologyView

BASE = "http://example.org/"
FIRST = ["Ada", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kay", "Lou", "Max", "Ned",
         "Oli", "Pam", "Quin", "Rae", "Sam", "Tia"]
LAST = ["Chan", "Wong", "Lee", "Lam", "Ho", "Ng", "Tang", "Yip", "Kwok", "Lau"]
TOPICS = ["machine learning", "optics", "fluid mechanics", "tourism economics", "nursing education",
          "urban design", "corpus linguistics", "battery materials", "supply chains", "rehabilitation"]
POSITIONS = ["Professor", "Associate Professor", "Assistant Professor"]
DEPTS = {"COMP": "Department of Computing", "SD": "School of Design"}


def staff() -> list[tuple[str, str, str, str]]:
    """(local id, ontology label, KG name, department key) for 20 people."""
    out = []
    for i, first in enumerate(FIRST):
        last = LAST[i % len(LAST)]
        title = ["Prof.", "Dr", "Ir Prof."][i % 3]
        out.append((f"S{i:02d}", f"{first} {last}", f"{title} {first} {last.upper()}", "COMP" if i % 2 else "SD"))
    return out


PREFIXES = [f"@prefix base: <{BASE}> .", "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", ""]
SCHEMA = ["base:STAFF a owl:Class .", "base:DEPARTMENT a owl:Class .",
          "base:has_name a owl:DatatypeProperty ; rdfs:domain base:STAFF .",
          "base:has_position a owl:DatatypeProperty ; rdfs:domain base:STAFF .",
          "base:works_for a owl:ObjectProperty ; rdfs:domain base:STAFF ; rdfs:range base:DEPARTMENT .", ""]
# What a curated schema also holds and a schema rewrite tends to lose: the ontology header, a typed
# literal, language-tagged text, an owl:Restriction on a blank node.
SCHEMA_EXTRAS = ['base:staff-ontology a owl:Ontology ; owl:versionInfo "2.5"^^xsd:decimal ;',
                 '    rdfs:comment "Staff of two departments"@en .',
                 'base:has_position rdfs:comment "the position held"@en , "職位"@zh .',
                 "base:STAFF rdfs:subClassOf [ a owl:Restriction ; owl:onProperty base:works_for ;",
                 "                             owl:someValuesFrom base:DEPARTMENT ] .", ""]


def instance_lines() -> list[str]:
    lines = [f'base:{key} a base:DEPARTMENT ; rdfs:label "{label}" .' for key, label in DEPTS.items()]
    for i, (sid, label, _, dept) in enumerate(staff()):
        lines.append(f'base:{sid} a base:STAFF ; rdfs:label "{label}" ; base:has_name "{label}" ; '
                     f'base:has_position "{POSITIONS[i % 3]}" ; base:works_for base:{dept} .')
    return lines


def ontology_ttl() -> str:
    return "\n".join(PREFIXES + SCHEMA + instance_lines()) + "\n"


def schema_ttl() -> str:
    """The schema alone, with the extras (for `polyrag ontology load-schema`)."""
    return "\n".join(PREFIXES + SCHEMA + SCHEMA_EXTRAS)


def instances_ttl() -> str:
    """The individuals alone (for `polyrag ontology import`)."""
    return "\n".join(PREFIXES + instance_lines()) + "\n"


def kg_triples() -> list[KGTriple]:
    rows: list[tuple[str, str, str]] = []
    interest = ["has research interests in", "has research interest in", "research interests include"]
    email = ["has email address", "has email", "has an email address"]
    for i, (_sid, label, name, dept) in enumerate(staff()):
        for j in range(2):
            rows.append((name, interest[(i + j) % 3], TOPICS[(i + 3 * j) % len(TOPICS)]))
        rows.append((name, email[i % 3], f"{label.split()[0].lower()}@example.edu"))
        rows.append((name, "is a", POSITIONS[i % 3]))
        rows.append((name, "is a staff member in", DEPTS[dept]))
    rows += [("PolyU", "is located in", "Hung Hom"), ("The Hong Kong Polytechnic University", "is located in",
             "Kowloon"), ("Hung Hom", "is a district of", "Kowloon"), ("PolyU Library", "opens at", "8 am")]
    return [KGTriple(f"t{n:03d}", s, r, o, chunk_id=f"c{n // 5}", doc_id=f"d{n // 25}")
            for n, (s, r, o) in enumerate(rows)]


WEBSITES = ["has personal website", "has a personal website", "personal website is"]


def website_triples(start: int = 1000) -> list[KGTriple]:
    """Twelve staff members' home pages: values that read like URLs but are text (a datatype attribute)."""
    return [KGTriple(f"t{start + i}", name, WEBSITES[i % 3], f"https://example.edu/~{label.split()[0].lower()}",
                     chunk_id=f"c{200 + i}", doc_id="d9")
            for i, (_, label, name, _) in enumerate(staff()[:12])]


def kg_json_rows(triples: list[KGTriple]) -> list[dict[str, str]]:
    """Triples in the `polyrag kg import` JSON format."""
    return [{"sub": t.subject, "rel": t.relation, "obj": t.object, "chunk_id": t.chunk_id, "doc_id": t.doc_id}
            for t in triples]


# --------------------------------------------------------------------------- a plain-store target
# The schema part of a store that mixes schema and instances in one graph: statements about declared
# terms, the ontology header and restrictions (a workspace keeps its schema in a graph of its own).
SCHEMA_QUERY = SPARQL_PREFIXES + """
SELECT ?s ?p ?o WHERE {
  VALUES ?t { owl:Class rdfs:Class owl:DatatypeProperty owl:ObjectProperty owl:AnnotationProperty rdf:Property
              owl:Ontology owl:Restriction }
  ?s a ?t . ?s ?p ?o .
}"""

# RDFS entailment of typing (rdfs2, rdfs3, rdfs9), enough for new attributes' domains and ranges and
# new classes (on a workspace, the ontology layer's own reasoner does this).
_REASON = SPARQL_PREFIXES + """
INSERT { ?s a ?d } WHERE { ?p rdfs:domain ?d . ?s ?p ?o . FILTER NOT EXISTS { ?s a ?d } } ;
INSERT { ?o a ?r } WHERE { ?p rdfs:range ?r . ?p a owl:ObjectProperty . ?s ?p ?o . FILTER(isIRI(?o))
                           FILTER NOT EXISTS { ?o a ?r } } ;
INSERT { ?x a ?super } WHERE { ?c rdfs:subClassOf+ ?super . ?x a ?c . FILTER(isIRI(?super))
                               FILTER NOT EXISTS { ?x a ?super } }
"""


class OxigraphTarget:
    """`completion.target.OntologyTarget` over a plain pyoxigraph `Store` holding schema and instances
    in one graph, for tests that need no workspace: one transactional `Store.extend`, then one
    transactional SPARQL update for the RDFS typing."""

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
