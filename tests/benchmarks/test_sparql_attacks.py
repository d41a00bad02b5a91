"""The adversarial SPARQL suite (issue 16, item 1). Every generated query (benchmarks/attack_queries.py,
over 10,000: updates of every form, LOAD, SERVICE, FROM, tokenizer tricks, escapes, heavy and huge
queries, decoys) goes through the safety check in-process: it meets its expectation, every refusal is
one line, and no check opens a file or a socket (an audit hook watches). Then a bounded, deterministic
sample goes through the real command line on a small workspace — `polyrag sparql` and `ask --sparql
raw` with a scripted model emitting the query — against a loopback HTTP logger: the store's quads are
unchanged after every case, refusals are one error line and a non-zero exit, heavy queries end within
their timeout, and the logger hears nothing."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import ROOT, run_cli

from benchmarks.attack_queries import MAX_DEPTH, MAX_QUERY_CHARS, generate, sample
from benchmarks.attacks import request_logger
from pyramid.errors import InputError, QueryRefused
from pyramid.ontology import safety
from pyramid.ontology.safety import check_query

CASES = generate()
BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


# ------------------------------------------------------------------ an audit hook that can be switched off
# Audit hooks cannot be removed, so one hook per process consults a flag; it records what the code
# under watch opens, besides the interpreter loading modules.
_WATCH: dict = {"on": False, "seen": []}
_EVENTS = {"open", "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.bind",
           "socket.sendto", "urllib.Request", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn"}
_MODULE_DIRS = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT))})


def _audit(event: str, args: tuple) -> None:
    if not _WATCH["on"] or event not in _EVENTS:
        return
    if event == "open":
        path = os.path.realpath(os.fsdecode(args[0])) if isinstance(args[0], (str, bytes, os.PathLike)) else ""
        if path.startswith(_MODULE_DIRS) and path.endswith((".py", ".pyc", ".so")) and (args[1] or "r") == "r":
            return  # a lazy import, read-only
    _WATCH["seen"].append((event, repr(args)[:200]))


if not getattr(sys, "_polyrag_attack_hook", False):
    sys.addaudithook(_audit)
    sys._polyrag_attack_hook = True  # type: ignore[attr-defined]


class watched:
    """`with watched() as seen:` — what was opened or connected to inside the block."""

    def __enter__(self) -> list:
        _WATCH["seen"] = []
        _WATCH["on"] = True
        return _WATCH["seen"]

    def __exit__(self, *exc) -> None:
        _WATCH["on"] = False


def test_the_hook_sees_what_it_must():
    with watched() as seen:
        open(os.devnull).close()
        try:
            import socket

            socket.getaddrinfo("localhost", 80)
        except OSError:
            pass
    assert {e for e, _ in seen} >= {"open", "socket.getaddrinfo"}


# ------------------------------------------------------------------ 1. every query through the check
def test_the_generator_is_big_deterministic_and_knows_the_limits():
    assert len(CASES) >= 10_000
    assert [c.query for c in generate()] == [c.query for c in CASES]
    assert (MAX_QUERY_CHARS, MAX_DEPTH) == (safety.MAX_QUERY_CHARS, safety.MAX_DEPTH)
    kinds = {c.category for c in CASES if c.expect == "refused"}
    assert kinds == {"update", "joined", "service", "from", "hidden"}
    text = "\n".join(c.query for c in CASES if c.expect == "refused").upper()
    for form in ("INSERT DATA", "DELETE DATA", "DELETE WHERE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE",
                 "COPY", "WITH", "SERVICE", "FROM NAMED", "FILE://", "HTTPS://", "\\U0053ERVICE", "OPTIONAL", "UNION",
                 "MINUS", "FILTER EXISTS", "GRAPH", ";"):
        assert form in text, form


def test_every_generated_query_gets_its_verdict_from_the_check_alone():
    """No execution and no I/O: the check of 11,000 queries takes seconds, opens nothing, and every
    refusal or input error is one line."""
    wrong, multiline, slowest = [], [], (0.0, "")
    start = time.perf_counter()
    with watched() as seen:
        for c in CASES:
            t = time.perf_counter()
            try:
                check_query(c.query)
                got, message = "allowed", ""
            except QueryRefused as err:
                got, message = "refused", str(err)
            except InputError as err:
                got, message = "input_error", str(err)
            slowest = max(slowest, (time.perf_counter() - t, c.id))
            if got != c.expect:
                wrong.append((c.id, got, message[:120], c.query[:200]))
            if BREAKS.search(message) or (got == "refused" and not message.startswith("refused: ")):
                multiline.append((c.id, message))
    total = time.perf_counter() - start
    assert not wrong, f"{len(wrong)} cases off their expectation, e.g. {wrong[:5]}"
    assert not multiline, multiline[:5]
    assert seen == [], seen[:10]
    assert total < 60 and slowest[0] < 2.0, (total, slowest)


def test_the_parse_of_the_term_check_opens_nothing_either():
    """`polyrag sparql` and raw mode parse a query with rdflib in the main process (raw mode before the
    safety check): a parse, no evaluation, so no FROM is loaded and no SERVICE called."""
    from querying.sparql_raw import query_terms

    picks = sample([c for c in CASES if len(c.query) <= 900], 600)
    query_terms("SELECT * WHERE { ?s ?p ?o }")  # rdflib's imports and plugin discovery, once
    with watched() as seen:
        for c in picks:
            try:
                query_terms(c.query, {"ex": "http://example.org/"})
            except ValueError:
                pass
    assert seen == [], seen[:10]


# ------------------------------------------------------------------ 2. the query process, handed queries directly
def test_the_query_process_bounds_what_the_check_lets_through(tmp_path):
    """Past the check, the query process is the bound: a SERVICE to a host name is a refusal (not a
    store failure retried), a reply of huge strings stops at its size, a parser crash is one line."""
    from pyramid.errors import WorkspaceError
    from pyramid.ontology.query_worker import QueryWorker

    worker = QueryWorker(None, reply_mb=1)
    try:
        def run(query: str):
            return worker.run(query, timeout_s=10, row_cap=100, prefixes=None, graphs=None, generation=None)

        with pytest.raises(QueryRefused, match="network"):
            run("SELECT * WHERE { SERVICE <http://no-such-host.invalid/sparql> { ?s ?p ?o } }")
        with pytest.raises(WorkspaceError) as err:  # another failure of a query that mentions service
            run("SELECT * WHERE { ?s ?p ?o FILTER(<http://example.org/f>(?o)) } # service")
        assert "network" not in str(err.value)
        doubling = " ".join(f"BIND(CONCAT(?t{i}, ?t{i}) AS ?t{i + 1})" for i in range(14))
        start = time.perf_counter()
        with pytest.raises(InputError, match="passed 1 MB") as err:
            run(f"SELECT ?t14 WHERE {{ VALUES ?v {{ {' '.join(map(str, range(100)))} }} "
                f"BIND(CONCAT(STR(?v), \"0123456789abcdef\") AS ?t0) {doubling} }}")
        assert time.perf_counter() - start < 5 and not BREAKS.search(str(err.value))
        try:  # Oxigraph's parser overflows an 8 MB stack here (the check refuses such nesting first)
            run("SELECT * WHERE { FILTER(" + "STR(" * 5_000 + "1" + ")" * 5_000 + ") }")
        except WorkspaceError as crash:
            assert re.search(r"stopped \(killed by SIG\w+\)", str(crash)) and not BREAKS.search(str(crash)), crash
        assert run("ASK { }").rows == [{"ask": True}]  # a fresh process
    finally:
        worker.close()


def test_a_reply_that_never_ends_is_cut_at_the_deadline():
    from pyramid.ontology.query_worker import QueryWorker

    read, write = os.pipe()
    try:
        os.write(write, b'{"ok": true, "rows": ["a reply still arriving')

        class Proc:
            stdout = os.fdopen(read, "rb", buffering=0, closefd=False)

        start = time.perf_counter()
        assert QueryWorker._read_reply(Proc, start + 0.5) is None
        assert 0.4 < time.perf_counter() - start < 2
        os.write(write, b'"]}\n')
        assert QueryWorker._read_reply(Proc, time.perf_counter() + 1).endswith(b"\n")
    finally:
        os.close(read)
        os.close(write)


# ------------------------------------------------------------------ 3. a sample through the command line
DATA = """@prefix : <http://example.org/> .
:alice a :ChairProfessor ; :has_name "Alice" ; :head_of :COMP .
:bob a :Lecturer ; :has_name "Bob" ; :works_for :COMP .
:COMP a :DEPARTMENT ; :belongs_to :FENG .
"""
TIMEOUT = 1.0  # seconds given to every query on the command line
MARGIN = 3.0   # the query process starting, the check, the reply
CLI_IDS = [c.id for c in sample(CASES, 40)]
ASK_IDS = [c.id for c in sample([c for c in CASES if len(c.query) <= 900], 30)]  # raw mode's reply schema caps at 900


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A loopback HTTP logger and the cases again, now pointing at it (same ids, same shapes)."""
    with request_logger() as (port, hits):
        yield {c.id: c for c in generate(f"http://127.0.0.1:{port}/sparql")}, hits


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    """The academic schema and three people, as `ontology load-schema` and `ontology import` make them."""
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.ontology.schema import Schema
    from pyramid.workspace import Workspace

    root = tmp_path_factory.mktemp("attacks")
    (root / "staff.ttl").write_text(DATA, encoding="utf-8")
    layer = OntologyLayer(Workspace.open(root / "ws", create=True))
    layer.load_schema(Schema.load(ROOT / "ontology_schemas" / "academic.ttl"))
    layer.import_instances(root / "staff.ttl")
    layer.reason()
    layer.store.close()
    return root / "ws"


