"""The SPARQL 1.1 Protocol endpoint and `polyrag sparql` over a store whose graphs share triples:
the default graph is their union as a set (each triple once), the named graphs keep each copy.
A real uvicorn server on loopback, a real client (SPARQLWrapper), real Oxigraph and query process."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from conftest import cli_exit_code as _cli
from conftest import run_cli, serve_in_thread

EX = "http://example.org/"
# ben's two triples are in both files, so in two named graphs (import:a, import:b)
A = f"""@prefix ex: <{EX}> .
ex:ben a ex:Staff ; ex:worksFor ex:cs .
ex:ann a ex:Staff ; ex:worksFor ex:cs .
"""
B = f"""@prefix ex: <{EX}> .
ex:ben a ex:Staff ; ex:worksFor ex:cs .
"""
STAFF = f"SELECT ?s ?d WHERE {{ ?s a <{EX}Staff> ; <{EX}worksFor> ?d }} ORDER BY ?s"
DEPTS = f"SELECT ?d WHERE {{ ?s <{EX}worksFor> ?d }}"  # cs twice: two staff, a bag by right
WHERE = f"SELECT ?g WHERE {{ GRAPH ?g {{ <{EX}ben> a <{EX}Staff> }} }}"


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    root = tmp_path_factory.mktemp("sparql-protocol")
    ws = root / "ws"
    for name, text in (("a", A), ("b", B)):
        (root / f"{name}.ttl").write_text(text)
        assert _cli(["ontology", "import", ws, root / f"{name}.ttl"]) == 0
    from serving.app import create_app

    with serve_in_thread(create_app(ws)) as base:
        yield base, ws, root


def _get(base: str, query: str, accept: str) -> tuple[int, str, bytes]:
    req = urllib.request.Request(f"{base}/sparql?query={urllib.parse.quote(query)}", headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.headers.get("content-type", ""), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("content-type", ""), err.read()


def _bindings(base: str, query: str, method: str = "GET") -> list[dict[str, str]]:
    from SPARQLWrapper import JSON, SPARQLWrapper

    client = SPARQLWrapper(base + "/sparql")
    client.setMethod(method)
    client.setQuery(query)
    client.setReturnFormat(JSON)
    return [{k: v["value"] for k, v in row.items()} for row in client.query().convert()["results"]["bindings"]]


def test_a_triple_in_two_graphs_comes_out_once(shared):
    base, _, _ = shared
    # as a bag, ben's two patterns matched 2 x 2 times: 5 rows
    assert _bindings(base, STAFF) == [{"s": EX + "ann", "d": EX + "cs"}, {"s": EX + "ben", "d": EX + "cs"}]
    assert _bindings(base, DEPTS, method="POST") == [{"d": EX + "cs"}] * 2  # two solutions, each once
    assert len(_bindings(base, WHERE)) == 2  # GRAPH still sees both copies


def test_the_cli_reads_the_same_set(shared, capsys):
    _, ws, _ = shared
    code, out, err = run_cli(["sparql", ws, STAFF, "--format", "csv"], capsys)
    assert code == 0 and out.splitlines() == ["s,d", f"{EX}ann,{EX}cs", f"{EX}ben,{EX}cs"], err
    code, out, _ = run_cli(["sparql", ws, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "--format", "tsv"], capsys)
    assert out.splitlines()[1] == '"4"^^<http://www.w3.org/2001/XMLSchema#integer>'  # 4 distinct, 6 stored


def test_results_by_content_negotiation(shared):
    import rdflib

    base, _, _ = shared
    status, kind, body = _get(base, STAFF, "text/tab-separated-values")
    assert status == 200 and kind.startswith("text/tab-separated-values")
    assert body.decode().splitlines() == ["?s\t?d", f"<{EX}ann>\t<{EX}cs>", f"<{EX}ben>\t<{EX}cs>"]
    status, kind, body = _get(base, STAFF, "text/csv;q=0.5, application/sparql-results+xml")
    assert status == 200 and kind.startswith("application/sparql-results+xml") and body.count(b"<result>") == 2
    construct = f"CONSTRUCT {{ ?s <{EX}worksFor> ?d }} WHERE {{ ?s <{EX}worksFor> ?d }}"
    for accept, fmt in (("application/n-triples", "nt"), ("application/ld+json", "json-ld"), ("text/turtle", "turtle")):
        status, kind, body = _get(base, construct, accept)
        assert status == 200 and kind.startswith(accept), (accept, body[:200])
        assert len(rdflib.Graph().parse(data=body.decode(), format=fmt)) == 2
    status, _, body = _get(base, construct, "application/sparql-results+json")  # a graph is no table
    assert status == 406 and "fits this result" in json.loads(body)["error"]


def test_a_refused_update_is_an_error_for_the_client(shared):
    from SPARQLWrapper import POST, SPARQLWrapper
    from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

    from benchmarks.attacks import store_digest

    base, ws, _ = shared
    before = store_digest(ws)
    client = SPARQLWrapper(base + "/sparql")
    client.setMethod(POST)
    client.setQuery(f"DELETE WHERE {{ <{EX}ben> ?p ?o }}")  # SPARQLWrapper sends it as an update
    with pytest.raises(QueryBadFormed, match="updates are refused"):
        client.query()
    client.setQuery(f"INSERT DATA {{ <{EX}x> <{EX}y> <{EX}z> }}")
    with pytest.raises(QueryBadFormed):
        client.query()
    assert store_digest(ws) == before


def test_the_set_follows_writes(shared, tmp_path):
    """Each write makes new physical graphs: whether they overlap is asked again, and cached by them."""
    base, ws, root = shared
    (root / "b.ttl").write_text(f"@prefix ex: <{EX}> .\nex:cy a ex:Staff ; ex:worksFor ex:math .\n")
    assert _cli(["ontology", "import", ws, root / "b.ttl"]) == 0  # import:b replaced: no shared triple now
    assert [r["s"] for r in _bindings(base, STAFF)] == [EX + "ann", EX + "ben", EX + "cy"]
    assert len(_bindings(base, WHERE)) == 1
    cached = json.loads((ws / "ontology" / "cache" / "overlap.json").read_text())
    assert sorted(cached.values()) == [False, True]


def test_a_union_too_large_to_copy_stays_a_bag_and_says_so(shared):
    """Below half the query process's memory the union is copied as a set; above, it is read as it
    is stored and the result is flagged (the CLI then says a row may repeat)."""
    from pyramid.ontology.query_worker import _Dataset

    _, ws, _ = shared
    # a fresh two-file store whose graphs overlap (the shared fixture's were rewritten above)
    root = ws.parent / "bag"
    for name, text in (("a", A), ("b", B)):
        (root / f"{name}.ttl").parent.mkdir(exist_ok=True)
        (root / f"{name}.ttl").write_text(text)
        assert _cli(["ontology", "import", root / "ws", root / f"{name}.ttl"]) == 0
    graphs_file = json.loads((root / "ws" / "ontology" / "graphs.json").read_text())
    iris = [g["iri"] for g in graphs_file["graphs"].values()]
    base = {"graphs": iris, "generation": graphs_file["generation"], "overlap": None}
    for memory_mb, triples, bag, rows in ((2048, 6, False, 2), (1, 10_000, True, 5)):
        data = _Dataset(str(root / "ws" / "ontology" / "store"), memory_mb)
        assert data.prepare({**base, "triples": triples}) == {"ok": True, "overlap": True, "bag": bag}
        res = data.run({**base, "query": STAFF}, max_bytes=10**6)
        assert (len(res.rows), res.bag) == (rows, bag)


def test_the_default_graph_is_read_from_the_store_union_only_when_the_graphs_are_all_of_it():
    """A default graph listing every named graph is read from Oxigraph's own union (one index lookup
    per pattern, not one per graph); a list that leaves a graph out still leaves it out."""
    import pyoxigraph as ox

    from pyramid.ontology.query_worker import covers, execute

    store = ox.Store()
    names = [f"urn:polyrag:graph:g{i}" for i in range(3)]
    for i, g in enumerate(names):
        store.add(ox.Quad(ox.NamedNode(f"{EX}s{i}"), ox.NamedNode(f"{EX}p"), ox.Literal(str(i)), ox.NamedNode(g)))
    query = f"SELECT ?v WHERE {{ ?s <{EX}p> ?v }} ORDER BY ?v"
    assert covers(store, names) and covers(store, [*names, "urn:polyrag:graph:empty"])
    assert not covers(store, names[:2]) and not covers(store, names[:1])
    assert [r["v"] for r in execute(store, query, row_cap=None, graphs=names).rows] == ["0", "1", "2"]
    assert [r["v"] for r in execute(store, query, row_cap=None, graphs=names[:2]).rows] == ["0", "1"]
    # told (wrongly) that two graphs are the whole store, the union shows the third: `whole` is obeyed
    assert len(execute(store, query, row_cap=None, graphs=names[:2], whole=True).rows) == 3
