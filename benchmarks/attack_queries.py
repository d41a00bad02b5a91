"""Hostile and heavy SPARQL, generated: the cases of tests/benchmarks/test_sparql_attacks.py and benchmarks/attacks.py.

    cases = generate(endpoint="http://127.0.0.1:8890/sparql")   # 11,083 Attack, the same list every run
    few = sample(cases, 40)                                    # spread over the categories, deterministic

Each case says what the safety check (pyramid.ontology.safety.check_query) must do with it (`expect`):
    refused     QueryRefused: an update of any SPARQL 1.1 form, LOAD, SERVICE, FROM / FROM NAMED —
                however it is written (case, comments and odd whitespace between tokens, `;`-joined,
                prefixed names, \\u escapes, forms that fool a tokenizer, glued keywords)
    input_error InputError before anything runs: longer than the size limit, nested too deep
    allowed     a read query: heavy ones (property paths, cartesian products, VALUES, huge results,
                string blow-ups) must end within their timeout where they run; decoys carry the refused
                words as data (strings, comments, IRIs, variables, prefixed names) and must not be refused

`endpoint` is where SERVICE and LOAD cases point (a test's loopback logger, so a leak is seen).
Nothing here is random at run time: one seeded RNG, fixed order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAX_QUERY_CHARS = 100_000  # pyramid.ontology.safety's limit (asserted equal in the test)
MAX_DEPTH = 100            # and its nesting limit


@dataclass(frozen=True)
class Attack:
    id: str          # "<category>-<n>"
    category: str
    expect: str      # "refused", "input_error" or "allowed"
    query: str
    heavy: bool = False  # costs real time or memory when run: give it a small timeout


Raw = list[tuple[str, str, str]]  # (category, expect, query): a builder's cases, numbered by generate()


# ------------------------------------------------------------------ writing a query many ways
# Templates are token lists; `render` joins them with separators and cases the bare keywords.
SEPARATORS = {
    "space": [" "],
    "newline": ["\n", "\n  "],
    "tabs": ["\t", " \t "],
    "crlf": ["\r\n", "\r"],
    "comment": [" # a comment\n", "#\n", " #INSERT SERVICE LOAD\r\n", "#}\n"],
    "mixed": [" ", "\n", "\t", "  ", "#x\n", "\r\n", " #\t\n"],
    "tight": [""],   # no separator wherever the grammar allows none
}
SPARQL_WS = {"space", "newline", "tabs", "crlf", "comment", "mixed", "tight"}
ODD_WS = [" \x0b ", "\x0c", "\u00a0", "\u2028", "\x85"]  # whitespace to Python, not to SPARQL
CASES = ("upper", "lower", "title", "alternate", "random")
_PUNCT = set("{}()[];,.*")


def _keyword(tok: str) -> bool:
    return tok.isalpha() and tok.isupper() and tok not in ("A",)


def _case(tok: str, style: str, rng: random.Random) -> str:
    if not _keyword(tok):
        return tok
    if style == "lower":
        return tok.lower()
    if style == "title":
        return tok.title()
    if style == "alternate":
        return "".join(c.lower() if i % 2 else c for i, c in enumerate(tok))
    if style == "random":
        return "".join(c.lower() if rng.random() < 0.5 else c for c in tok)
    return tok


def render(parts: Iterable[str], *, seps: str = "space", case: str = "upper", rng: random.Random | None = None,
           odd: bool = False) -> str:
    """Join template tokens: keywords cased by `case`, separators drawn from SEPARATORS[seps] (plus
    Python-only whitespace when `odd`). A separator is never empty between two word-like tokens."""
    rng = rng or random.Random(0)
    pool = SEPARATORS[seps] + (ODD_WS if odd else [])
    out: list[str] = []
    prev = ""
    for tok in parts:
        tok = _case(tok, case, rng)
        if out:
            sep = rng.choice(pool)
            if not sep and not (prev[-1] in _PUNCT or tok[0] in _PUNCT):
                sep = " "
            if sep.startswith("#") and prev.endswith(("<", "\\")):
                sep = " "
            out.append(sep)
        out.append(tok)
        prev = tok
    return "".join(out)


def q(text: str) -> list[str]:
    """A template from text: tokens split on spaces (write `<iri>` and strings without spaces)."""
    return text.split()


# ------------------------------------------------------------------ what hostile queries point at
def targets(endpoint: str) -> list[tuple[list[str], list[str]]]:
    """(prologue, term) pairs naming something outside the store: files, URLs, prefixed names of
    them, a relative IRI under a file BASE, \\u escapes inside the IRI."""
    host = endpoint.split("//", 1)[1].split("/", 1)[0]
    port = host.rsplit(":", 1)[-1] if ":" in host else "80"
    return [
        ([], [f"<{endpoint}>"]),
        ([], [f"<http://localhost:{port}/sparql>"]),
        ([], [f"<http://[::1]:{port}/q>"]),
        ([], ["<https://example.org/sparql>"]),
        ([], ["<file:///etc/passwd>"]),
        ([], ["<file://localhost/etc/hosts>"]),
        ([], ["<file:/proc/self/environ>"]),
        (["PREFIX", "h:", f"<{endpoint.rsplit('/', 1)[0]}/>"], ["h:" + endpoint.rsplit("/", 1)[1]]),
        (["PREFIX", "f:", "<file:///etc/>"], ["f:passwd"]),
        (["BASE", "<file:///etc/>"], ["<passwd>"]),
        ([], ["<" + endpoint.replace(":", "\\u003A", 2).replace("\\u003A", ":", 1) + ">"]),
        ([], ["<file:\\u002F\\u002F/etc/passwd>"]),
    ]


TRIPLE = ["<http://example.org/s>", "<http://example.org/p>", '"x"']


# ------------------------------------------------------------------ refused: updates of every form
def update_forms(target: list[str]) -> list[list[str]]:
    g = target
    return [
        ["INSERT", "DATA", "{", *TRIPLE, "}"],
        ["INSERT", "DATA", "{", "GRAPH", *g, "{", *TRIPLE, "}", "}"],
        ["DELETE", "DATA", "{", *TRIPLE, "}"],
        ["DELETE", "WHERE", "{", "?s", "?p", "?o", "}"],
        ["DELETE", "{", "?s", "?p", "?o", "}", "WHERE", "{", "?s", "?p", "?o", "}"],
        ["INSERT", "{", "?s", "?p", '"x"', "}", "WHERE", "{", "?s", "?p", "?o", "}"],
        ["DELETE", "{", "?s", "?p", "?o", "}", "INSERT", "{", "?s", "?p", '"y"', "}", "WHERE", "{", "?s", "?p", "?o", "}"],
        ["WITH", *g, "DELETE", "{", "?s", "?p", "?o", "}", "WHERE", "{", "?s", "?p", "?o", "}"],
        ["WITH", *g, "INSERT", "{", "?s", "?p", '"x"', "}", "USING", *g, "WHERE", "{", "?s", "?p", "?o", "}"],
        ["DELETE", "{", "GRAPH", "?g", "{", "?s", "?p", "?o", "}", "}", "USING", "NAMED", *g, "WHERE", "{",
         "GRAPH", "?g", "{", "?s", "?p", "?o", "}", "}"],
        ["LOAD", *g],
        ["LOAD", "SILENT", *g, "INTO", "GRAPH", "<http://example.org/g>"],
        ["CLEAR", "ALL"], ["CLEAR", "SILENT", "DEFAULT"], ["CLEAR", "NAMED"], ["CLEAR", "GRAPH", *g],
        ["DROP", "ALL"], ["DROP", "SILENT", "NAMED"], ["DROP", "DEFAULT"], ["DROP", "GRAPH", *g],
        ["CREATE", "GRAPH", *g], ["CREATE", "SILENT", "GRAPH", *g],
        ["ADD", "DEFAULT", "TO", *g], ["ADD", "SILENT", *g, "TO", "DEFAULT"],
        ["MOVE", *g, "TO", "DEFAULT"], ["MOVE", "SILENT", "DEFAULT", "TO", *g],
        ["COPY", "DEFAULT", "TO", *g], ["COPY", "SILENT", *g, "TO", "<http://example.org/g2>"],
    ]


SELECT_ALL = ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "}"]


def update_wrappers(update: list[str]) -> list[list[str]]:
    """The update alone, `;`-joined with a query or another update, and where no update may be
    (inside a query's group: not SPARQL, refused all the same)."""
    return [
        update,
        [*SELECT_ALL, ";", *update],
        [*update, ";", *SELECT_ALL],
        [*update, ";", "CLEAR", "ALL"],
        ["SELECT", "*", "WHERE", "{", *update, "}"],
        ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "OPTIONAL", "{", *update, "}", "}"],
        ["SELECT", "*", "WHERE", "{", "{", "SELECT", "?s", "WHERE", "{", *update, "}", "}", "}"],
        ["ASK", "{", "{", "?s", "?p", "?o", "}", "UNION", "{", *update, "}", "}"],
        ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "FILTER", "EXISTS", "{", *update, "}", "}"],
    ]


