"""Read-only SPARQL: every query that comes from a user or a question passes `check_query` first.

    check_query(text, prefixes=None) -> "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE"

Refused with `QueryRefused` (the reason in the message): SPARQL Update operations (INSERT, DELETE,
LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, WITH ... anywhere in the text) and SERVICE (federated
queries reach the network). Malformed queries raise `InputError` with line and column; so do prefixes
that are neither declared in the query nor passed in `prefixes`.

How: a SPARQL tokenizer (comments, strings, IRIs, variables and prefixed names are tokens of their
own) finds the bare keywords, so `# INSERT` in a comment, "DROP" in a string, ?load or ex:clear are
not keywords, while `iNsErT`, or a keyword split from its neighbours by comments and newlines, still
is. None of the refused words is a keyword of the query grammar, so refusing them wherever they
appear never rejects a valid query. The query is then parsed by Oxigraph itself (against an empty
in-memory store) so a query we accept is one Oxigraph accepts; Oxigraph's `Store.query` cannot run
updates at all, which backs the check up.

Execution limits (timeout, row cap) are applied where the query runs: `pyramid.ontology.query_worker`
(pyoxigraph queries cannot be interrupted, so they run in a child process that can be killed).
"""

from __future__ import annotations

import re
from typing import Literal

import pyoxigraph as ox

from pyramid.errors import InputError, PolyragError, QueryRefused

QueryKind = Literal["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]
READ_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")
UPDATE_WORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")
MAX_QUERY_CHARS = 100_000


class QueryTimeout(PolyragError):
    """A query ran longer than its time limit and was stopped."""


# One alternation, tried left to right at each position: the order matters (strings before
# prefixed names, IRIs before the '<' operator).
_TOKEN = re.compile(r"""
  (?P<ws>\s+)
| (?P<comment>\#[^\n\r]*)
| (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
            |'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")
| (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
| (?P<var>[?$][\w\u00B7\u0300-\u036F\u203F-\u2040]+)
| (?P<pname>(?:[A-Za-z\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?:(?:[\w\-:%.\u00B7\u00C0-\uFFFF]|\\.)*)
| (?P<bnode>_:[\w.\-]+)
| (?P<word>[A-Za-z_][A-Za-z0-9_]*)
| (?P<other>.)
""", re.VERBOSE | re.DOTALL)


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of every token but whitespace and comments."""
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind not in ("ws", "comment"):
            out.append((kind, m.group(), m.start()))
    return out


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _oxigraph_error(text: str, err: SyntaxError) -> InputError:
    msg = str(err)
    m = re.match(r"error at (\d+):(\d+): (.*)", msg, re.DOTALL)
    if not m:
        return InputError(f"invalid SPARQL: {msg}", path="query")
    line, column, reason = int(m.group(1)), int(m.group(2)), m.group(3)
    if reason.startswith("expected one of"):
        # Oxigraph lists character classes too; keep the keywords, which are what a person can act on
        words = [w for w in re.findall(r"[A-Z][A-Z_ ]+[A-Z]|[a-z][a-z ]+[a-z]", reason[15:]) if len(w) > 1]
        reason = "expected one of " + ", ".join(dict.fromkeys(words)) if words else "unexpected text"
    lines = text.splitlines() or [""]
    near = lines[line - 1][max(0, column - 20): column + 20].strip() if line <= len(lines) else ""
    return InputError(f"invalid SPARQL at column {column}: {reason}" + (f" (near '{near}')" if near else ""),
                      path="query", line=line)


_PARSER = ox.Store()  # empty, in memory: parsing a query against it reads nothing


def check_query(text: str, prefixes: dict[str, str] | None = None) -> QueryKind:
    """The query form; `QueryRefused` for updates, LOAD and SERVICE; `InputError` if malformed."""
    if not text or not text.strip():
        raise InputError("the query is empty", path="query")
    if len(text) > MAX_QUERY_CHARS:
        raise InputError(f"the query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}",
                         path="query")
    toks = tokens(text)
    declared = set(prefixes or {})
    form: str | None = None
    i = 0
    while i < len(toks):
        kind, tok, offset = toks[i]
        word = tok.upper() if kind == "word" else None
        if word in UPDATE_WORDS:
            line, col = _position(text, offset)
            raise QueryRefused(f"refused: SPARQL update ({word}) at line {line}, column {col}; only read queries "
                               "(SELECT, ASK, CONSTRUCT, DESCRIBE) are allowed and the store is unchanged")
        if word == "SERVICE":
            line, col = _position(text, offset)
            raise QueryRefused(f"refused: SERVICE at line {line}, column {col} would send a federated query "
                               "over the network; queries here read the local store only")
        if word == "PREFIX" and i + 1 < len(toks) and toks[i + 1][0] == "pname":
            declared.add(toks[i + 1][1].split(":", 1)[0])
            i += 3  # PREFIX name: <iri>
            continue
        if word == "BASE":
            i += 2
            continue
        if form is None and word in READ_FORMS:
            form = word
        elif form is None:
            line, col = _position(text, offset)
            raise InputError(f"invalid SPARQL at column {col}: a query starts with SELECT, ASK, CONSTRUCT or "
                             f"DESCRIBE (after PREFIX/BASE), not '{tok[:30]}'", path="query", line=line)
        if kind == "pname":
            prefix = tok.split(":", 1)[0]
            if prefix not in declared:
                line, col = _position(text, offset)
                raise InputError(f"unknown prefix '{prefix}:' at column {col} (declare it with PREFIX {prefix}: <...>)",
                                 path="query", line=line)
        i += 1
    if form is None:
        raise InputError("invalid SPARQL: no SELECT, ASK, CONSTRUCT or DESCRIBE found", path="query")
    try:
        _PARSER.query(text, prefixes=prefixes or None)
    except SyntaxError as err:
        raise _oxigraph_error(text, err) from None
    return form  # type: ignore[return-value]
