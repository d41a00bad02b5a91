"""`polyrag ontology export`: the store's graphs as one RDF document.

Parts: schema (the `schema` graph), instances (every imported and extracted graph), inferred (what
reasoning added), all. The result is a graph, so a triple held by two source graphs is written once.
Formats: Turtle (with the schema's prefixes), N-Triples, JSON-LD (through rdflib), N-Quads (graph
names kept, for moving a whole store).
"""

from __future__ import annotations

from typing import Literal

import pyoxigraph as ox

from pyramid.errors import InputError
from pyramid.ontology.store import INFERRED, SCHEMA

Part = Literal["schema", "instances", "inferred", "all"]
FORMATS = ("turtle", "ntriples", "jsonld", "nquads")


def graphs_of(part: str, names: list[str]) -> list[str]:
    if part == "schema":
        return [n for n in names if n == SCHEMA]
    if part == "inferred":
        return [n for n in names if n == INFERRED]
    if part == "instances":
        return [n for n in names if n not in (SCHEMA, INFERRED)]
    if part == "all":
        return list(names)
    raise InputError(f"unknown part '{part}' (choose schema, instances, inferred or all)")


def export(layer, part: str = "all", fmt: str = "turtle") -> bytes:
    """The chosen graphs of `layer` (an OntologyLayer) as `fmt`."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
    names = graphs_of(part, sorted(layer.store.graphs()))
    quads = list(layer.store.quads(names)) if names else []
    if fmt == "nquads":
        return ox.serialize(quads, format=ox.RdfFormat.N_QUADS)
    triples = list(dict.fromkeys(ox.Triple(q.subject, q.predicate, q.object) for q in quads))
    if fmt == "turtle":
        return ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=dict(layer.prefixes or {}))
    data = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)
    if fmt == "ntriples":
        return data
    import rdflib

    g = rdflib.Graph()
    g.parse(data=data.decode(), format="nt")
    return g.serialize(format="json-ld").encode()