def _updates(endpoint: str, rng: random.Random) -> Raw:
    out = []
    ts = targets(endpoint)
    for ti, (prologue, term) in enumerate(ts):
        for fi, form in enumerate(update_forms(term)):
            for wi, wrapped in enumerate(update_wrappers(form)):
                seps = sorted(SPARQL_WS)[(ti + fi + wi) % len(SPARQL_WS)]
                case = CASES[(ti * 3 + fi + wi) % len(CASES)]
                out.append(("update", "refused", render([*prologue, *wrapped], seps=seps, case=case, rng=rng,
                                                       odd=(fi + wi) % 7 == 0)))
    return out


def _joined(endpoint: str, rng: random.Random) -> Raw:
    """Several operations joined by `;` (a SPARQL Update request): reads and writes in any order."""
    out = []
    ts = targets(endpoint)
    reads = [SELECT_ALL, ["ASK", "{", "}"], ["DESCRIBE", "<http://example.org/s>"]]
    for i in range(1_000):
        prologue, term = ts[i % len(ts)]
        forms = update_forms(term)
        count = 2 + i % 4
        ops = [rng.choice(forms) if j == i % count or rng.random() < 0.5 else rng.choice(reads)  # one update at least
               for j in range(count)]
        parts = list(prologue)
        for j, op in enumerate(ops):
            parts += ([rng.choice([";", ";", " ; ", ";;"])] if j else []) + op
        out.append(("joined", "refused", render(parts, seps=sorted(SPARQL_WS)[i % len(SPARQL_WS)],
                                                case=CASES[i % len(CASES)], rng=rng, odd=i % 11 == 0)))
    return out


