"""Query results in the W3C formats (SPARQL 1.1 Query Results JSON, XML, CSV and TSV; CONSTRUCT and
DESCRIBE as Turtle, N-Triples or JSON-LD), from a typed `QueryResult` (`OntologyLayer.query(...,
typed=True)`: every value a W3C JSON binding). Shared by `polyrag sparql --format` and the server's
SPARQL 1.1 Protocol endpoint, which picks a format by the request's Accept header (`negotiate`).
"""

from __future__ import annotations

import csv
import io
import json
from xml.sax.saxutils import escape, quoteattr

from pyramid.errors import InputError
from pyramid.ontology.query_worker import QueryResult

# format → media type; the first of each kind is its default
TABLE_FORMATS = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
                 "csv": "text/csv", "tsv": "text/tab-separated-values"}
GRAPH_FORMATS = {"turtle": "text/turtle", "ntriples": "application/n-triples", "jsonld": "application/ld+json"}
_ALIASES = {"application/json": "json", "text/xml": "xml", "application/xml": "xml",
            "text/plain": "ntriples", "application/x-turtle": "turtle"}
FORMATS = {**TABLE_FORMATS, **GRAPH_FORMATS}


def is_graph(result: QueryResult) -> bool:
    return result.kind == "CONSTRUCT"


def check_format(fmt: str, result: QueryResult) -> None:
    allowed = GRAPH_FORMATS if is_graph(result) else TABLE_FORMATS
    if fmt not in allowed:
        what = "CONSTRUCT/DESCRIBE" if is_graph(result) else "SELECT/ASK"
        raise InputError(f"format '{fmt}' does not fit a {what} result (choose {', '.join(allowed)})")


def negotiate(accept: str | None, *, graph: bool) -> str:
    """The format for an Accept header (q-values honoured; */* and no header → the kind's default)."""
    allowed = GRAPH_FORMATS if graph else TABLE_FORMATS
    by_type = {mt: f for f, mt in allowed.items()} | {mt: f for mt, f in _ALIASES.items() if f in allowed}
    ranked = []
    for i, part in enumerate((accept or "").split(",")):
        fields = [x.strip() for x in part.split(";")]
        q = 1.0
        for f in fields[1:]:
            if f.startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        ranked.append((-q, i, fields[0].lower()))
    for _, _, media in sorted(ranked):
        if media in by_type:
            return by_type[media]
        if media in ("*/*", "application/*", "text/*", ""):
            return next(iter(allowed))
    return next(iter(allowed)) if not accept else ""


def serialize(result: QueryResult, fmt: str) -> bytes:
    """`result` (typed) as `fmt`; InputError when the format does not fit the kind of result."""
    check_format(fmt, result)
    if is_graph(result):
        return _graph(result, fmt)
    return {"json": _json, "xml": _xml, "csv": _csv, "tsv": _tsv}[fmt](result)


def _json(r: QueryResult) -> bytes:
    if r.kind == "ASK":
        body = {"head": {}, "boolean": bool(r.rows[0]["ask"])}
    else:
        body = {"head": {"vars": r.variables},
                "results": {"bindings": [{k: v for k, v in row.items() if v is not None} for row in r.rows]}}
    return json.dumps(body, ensure_ascii=False).encode()


def _xml(r: QueryResult) -> bytes:
    out = ['<?xml version="1.0"?>', '<sparql xmlns="http://www.w3.org/2005/sparql-results#">', "<head>"]
    if r.kind == "ASK":
        out += ["</head>", f"<boolean>{'true' if r.rows[0]['ask'] else 'false'}</boolean>", "</sparql>"]
        return "\n".join(out).encode()
    out += [f"<variable name={quoteattr(v)}/>" for v in r.variables] + ["</head>", "<results>"]
    for row in r.rows:
        out.append("<result>")
        for name, b in row.items():
            if b is None:
                continue
            if b["type"] == "uri":
                term = f"<uri>{escape(b['value'])}</uri>"
            elif b["type"] == "bnode":
                term = f"<bnode>{escape(b['value'])}</bnode>"
            else:
                attrs = (f" xml:lang={quoteattr(b['xml:lang'])}" if "xml:lang" in b
                         else f" datatype={quoteattr(b['datatype'])}" if "datatype" in b else "")
                term = f"<literal{attrs}>{escape(b['value'])}</literal>"
            out.append(f"<binding name={quoteattr(name)}>{term}</binding>")
        out.append("</result>")
    out += ["</results>", "</sparql>"]
    return "\n".join(out).encode()


def _csv(r: QueryResult) -> bytes:
    """SPARQL 1.1 CSV: plain values (IRIs and literals alike), CRLF line ends."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")
    if r.kind == "ASK":
        w.writerows([["_askResult"], ["true" if r.rows[0]["ask"] else "false"]])
    else:
        w.writerow(r.variables)
        for row in r.rows:
            w.writerow(["" if row.get(v) is None else (("_:" if row[v]["type"] == "bnode" else "") + row[v]["value"])
                        for v in r.variables])
    return buf.getvalue().encode()


def _tsv_term(b: dict[str, str] | None) -> str:
    """SPARQL 1.1 TSV: terms in Turtle syntax (<iri>, "literal"^^<dt>, "text"@lang, _:b)."""
    if b is None:
        return ""
    if b["type"] == "uri":
        return f"<{b['value']}>"
    if b["type"] == "bnode":
        return f"_:{b['value']}"
    text = json.dumps(b["value"], ensure_ascii=False)  # quotes and escapes \t \n \" \\ as TSV needs
    if "xml:lang" in b:
        return f"{text}@{b['xml:lang']}"
    return f"{text}^^<{b['datatype']}>" if "datatype" in b else text


def _tsv(r: QueryResult) -> bytes:
    if r.kind == "ASK":
        return f"?_askResult\n{'true' if r.rows[0]['ask'] else 'false'}\n".encode()
    lines = ["\t".join("?" + v for v in r.variables)]
    lines += ["\t".join(_tsv_term(row.get(v)) for v in r.variables) for row in r.rows]
    return ("\n".join(lines) + "\n").encode()


def _graph(r: QueryResult, fmt: str) -> bytes:
    import pyoxigraph as ox

    def term(b: dict[str, str]):
        if b["type"] == "uri":
            return ox.NamedNode(b["value"])
        if b["type"] == "bnode":
            return ox.BlankNode(b["value"])
        if "xml:lang" in b:
            return ox.Literal(b["value"], language=b["xml:lang"])
        return ox.Literal(b["value"], datatype=ox.NamedNode(b["datatype"])) if "datatype" in b else ox.Literal(b["value"])

    triples = list(dict.fromkeys(ox.Triple(term(row["subject"]), term(row["predicate"]), term(row["object"]))
                                 for row in r.rows))  # a graph is a set: a triple held in two graphs once
    if fmt in ("turtle", "ntriples"):
        return ox.serialize(triples, format=ox.RdfFormat.TURTLE if fmt == "turtle" else ox.RdfFormat.N_TRIPLES)
    import rdflib

    g = rdflib.Graph()
    g.parse(data=ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode(), format="nt")
    return g.serialize(format="json-ld").encode()
