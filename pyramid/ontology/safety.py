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
appear never rejects a valid query. Oxigraph's `Store.query` cannot run updates at all, which backs
the check up.

This check reads the text; it never parses with the engine nor runs anything, so its cost is linear
in the query's length. A tokenizer and Oxigraph's parser can disagree (`FILTER(0<1)SERVICE#>` reads
as an IRI here and as less-than, SERVICE and a comment there), so the text check is the clear
refusal, not the guarantee: Oxigraph parses and runs the query only in the query process
(pyramid.ontology.query_worker), which has no network sockets, a memory ceiling and the timeout.

Syntax errors (`syntax_error`, for the message the query process brings back): Oxigraph's parser
reports where it gave up and the tokens it would have accepted
(character classes and escapes included), which often is the end of the query. So once it refuses a
query, the tokenizer looks for the usual slips itself — an unclosed string or bracket, a misspelt
keyword (with the nearest one), a triple pattern with fewer than three terms, an operator with nothing
after it — and the message names that spot (line, column, the text around it marked ⟨here⟩); failing
that, Oxigraph's position with its expected tokens said in words ("a variable, an IRI, …").

Execution limits (timeout, row cap) are applied where the query runs: `pyramid.ontology.query_worker`
(pyoxigraph queries cannot be interrupted, so they run in a child process that can be killed).
"""

from __future__ import annotations

import re
from typing import Literal

from pyramid.errors import InputError, QueryRefused

QueryKind = Literal["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]
READ_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")
UPDATE_WORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")
MAX_QUERY_CHARS = 100_000


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
| (?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
| (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
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


# ------------------------------------------------------------------ readable syntax errors
# Every bare word of SPARQL 1.1 (and Oxigraph's 1.2 additions); any other bare word is a typo.
_KEYWORD_TEXT = """
BASE PREFIX SELECT CONSTRUCT DESCRIBE ASK DISTINCT REDUCED AS FROM NAMED WHERE GROUP BY HAVING ORDER ASC DESC
LIMIT OFFSET VALUES UNDEF OPTIONAL GRAPH SERVICE SILENT BIND MINUS FILTER UNION EXISTS NOT IN A TRUE FALSE
COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT SEPARATOR STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND ABS
CEIL FLOOR ROUND CONCAT STRLEN UCASE LCASE ENCODE_FOR_URI CONTAINS STRSTARTS STRENDS STRBEFORE STRAFTER YEAR
MONTH DAY HOURS MINUTES SECONDS TIMEZONE TZ NOW UUID STRUUID MD5 SHA1 SHA256 SHA384 SHA512 COALESCE IF STRLANG
STRDT SAMETERM ISIRI ISURI ISBLANK ISLITERAL ISNUMERIC REGEX SUBSTR REPLACE LATERAL TRIPLE SUBJECT PREDICATE
OBJECT ISTRIPLE LANGDIR STRLANGDIR HASLANG HASLANGDIR ADJUST VERSION
"""
KEYWORDS = frozenset(_KEYWORD_TEXT.split())
# Functions and aggregates: a parser that lists them expects an expression there
_FUNCTION_TEXT = """
COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND ABS CEIL FLOOR
ROUND CONCAT STRLEN UCASE LCASE ENCODE_FOR_URI CONTAINS STRSTARTS STRENDS STRBEFORE STRAFTER YEAR MONTH DAY HOURS
MINUTES SECONDS TIMEZONE TZ NOW UUID STRUUID MD5 SHA1 SHA256 SHA384 SHA512 COALESCE IF STRLANG STRDT SAMETERM
ISIRI ISURI ISBLANK ISLITERAL ISNUMERIC REGEX SUBSTR REPLACE TRIPLE SUBJECT PREDICATE OBJECT ISTRIPLE LANGDIR
STRLANGDIR HASLANG HASLANGDIR ADJUST NOT EXISTS
"""
FUNCTIONS = frozenset(_FUNCTION_TEXT.split())
_DANGLING = frozenset("=<>&|,+/!")  # operators and separators that need something after them
_TERM_KINDS = ("var", "iri", "pname", "bnode", "string", "number", "lang")
_CLOSE = {"}": "{", ")": "(", "]": "["}
# Oxigraph's expected tokens, said in words (those not listed are shown as they are)
_SAID = {"?": "a variable", "$": "a variable", "<": "an IRI", ":": "a prefixed name", "_:": "a blank node",
         "[": "a blank node", "'": "a literal", '"': "a literal", "'''": "a literal", '"""': "a literal",
         "true": "a literal", "false": "a literal"}