# ------------------------------------------------------------------ refused: SERVICE wherever a group may be
def service_clauses(term: list[str], silent: bool) -> list[str]:
    return ["SERVICE", *(["SILENT"] if silent else []), *term, "{", "?x", "?y", "?z", "}"]


PLACEMENTS: dict[str, Callable[[list[str]], list[str]]] = {
    "plain": lambda c: ["SELECT", "*", "WHERE", "{", *c, "}"],
    "after_triple": lambda c: ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", ".", *c, "}"],
    "subquery": lambda c: ["SELECT", "*", "WHERE", "{", "{", "SELECT", "?x", "WHERE", "{", *c, "}", "}", "}"],
    "optional": lambda c: ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "OPTIONAL", "{", *c, "}", "}"],
    "union_left": lambda c: ["SELECT", "*", "WHERE", "{", "{", *c, "}", "UNION", "{", "?s", "?p", "?o", "}", "}"],
    "union_right": lambda c: ["SELECT", "*", "WHERE", "{", "{", "?s", "?p", "?o", "}", "UNION", "{", *c, "}", "}"],
    "minus": lambda c: ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "MINUS", "{", *c, "}", "}"],
    "exists": lambda c: ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "FILTER", "EXISTS", "{", *c, "}", "}"],
    "not_exists": lambda c: ["SELECT", "*", "WHERE", "{", "?s", "?p", "?o", "FILTER", "(", "NOT", "EXISTS", "{",
                             *c, "}", ")", "}"],
    "graph": lambda c: ["SELECT", "*", "WHERE", "{", "GRAPH", "?g", "{", *c, "}", "}"],
    "bind_exists": lambda c: ["SELECT", "*", "WHERE", "{", "BIND", "(", "EXISTS", "{", *c, "}", "AS", "?b", ")", "}"],
    "nested": lambda c: ["SELECT", "*", "WHERE", "{", "OPTIONAL", "{", "{", "SELECT", "*", "WHERE", "{", "GRAPH",
                         "?g", "{", "?s", "?p", "?o", "MINUS", "{", *c, "}", "}", "}", "}", "}", "}"],
    "ask": lambda c: ["ASK", "{", *c, "}"],
    "construct": lambda c: ["CONSTRUCT", "{", "?x", "?y", "?z", "}", "WHERE", "{", *c, "}"],
    "describe": lambda c: ["DESCRIBE", "?x", "WHERE", "{", *c, "}"],
    "limit": lambda c: ["SELECT", "(", "COUNT", "(", "*", ")", "AS", "?n", ")", "WHERE", "{", "?s", "?p", "?o", ".",
                        *c, "}", "GROUP", "BY", "?s", "LIMIT", "1"],
}