def store_digest(ws: Path) -> str:
    """Every quad of the store (registered or not) and the graph registry, hashed."""
    store = ox.Store.read_only(str(ws / "ontology" / "store"))
    quads = sorted(str(q) for q in store)
    del store
    registry = (ws / "ontology" / "graphs.json").read_bytes()
    return hashlib.sha256("\n".join(quads).encode() + registry).hexdigest()


@contextlib.contextmanager
def unchanged_and_bounded(ws: Path, hits: list, limit: float = TIMEOUT + MARGIN):
    """Around one case: the store's content hash unchanged, no request heard, within `limit` seconds."""
    before = store_digest(ws)
    start = time.perf_counter()
    yield
    seconds = time.perf_counter() - start
    assert store_digest(ws) == before
    assert hits == []
    assert seconds < limit, seconds


def one_error_line(err: str) -> bool:
    lines = [line for line in re.split(r"\r\n|\r|\n", err) if line.strip()]
    return len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("case_id", CLI_IDS)
def test_polyrag_sparql_refuses_or_bounds_every_case(ws, live, capsys, case_id):
    cases, hits = live
    case = cases[case_id]
    with unchanged_and_bounded(ws, hits):
        code, out, err = run_cli(["sparql", ws, case.query, "--format", "rows", "--timeout", TIMEOUT], capsys)
    assert "Traceback" not in out + err
    if case.expect == "refused":
        assert code == 2 and out == "" and one_error_line(err) and "refused: " in err, (code, err)
    elif case.expect == "input_error":
        assert code == 2 and out == "" and one_error_line(err), (code, err)
    elif code == 0:  # allowed: rows (a JSON list) and the count on stderr
        assert isinstance(json.loads(out), list) and "rows in" in err
    else:  # allowed but stopped: the timeout, the memory or reply ceiling, Oxigraph's own refusal
        assert code == 2 and out == "" and one_error_line(err), (code, err)