_UNSAID = {"<<", "<<(", "{|", "~", "\\", "\\u", "\\U", "_"}


def _expected(listing: str) -> list[str]:
    """Oxigraph's 'expected one of "$", "'", FILTER, ['0'..='9'], …' as readable items, in order:
    kinds of term first, then punctuation, then keywords. Character classes become the kind of term
    they start (a number, a name); escapes and RDF-star openers are left out."""
    kinds, marks, words = [], [], []
    i = 0
    while i < len(listing):
        c = listing[i]
        if c == '"':  # a quoted token, backslash escapes inside
            j, tok = i + 1, []
            while j < len(listing) and listing[j] != '"':
                if listing[j] == "\\" and j + 1 < len(listing):
                    j += 1
                tok.append(listing[j])
                j += 1
            item, i = "".join(tok), j + 1
            if item in _SAID:
                kinds.append(_SAID[item])
            elif item not in _UNSAID and item.strip():
                marks.append(f"'{item}'")
        elif c == "[":  # a character class: skip to its closing bracket (quoted characters inside)
            j, quoted = i + 1, False
            while j < len(listing) and (quoted or listing[j] != "]"):
                quoted = (not quoted) if listing[j] == "'" and listing[j - 1] != "\\" else quoted
                j += 1
            cls, i = listing[i:j + 1], j + 1
            if "'0'" in cls:
                kinds.append("a number")
            elif "'A'" in cls or "'a'" in cls:
                kinds.append("a prefixed name")  # the first letter of a name
        elif c.isalpha() or c == "_":
            j = i
            while j < len(listing) and (listing[j].isalnum() or listing[j] == "_"):
                j += 1
            words.append(listing[i:j])
            i = j
        else:
            i += 1
    functions = [w for w in words if w.upper() in FUNCTIONS]
    if functions:
        kinds.append("an expression")
    return list(dict.fromkeys(kinds + marks + [w for w in words if w.upper() not in FUNCTIONS]))


def _said(items: list[str], limit: int = 8) -> str:
    items = items[:limit] + (["…"] if len(items) > limit else [])
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _diagnose(text: str) -> list[tuple[int, str]]:
    """(offset, what is wrong) for the slips a tokenizer can see, most specific first: an unclosed
    string, a word that is no SPARQL keyword, a triple pattern with fewer than three terms, an
    unbalanced bracket. Used only once the parser has refused the query, to word its error."""
    toks = tokens(text)
    found: list[tuple[int, str]] = []
    for kind, tok, offset in toks:
        if kind == "other" and tok in "\"'":
            found.append((offset, f"the string opened with {tok} here is never closed"))
            return found
    for kind, tok, offset in toks:
        if kind == "word" and tok.upper() not in KEYWORDS:
            from rapidfuzz import fuzz, process

            near = process.extractOne(tok.upper(), sorted(KEYWORDS), scorer=fuzz.ratio, score_cutoff=70)
            found.append((offset, f"'{tok}' is not a SPARQL keyword" + (f" (did you mean {near[0]}?)" if near else "")))
    found += _short_triples(toks, len(text))
    for (kind, tok, offset), nxt in zip(toks, [*toks[1:], None]):
        if kind == "other" and tok in _DANGLING and (nxt is None or nxt[1] in (")", "}", "]", ".")):
            found.append((offset, f"nothing follows '{tok}'"))
    stack: list[tuple[str, int]] = []
    for kind, tok, offset in toks:
        if kind != "other":
            continue
        if tok in "{([":
            stack.append((tok, offset))
        elif tok in _CLOSE:
            if not stack:
                found.append((offset, f"'{tok}' closes nothing that is open"))
                return found
            if stack[-1][0] != _CLOSE[tok]:
                line, col = _position(text, stack[-1][1])
                found.append((offset, (f"'{stack[-1][0]}' opened at line {line}, column {col} is not closed "
                                       f"before this '{tok}'")))
                return found
            stack.pop()
    if stack:
        tok, offset = stack[-1]
        line, col = _position(text, offset)
        found.append((len(text), f"'{tok}' opened at line {line}, column {col} is never closed"))
    return found