def _services(endpoint: str, rng: random.Random) -> Raw:
    out = []
    ts = targets(endpoint)
    variables = [(["BIND", "(", f"<{endpoint}>", "AS", "?svc", ")"], ["?svc"]),
                 (["VALUES", "?svc", "{", f"<{endpoint}>", "<file:///etc/passwd>", "}"], ["?svc"])]
    for pi, place in enumerate(PLACEMENTS.values()):
        for ti, (prologue, term) in enumerate(ts):
            for silent in (False, True):
                for k in range(4):
                    seps = sorted(SPARQL_WS)[(pi + ti + silent + k) % len(SPARQL_WS)]
                    case = "upper" if k == 0 else CASES[(pi + ti + k) % len(CASES)]
                    out.append(("service", "refused", render([*prologue, *place(service_clauses(term, silent))],
                                                            seps=seps, case=case, rng=rng, odd=ti == 3)))
        for bind, term in variables:  # the service IRI from the data or a VALUES row
            clause = [*bind, *service_clauses(term, False)]
            out.append(("service", "refused", render(place(clause), seps="mixed", rng=rng)))
    return out


# ------------------------------------------------------------------ refused: FROM / FROM NAMED
def _froms(endpoint: str, rng: random.Random) -> Raw:
    out = []
    forms = [["SELECT", "*"], ["ASK"], ["CONSTRUCT", "{", "?s", "?p", "?o", "}"], ["DESCRIBE", "?s"]]
    for ti, (prologue, term) in enumerate(targets(endpoint)):
        for fi, form in enumerate(forms):
            for ki, dataset in enumerate([["FROM", *term], ["FROM", "NAMED", *term],
                                          ["FROM", "<http://example.org/g>", "FROM", "NAMED", *term]]):
                body = ["WHERE", "{", "?s", "?p", "?o", "}"] if ki != 1 else \
                       ["WHERE", "{", "GRAPH", "?g", "{", "?s", "?p", "?o", "}", "}"]
                for si, seps in enumerate(sorted(SPARQL_WS)):
                    case = CASES[(ti + fi + ki + si) % len(CASES)]
                    out.append(("from", "refused", render([*prologue, *form, *dataset, *body], seps=seps,
                                                         case=case, rng=rng)))
    return out


# ------------------------------------------------------------------ refused: forms that fool a tokenizer
OPERANDS = [["0", "<", "1"], ["?x", "<", "?y"], ['"a"', "<", '"b"'], ["true", "<", "false"],
            ["STR", "(", "?x", ")", "<", '"z"'], ["(", "1", ")", "<", "2"], ["1", "<=", "2"],
            ["?x", "<=", "?y"], ["<http://a>", "<", "<http://b>"], ['"x"@en', "<", '"y"']]


