"""`polyrag serve` over loopback: the API (a real uvicorn server in a thread, real Oxigraph, MiniLM and
bm25s; the scripted model with no rules, so any model call fails loudly) and the SPARQL 1.1 Protocol
endpoint driven by a real client, SPARQLWrapper."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from conftest import ROOT, run_cli, serve_in_thread
from conftest import cli_exit_code as _cli

ONTO = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:Bridge a owl:Class ; rdfs:label "bridge" .
ex:River a owl:Class ; rdfs:label "river" .
ex:crosses a owl:ObjectProperty ; rdfs:label "crosses" ; rdfs:domain ex:Bridge ; rdfs:range ex:River .
ex:millbrook a ex:Bridge ; rdfs:label "Millbrook Bridge" ; ex:crosses ex:wenn .
ex:stone a ex:Bridge ; rdfs:label "Stone Bridge" ; ex:crosses ex:wenn .
ex:wenn a ex:River ; rdfs:label "River Wenn" .
"""
DOCS = [{"id": "toll", "text": "Crossing the Millbrook Bridge costs two dollars by car and nothing by bicycle."},
        {"id": "ferry", "text": "A ferry crossed the River Wenn every hour before the bridges were built."}]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    ws, rules = root / "ws", root / "rules.json"
    rules.write_text("{}")
    mp = pytest.MonkeyPatch()
    mp.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    mp.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(rules))
    docs, ttl = root / "docs.jsonl", root / "onto.ttl"
    docs.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    ttl.write_text(ONTO)
    for args in (["index", ws, "--docs", docs], ["ontology", "import", ws, ttl]):
        code = _cli(args)
        assert code == 0, args
    from serving.app import create_app

    with serve_in_thread(create_app(ws)) as base:
        yield base, ws
    mp.undo()


