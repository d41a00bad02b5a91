"""Read-only SPARQL: updates, LOAD and SERVICE refused however they are written; errors with positions;
execution limits (timeout, row cap, memory) on a real on-disk Oxigraph store; the query process has no
network, so a SERVICE clause hidden from the text check reaches nobody."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time

import pyoxigraph as ox
import pytest

from pyramid.errors import InputError, QueryRefused, QueryTimeout
from pyramid.ontology.query_worker import QueryWorker
from pyramid.ontology.safety import check_query
from pyramid.ontology.store import OntologyStore

REFUSED = [
    "INSERT DATA { <http://a> <http://b> <http://c> }",
    "DELETE WHERE { ?s ?p ?o }",
    "DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL",
    "DROP GRAPH <http://g>",
    "CREATE GRAPH <http://g>",
    "COPY DEFAULT TO <http://g>",
    "MOVE <http://a> TO <http://b>",
    "ADD <http://a> TO <http://b>",
    "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "SELECT * WHERE { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } }",
    "SELECT * WHERE { SERVICE SILENT <http://x/> { ?s ?p ?o } }",
    # casing, whitespace and comments
    "iNsErT dAtA { <http://a> <http://b> <http://c> }",
    "\n\t  PREFIX ex: <http://e/>\n# a comment\n  DeLeTe\tWHERE { ?s ?p ?o }",
    "SELECT * WHERE { ?s ?p ?o } ; INSERT DATA { <http://a> <http://b> <http://c> }",
    "SELECT * WHERE { ?s ?p ?o } #\nDROP ALL",
    "SELECT * WHERE {\nsErViCe # hidden\n<http://x/> { ?s ?p ?o } }",
    "PREFIX s: <http://e/> SELECT * { ?a ?b ?c . SERVICE<http://x/>{?s ?p ?o} }",
]


@pytest.mark.parametrize("query", REFUSED)
def test_unsafe_queries_are_refused_with_the_reason(query):
    with pytest.raises(QueryRefused) as err:
        check_query(query)
    reason = "SERVICE" if "service" in query.lower() else "SPARQL update"
    assert str(err.value).startswith("refused: " + reason)


ALLOWED = [
    ("SELECT ?s WHERE { ?s ?p ?o }", "SELECT"),
    ("ASK { ?s ?p ?o }", "ASK"),
    ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
    ("DESCRIBE <http://a>", "DESCRIBE"),
    # the forbidden words as data: in strings, comments, IRIs, variables and prefixed names
    ('SELECT ?s WHERE { ?s ?p "INSERT DATA { } ; DROP ALL" }', "SELECT"),
    ("SELECT ?s WHERE { ?s ?p ?o } # then DELETE everything, or call SERVICE", "SELECT"),
    ("SELECT ?s WHERE { ?s <http://e/load#drop> ?o }", "SELECT"),
    ("SELECT ?insert ?service WHERE { ?insert ?p ?service }", "SELECT"),
    ("PREFIX ex: <http://e/> SELECT ?s WHERE { ?s ex:delete ex:service }", "SELECT"),
    ("SELECT ?s WHERE { ?s ?p '''multi\nline with CLEAR and SERVICE''' }", "SELECT"),
    ("BASE <http://e/> PREFIX : <http://e/> select ?s { ?s :p ?o FILTER(?o < 3) }", "SELECT"),
    # numbers, exponents, language tags and datatypes are tokens of their own, not words
    ('SELECT ?s WHERE { ?s ?p 1.5e3 , "x"@en-GB , "5"^^<http://www.w3.org/2001/XMLSchema#int> }', "SELECT"),
]


@pytest.mark.parametrize("query,kind", ALLOWED)
def test_read_queries_pass_with_their_kind(query, kind):
    assert check_query(query) == kind


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory):
    """No store on disk yet: queries still run in the query process (on an empty store)."""
    st = OntologyStore(tmp_path_factory.mktemp("empty") / "onto")
    yield st
    st.close()


def test_syntax_errors_carry_line_and_column(empty_store):
    with pytest.raises(InputError) as err:
        empty_store.run_query("SELECT ?s WHERE {\n  ?s ?p }", timeout_s=10, row_cap=1)
    assert err.value.line == 2 and "column" in str(err.value)


@pytest.mark.parametrize("query,where,detail,near", [
    # the audit's case: Oxigraph listed character-class junk and the snippet started mid-word
    ("SELECT ?s WHERE { ?s ?p ", "line 1, column 25 (the end of the query)",
     "the triple pattern '?s ?p' has no object", "{ ?s ?p ⟨here⟩"),
    ("SELECT ?s\nWHERE {\n  ?s ?p ?o } LIMT 3", "line 3, column 14",
     "'LIMT' is not a SPARQL keyword (did you mean LIMIT?)", "?s ?p ?o } ⟨here⟩LIMT 3"),
    ("SELECT ?s WHERE {\n  ?s ?p ?o FILTER(?o > 3 }", "line 2, column 26",
     "'(' opened at line 2, column 18 is not closed before this '}'", "FILTER(?o > 3 ⟨here⟩}"),
    ('SELECT ?s WHERE { ?s <http://a> "x }', "line 1, column 33", "the string opened with \" here is never closed",
     '<http://a> ⟨here⟩"x }'),
    ("SELECT ?s WHERE { ?s ?p ?o FILTER(?o = ) }", "line 1, column 38", "nothing follows '='", "?o ⟨here⟩= ) }"),
    # nothing the tokenizer sees: Oxigraph's expected tokens, in words
    ("SELECT ?s WHERE { ?s ?p ?o } ORDER BY", "line 1, column 38 (the end of the query)",
     "expected a variable, ", "ORDER BY⟨here⟩"),
    ("SELECT ?s WHERE { ?s ?p ?o } ORDER ?s", "line 1, column 38 (the end of the query)", "expected BY",
     "ORDER ?s⟨here⟩"),
])
def test_syntax_errors_say_where_and_what_in_words(empty_store, query, where, detail, near):
    with pytest.raises(InputError) as err:
        empty_store.run_query(query, timeout_s=10, row_cap=1)
    msg = str(err.value)
    assert f"invalid SPARQL at {where}: " in msg and detail in msg and "near: " in msg and near in msg
    assert not re.search(r"\b(FFF|FEF|FDCF|FFFD)\b|\[_\]|\\u\{", msg)  # no character classes or escapes
    assert err.value.line == int(where.split(",")[0].split()[-1])


def test_unknown_prefix_is_named_unless_supplied():
    with pytest.raises(InputError, match=r"unknown prefix 'foo:'"):
        check_query("SELECT ?s WHERE { ?s foo:p ?o }")
    assert check_query("SELECT ?s WHERE { ?s foo:p ?o }", {"foo": "http://foo/"}) == "SELECT"


def test_not_a_query():
    with pytest.raises(InputError):
        check_query("hello world")
    with pytest.raises(InputError):
        check_query("   ")


@pytest.fixture
def store(tmp_path):
    st = OntologyStore(tmp_path / "onto")
    p = ox.NamedNode("http://e/p")
    st.replace_graph("import:numbers", [ox.Triple(ox.NamedNode(f"http://e/{i}"), p, ox.Literal(i)) for i in range(3000)])
    yield st
    st.close()


def test_row_cap_and_plain_values(store):
    result = store.run_query("SELECT ?s ?o WHERE { ?s <http://e/p> ?o } ORDER BY ?o", timeout_s=10, row_cap=5)
    assert result.truncated and len(result.rows) == 5
    assert result.rows[0] == {"s": "http://e/0", "o": 0}  # IRIs as strings, integers as int
    full = store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", timeout_s=10, row_cap=5)
    assert full == [{"n": 3000}]


def test_a_runaway_query_is_stopped_at_its_timeout(store):
    start = time.perf_counter()
    with pytest.raises(QueryTimeout):
        store.select("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }", timeout_s=1.0, row_cap=10)
    assert time.perf_counter() - start < 5
    # the next query gets a fresh query process
    assert store.select("ASK { ?s ?p ?o }", timeout_s=10, row_cap=1) == [{"ask": True}]


def test_refused_query_leaves_the_store_unchanged(store):
    before = store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", timeout_s=10, row_cap=1)
    with pytest.raises(QueryRefused):
        store.select("DELETE WHERE { ?s ?p ?o }", timeout_s=10, row_cap=1)
    assert store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", timeout_s=10, row_cap=1) == before


# ------------------------------------------------------------------ the query process: no network, bounded
@pytest.fixture
def http_logger():
    from benchmarks.attacks import request_logger

    leak = b'{"head":{"vars":["leak"]},"results":{"bindings":[{"leak":{"type":"literal","value":"x"}}]}}'
    with request_logger(leak) as (port, hits):
        yield port, hits


HIDDEN_SERVICE = [
    # the tokenizer reads `<1)SERVICE#>` as an IRI; Oxigraph reads less-than, SERVICE and a comment
    "SELECT ?leak WHERE {{ FILTER(0<1)SERVICE#>\n<http://127.0.0.1:{port}/sparql> {{ ?x ?y ?leak }} }}",
    "SELECT ?leak WHERE {{ OPTIONAL {{ FILTER(0<1)SERVICE#>\n<http://127.0.0.1:{port}/q> {{ ?x ?y ?leak }} }} }}",
    ("SELECT ?leak WHERE {{ {{ SELECT ?leak WHERE {{ FILTER(2<3)SeRvIcE#>\n<http://127.0.0.1:{port}/s> "
     "{{ ?a ?b ?leak }} }} }} }}"),
    "ASK {{ BIND(1 AS ?z) FILTER(?z<2)SERVICE#>\nSILENT <http://127.0.0.1:{port}/silent> {{ ?a ?b ?c }} }}",
]


@pytest.mark.parametrize("template", HIDDEN_SERVICE)
def test_a_service_clause_hidden_from_the_text_check_reaches_no_server(store, empty_store, http_logger, template):
    port, hits = http_logger
    query = template.format(port=port)
    with pytest.raises(QueryRefused, match="SERVICE"):  # the tokenizer reads `<` after an operand as less-than
        check_query(query)
    # and were the check fooled, the query process would still reach nobody: handed the query directly
    for where in (store.path, None):
        worker = QueryWorker(where)
        try:
            if "SILENT" in query:  # a silent SERVICE that fails is no error: it may run, but reaches nobody
                with contextlib.suppress(QueryRefused):
                    worker.run(query, timeout_s=10, row_cap=10, prefixes=None, graphs=None, generation=None)
            else:
                with pytest.raises(QueryRefused, match="network"):
                    worker.run(query, timeout_s=10, row_cap=10, prefixes=None, graphs=None, generation=None)
        finally:
            worker.close()
    assert hits == []


def test_the_text_check_never_runs_the_query():
    # three VALUES blocks under COUNT(*): a billion rows if anything evaluated it
    values = " ".join(str(i) for i in range(1000))
    query = ("SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"VALUES ?v{k} {{ {values} }}" for k in range(3)) + " }")
    start = time.perf_counter()
    assert check_query(query) == "SELECT"
    assert time.perf_counter() - start < 1.0


def test_a_costly_query_is_stopped_at_its_timeout_parse_and_all(empty_store):
    values = " ".join(str(i) for i in range(1000))
    query = ("SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"VALUES ?v{k} {{ {values} }}" for k in range(3)) + " }")
    start = time.perf_counter()
    with pytest.raises(QueryTimeout):
        empty_store.run_query(query, timeout_s=1.0, row_cap=1)
    assert time.perf_counter() - start < 4


def test_a_query_past_the_memory_ceiling_is_stopped_with_a_message(tmp_path):
    st = OntologyStore(tmp_path / "onto", memory_mb=200)
    rows = " ".join(str(i) for i in range(600))
    # ORDER BY keeps every solution of a 600^3 product in memory: far past 200 MB
    query = ("SELECT ?a ?b ?c WHERE { " + " ".join(f"VALUES ?{v} {{ {rows} }}" for v in "abc") + " } ORDER BY ?a")
    try:
        with pytest.raises(Exception) as err:
            st.run_query(query, timeout_s=60, row_cap=1)
        assert "200 MB" in str(err.value) or "memory" in str(err.value).lower()
        assert st.run_query("ASK { }", timeout_s=10, row_cap=1).rows == [{"ask": True}]  # a fresh process
    finally:
        st.close()


@pytest.mark.parametrize("family", ["AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK"])
def test_the_sandbox_refuses_every_socket_but_not_a_connected_pair(family):
    # AF_UNIX too: a local socket reaches nscd or systemd-resolved, which look names up on the network
    code = ("import socket, sys\nfrom pyramid.sandbox import deny_network\nassert deny_network()\n"
            "a, b = socket.socketpair()\na.sendall(b'x')\nassert b.recv(1) == b'x'\n"
            f"try:\n    socket.socket(socket.{family}, socket.SOCK_DGRAM)\nexcept PermissionError:\n    sys.exit(7)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 7, result.stderr