def _hidden(endpoint: str, rng: random.Random) -> Raw:
    out = []
    ts = targets(endpoint)
    # 1. `FILTER(0<1)SERVICE#>` + newline: `<1)SERVICE#>` looks like an IRI, it is less-than, SERVICE, a comment
    for oi, operand in enumerate(OPERANDS):
        for opener in (["FILTER", "("], ["BIND", "("], ["FILTER", "(", "?x", "IN", "("]):
            expr = " ".join(opener) + " " + "".join(operand)
            for pi, place in enumerate(PLACEMENTS.values()):
                for ti in (0, 3, 4, 7, 9):
                    prologue, term = ts[ti]
                    close = ")" * opener.count("(")
                    tail = " AS ?b" if opener[0] == "BIND" else ""
                    hidden = f"{expr}{tail}{close}SERVICE#>\n{' '.join(term)} {{ ?x ?y ?z }}"
                    if pi % 2:
                        hidden = hidden.replace("SERVICE", "SERVICE SILENT", 1)
                    if (oi + pi) % 3 == 0:
                        hidden = hidden.replace("SERVICE", "sErViCe", 1)
                    out.append(("hidden", "refused", " ".join([*prologue, *place([hidden])])))
    # 2. projections and HAVING are expressions too
    for prologue, term in ts[:8]:
        t = " ".join(term)
        for text in (f"SELECT * WHERE {{ {{ SELECT (1<2 AS ?a) WHERE {{ FILTER(?a<?b)SERVICE#>\n{t} {{ ?x ?y ?z }} }} }} }}",
                     f"SELECT ?s WHERE {{ ?s ?p ?o FILTER(?o<5)SERVICE#>\n{t} {{ ?s ?p ?o }} }} GROUP BY ?s HAVING(COUNT(?o)<2)",
                     f"SELECT * WHERE {{ ?s ?p ?o FILTER(?o IN (1,2)<true)SERVICE#>\n{t} {{}} }}",
                     f"SELECT * WHERE {{ ?s ?p ?o FILTER(STRLEN(STR(?o))<=3)SERVICE#>\n{t} {{}} }}"):
            out.append(("hidden", "refused", " ".join([*prologue, text])))
    # 3. keywords glued to their neighbours: Oxigraph reads `trueSERVICE` as true SERVICE
    glued = [
        "SELECT * WHERE {{ ?s ?p trueSERVICE{t}{{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ ?s ?p falseSERVICE SILENT {t} {{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ ?s ?p true,falseSERVICE{t}{{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ SERVICESILENT{t}{{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ ?s ?p ?o OPTIONAL {{ SERVICESILENT {t} {{ ?x ?y ?z }} }} }}",
        "PREFIX SERVICE: <{e}> SELECT * WHERE {{ SERVICE:x {{ ?x ?y ?z }} }}",
        "PREFIX SERVICEh: <{e}> SELECT * WHERE {{ SERVICEh:x {{ ?x ?y ?z }} }}",
        "PREFIX SERVICESILENTh: <{e}> SELECT * WHERE {{ SERVICESILENTh:x {{ ?x ?y ?z }} }}",
        "PREFIX : <{e}> SELECT * WHERE {{ ?s ?p ?o . SERVICE:x#\n{{ ?x ?y ?z }} }}",
        "PREFIX services: <{e}> SELECT * WHERE {{ services:x {{ ?x ?y ?z }} }}",
        "PREFIX trueservice: <{e}> SELECT * WHERE {{ ?s ?p trueservice:x {{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ ?s ?p ?o }} ;INSERTDATA{{ <http://a> <http://b> <http://c> }}",
        "DELETEWHERE {{ ?s ?p ?o }}",
        "CLEARALL",
        "SELECT * FROMNAMED <file:///etc/passwd> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
    ]
    for ti, (prologue, term) in enumerate(ts):
        for gi, g in enumerate(glued):
            text = g.format(t=" ".join(term), e=endpoint)
            case = CASES[(ti + gi) % len(CASES)]
            if case != "upper":  # the glued word in another case
                text = text.replace("SERVICE", _case("SERVICE", case, rng))
            out.append(("hidden", "refused", " ".join([*prologue, text])))
    # 4. \u escapes: in keywords (SPARQL 1.1 decodes them before parsing) and inside IRIs, where a
    # tokenizer that does not know them reads `'` as a string opening that swallows what follows
    escaped = [
        "SELECT * WHERE {{ \\u0053ERVICE {t} {{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ SERVIC\\u0045 {t} {{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ \\u0073\\u0065rvice SILENT {t} {{ ?x ?y ?z }} }}",
        "SELECT * WHERE {{ \\U00000053ERVICE {t} {{ ?x ?y ?z }} }}",
        "\\u0049NSERT DATA {{ <http://a> <http://b> <http://c> }}",
        "DR\\u004FP ALL",
        "SELECT * \\u0046ROM <file:///etc/passwd> WHERE {{ ?s ?p ?o }}",
        "PREFIX http: <urn:x:> SELECT * WHERE {{ ?s ?p <http://e/a\\u0041'b> . SERVICE {t} {{ ?x ?y ?z }} ?s ?p 'c' }}",
        "PREFIX http: <urn:x:> SELECT * WHERE {{ ?s ?p <http://e/\\u0041#> . SERVICE {t} {{ ?x ?y ?z }} }}",
        "PREFIX http: <urn:x:> SELECT * WHERE {{ ?s ?p <http://e/\\U00000041'> . SERVICE SILENT {t} {{ }} ?s ?p 'c' }}",
    ]
    for prologue, term in ts:
        for e in escaped:
            out.append(("hidden", "refused", " ".join([*prologue, e.format(t=" ".join(term))])))
    return out


