"""Reading RDF files: format detection, parsing with positions in errors, term conversion.

`read_rdf(path)` parses Turtle, N-Triples, N-Quads, TriG, RDF/XML or JSON-LD with pyoxigraph's
(Rust) parsers and turns every syntax problem into one `InputError` naming the file, line and column.
pyoxigraph reports positions for the text formats but not for RDF/XML, so a failed RDF/XML file is
parsed again by rdflib (xml.sax), whose errors carry line and column.

Both XML parsers expand the entities a DOCTYPE declares, so a 1 KB "billion laughs" file would grow
to gigabytes: `check_entities` works out what the declarations expand to before either parser runs
and refuses external and parameter entities and any expansion above `MAX_ENTITY_EXPANSION`.

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


def is_datatype(iri: str) -> bool:
    """An IRI naming a datatype (XML Schema's, or RDF's literal types), not a class."""
    return iri.startswith(XSD) or iri in (RDFS + "Literal", RDF + "langString", RDF + "PlainLiteral",
                                          RDF + "XMLLiteral", RDF + "HTML", RDF + "JSON")

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
    """A parsed file: its quads (triples in the default graph), its prefixes and its format; with
    `read_rdf(..., as_text=True)` its triples as `ntriples` instead (and `quads` empty)."""

    path: Path
    format: ox.RdfFormat
    quads: list[ox.Quad]
    prefixes: dict[str, str] = field(default_factory=dict)
    ntriples: NTriples | None = None


class NTriples:
    """Triples as text: one canonical N-Triples line per triple, `<s> <p> <o>` without the final ` .`,
    as Oxigraph writes them (so equal triples are equal lines, and a line is `str(ox.Triple)`).

    The import, the reasoner and the store pass large graphs in this form: Oxigraph parses and writes
    it in Rust, and Python splits a line into its three terms with one `str.split`, where every term
    of a pyoxigraph object is a new Python object on each access (LUBM(1): 0.2 s against ~2 s).
    A term is an IRI `<...>`, a blank node `_:id` or a literal starting with `"`."""

    __slots__ = ("lines",)

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    @classmethod
    def from_bytes(cls, data: bytes) -> NTriples:
        """From N-Triples text as Oxigraph writes it (`serialize`, `dump`): lines ending in ` .`."""
        return cls([line[:-2] for line in data.decode("utf-8").splitlines() if line])

    @classmethod
    def from_triples(cls, triples) -> NTriples:
        """From pyoxigraph triples or quads (their graph names dropped)."""
        return cls([f"{t.subject} {t.predicate} {t.object}" for t in triples])

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self):
        """(subject, predicate, object) term strings."""
        for line in self.lines:
            yield line.split(" ", 2)

    def data(self) -> bytes:
        return "".join(line + " .\n" for line in self.lines).encode("utf-8")

    @property
    def has_blank_nodes(self) -> bool:
        return any("_:" in line for line in self.lines)  # also true for a literal holding "_:": harmless

    def triples(self) -> list[ox.Triple]:
        return [ox.Triple(q.subject, q.predicate, q.object)
                for q in ox.parse(self.data(), ox.RdfFormat.N_TRIPLES)] if self.lines else []

    def digest(self) -> str:
        """Of the set of triples (order and repeats do not count); equal to the digest the store
        computes for the same triples given as objects (store.plan_replacement)."""
        import hashlib

        return hashlib.sha256("\n".join(sorted(set(self.lines))).encode()).hexdigest()[:24]


_NT_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_NT_CHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def nt_literal(term: str) -> tuple[str, str]:
    """(lexical value, datatype-or-@lang suffix) of an N-Triples literal term: `"a"@en` -> ("a", "@en"),
    `"1"^^<…#integer>` -> ("1", "^^<…#integer>"), `"a"` -> ("a", "")."""
    end = term.rindex('"')
    body, suffix = term[1:end], term[end + 1:]
    if "\\" in body:
        body = _NT_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)) if m.group(3) is None
                              else _NT_CHAR.get(m.group(3), m.group(3)), body)
    return body, suffix


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


# Entity expansion allowed: the larger of this and ENTITY_FACTOR times the file. Namespace abbreviations
# (`<!ENTITY owl "http://www.w3.org/2002/07/owl#">`, as Protégé writes) stay far below both.
MAX_ENTITY_EXPANSION = 16 * 1024 * 1024
ENTITY_FACTOR = 20
_ENTITY_DECL = re.compile(r"""<!ENTITY\s+(%\s*)?([^\s"'<>&%;]+)\s+(?:"([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC)\b)""")
_ENTITY_REF = re.compile(r"&([^\s&;#<>\"']+);")
_CHAR_REF = re.compile(r"&#(x[0-9a-fA-F]+|[0-9]+);")
_PREDEFINED = {"lt", "gt", "amp", "apos", "quot"}


def _char_refs(value: str) -> str:
    """Character references replaced, as a parser does when it reads a declaration: `&#38;b;` becomes
    a reference to b, which a check of the raw text would miss."""
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        try:
            return chr(int(code[1:], 16) if code.startswith("x") else int(code))
        except (ValueError, OverflowError):
            return m.group(0)
    return _CHAR_REF.sub(one, value)


def check_entities(data: bytes, path: Path) -> None:
    """InputError (file, line) when the DOCTYPE's entities would read another file or URL, or expand
    to more than the limit; run before any XML parser sees `data`."""
    # Latin-1: one character per byte, so offsets are bytes and any ASCII-compatible encoding scans right
    # (UTF-16 never gets here: detect_format only calls a file RDF/XML when its first bytes are ASCII XML).
    text = data.decode("latin-1")
    declared = text.count("<!ENTITY")
    if not declared:
        return
    found = list(_ENTITY_DECL.finditer(text))

    def refuse(reason: str, at: int) -> InputError:
        return InputError(f"invalid RDF/XML: {reason}; refused before parsing", path=path,
                          line=text.count("\n", 0, at) + 1)

    if len(found) != declared:
        checked = {m.start() for m in found}
        missed = next((m.start() for m in re.finditer("<!ENTITY", text) if m.start() not in checked), 0)
        raise refuse("an entity declaration this reader cannot check", missed)
    values: dict[str, str] = {}
    for m in found:
        if m.group(1):
            raise refuse(f"parameter entity '%{m.group(2)}' declared (not allowed in RDF/XML here)", m.start())
        if m.group(5):
            raise refuse(f"external entity '{m.group(2)}' would read another file or URL", m.start())
        values.setdefault(m.group(2), _char_refs(m.group(3) if m.group(3) is not None else m.group(4)))
    limit = max(MAX_ENTITY_EXPANSION, ENTITY_FACTOR * len(data))
    refs = {name: [r for r in dict.fromkeys(_ENTITY_REF.findall(v)) if r in values] for name, v in values.items()}
    sizes: dict[str, int] = {}
    for root in values:  # expanded size of each entity: depth first, without recursion
        chain, on_chain = [root], {root}
        while chain:
            name = chain[-1]
            nxt = next((r for r in refs[name] if r not in sizes), None)
            if nxt in on_chain:
                raise refuse(f"entity '{nxt}' refers to itself", next(m.start() for m in found if m.group(2) == nxt))
            if nxt is not None:
                chain.append(nxt)
                on_chain.add(nxt)
                continue
            raw = values[name]
            size = len(_ENTITY_REF.sub("", raw)) + sum(sizes.get(r, 1 if r in _PREDEFINED else 0)
                                                        for r in _ENTITY_REF.findall(raw))
            sizes[name] = min(size, limit + 1)  # saturated: a deep chain would make numbers of 10^5 digits
            chain.pop()
            on_chain.discard(name)
    body = _ENTITY_DECL.sub("", text)
    total = sum(sizes.get(r, 0) for r in _ENTITY_REF.findall(body))
    if total > limit:
        raise refuse(f"its XML entities would expand to more than {limit / 1024 / 1024:.0f} MB "
                     "(an entity-expansion bomb?)", found[0].start())


_POSITION_PREFIX = re.compile(r"^Parser error (at|between) [^:]*: ")


def _syntax_error(err: SyntaxError, path: Path, fmt: ox.RdfFormat, data: bytes) -> InputError:
    line, column = getattr(err, "lineno", None), getattr(err, "offset", None)
    reason = _POSITION_PREFIX.sub("", str(err.msg if hasattr(err, "msg") else err))
    if line is None and fmt == ox.RdfFormat.RDF_XML:
        line, column = _rdfxml_position(data)  # pyoxigraph's reason is the more specific one
    if (at := _POSITION.search(reason)) is not None:  # a byte offset: said as line and column instead
        if line is None:
            line, column = _place(data, int(at.group(1)))
        reason = (reason[:at.start()] + reason[at.end():]).replace(":  ", ": ").strip(" :")
    undeclared = re.search(r"prefix (\S+?):? has not been declared", reason) or \
        re.search(r"[Uu]n(?:known|bound) prefix:? '?([\w.-]+)", reason)
    if undeclared:
        reason = f"unknown prefix '{undeclared.group(1).rstrip(':')}:' (declare it with @prefix / xmlns)"
    where = f"column {column}: " if column is not None else ""
    return InputError(f"invalid {fmt.name}: {where}{reason}", path=path, line=line)


_SAX_PLACE = re.compile(r"^[^:]*:(\d+):(\d+): ")  # rdflib's own RDF/XML errors: "<system id>:line:column: "
_POSITION = re.compile(r"(?:byte )?position (\d+)")


def _rdfxml_position(data: bytes) -> tuple[int | None, int | None]:
    """Where rdflib's RDF/XML parser (xml.sax) finds the document broken; (None, None) if it does not."""
    from xml.sax import SAXParseException

    import rdflib

    try:
        rdflib.Graph().parse(data=data, format="xml")
    except SAXParseException as sax:  # not well-formed XML
        return sax.getLineNumber(), sax.getColumnNumber() + 1
    except UnicodeDecodeError as bad:  # not UTF-8: the byte's place
        return _place(data, bad.start)
    except Exception as err:  # noqa: BLE001 - RDF-level errors say the place in their message, if at all
        found = _SAX_PLACE.match(str(err))
        if found:
            return int(found.group(1)), int(found.group(2)) + 1
    return None, None


def _place(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset, both from 1."""
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


@dataclass(frozen=True)
class ImportLimits:
    """What one imported file may hold (ontology.max_term_kb, ontology.max_triples): a literal of a few
    megabytes once took minutes to import and left every later query over the literals slow."""

    term_chars: int
    triples: int


def check_limits(nt: NTriples, limits: ImportLimits, path: Path, data: bytes) -> None:
    """One clear error for a file past the limits, naming the line of the longest term."""
    if len(nt) > limits.triples:
        raise InputError(f"{len(nt):,} triples, more than ontology.max_triples ({limits.triples:,})", path=path)
    longest = max(nt.lines, key=len, default="")
    if len(longest) <= limits.term_chars:
        return
    term = max(longest.split(" ", 2), key=len)
    # the term's line in the file: its first characters searched for (a term may be written another way)
    at = data.find(term.strip('<>"')[:60].encode("utf-8"))
    line = data.count(b"\n", 0, at) + 1 if at >= 0 else None
    raise InputError(f"an IRI or literal of {len(term):,} characters, more than ontology.max_term_kb "
                     f"({limits.term_chars // 1024:,} KB)", path=path, line=line)


def read_rdf(path: str | Path, *, base_iri: str | None = None, as_text: bool = False,
             limits: ImportLimits | None = None) -> RdfFile:
    """Parse a whole RDF file; `InputError` (file, line, column) on anything wrong with it.
    `as_text`: the triples as `NTriples` (parsed and written in Rust, no Python object per triple;
    graph names of a quad format are dropped, as the importer drops them) instead of `quads`.
    `limits`: what the file may hold, checked on the text form (`as_text`), before anything is written."""
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
    if fmt == ox.RdfFormat.RDF_XML:
        check_entities(data, path)
    try:
        parser = ox.parse(data, fmt, base_iri=base_iri or path.resolve().as_uri())
        if as_text:
            named = fmt in (ox.RdfFormat.N_QUADS, ox.RdfFormat.TRIG)
            text = ox.serialize((ox.Triple(q.subject, q.predicate, q.object) for q in parser) if named else parser,
                                format=ox.RdfFormat.N_TRIPLES)
            nt = NTriples.from_bytes(text)
            if limits is not None:
                check_limits(nt, limits, path, data)
            return RdfFile(path, fmt, [], dict(parser.prefixes), nt)
        quads = list(parser)
    except SyntaxError as err:
        raise _syntax_error(err, path, fmt, data) from None
    except ValueError as err:  # e.g. a JSON-LD remote context, which would need the network
        raise InputError(f"invalid {fmt.name}: {err}", path=path) from None
    except MemoryError as err:  # the parser's bounded buffer: one token or line of more than 16 MB
        raise InputError(f"invalid {fmt.name}: a single token or line is too long for the parser ({err})",
                         path=path) from None
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


def to_w3c(term: Any) -> dict[str, str] | None:
    """An RDF term as a W3C SPARQL JSON binding ({"type": "uri" | "literal" | "bnode", "value", and a
    literal's "datatype" or "xml:lang"}): what keeps IRIs and strings apart in serialised results."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype.value != XSD + "string":
            out["datatype"] = term.datatype.value
        return out
    return {"type": "triple", "value": str(term)}  # RDF-star


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