def call(url: str, *, body: dict | bytes | None = None, headers: dict | None = None, method: str | None = None):
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    hdrs = {"Content-Type": "application/json"} if isinstance(body, dict) else {}
    req = urllib.request.Request(url, data=data, headers={**hdrs, **(headers or {})}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, resp.headers.get("content-type", ""), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("content-type", ""), err.read()


def test_health_stats_and_openapi(served):
    base, ws = served
    status, _, body = call(base + "/health")
    assert status == 200 and set(json.loads(body)["layers"]) == {"text", "ontology"}
    status, _, body = call(base + "/stats")
    assert status == 200 and json.loads(body)["layers"]["text"]["documents"] == 2
    status, _, body = call(base + "/openapi.json")
    assert status == 200 and {"/ask", "/search", "/kg/search", "/sparql"} <= set(json.loads(body)["paths"])


def test_ask_answers_from_the_ontology_without_a_model(served):
    base, _ = served
    status, _, body = call(base + "/ask", body={"question": "Which river does the Millbrook Bridge cross?"})
    answer = json.loads(body)
    assert status == 200 and answer["layer"] == "ontology", answer
    assert "River Wenn" in answer["text"] and answer["usage"]["calls"] == 0


def test_text2sparql_gives_the_query_the_layer_would_run(served):
    """The TEXT2SPARQL API over HTTP: the dataset is the schema's namespace; the query, run through
    /sparql, gives the answer; a yes/no question gets an ASK; another dataset is a 404 with an error;
    a question with no plan still gets a query that runs (and says why it selects nothing)."""
    base, _ = served
    dataset = "http://example.org/"

    def t2s(question: str, ds: str = dataset):
        q = urllib.parse.urlencode({"question": question, "dataset": ds})
        status, ctype, body = call(f"{base}/text2sparql?{q}")
        return status, json.loads(body)

    status, got = t2s("Which river does the Millbrook Bridge cross?")
    assert status == 200 and got["dataset"] == dataset and got["answered"], got
    assert got["question"] == "Which river does the Millbrook Bridge cross?"
    status, _, body = call(base + "/sparql?" + urllib.parse.urlencode({"query": got["query"]}),
                           headers={"Accept": "application/sparql-results+json"})
    bindings = json.loads(body)["results"]["bindings"]
    assert status == 200 and {b["x"]["value"] for b in bindings} == {"http://example.org/wenn"}
    status, got = t2s("Does any bridge cross the River Wenn?")
    assert status == 200 and got["query"].startswith("ASK"), got
    status, got = t2s("What is the price difference between the two bridges?")
    assert status == 200 and not got["answered"] and "FILTER(false)" in got["query"] and got["reason"], got
    status, got = t2s("Which river does the Millbrook Bridge cross?", ds="https://example.com/other/")
    assert status == 404 and "unknown dataset" in got["error"], got


def test_search_returns_ranked_chunks(served):
    base, _ = served
    status, _, body = call(base + "/search?q=how+much+is+the+toll+by+car&k=2")
    hits = json.loads(body)
    assert status == 200 and hits[0]["doc_id"] == "toll" and hits[0]["score"] >= hits[1]["score"]


def test_bad_requests_are_one_message(served):
    base, _ = served
    status, _, body = call(base + "/ask", body={"question": ""})
    assert status == 422
    status, _, body = call(base + "/kg/search?q=toll")  # no KG built here
    assert status == 404 and "knowledge graph" in json.loads(body)["error"]
    status, _, body = call(base + "/ask", body={"question": "x" * 300_000})
    assert status == 413 and "serve.max_body_kb" in json.loads(body)["error"]


def test_sparql_protocol_with_a_real_client(served):
    from SPARQLWrapper import CSV, JSON, TURTLE, XML, SPARQLWrapper

    base, _ = served
    q = "SELECT ?b ?label WHERE { ?b a <http://example.org/Bridge> ; rdfs:label ?label } ORDER BY ?label"
    client = SPARQLWrapper(base + "/sparql")
    client.setQuery(q)
    client.setReturnFormat(JSON)
    rows = client.query().convert()["results"]["bindings"]
    assert [r["label"]["value"] for r in rows] == ["Millbrook Bridge", "Stone Bridge"]
    assert rows[0]["b"] == {"type": "uri", "value": "http://example.org/millbrook"}
    client.setReturnFormat(XML)
    doc = client.query().convert()  # an xml.dom document
    assert len(doc.getElementsByTagName("result")) == 2
    client.setReturnFormat(CSV)
    assert client.query().convert().decode().splitlines()[0] == "b,label"
    client.setMethod("POST")
    client.setQuery("ASK { <http://example.org/stone> <http://example.org/crosses> <http://example.org/wenn> }")
    client.setReturnFormat(JSON)
    assert client.query().convert()["boolean"] is True
    client.setQuery("CONSTRUCT { ?b <http://example.org/crosses> ?r } WHERE { ?b <http://example.org/crosses> ?r }")
    client.setReturnFormat(TURTLE)
    import rdflib

    assert len(rdflib.Graph().parse(data=client.query().convert(), format="turtle")) == 2


def test_sparql_endpoint_refuses_what_the_cli_refuses(served):
    base, ws = served
    from benchmarks.attacks import store_digest

    before = store_digest(ws)
    for body, kind in ((b"DELETE WHERE { ?s ?p ?o }", "application/sparql-query"),
                       (b"SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
                        "application/sparql-query"),
                       (b"update=DROP+ALL", "application/x-www-form-urlencoded"),
                       (b"DROP ALL", "application/sparql-update")):
        status, _, out = call(base + "/sparql", body=body, headers={"Content-Type": kind}, method="POST")
        assert status == 400, (body, out)
    assert store_digest(ws) == before
    status, _, _ = call(base + "/sparql?query=SELECT+*+WHERE+%7B%3Fs+%3Fp+%3Fo%7D",
                        headers={"Accept": "image/png"})
    assert status == 406


def test_serving_beyond_loopback_needs_a_token(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("POLYRAG_SERVE__TOKEN", raising=False)
    monkeypatch.delenv("POLYRAG_TOKEN", raising=False)
    ws = tmp_path / "ws"
    assert run_cli(["init", ws], capsys)[0] == 0
    code, out, err = run_cli(["serve", ws, "--host", "0.0.0.0"], capsys)
    assert code == 2 and "refusing to serve on 0.0.0.0 without a token" in " ".join(err.split())


def test_a_request_past_the_time_limit_is_answered_504(served, monkeypatch):
    base, ws = served
    from serving.app import create_app

    monkeypatch.setenv("POLYRAG_SERVE__REQUEST_TIMEOUT_S", "0.001")
    with serve_in_thread(create_app(ws)) as quick:
        status, _, body = call(quick + "/ask", body={"question": "Which river does the Stone Bridge cross?"})
    assert status == 504 and "serve.request_timeout_s" in json.loads(body)["error"]
    status, _, body = call(base + "/health")  # the other server, default limit, is unaffected
    assert status == 200


def test_a_body_without_a_length_is_held_to_the_cap(served):
    """A chunked body declares no Content-Length: the cap counts the bytes as they arrive."""
    import http.client

    base, _ = served
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    chunks = (b"x" * 65536 for _ in range(8))  # 512 KB, twice serve.max_body_kb
    conn.request("POST", "/sparql", body=chunks, headers={"Content-Type": "application/sparql-query"},
                 encode_chunked=True)
    resp = conn.getresponse()
    assert resp.status == 413 and "serve.max_body_kb" in json.loads(resp.read())["error"]
    conn.close()


def test_writing_endpoints_need_the_token(served, monkeypatch):
    """`require_token` guards what writes (the review page's actions): no token configured → every
    write refused; POLYRAG_TOKEN configures one; a wrong one is refused, the right one goes through."""
    base, ws = served
    from serving.app import create_app

    status, _, body = call(base + "/review/undo", body={})  # this server has no token at all
    assert status == 401 and "Authorization: Bearer" in json.loads(body)["error"]
    monkeypatch.setenv("POLYRAG_TOKEN", "s3cret-s3cret-s3cret")
    app = create_app(ws)
    assert app.state.token == "s3cret-s3cret-s3cret"
    assert create_app(ws, token="other-token-of-24-chars").state.token == "other-token-of-24-chars"
    with serve_in_thread(app) as guarded:
        status, _, _ = call(guarded + "/review/undo", body={}, headers={"Authorization": "Bearer wrong"})
        assert status == 401
        status, _, body = call(guarded + "/review/undo", body={}, headers={"Authorization": "Bearer s3cret-s3cret-s3cret"})
        assert status not in (401, 403), body  # past the guard: the action itself answers (nothing to undo)
        status, _, _ = call(guarded + "/health")  # reading needs nothing
        assert status == 200


@pytest.mark.parametrize("token", ["    ", "s3cret", "x"])
def test_a_blank_or_short_token_is_refused_naming_where_it_came_from(served, monkeypatch, token):
    """A token of spaces once bound 0.0.0.0 with no guard worth the name; one of a few characters is
    guessed. Each is refused before the server starts, saying the minimum and where the token came from."""
    from pyramid.errors import InputError
    from serving.app import create_app
    from serving.auth import MIN_TOKEN

    _, ws = served
    with pytest.raises(InputError, match=f"--token: a token needs at least {MIN_TOKEN} characters"):
        create_app(ws, token=token)
    monkeypatch.setenv("POLYRAG_TOKEN", token)
    with pytest.raises(InputError, match="POLYRAG_TOKEN: a token needs"):
        create_app(ws)


@pytest.mark.slow
def test_reads_go_on_while_another_process_writes(served, tmp_path):
    """8 clients ask and query while `polyrag ontology import` writes in another process: every
    request is answered, and every answer is the one from before the write (it adds nothing asked)."""
    import subprocess
    import sys
    import threading

    base, ws = served
    question = {"question": "Which river does the Millbrook Bridge cross?"}
    sparql = "/sparql?query=" + urllib.parse.quote("SELECT ?b WHERE { ?b a <http://example.org/Bridge> }")
    before = (json.loads(call(base + "/ask", body=question)[2])["text"], call(base + sparql)[2])
    extra = tmp_path / "extra.ttl"
    extra.write_text("@prefix ex: <http://example.org/more#> .\n" + "".join(
        f"ex:t{i} a ex:Thing ; ex:note \"note {i}\" .\n" for i in range(20_000)))
    seen: list[tuple[int, object]] = []  # (status, True or what came instead)
    stop = threading.Event()

    def client(i: int) -> None:
        while not stop.is_set():
            if i % 2:
                status, _, body = call(base + "/ask", body=question)
                answer = json.loads(body)
                # an error of the ontology layer would let the text layer answer: keep its outcome
                seen.append((status, answer.get("text") == before[0]
                             or [t["outcome"] for t in answer.get("trace", []) if t["step"].endswith(".error")]))
            else:
                status, _, body = call(base + sparql)
                seen.append((status, body == before[1] or body[:300]))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    root = ROOT
    done = subprocess.run([sys.executable, "-m", "cli", "ontology", "import", str(ws), str(extra)], cwd=root,
                          capture_output=True, text=True, timeout=300)
    stop.set()
    for t in threads:
        t.join()
    assert done.returncode == 0, done.stderr[-500:]
    bad = [s for s in seen if s != (200, True)]
    assert len(seen) >= 8 and not bad, bad[:3]
    status, _, body = call(base + "/sparql?query=" + urllib.parse.quote("ASK { ?s a <http://example.org/more#Thing> }"),
                           headers={"Accept": "application/sparql-results+json"})
    assert json.loads(body)["boolean"] is True  # the next request sees the write


@pytest.mark.slow
def test_a_slow_query_stalls_neither_ask_nor_the_queue(tmp_path, monkeypatch):
    """Four cross products sent to /sparql at once: two run (ontology.query_processes = 2) until their
    time limit (504), two wait a bounded time for a process and are refused (503); an /ask sent
    meanwhile runs in the question's own process and is answered before any of them ends."""
    import threading
    import time

    from serving.app import create_app

    ws, ttl = tmp_path / "ws", tmp_path / "onto.ttl"
    ttl.write_text(ONTO)
    assert _cli(["ontology", "import", ws, ttl]) == 0
    for key, value in (("TIMEOUT_S", "4"), ("QUERY_PROCESSES", "2"), ("QUEUE_WAIT_S", "1")):
        monkeypatch.setenv(f"POLYRAG_ONTOLOGY__{key}", value)
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(tmp_path / "rules.json"))
    (tmp_path / "rules.json").write_text("{}")
    cross = "SELECT (COUNT(*) AS ?n) WHERE { " + " . ".join(f"?a{i} ?b{i} ?c{i}" for i in range(12)) + " }"
    done: list[tuple[float, int]] = []
    with serve_in_thread(create_app(ws)) as base:
        call(base + "/ask", body={"question": "Which river does the Millbrook Bridge cross?"})  # warm
        start = time.monotonic()

        def slow() -> None:
            status, _, _ = call(base + "/sparql?query=" + urllib.parse.quote(cross))
            done.append((time.monotonic() - start, status))

        threads = [threading.Thread(target=slow) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        status, _, body = call(base + "/ask", body={"question": "Which river does the Millbrook Bridge cross?"})
        asked = time.monotonic() - start
        for t in threads:
            t.join()
    assert status == 200 and "River Wenn" in json.loads(body)["text"]
    assert sorted(s for _, s in done) == [503, 503, 504, 504], done
    assert asked < min(t for t, s in done if s == 504), (asked, done)