@pytest.fixture
def scripted_model(tmp_path, monkeypatch):
    """The scripted provider emitting `query` for the raw-mode prompt and its repair."""
    path = tmp_path / "script.json"
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(path))
    monkeypatch.setenv("POLYRAG_LLM__CACHE", "false")
    monkeypatch.setenv("POLYRAG_ONTOLOGY__TIMEOUT_S", str(TIMEOUT))

    def emit(query: str) -> None:
        reply = {"sparql": query}
        path.write_text(json.dumps({"Write one SPARQL SELECT": reply, "This query is wrong": reply}), encoding="utf-8")
    return emit


@pytest.mark.slow
@pytest.mark.parametrize("case_id", ASK_IDS)
def test_ask_raw_never_runs_what_the_check_refuses(ws, live, capsys, scripted_model, case_id):
    """A model emitting the case: refusals end the question as the layer's error (one line, exit 2)."""
    cases, hits = live
    case = cases[case_id]
    scripted_model(case.query)
    # the model's query may be run once and, after a repair that fails, not again: twice the timeout at most
    with unchanged_and_bounded(ws, hits, limit=2 * TIMEOUT + MARGIN):
        code, out, err = run_cli(["ask", ws, "Who works for COMP?", "--layer", "ontology", "--sparql", "raw",
                                  "--json"], capsys)
    assert "Traceback" not in out + err
    if case.expect == "refused":  # refused before rdflib or the store saw it, and again after the repair
        assert code == 2 and one_error_line(err) and "QueryRefused: refused: " in err, (code, err)
        assert json.loads(out)["layer"] == "none"
        return
    assert code in (0, 2) and (not err.strip() or one_error_line(err)), (code, err)
    answer = json.loads(out)
    if case.expect == "input_error":  # an error for the repair, then no answer
        assert answer["layer"] == "none" and "ontology.run" not in [s["step"] for s in answer["trace"]], answer


