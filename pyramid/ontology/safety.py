"""Read-only SPARQL: every query that comes from a user or a question passes `check_query` first.

    check_query(text, prefixes=None) -> "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE"

Refused with `QueryRefused` (the reason in the message): SPARQL Update operations (INSERT, DELETE,
LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, WITH ... anywhere in the text), SERVICE (federated
queries reach the network) and FROM / FROM NAMED (the layer chooses the store's graphs; a dataset
named by a file or a URL is never loaded, so the clause would be ignored). Malformed queries raise
`InputError` with line and column; so do prefixes that are neither declared in the query nor passed
in `prefixes`, queries longer than MAX_QUERY_CHARS and brackets nested deeper than MAX_DEPTH
(Oxigraph's recursive parser overflows its stack at a few thousand levels).

How: a SPARQL tokenizer (comments, strings, IRIs, variables and prefixed names are tokens of their
own) finds the bare keywords, so `# INSERT` in a comment, "DROP" in a string, ?load or ex:clear are
not keywords, while `iNsErT`, or a keyword split from its neighbours by comments and newlines, still
is. None of the refused words is a keyword of the query grammar, so refusing them wherever they
appear never rejects a valid query. Oxigraph's `Store.query` cannot run updates at all, which backs
the check up. The tokenizer reads the text as Oxigraph does where a careless one would not:
- `<` right after an operand inside an expression is less-than (`FILTER(0<1)SERVICE#>` is less-than,
  SERVICE and a comment, not the IRI `<1)SERVICE#>`); brackets are tracked to know where expressions are;
- IRIs may hold \\u escapes (`<http://e/a\\u0041'b>` is one IRI, not an IRI-less `'` string opening);
- Oxigraph matches keywords without a word boundary (`trueSERVICE` is true, SERVICE; `SERVICESILENT`,
  `SERVICE:x {`), so a bare word containing SERVICE is refused, and so is a prefixed name whose
  prefix starts with it when a group follows;
- \\u escapes outside strings and IRIs (SPARQL 1.1 decodes them before parsing; Oxigraph refuses
  them) are decoded for a second look, so `\\u0053ERVICE` is refused as SERVICE.

This check reads the text; it never parses with the engine nor runs anything, so its cost is linear
in the query's length, and it opens no file or socket. The text check is the clear refusal, not the
guarantee: Oxigraph parses and runs the query only in the query process
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
MAX_DEPTH = 100  # nested brackets of any kind; real queries nest a handful


# SPARQL's name characters (PN_CHARS_BASE, PN_CHARS_U, PN_CHARS), so that names end where Oxigraph ends them
_BASE = ("A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D"
         "\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\U00010000-\U000EFFFF")
_NAME = _BASE + "_0-9\u00B7\u0300-\u036F\u203F-\u2040"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"


# One alternation, tried left to right at each position: the order matters (strings before
# prefixed names, IRIs before the '<' operator).
_TOKEN = re.compile(r"""
  (?P<ws>\s+)