def _short_triples(toks: list[tuple[str, str, int]], end: int) -> list[tuple[int, str]]:
    """Triple patterns of one or two terms ('{ ?s ?p }'): a run of terms that starts a pattern
    (after '{' or '.') and stops at '.', '}' or the end of the query. VALUES blocks are skipped."""
    found = []
    i, starts = 0, False
    while i < len(toks):
        kind, tok, _ = toks[i]
        if kind == "word" and tok.upper() == "VALUES":  # its rows are not triples
            while i < len(toks) and toks[i][1] != "{":
                i += 1
            depth = 0
            while i < len(toks):
                depth += {"{": 1, "}": -1}.get(toks[i][1], 0) if toks[i][0] == "other" else 0
                i += 1
                if depth == 0:
                    break
            starts = False
            continue
        if starts and (kind in _TERM_KINDS or (kind == "word" and tok == "a")):
            run, j = [], i
            while j < len(toks) and (toks[j][0] in _TERM_KINDS or toks[j][1] in ("a", "^")):
                if toks[j][1] != "^" and toks[j][0] != "lang" and (j == i or toks[j - 1][1] != "^"):
                    run.append(toks[j])
                j += 1
            after = toks[j][1] if j < len(toks) else None
            if 0 < len(run) < 3 and after in (".", "}", None):
                words = " ".join(t for _, t, _ in run)
                missing = "predicate and no object" if len(run) == 1 else "object"
                found.append((run[0][2] if after is not None else end,
                              f"the triple pattern '{words}' has no {missing}"))
            i, starts = j, False
            continue
        starts = kind == "other" and tok in ("{", ".")
        i += 1
    return found


def _near(text: str, offset: int) -> str:
    """The text around `offset` on its line, the spot marked: '…{ ?s ?p ⟨here⟩'."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    before = text[max(line_start, offset - 30):offset]
    after = text[offset:min(line_end, offset + 20)]
    return (("…" if offset - 30 > line_start else "") + before + "⟨here⟩" + after +
            ("…" if offset + 20 < line_end else "")).strip()


def _offset(text: str, line: int, column: int) -> int:
    """Oxigraph's 1-based line and column (in characters) as an offset into `text`."""
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    if line > len(starts):
        return len(text)
    return min(starts[line - 1] + column - 1, len(text))


def _oxigraph_error(text: str, err: SyntaxError) -> InputError:
    msg = str(err)
    m = re.match(r"error at (\d+):(\d+): (.*)", msg, re.DOTALL)
    if not m:
        return InputError(f"invalid SPARQL: {msg}", path="query")
    offset, reason = _offset(text, int(m.group(1)), int(m.group(2))), m.group(3)
    found = _diagnose(text)
    if found:  # the tokenizer's finding says what is wrong, and where, better than the parser's
        offset = found[0][0]
        detail = "; ".join(dict.fromkeys(f for _, f in found[:2]))
    else:
        listing = reason[len("expected one of"):] if reason.startswith("expected one of") else \
            reason[len("expected"):] if reason.startswith("expected") else ""
        items = _expected(listing) if listing else []
        detail = f"expected {_said(items)}" if items else "unexpected text"
    line, col = _position(text, offset)
    where = f"line {line}, column {col}" + (" (the end of the query)" if not text[offset:].strip() else "")
    return InputError(f"invalid SPARQL at {where}: {detail} — near: {_near(text, offset)}", path="query", line=line)


def syntax_error(text: str, message: str) -> InputError:
    """Oxigraph's syntax error message for `text` as one readable InputError (line, column, what)."""
    return _oxigraph_error(text, SyntaxError(message))


def check_query(text: str, prefixes: dict[str, str] | None = None) -> QueryKind:
    """The query form; `QueryRefused` for updates, LOAD and SERVICE; `InputError` for what the text
    shows to be no query (empty, too long, no query form, an undeclared prefix). Oxigraph's own syntax
    check happens where the query runs."""
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
    return form  # type: ignore[return-value]
