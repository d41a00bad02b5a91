"""Reading completion's typed inputs from RDF and KG sources.

Everything goes through a `Select` function (SPARQL SELECT text → rows of {var: value}), so the same
code reads a pyoxigraph `Store`, an RDF file, or the workspace's ontology layer. KG triples come from
a JSON list of {sub, rel, obj} (the PolyU release format) or from the KG layer.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from completion.names import local_name
from completion.types import ClassAttribute, KGTriple, OntologyInstance, OntologyView
from pyramid.errors import InputError

Row = dict[str, str]
Select = Callable[[str], list[Row]]

PREFIXES = """PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
"""

_PROPERTIES = PREFIXES + """
SELECT ?p ?kind ?d ?r ?pl ?dl WHERE {
  VALUES ?kind { owl:DatatypeProperty owl:ObjectProperty }
  ?p a ?kind .
  OPTIONAL { ?p rdfs:domain ?d . OPTIONAL { ?d rdfs:label ?dl } }
  OPTIONAL { ?p rdfs:range ?r }
  OPTIONAL { ?p rdfs:label ?pl }
}"""

_CLASSES = PREFIXES + "SELECT DISTINCT ?c WHERE { VALUES ?t { owl:Class rdfs:Class } ?c a ?t . FILTER(isIRI(?c)) }"

# Domain from usage for properties the schema declares without one: the class most subjects have.
_USAGE = PREFIXES + """
SELECT ?p ?c (COUNT(?s) AS ?n) WHERE {
  VALUES ?kind { owl:DatatypeProperty owl:ObjectProperty }
  ?p a ?kind . FILTER NOT EXISTS { ?p rdfs:domain ?any }
  ?s ?p ?o . ?s a ?c . FILTER(isIRI(?c))
} GROUP BY ?p ?c"""

_INSTANCES = PREFIXES + """
SELECT ?s ?c ?l WHERE {
  ?s a ?c . FILTER(isIRI(?s) && isIRI(?c) && ?c != owl:Class && ?c != rdfs:Class
                   && ?c != owl:DatatypeProperty && ?c != owl:ObjectProperty && ?c != owl:NamedIndividual)
  ?s rdfs:label ?l .
}"""

_SUBCLASSES = PREFIXES + "SELECT DISTINCT ?c ?d WHERE { ?c rdfs:subClassOf+ ?d . FILTER(isIRI(?c) && isIRI(?d)) }"

_FACTS = PREFIXES + """
SELECT ?s ?p ?v WHERE {
  VALUES ?kind { owl:DatatypeProperty owl:ObjectProperty }
  ?p a ?kind . ?s ?p ?o . FILTER(isIRI(?s))
  OPTIONAL { ?o rdfs:label ?ol }
  BIND(COALESCE(?ol, ?o) AS ?v)
}"""

_BUILTIN = ("http://www.w3.org/2002/07/owl#", "http://www.w3.org/2000/01/rdf-schema#",
            "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2001/XMLSchema#")


def oxigraph_select(store) -> Select:
    """A `Select` over a pyoxigraph Store (values as plain strings; IRIs without brackets)."""

    def run(query: str) -> list[Row]:
        result = store.query(query)
        names = [v.value for v in result.variables]
        return [{n: sol[n].value for n in names if sol[n] is not None} for sol in result]

    return run


def base_namespace(iris: list[str]) -> str:
    spaces = Counter(i[: len(i) - len(local_name(i))] for i in iris if not i.startswith(_BUILTIN))
    return spaces.most_common(1)[0][0] if spaces else "http://example.org/"


def read_view(select: Select) -> OntologyView:
    """Class-attribute pairs, classes and labelled individuals of an ontology."""
    usage: dict[str, Counter[str]] = {}
    for row in select(_USAGE):
        usage.setdefault(row["p"], Counter())[row["c"]] += int(row["n"])
    pairs: list[ClassAttribute] = []
    for row in select(_PROPERTIES):
        p = row["p"]
        domain = row.get("d") or (usage[p].most_common(1)[0][0] if p in usage else None)
        if domain is None or domain.startswith(_BUILTIN):
            continue
        kind = "object" if row["kind"].endswith("ObjectProperty") else "datatype"
        pairs.append(ClassAttribute(cls=domain, attribute=p, kind=kind, range=row.get("r"),
                                    cls_label=row.get("dl", ""), attribute_label=row.get("pl", "")))
    pairs = sorted(dict.fromkeys(pairs), key=lambda p: (p.cls, p.attribute))
    classes = [r["c"] for r in select(_CLASSES) if not r["c"].startswith(_BUILTIN)]
    known = set(classes)
    instances = sorted(_most_specific([OntologyInstance(r["s"], r["c"], r["l"]) for r in select(_INSTANCES)
                                       if r["c"] in known], select),
                       key=lambda i: (i.iri, i.cls, i.label))
    facts = tuple((r["s"], r["p"], r["v"]) for r in select(_FACTS) if "v" in r)
    return OntologyView(tuple(pairs), tuple(instances), tuple(classes),
                        base_namespace(classes + [p.attribute for p in pairs]), facts)


def _most_specific(instances: list[OntologyInstance], select: Select) -> list[OntologyInstance]:
    """Each individual under its most specific classes only. A reasoner types a DEPARTMENT as a FACULTY
    too when DEPARTMENT ⊑ FACULTY; kept, both classes would make its name ambiguous to the linker."""
    above = {(r["c"], r["d"]) for r in select(_SUBCLASSES)}
    if not above:
        return instances
    classes: dict[str, set[str]] = {}
    for inst in instances:
        classes.setdefault(inst.iri, set()).add(inst.cls)

    def implied(inst: OntologyInstance) -> bool:   # a strict superclass of another of its classes
        return any((c, inst.cls) in above and (inst.cls, c) not in above for c in classes[inst.iri])

    return [i for i in instances if not implied(i)]


def load_rdf_store(path: Path):
    """An in-memory pyoxigraph Store with the file loaded (format from the extension)."""
    import pyoxigraph as ox

    fmt = ox.RdfFormat.from_extension(Path(path).suffix.lstrip(".")) or ox.RdfFormat.TURTLE
    store = ox.Store()
    try:
        store.bulk_load(path=str(path), format=fmt)
    except (OSError, SyntaxError, ValueError) as err:
        raise InputError(f"cannot load RDF ({err})", path=path) from None
    return store


def read_kg_json(path: Path) -> list[KGTriple]:
    """Triples from a JSON list of {"sub", "rel", "obj"} (+ optional "id", "chunk_id", "doc_id")."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read KG triples ({err})", path=path) from None
    if not isinstance(data, list):
        raise InputError("expected a JSON list of {sub, rel, obj} objects", path=path)
    out: list[KGTriple] = []
    for i, item in enumerate(data):
        try:
            out.append(KGTriple(id=str(item.get("id", f"t{i}")), subject=str(item["sub"]),
                                relation=str(item["rel"]), object=str(item["obj"]),
                                chunk_id=item.get("chunk_id"), doc_id=item.get("doc_id")))
        except (KeyError, AttributeError):
            raise InputError(f"item {i} is not an object with sub, rel and obj", path=path) from None
    return out
