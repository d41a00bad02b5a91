"""`polyrag kg export`: the knowledge graph in formats other tools read.

    csv      one row per triple: subject, relation, object, their types, canonical relation,
             document, chunk, confidence, properties (JSON)
    jsonl    one triple per line, as `kg import` reads it back (subject/relation/object + provenance)
    graphml  entities as nodes (name, type), triples as directed edges (relation, document, chunk);
             Gephi, yEd, networkx and Cytoscape open it
    rdf      N-Triples: entities urn:polyrag:kg:entity:<id> with rdfs:label and a type, relations
             urn:polyrag:kg:relation:<canonical> with their text as label; each triple's provenance as
             an RDF reification (rdf:Statement with prov:wasDerivedFrom its document)
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from urllib.parse import quote

from pyramid.errors import InputError
from pyramid.kg.model import Triple

FORMATS = ("csv", "jsonl", "graphml", "rdf")
NS = "urn:polyrag:kg:"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
PROV = "http://www.w3.org/ns/prov#"


def export(triples: Iterable[Triple], fmt: str) -> bytes:
    if fmt not in FORMATS:
        raise InputError(f"unknown format '{fmt}' (choose {', '.join(FORMATS)})")
    return {"csv": _csv, "jsonl": _jsonl, "graphml": _graphml, "rdf": _rdf}[fmt](list(triples))


def _csv(triples: list[Triple]) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["subject", "relation", "object", "subject_type", "object_type", "canonical", "doc_id", "chunk_id",
                "confidence", "properties"])
    for t in triples:
        w.writerow([t.subject.name, t.relation, t.object.name, t.subject.type, t.object.type, t.canonical,
                    t.doc_id or "", t.chunk_id or "", t.confidence, t.props_json() if t.properties else ""])
    return buf.getvalue().encode()


def _jsonl(triples: list[Triple]) -> bytes:
    lines = []
    for t in triples:
        rec = {"subject": t.subject.name, "relation": t.relation, "object": t.object.name}
        rec.update({k: v for k, v in (("subject_type", t.subject.type), ("object_type", t.object.type),
                                      ("doc_id", t.doc_id), ("chunk_id", t.chunk_id)) if v})
        if t.properties:
            rec["properties"] = t.properties
        lines.append(json.dumps(rec, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode() if lines else b""


def _graphml(triples: list[Triple]) -> bytes:
    ns = "http://graphml.graphdrawing.org/xmlns"
    ET.register_namespace("", ns)
    root = ET.Element(f"{{{ns}}}graphml")
    for key, target, name in (("n_name", "node", "name"), ("n_type", "node", "type"), ("e_rel", "edge", "relation"),
                              ("e_doc", "edge", "doc_id"), ("e_chunk", "edge", "chunk_id")):
        ET.SubElement(root, f"{{{ns}}}key", id=key, attrib={"for": target, "attr.name": name, "attr.type": "string"})
    graph = ET.SubElement(root, f"{{{ns}}}graph", id="kg", edgedefault="directed")
    seen = set()
    for t in triples:
        for e in (t.subject, t.object):
            if e.id not in seen:
                seen.add(e.id)
                node = ET.SubElement(graph, f"{{{ns}}}node", id=e.id)
                ET.SubElement(node, f"{{{ns}}}data", key="n_name").text = e.name
                ET.SubElement(node, f"{{{ns}}}data", key="n_type").text = e.type
    for t in triples:
        edge = ET.SubElement(graph, f"{{{ns}}}edge", id=t.id, source=t.subject.id, target=t.object.id)
        ET.SubElement(edge, f"{{{ns}}}data", key="e_rel").text = t.relation
        ET.SubElement(edge, f"{{{ns}}}data", key="e_doc").text = t.doc_id or ""
        ET.SubElement(edge, f"{{{ns}}}data", key="e_chunk").text = t.chunk_id or ""
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _rdf(triples: list[Triple]) -> bytes:
    import pyoxigraph as ox

    def node(kind: str, key: str) -> ox.NamedNode:
        return ox.NamedNode(NS + kind + ":" + quote(key, safe=""))

    label, rtype = ox.NamedNode(RDFS + "label"), ox.NamedNode(RDF + "type")
    out: dict[ox.Triple, None] = {}
    for t in triples:
        s, o, p = node("entity", t.subject.id), node("entity", t.object.id), node("relation", t.canonical)
        out[ox.Triple(s, p, o)] = None
        for e, n in ((t.subject, s), (t.object, o)):
            out[ox.Triple(n, label, ox.Literal(e.name))] = None
            if e.type:
                out[ox.Triple(n, rtype, node("type", e.type))] = None
        out[ox.Triple(p, label, ox.Literal(t.relation))] = None
        if t.doc_id:  # provenance of this one triple: a reified statement
            st = node("triple", t.id)
            out.update(dict.fromkeys([ox.Triple(st, rtype, ox.NamedNode(RDF + "Statement")),
                                      ox.Triple(st, ox.NamedNode(RDF + "subject"), s),
                                      ox.Triple(st, ox.NamedNode(RDF + "predicate"), p),
                                      ox.Triple(st, ox.NamedNode(RDF + "object"), o),
                                      ox.Triple(st, ox.NamedNode(PROV + "wasDerivedFrom"), node("doc", t.doc_id))]))
    return ox.serialize(list(out), format=ox.RdfFormat.N_TRIPLES)
