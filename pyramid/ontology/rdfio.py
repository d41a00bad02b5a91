"""Reading RDF files: format detection, parsing with positions in errors, term conversion.

`read_rdf(path)` parses Turtle, N-Triples, N-Quads, TriG, RDF/XML or JSON-LD with pyoxigraph's
(Rust) parsers and turns every syntax problem into one `InputError` naming the file, line and column.
pyoxigraph reports positions for the text formats but not for RDF/XML, so a failed RDF/XML file is
parsed again by rdflib (xml.sax), whose errors carry line and column.

`to_python(term)` is the one conversion from RDF terms to plain Python values used by every read API:
IRIs as strings, typed literals as int/float/bool/str, blank nodes as "_:id".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pyramid.errors import InputError

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = ox.NamedNode(RDF + "type")
RDFS_LABEL = ox.NamedNode(RDFS + "label")

STANDARD_PREFIXES = {"rdf": RDF, "rdfs": RDFS, "owl": OWL, "xsd": XSD}

_BY_EXTENSION = {
    ".ttl": ox.RdfFormat.TURTLE, ".turtle": ox.RdfFormat.TURTLE, ".n3": ox.RdfFormat.N3,
    ".nt": ox.RdfFormat.N_TRIPLES, ".ntriples": ox.RdfFormat.N_TRIPLES, ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG, ".jsonld": ox.RdfFormat.JSON_LD, ".json": ox.RdfFormat.JSON_LD,
    ".rdf": ox.RdfFormat.RDF_XML, ".xml": ox.RdfFormat.RDF_XML, ".owl": ox.RdfFormat.RDF_XML,
}
# Extensions that say little about the syntax inside (".owl" files are RDF/XML, Turtle or OWL/XML).
_SNIFFED = {".owl", ".rdf", ".xml", ""}
_XML_START = re.compile(rb"^\s*(<\?xml|<!--|<!DOCTYPE|<[A-Za-z_][\w.-]*(:[\w.-]+)?[\s/>])")


@dataclass
class RdfFile:
    """A parsed file: its quads (triples in the default graph), its prefixes and its format."""

    path: Path
    format: ox.RdfFormat
    quads: list[ox.Quad]
    prefixes: dict[str, str] = field(default_factory=dict)


def detect_format(path: Path, head: bytes) -> ox.RdfFormat:
    """The syntax of `path` from its extension, or from its first bytes when the extension is vague."""
    ext = path.suffix.lower()
    if ext in _BY_EXTENSION and ext not in _SNIFFED:
        return _BY_EXTENSION[ext]
    stripped = head.lstrip()
    if _XML_START.match(head):
        if b"<Ontology" in head[:4096] and b"rdf:RDF" not in head[:4096]:
            raise InputError("OWL/XML syntax is not supported; save the ontology as RDF/XML or Turtle "
                             "(e.g. with Protégé)", path=path)
        return ox.RdfFormat.RDF_XML
    if stripped[:1] in (b"{", b"["):
        return ox.RdfFormat.JSON_LD
    return ox.RdfFormat.TURTLE  # also reads N-Triples, a subset of Turtle


_POSITION_PREFIX = re.compile(r"^Parser error (at|between) [^:]*: ")


def _syntax_error(err: SyntaxError, path: Path, fmt: ox.RdfFormat, data: bytes) -> InputError:
    line, column = getattr(err, "lineno", None), getattr(err, "offset", None)
    reason = _POSITION_PREFIX.sub("", str(err.msg if hasattr(err, "msg") else err))
    if line is None and fmt == ox.RdfFormat.RDF_XML:
        line, column = _rdfxml_position(data)  # pyoxigraph's reason is the more specific one
    undeclared = re.search(r"prefix (\S+?):? has not been declared", reason) or \
        re.search(r"[Uu]n(?:known|bound) prefix:? '?([\w.-]+)", reason)
    if undeclared:
        reason = f"unknown prefix '{undeclared.group(1).rstrip(':')}:' (declare it with @prefix / xmlns)"
    where = f"column {column}: " if column is not None else ""
    return InputError(f"invalid {fmt.name}: {where}{reason}", path=path, line=line)


def _rdfxml_position(data: bytes) -> tuple[int | None, int | None]:
    """Where rdflib's RDF/XML parser (xml.sax) finds the document broken; (None, None) if it does not."""
    from xml.sax import SAXParseException

    import rdflib

    try:
        rdflib.Graph().parse(data=data, format="xml")
    except SAXParseException as sax:
        return sax.getLineNumber(), sax.getColumnNumber() + 1
    except Exception:  # noqa: BLE001 - rdflib's own RDF-level errors carry no position either
        pass
    return None, None


def read_rdf(path: str | Path, *, base_iri: str | None = None) -> RdfFile:
    """Parse a whole RDF file; `InputError` (file, line, column) on anything wrong with it."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except OSError as err:
        raise InputError(f"cannot read the file ({err.strerror})", path=path) from None
    if not data.strip():
        raise InputError("the file is empty", path=path)
    fmt = detect_format(path, data[:8192])
    try:
        parser = ox.parse(data, fmt, base_iri=base_iri or path.resolve().as_uri())
        quads = list(parser)
    except SyntaxError as err:
        raise _syntax_error(err, path, fmt, data) from None
    except ValueError as err:  # e.g. a JSON-LD remote context, which would need the network
        raise InputError(f"invalid {fmt.name}: {err}", path=path) from None
    return RdfFile(path, fmt, quads, dict(parser.prefixes))


def rdf_format_for(path: Path) -> ox.RdfFormat:
    """Output syntax for a file name (Turtle when the extension says nothing)."""
    return _BY_EXTENSION.get(path.suffix.lower(), ox.RdfFormat.TURTLE)


_INTEGER_TYPES = {XSD + t for t in ("integer", "int", "long", "short", "byte", "nonNegativeInteger",
                                    "positiveInteger", "negativeInteger", "nonPositiveInteger",
                                    "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte")}
_FLOAT_TYPES = {XSD + "double", XSD + "float"}


def to_python(term: Any) -> Any:
    """Plain Python value of an RDF term: IRI → str, literal → int/float/bool/str, blank node → "_:id"."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return term.value
    if isinstance(term, ox.BlankNode):
        return "_:" + term.value
    if isinstance(term, ox.Literal):
        dt = term.datatype.value
        try:
            if dt in _INTEGER_TYPES:
                return int(term.value)
            if dt in _FLOAT_TYPES:
                return float(term.value)
            if dt == XSD + "decimal":
                # float keeps rows JSON-friendly; the exact lexical form is one str() away in SPARQL
                return float(Decimal(term.value))
            if dt == XSD + "boolean":
                return term.value in ("true", "1")
        except ValueError:
            pass  # an ill-typed literal ("abc"^^xsd:integer) stays its lexical form
        return term.value
    return str(term)  # RDF-star triple terms


def lexical(value: Any) -> str:
    """A plain value of a result row (see to_python) as text: IRIs as they are, booleans and numbers in
    their SPARQL lexical form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def text_rows(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Result rows as {variable: text}; unbound variables left out."""
    return [{k: lexical(v) for k, v in r.items() if v is not None} for r in rows]


def local_name(iri: str) -> str:
    """The part after the last '#', '/' or ':' of an IRI."""
    for sep in ("#", "/", ":"):
        if sep in iri:
            tail = iri.rsplit(sep, 1)[1]
            if tail:
                return tail
    return iri


def namespace_of(iri: str) -> str:
    return iri[: len(iri) - len(local_name(iri))]