# ------------------------------------------------------------------ input errors: too long, too deep
def _limits(endpoint: str, rng: random.Random) -> Raw:
    out = []
    pads = [
        lambda n: "#" + "x" * n + "\n",                              # one long comment
        lambda n: " " * n,                                           # whitespace
        lambda n: "\n".join("# " + "y" * 70 for _ in range(n // 73 + 1)) + "\n",
    ]
    tails = [" ".join(SELECT_ALL), f"SELECT * WHERE {{ SERVICE <{endpoint}> {{ ?s ?p ?o }} }}",
             "DROP ALL", "SELECT * WHERE { ?s ?p ?o } ; CLEAR ALL"]
    for pi, pad in enumerate(pads):
        for tail in tails:
            for extra in (1, 10, 5_000, 100_000):
                head = pad(MAX_QUERY_CHARS + extra - len(tail))
                out.append(("too_long", "input_error", head + tail if (pi + extra) % 2 else tail + "\n" + head))
    values = " ".join(str(i) for i in range(20_000))
    out.append(("too_long", "input_error", f"SELECT * WHERE {{ VALUES ?v {{ {values} }} }}"))
    out.append(("too_long", "input_error", "SELECT * WHERE { ?s ?p '" + "z" * MAX_QUERY_CHARS + "' }"))
    out.append(("too_long", "input_error", "SELECT * WHERE { ?s ?p <http://e/" + "i" * MAX_QUERY_CHARS + "> }"))
    # nesting past the limit: Oxigraph's recursive parser overflows its stack at a few thousand
    for depth in (MAX_DEPTH + 1, 500, 3_000, 20_000):
        out += [
            ("too_deep", "input_error", "SELECT * WHERE { FILTER(" + "(" * depth + "1" + ")" * depth + ") }"),
            ("too_deep", "input_error", "SELECT * WHERE { " + "{ " * depth + "}" * depth + " }"),
            ("too_deep", "input_error", "SELECT * WHERE { FILTER(" + "STR(" * depth + "1" + ")" * depth + ") }"),
            ("too_deep", "input_error", "SELECT * WHERE { ?s ?p " + "[ ?p " * depth + "1" + " ]" * depth + " }"),
            ("too_deep", "input_error", "SELECT * WHERE { " + "{ SELECT * WHERE { " * depth + "} }" * depth + " }"),
        ]
    return out


# ------------------------------------------------------------------ allowed but heavy
# Heavy queries name no term of the schema's namespace (http://example.org/): the command line's term
# check would stop them before the engine; rdf:type, rdfs:subClassOf and negated sets match real data.
RDFS = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "


def path_expression(rng: random.Random, depth: int) -> str:
    """A random property path: alternatives, sequences, inverses, `*` `+` `?`, negated sets."""
    if depth == 0:
        return rng.choice(["<http://example.com/p>", "<http://example.com/q>", "^<http://example.com/p>", "a", "^a",
                           "!(<http://example.com/p>|^<http://example.com/q>)", "!a", "rdfs:subClassOf"])
    left, right = path_expression(rng, depth - 1), path_expression(rng, depth - 1)
    op = rng.choice(["|", "/"])
    return f"({left}{op}{right}){rng.choice(['*', '+', '?', ''])}"


def _fill(sep: str, part: Callable[[int], str], room: int = MAX_QUERY_CHARS - 2_000) -> str:
    """parts 0, 1, 2, ... joined by `sep` while the text stays within `room` characters."""
    parts: list[str] = []
    size = 0
    while size + len(sep) + len(part(len(parts))) < room:
        size += len(sep) * bool(parts) + len(part(len(parts)))
        parts.append(part(len(parts)))
    return sep.join(parts)


def _heavy(rng: random.Random) -> Raw:
    out = []
    p, q_ = "<http://example.com/p>", "<http://example.com/q>"
    # property paths: the audit's `(p|q)*/^p+` nested, random trees, long sequences, wide alternatives
    for depth in range(1, 7):
        nest = f"({p}|{q_})*/^{p}+"
        for _ in range(depth):
            nest = f"(({nest})|^({nest}))*/({nest})+"
        out.append(("path", "allowed", f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s {nest} ?o }}"))
    for i in range(1_000):
        depth = 1 + i % 6
        subject, obj = ("?s", "?o") if i % 3 else ("<http://example.com/s>", "?o")
        tail = ["", " ORDER BY ?o", " LIMIT 5", " GROUP BY ?s"][i % 4]
        proj = "(COUNT(*) AS ?n)" if tail == " GROUP BY ?s" or i % 5 == 0 else "*"
        if tail == " GROUP BY ?s":
            proj = "?s (COUNT(*) AS ?n)"
        text = f"SELECT {proj} WHERE {{ {subject} {path_expression(rng, depth)} {obj} }}{tail}"
        out.append(("path", "allowed", (RDFS if "rdfs:" in text else "") + text))
    for n in (50, 500, 1_800):
        seq = "/".join(f"({p}|^{q_})*" for _ in range(n))
        out.append(("path", "allowed", f"SELECT * WHERE {{ ?s {seq} ?o }}"))
        alt = "|".join(f"<http://example.com/p{i}>" for i in range(n))
        out.append(("path", "allowed", f"SELECT * WHERE {{ ?s ({alt})* ?o }}"))
    # cartesian products
    for n in range(2, 14):
        for shape in ("count", "distinct", "order", "construct"):
            pats = " . ".join(f"?a{i} ?b{i} ?c{i}" for i in range(n))
            text = {"count": f"SELECT (COUNT(*) AS ?n) WHERE {{ {pats} }}",
                    "distinct": f"SELECT DISTINCT * WHERE {{ {pats} }}",
                    "order": f"SELECT * WHERE {{ {pats} }} ORDER BY DESC(?a0) ?c{n - 1}",
                    "construct": f"CONSTRUCT {{ ?a0 ?b0 ?c{n - 1} }} WHERE {{ {pats} }}"}[shape]
            out.append(("cartesian", "allowed", text))
    # huge VALUES blocks, crossed
    for size in (100, 1_000, 3_000, 10_000):
        block = " ".join(str(i) for i in range(size))
        for blocks in (1, 2, 3, 4):
            if len(block) * blocks > MAX_QUERY_CHARS - 200:
                continue
            body = " ".join(f"VALUES ?v{k} {{ {block} }}" for k in range(blocks))
            for proj in ("(COUNT(*) AS ?n)", "*", "(SUM(?v0) AS ?s)"):
                out.append(("values", "allowed", f"SELECT {proj} WHERE {{ {body} }}"))
    for size in (10, 100, 1_000):  # rows of several IRIs
        rows = " ".join(f"(<http://example.com/r{i}> {i} \"v{i}\")" for i in range(size))
        out.append(("values", "allowed", f"SELECT * WHERE {{ VALUES (?a ?b ?c) {{ {rows} }} ?a ?p ?o }}"))
    # huge results: every quad against every quad, long strings doubled, many rows of big strings
    for k in range(2, 8):
        pats = " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(k))
        out.append(("results", "allowed", f"SELECT * WHERE {{ {pats} }}"))
        out.append(("results", "allowed", f"SELECT (GROUP_CONCAT(STR(?o0)) AS ?all) WHERE {{ {pats} }}"))
    for levels in (8, 16, 20, 24, 28, 32):
        doubling = " ".join(f"BIND(CONCAT(?t{i}, ?t{i}) AS ?t{i + 1})" for i in range(levels))
        out.append(("results", "allowed", f"SELECT ?t{levels} WHERE {{ BIND(\"0123456789abcdef\" AS ?t0) {doubling} }}"))
        out.append(("results", "allowed",
                    f"SELECT (STRLEN(?t{levels}) AS ?n) WHERE {{ VALUES ?v {{ {' '.join(map(str, range(200)))} }} "
                    f"BIND(CONCAT(\"x\", STR(?v)) AS ?t0) {doubling} }}"))
    # nesting within the limit (nested blank nodes and lists parse slowly in Oxigraph)
    for depth in (10, 50, MAX_DEPTH - 2):  # the brackets around them count too
        out += [
            ("nesting", "allowed", "SELECT * WHERE { FILTER(" + "(" * depth + "1" + ")" * depth + ") }"),
            ("nesting", "allowed", "SELECT * WHERE { " + "{ " * depth + "}" * depth + " }"),
            ("nesting", "allowed", "SELECT * WHERE { ?s ?p " + "[ ?p " * depth + "1" + " ]" * depth + " }"),
            ("nesting", "allowed", "SELECT * WHERE { ?s ?p " + "( " * depth + "1" + " )" * depth + " }"),
            ("nesting", "allowed", "SELECT * WHERE { " + "OPTIONAL { " * depth + "}" * depth + " }"),
        ]
    # just under the size limit
    out.append(("near_limit", "allowed", "SELECT * WHERE { " +
                _fill(" UNION ", lambda i: f"{{ ?s <http://example.com/p{i}> ?o{i % 7} }}") + " }"))
    out.append(("near_limit", "allowed", "SELECT (COUNT(*) AS ?n) WHERE { " +
                _fill(" ", lambda i: f"?x{i} <http://example.com/p> ?x{i + 1} .") + " }"))
    out.append(("near_limit", "allowed", "SELECT * WHERE { ?s ?p ?o FILTER(?o != \"" + "q" * (MAX_QUERY_CHARS - 200) +
                "\") }"))
    out.append(("near_limit", "allowed", "# " + "c" * (MAX_QUERY_CHARS - 100) + "\nASK { }"))
    return out


# ------------------------------------------------------------------ allowed: the refused words as data
DECOYS = [
    'SELECT ?s WHERE {{ ?s ?p "INSERT DATA {{ }} ; DROP ALL ; SERVICE <{e}>" }}',
    "SELECT ?s WHERE {{ ?s ?p ?o }} # then SERVICE <{e}> and LOAD <file:///etc/passwd>",
    "SELECT ?s WHERE {{ ?s <http://example.com/load#drop> ?o }}",
    "SELECT ?s WHERE {{ ?s <http://example.com/SERVICE> <{e}> }}",
    "SELECT ?insert ?service ?from WHERE {{ ?insert ?service ?from }}",
    "PREFIX ex: <http://example.com/> SELECT ?s WHERE {{ ?s ex:delete ex:service . ?s ex:from ex:load }}",
    "SELECT ?s WHERE {{ ?s ?p '''multi\nline with CLEAR and SERVICE <{e}> {{ }}''' }}",
    "SELECT ?s WHERE {{ ?s ?p ?o FILTER(?o = <{e}>) }}",
    "SELECT ?s WHERE {{ ?s ?p ?o FILTER(?o IN (<{e}>, <file:///etc/passwd>)) }}",
    "SELECT ?s WHERE {{ ?s ?p ?o FILTER(?o != <http://example.com/SERVICE#x>) }}",
    "SELECT ?s WHERE {{ ?s ?p ?o FILTER(1 < 2 && ?o < 5) }}",
    "SELECT ?s WHERE {{ ?s ?p ?o FILTER(?o<5) }} ORDER BY ?s",
    "SELECT (1<2 AS ?t) WHERE {{ }}",
    "PREFIX services: <http://example.com/services/> SELECT ?s WHERE {{ services:desk ?p ?o . ?s ?p services:desk }}",
    "PREFIX services: <http://example.com/services/> SELECT ?s WHERE {{ GRAPH services:g {{ ?s ?p ?o }} }}",
    "PREFIX service: <http://example.com/service/> SELECT ?s WHERE {{ ?s service:from ?o }}",
    "SELECT ?s WHERE {{ ?s ?p \"caf\\u00e9 SERVICE\" }}",
    "SELECT ?s WHERE {{ ?s ?p <http://example.com/caf\\u00e9> }}",
    "SELECT ?s WHERE {{ ?s <http://example.com/p>? ?o }}",
    "SELECT ?s WHERE {{ ?s (<http://example.com/p>|^<http://example.com/q>)* <http://example.com/o> }}",
    "SELECT ?s WHERE {{ ?s ?p ( <http://example.com/a> <http://example.com/b> ) }}",
    "ASK {{ ?s ?p ?o FILTER NOT EXISTS {{ ?s <http://example.com/dropped> ?o }} }}",
    "CONSTRUCT {{ ?s <http://example.com/inserted> ?o }} WHERE {{ ?s ?p ?o }}",
    "DESCRIBE <{e}>",
    "SELECT ?s WHERE {{ ?s ?p ?o }} VALUES ?s {{ <{e}> <file:///etc/passwd> }}",
    "SELECT ?s WHERE {{ ?s ?p \"copy, move, add, create\"@en }}",
    "SELECT ?s WHERE {{ ?s ?p ?o . BIND(STR(?o) AS ?with) }}",
    "BASE <http://example.com/> SELECT ?s WHERE {{ ?s <service> <load> }}",
]


def _decoys(endpoint: str, rng: random.Random) -> Raw:
    out, seen = [], set()
    for d in DECOYS:
        text = d.format(e=endpoint)
        # strings and comments stay whole: a separator inside them would change what they are
        whole = any(c in text for c in "#'\"")
        for seps in ("space", "newline", "tabs", "comment", "crlf"):
            for case in CASES:
                variant = text if whole else render(text.split(" "), seps=seps, case=case, rng=rng)
                if variant not in seen:
                    seen.add(variant)
                    out.append(("decoy", "allowed", variant))
    return out


# ------------------------------------------------------------------ the list
HEAVY = {"path", "cartesian", "values", "results", "nesting", "near_limit"}


def generate(endpoint: str = "http://127.0.0.1:8890/sparql", seed: int = 16) -> list[Attack]:
    """Every case, in a fixed order; the same list for the same arguments."""
    rng = random.Random(seed)
    raw = [*_updates(endpoint, rng), *_joined(endpoint, rng), *_services(endpoint, rng), *_froms(endpoint, rng),
           *_hidden(endpoint, rng), *_limits(endpoint, rng), *_heavy(rng), *_decoys(endpoint, rng)]
    counts: dict[str, int] = {}
    out = []
    for category, expect, text in raw:
        n = counts[category] = counts.get(category, -1) + 1
        out.append(Attack(f"{category}-{n}", category, expect, text, category in HEAVY))
    return out


def sample(cases: list[Attack], n: int, *, categories: Iterable[str] | None = None) -> list[Attack]:
    """`n` cases spread evenly over the categories (in turn), each category's picks evenly spaced
    through it: deterministic, and every category is represented once n reaches their number."""
    by: dict[str, list[Attack]] = {}
    for c in cases:
        if categories is None or c.category in categories:
            by.setdefault(c.category, []).append(c)
    names = list(by)
    quota = {name: n // len(names) + (1 if i < n % len(names) else 0) for i, name in enumerate(names)}
    out = []
    for name in names:  # a seeded pick per category: the same cases every run, not aligned with any template
        items = by[name]
        picks = random.Random(f"{name}:{n}").sample(range(len(items)), min(quota[name], len(items)))
        out += [items[i] for i in sorted(picks)]
    return out