| (?P<comment>\#[^\n\r]*)
| (?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
            |'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")
| (?P<iri><(?:[^<>"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>)
| (?P<var>[?$][NAME]+)
| (?P<pname>(?:[BASE](?:[NAME.\-]*[NAME\-])?)?:(?:(?:[NAME:]|PLX)(?:(?:[NAME.\-:]|PLX)*(?:[NAME\-:]|PLX))?)?)
| (?P<bnode>_:[NAME](?:[NAME.\-]*[NAME\-])?)
| (?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
| (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
| (?P<word>[A-Za-z_][A-Za-z0-9_]*)
| (?P<other>.)
""".replace("NAME", _NAME).replace("BASE", _BASE).replace("PLX", _PLX), re.VERBOSE | re.DOTALL)
_OPERAND = frozenset({"var", "number", "string", "iri", "pname", "bnode", "lang"})
_UCHAR = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def _ends_operand(tok: tuple[str, str, int]) -> bool:
    kind, text, _ = tok
    return kind in _OPERAND or (kind == "other" and text in ")]") or (kind == "word" and text.lower() in ("true", "false"))


def _paren(out: list[tuple[str, str, int]], frames: list[str], clause: str) -> str:
    """What the '(' just appended to `out` opens: "expr" (an expression: FILTER, BIND, a function's
    arguments, a projection, GROUP/ORDER BY, HAVING, IN) or "terms" (a collection, a path group,
    VALUES' variables and rows, `<<(` a triple term)."""
    prev = out[-2] if len(out) > 1 else None
    before = out[-3] if len(out) > 2 else None
    if prev and prev[1] == "<" and before and before[1] == "<" and before[2] == prev[2] - 1:
        return "terms"
    if frames and frames[-1] == "expr":
        return "expr"
    if prev is None:
        return "terms"
    if prev[0] == "word":  # FILTER(, BIND(, STR(, COUNT(, IN(, BY(, HAVING( … but `a (1 2)` and VALUES (?x)
        return "terms" if prev[1] == "a" or prev[1].upper() == "VALUES" else "expr"
    if clause:  # SELECT (… AS ?x), GROUP BY ex:f(?x), ORDER BY <f>(?x)
        return "expr"
    if prev[0] in ("iri", "pname") and before and before[0] == "word" and before[1].upper() == "FILTER":
        return "expr"  # FILTER ex:f(?x)
    return "terms"


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of every token but whitespace and comments. A '<' that follows an operand
    inside an expression is the operator, as Oxigraph reads it, even where an IRI could start."""
    out: list[tuple[str, str, int]] = []
    frames: list[str] = []  # per open bracket: "{", "[", "expr" or "terms"
    clause = ""             # "select" (a projection) or "modifier" (GROUP/ORDER BY, HAVING): parens there are expressions
    pos, end = 0, len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        kind, tok = m.lastgroup or "other", m.group()
        if kind == "iri" and frames and frames[-1] == "expr" and out and _ends_operand(out[-1]):
            kind, tok = "other", "<"
        pos += len(tok)
        if kind in ("ws", "comment"):
            continue
        out.append((kind, tok, m.start()))
        if kind == "other":
            if tok == "{":
                frames.append("{")
                clause = ""
            elif tok == "}":
                while frames and frames.pop() != "{":
                    pass
                clause = ""
            elif tok == "(":
                frames.append(_paren(out, frames, clause))
            elif tok == "[":
                frames.append("[")
            elif tok in ")]" and frames and frames[-1] != "{":
                frames.pop()
        elif kind == "word":
            word = tok.upper()
            if word == "SELECT":
                clause = "select"
            elif word in ("GROUP", "ORDER", "HAVING"):
                clause = "modifier"
            elif word in ("WHERE", "FROM", "LIMIT", "OFFSET", "VALUES"):
                clause = ""
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
    return _flat(("…" if offset - 30 > line_start else "") + before + "⟨here⟩" + after +
                 ("…" if offset + 20 < line_end else "")).strip()


def _offset(text: str, line: int, column: int) -> int:
    """Oxigraph's 1-based line and column (in characters) as an offset into `text`."""
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    if line > len(starts):
        return len(text)
    return min(starts[line - 1] + column - 1, len(text))


_PROSE = re.compile(r"[A-Z][a-z]+(?: [a-z-]+){3,}")


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
    elif prose := _PROSE.search(reason):  # a sentence of the parser's among its tokens ("The query offset
        detail = prose.group(0)[0].lower() + prose.group(0)[1:]  # should be a non negative integer")
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


# Words that may follow an update word glued to it (`INSERTDATA`, `CLEARALL`): Oxigraph's keywords need no boundary
_GLUE = ("DATA", "WHERE", "ALL", "DEFAULT", "NAMED", "GRAPH", "SILENT", "INTO", "TO", "USING", "{", *UPDATE_WORDS)
_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _flat(text: str) -> str:
    """`text` on one line: a refusal or an error is one line whatever the query holds."""
    return _LINE_BREAKS.sub(" ", text)


def _refused(text: str, toks: list[tuple[str, str, int]], how: str = "") -> QueryRefused | None:
    """The first update word, SERVICE or FROM among the tokens (see the module docstring), as a refusal."""
    def at(offset: int) -> str:
        line, col = _position(text, offset)
        return f"at line {line}, column {col}{how}"

    for i, (kind, tok, offset) in enumerate(toks):
        if kind not in ("word", "pname"):
            continue
        word = tok.upper()
        if kind == "word":
            glued = next((u for u in UPDATE_WORDS if word.startswith(u) and word[len(u):].startswith(_GLUE)), None)
            if word in UPDATE_WORDS or glued:
                return QueryRefused(f"refused: SPARQL update ({_flat(tok)}) {at(offset)}; only read queries (SELECT, ASK, "
                                    "CONSTRUCT, DESCRIBE) are allowed and the store is unchanged")
            if "SERVICE" in word:
                return QueryRefused(f"refused: SERVICE{'' if word == 'SERVICE' else f' (in {tok!r})'} {at(offset)} would "
                                    "send a federated query over the network; queries here read the local store only")
            if word == "FROM" or word.startswith("FROMNAMED"):
                named = word != "FROM" or (i + 1 < len(toks) and toks[i + 1][1].upper() == "NAMED")
                j = i + 1 + (word == "FROM" and named)
                target = toks[j][1][:80] if j < len(toks) else ""
                what = " ".join(w for w in ("FROM", "NAMED" if named else "", _flat(target)) if w)
                return QueryRefused(f"refused: {what} {at(offset)}: a query here "
                                    "reads the workspace's own graphs; a dataset named by FROM (a file, a URL) is never "
                                    "loaded")
        elif kind == "pname" and word.split(":", 1)[0].startswith(("SERVICE", "TRUESERVICE", "FALSESERVICE")):
            # `SERVICE:x {` is SERVICE :x to Oxigraph; `GRAPH services:g {` stays a graph name
            nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
            prev = toks[i - 1][1].upper() if i else ""
            if nxt == "{" and prev not in ("GRAPH", "NAMED", "FROM"):
                return QueryRefused(f"refused: SERVICE (in {_flat(tok)!r}) {at(offset)} would send a federated query over "
                                    "the network; queries here read the local store only")
    return None


def _escaped(text: str, toks: list[tuple[str, str, int]]) -> str | None:
    """The text with the \\u escapes that stand outside strings and IRIs decoded (None when there are
    none): SPARQL 1.1 decodes them before parsing, so `\\u0053ERVICE` is SERVICE to it."""
    spots = [offset for kind, tok, offset in toks if kind == "other" and tok == "\\"]
    if not spots:
        return None
    parts, last = [], 0
    for offset in spots:
        m = _UCHAR.match(text, offset)
        code = int(m.group(1) or m.group(2), 16) if m else -1
        if m and code <= 0x10FFFF:
            parts += [text[last:offset], chr(code)]
            last = m.end()
    return "".join(parts) + text[last:] if parts else None


def _depth(toks: list[tuple[str, str, int]]) -> tuple[int, int]:
    """The deepest bracket nesting and where it is reached."""
    depth = deepest = at = 0
    for kind, tok, offset in toks:
        if kind == "other" and tok in "{([":
            depth += 1
            if depth > deepest:
                deepest, at = depth, offset
        elif kind == "other" and tok in "})]":
            depth = max(0, depth - 1)
    return deepest, at


def check_query(text: str, prefixes: dict[str, str] | None = None) -> QueryKind:
    """The query form; `QueryRefused` for updates, LOAD, SERVICE and FROM; `InputError` for what the text
    shows to be no query (empty, too long, nested too deep, no query form, an undeclared prefix).
    Oxigraph's own syntax check happens where the query runs."""
    if not text or not text.strip():
        raise InputError("the query is empty", path="query")
    if len(text) > MAX_QUERY_CHARS:
        raise InputError(f"the query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}",
                         path="query")
    toks = tokens(text)
    refusal = _refused(text, toks)
    decoded = _escaped(text, toks) if refusal is None else None
    if decoded is not None:
        refusal = _refused(decoded, tokens(decoded), " (written with \\u escapes)")
    if refusal is not None:
        raise refusal
    deepest, at = _depth(toks)
    if deepest > MAX_DEPTH:
        line, col = _position(text, at)
        raise InputError(f"the query nests brackets {deepest:,} deep at column {col}; the limit is {MAX_DEPTH}",
                         path="query", line=line)
    declared = set(prefixes or {})
    form: str | None = None
    i = 0
    while i < len(toks):
        kind, tok, offset = toks[i]
        word = tok.upper() if kind == "word" else None
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
                             f"DESCRIBE (after PREFIX/BASE), not '{_flat(tok[:30])}'", path="query", line=line)
        if kind == "pname":
            prefix = _flat(tok.split(":", 1)[0])
            if prefix not in declared:
                line, col = _position(text, offset)
                raise InputError(f"unknown prefix '{prefix}:' at column {col} (declare it with PREFIX {prefix}: <...>)",
                                 path="query", line=line)
        i += 1
    if form is None:
        raise InputError("invalid SPARQL: no SELECT, ASK, CONSTRUCT or DESCRIBE found", path="query")
    return form  # type: ignore[return-value]