# ------------------------------------------------------------------ 4. a sample through the server's /sparql
HTTP_IDS = [c.id for c in sample(CASES, 60)][20:]  # overlaps the CLI's sample in part, reaches past it


@pytest.fixture(scope="module")
def endpoint(ws):
    """`polyrag serve`'s application on the same workspace, its queries given TIMEOUT seconds."""
    from conftest import serve_in_thread

    from serving.app import create_app

    mp = pytest.MonkeyPatch()
    mp.setenv("POLYRAG_ONTOLOGY__TIMEOUT_S", str(TIMEOUT))
    with serve_in_thread(create_app(ws)) as base:
        yield base
    mp.undo()


@pytest.mark.slow
@pytest.mark.parametrize("case_id", HTTP_IDS)
def test_the_sparql_endpoint_refuses_or_bounds_every_case(ws, live, endpoint, case_id):
    import urllib.error
    import urllib.request

    cases, hits = live
    case = cases[case_id]
    req = urllib.request.Request(endpoint + "/sparql", data=case.query.encode("utf-8", "surrogatepass"),
                                 headers={"Content-Type": "application/sparql-query",
                                          "Accept": "application/sparql-results+json, text/turtle;q=0.9"})
    with unchanged_and_bounded(ws, hits):
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                status, body = resp.status, resp.read()
        except urllib.error.HTTPError as err:
            status, body = err.code, err.read()
    message = json.loads(body).get("error", "") if status != 200 else ""
    if case.expect == "refused":
        assert status == 400 and message.startswith("refused: ") and not BREAKS.search(message), (status, body)
    elif case.expect == "input_error":
        assert status == 400 and message and not BREAKS.search(message), (status, body)
    elif status != 200:  # allowed but stopped: the timeout (504), a ceiling or Oxigraph's own refusal
        assert status in (400, 503, 504) and message and not BREAKS.search(message), (status, body)
