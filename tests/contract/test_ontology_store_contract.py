"""One contract for every ontology store backend: the embedded Oxigraph directory, Oxigraph's own
server and Virtuoso 7 (both started on loopback by tests/ontology_servers.py, through the SPARQL 1.1
Protocol: queries to the query endpoint, writes by Graph Store PUT (Oxigraph) or SPARQL Update
batches (Virtuoso, digest-authenticated as dba)). The same layer calls must give the same graphs,
counts, inferences and answers; refused queries must never reach the server; timeouts must stop."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest
from conftest import ROOT

from pyramid.config import load_settings
from pyramid.errors import InputError, QueryRefused, QueryTimeout, WorkspaceError
from pyramid.ontology.backends import OntologyBackend
from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.sparql_http import SparqlHttp, SparqlServerError
from pyramid.workspace import SETTINGS_FILE, Workspace
from tests.ontology_servers import Server, free_port, started

EX = "http://example.org/"
# Oxigraph's server loads by Graph Store PUT, Virtuoso here by SPARQL Update batches: both write paths
BACKENDS = ["embedded", "oxigraph-server", "virtuoso"]

INSTANCES = """@prefix : <http://example.org/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:alice a :ChairProfessor ; :has_name "Prof. Alice Ng"@en ; :head_of :COMP ; :has_email "alice@u.example" .
:bob a :Lecturer ; :has_name "Bob \\"the\\" Builder" ; :works_for :COMP .
:COMP a :Department ; :has_name "Department of Computing\\nand Maths" .
:carol a :Lecturer ; :works_for :COMP ; :has_name "Carol" ; :note [ :has_name "a blank node" ] .
"""
STAFF_OF_COMP = "SELECT ?s WHERE { ?s a :STAFF ; :works_for :COMP } ORDER BY ?s"   # subclass + subproperty


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """Each server kind started once per module, on demand; stopped at the end."""
    running: dict[str, Server] = {}

    def get(kind: str) -> Server:
        if kind not in running:
            running[kind] = started(kind, tmp_path_factory.mktemp(kind))
        return running[kind]

    yield get
    for srv in running.values():
        srv.stop()


def make_layer(kind: str, root: Path, servers, monkeypatch, **extra) -> OntologyLayer:
    ws = Workspace.init(root)
    overrides: dict = {}
    if kind != "embedded":
        srv = servers(kind.removesuffix("-gsp"))
        for key, value in srv.env.items():  # credentials come from the environment, as for Neo4j
            monkeypatch.setenv(key, value)
        overrides = srv.settings(**extra)
        if kind == "virtuoso-gsp":  # Virtuoso loading by Graph Store PUT instead of INSERT DATA batches
            overrides["graph_store_url"] = srv.query_url.removesuffix("/sparql") + "/sparql-graph-crud-auth"
    ws = Workspace(root, settings=load_settings(root / SETTINGS_FILE, ontology=overrides))
    return OntologyLayer(ws)


@pytest.fixture(params=BACKENDS)
def layer(request, tmp_path, servers, monkeypatch):
    lay = make_layer(request.param, tmp_path / "ws", servers, monkeypatch)
    lay.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    path = tmp_path / "staff.ttl"
    path.write_text(INSTANCES, encoding="utf-8")
    lay.import_instances(path)
    yield lay
    lay.close()


def server_state(lay: OntologyLayer) -> tuple:
    """Everything the store holds: every graph's triples (the embedded store's quads; on a server,
    a dump of all its graphs read straight over HTTP, so nothing of ours filters it)."""
    if not hasattr(lay.store, "_client"):
        return tuple(sorted(str(q) for q in lay.store.quads()))
    s = lay.settings
    client = SparqlHttp(s.query_url, s.update_url)
    try:
        rows = client.query("SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }", dataset=None, timeout_s=60).rows
    finally:
        client.close()
    return tuple(sorted(" ".join(str(r[k]) for k in "gspo") for r in rows))


def test_graphs_counts_and_quads_are_those_written(layer):
    assert isinstance(layer.store, OntologyBackend)
    graphs = layer.store.graphs()
    assert set(graphs) == {"schema", "import:staff"}
    assert graphs["import:staff"].triples == 14
    assert layer.store.count("import:staff") == 14 == len(list(layer.store.quads(["import:staff"])))
    written = {(str(q.subject), str(q.predicate), str(q.object)) for q in layer.store.quads(["import:staff"])
               if "Builder" in str(q.object) or "Computing" in str(q.object) or "@en" in str(q.object)}
    assert written == {(f"<{EX}bob>", f"<{EX}has_name>", '"Bob \\"the\\" Builder"'),
                       (f"<{EX}COMP>", f"<{EX}has_name>", '"Department of Computing\\nand Maths"'),
                       (f"<{EX}alice>", f"<{EX}has_name>", '"Prof. Alice Ng"@en')}
    blank = layer.select("SELECT ?n WHERE { :carol :note ?b . ?b :has_name ?n }")
    assert blank == [{"n": "a blank node"}]   # one blank node, still joined after the load


def test_reasoning_fills_the_inferred_graph_and_answers_agree(layer):
    assert layer.select(STAFF_OF_COMP) == []          # needs the inferences
    report = layer.reason()
    assert report.inferred > 0 and layer.store.count("inferred") == report.inferred
    assert [r["s"] for r in layer.select(STAFF_OF_COMP)] == [EX + "alice", EX + "bob", EX + "carol"]
    typed = layer.query("SELECT ?n (COUNT(?x) AS ?c) WHERE { :alice :has_name ?n . ?x a :Lecturer } GROUP BY ?n",
                        typed=True).rows
    assert typed == [{"n": {"type": "literal", "value": "Prof. Alice Ng", "xml:lang": "en"},
                      "c": {"type": "literal", "value": "2",
                            "datatype": "http://www.w3.org/2001/XMLSchema#integer"}}]
    assert layer.select("ASK { :bob a :AcademicStaff }") == [{"ask": True}]
    rows = layer.query("CONSTRUCT { ?s :works_for ?o } WHERE { ?s :head_of ?o }").rows
    assert rows == [{"subject": EX + "alice", "predicate": EX + "works_for", "object": EX + "COMP"}]
    assert layer.inferred_state() == "fresh"
    assert layer.stats()["instances"]["Lecturer"] == 2


def test_replacing_and_removing_graphs(layer, tmp_path):
    layer.reason()
    old = layer.store.graphs()["import:staff"].iri
    path = tmp_path / "staff.ttl"
    path.write_text(INSTANCES.replace(":bob a :Lecturer", ":bob a :Professor"), encoding="utf-8")
    layer.import_instances(path)                         # replaces the graph, recomputes "inferred"
    graphs = layer.store.graphs()
    assert graphs["import:staff"].iri != old and layer.inferred_state() == "fresh"
    assert layer.select("ASK { :bob a :Lecturer }") == [{"ask": False}]
    assert layer.select("ASK { :bob a :AcademicStaff }") == [{"ask": True}]
    assert old not in server_state(layer).__str__()      # the old version is dropped from the store
    assert layer.add_instances("d1", [(EX + "dave", EX + "works_for", EX + "COMP")]) == 1
    assert "doc:d1" in layer.store.graphs()
    assert layer.remove_document("d1") is True
    assert layer.select("ASK { :dave ?p ?o }") == [{"ask": False}]
    assert not any("doc%3Ad1" in line for line in server_state(layer))


@pytest.mark.parametrize("query", [
    "INSERT DATA { <http://e/x> <http://e/p> 1 }",
    "DROP ALL",
    "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
    "SELECT * FROM <http://127.0.0.1:9/data.ttl> WHERE { ?s ?p ?o }",
])
def test_refused_queries_never_reach_the_store(layer, query, monkeypatch):
    before = server_state(layer)
    sent: list[str] = []
    for name in ("query", "update", "put_graph"):
        real = getattr(SparqlHttp, name)
        monkeypatch.setattr(SparqlHttp, name, lambda self, *a, _real=real, **k: sent.append(a[0]) or _real(self, *a, **k))
    with pytest.raises(QueryRefused):
        layer.select(query)
    assert sent == []                                    # nothing was sent, to either endpoint
    monkeypatch.undo()
    assert server_state(layer) == before


def test_a_malformed_query_is_one_input_error(layer):
    with pytest.raises(InputError) as err:
        layer.select("SELECT ?s WHERE { ?s ?p ?o . FILTER( }")
    assert "\n" not in str(err.value) and "query" in str(err.value)


def test_a_slow_query_is_stopped_at_its_timeout(layer):
    layer.reason()
    # ~10^8 regex tests on every backend; few enough joins that Virtuoso's cost estimate lets it run
    slow = ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i "
            "FILTER(REGEX(CONCAT(STR(?a), STR(?f), STR(?i)), 'zz+q$')) }")
    start = time.perf_counter()
    with pytest.raises(QueryTimeout):
        layer.select(slow, timeout_s=1.0)
    assert time.perf_counter() - start < 4
    assert layer.select("ASK { :alice a :ChairProfessor }", timeout_s=5) == [{"ask": True}]  # still usable


# ---------------------------------------------------------------------------- remote only
@pytest.mark.parametrize("kind", ["oxigraph-server", "virtuoso"])
def test_a_server_that_reasons_gets_no_materialised_graph(kind, tmp_path, servers, monkeypatch):
    lay = make_layer(kind, tmp_path / "ws", servers, monkeypatch, server_reasons=True)
    lay.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    lay.add_instances("d1", [(EX + "eve", "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", EX + "Lecturer")])
    report = lay.reason()
    assert report.inferred == 0 and lay.store.count("inferred") == 0 and lay.inferred_state() == "fresh"
    lay.close()


def test_an_unreachable_server_is_one_line_naming_it(tmp_path):
    ws = Workspace.init(tmp_path / "ws")
    url = f"http://127.0.0.1:{free_port()}/sparql"
    ws = Workspace(ws.root, settings=load_settings(ws.root / SETTINGS_FILE, ontology={
        "backend": "sparql", "query_url": url, "update_url": url}))
    lay = OntologyLayer(ws)
    with pytest.raises(SparqlServerError) as err:
        lay.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    assert url in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(SparqlServerError, match="cannot reach"):
        lay.select("ASK { ?s ?p ?o }")


def test_wrong_credentials_are_refused_naming_the_endpoint(tmp_path, servers, monkeypatch):
    lay = make_layer("virtuoso", tmp_path / "ws", servers, monkeypatch)
    lay.store._client = SparqlHttp(lay.settings.query_url, lay.settings.update_url, user="dba", password="wrong")
    with pytest.raises(SparqlServerError, match="refused the update .*HTTP 401.*POLYRAG_ONTOLOGY__PASSWORD"):
        lay.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    assert lay.store.graphs() == {}
    # the anonymous query identity cannot write at all: the update endpoint is a different one
    with httpx.Client() as http:
        r = http.post(lay.settings.query_url, content=b"INSERT DATA { <http://e/x> <http://e/p> 1 }",
                      headers={"Content-Type": "application/sparql-update"}, timeout=30)
    assert r.status_code >= 400


def test_a_registry_of_another_store_is_refused(tmp_path, servers, monkeypatch):
    root = tmp_path / "ws"
    embedded = make_layer("embedded", root, servers, monkeypatch)
    embedded.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    embedded.close()
    with pytest.raises(WorkspaceError, match="embedded Oxigraph store"):
        make_layer("oxigraph-server", root, servers, monkeypatch)


def test_old_versions_stay_while_a_build_may_roll_back(tmp_path, servers, monkeypatch):
    lay = make_layer("oxigraph-server", tmp_path / "ws", servers, monkeypatch)
    pending = [True]
    lay.store._build_pending = lambda: pending[0]
    lay.add_instances("d1", [(EX + "a", EX + "p", "1")])
    first = lay.store.graphs()["doc:d1"].iri
    lay.add_instances("d1", [(EX + "a", EX + "p", "2")])
    assert first in str(server_state(lay))               # kept: the rollback's registry names it
    pending[0] = False
    lay.add_instances("d2", [(EX + "b", EX + "p", "3")])
    assert first not in str(server_state(lay))           # collected by the next write once committed
    lay.close()


# ---------------------------------------------------------------------------- completion's apply and undo
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"


def logical(lay: OntologyLayer) -> dict[str, list[str]]:
    """Each logical graph's triples as text, read through the backend; blank nodes named alike (each
    server labels them its own way, and a rewritten graph gets new labels)."""
    return {name: sorted(re.sub(r"_:\S+", "_:B", f"{q.subject} {q.predicate} {q.object}") for q in lay.store.quads([name]))
            for name in lay.store.graphs()}


def a_proposal():
    from completion.target import Statement

    schema = [Statement(EX + "VisitingScholar", SUBCLASS, EX + "AcademicStaff")]
    facts = {"P0001": [Statement(EX + "erin", RDF_TYPE, EX + "VisitingScholar"),
                       Statement(EX + "erin", EX + "works_for", EX + "COMP"),
                       Statement(EX + "erin", EX + "has_name", "Erin Vos", literal=True)]}
    return schema, facts


def test_completion_apply_then_undo_on_every_backend(layer):
    """An accepted proposal applied (a new class in the schema, its instances in a graph of their own,
    the inferences recomputed) and undone: the same on the embedded store and on each server, and the
    undo leaves every graph as it was and nothing of the proposal on the server."""
    from completion.ontology_adapter import LayerTarget

    layer.reason()
    target = LayerTarget(layer)
    before, schema_before = logical(layer), target.schema()
    staff = [EX + "alice", EX + "bob", EX + "carol"]
    assert [r["s"] for r in layer.select(STAFF_OF_COMP)] == staff
    out = target.apply(*a_proposal())
    assert out["added"] == 4 and out["inferred"] > 0
    assert set(layer.store.graphs()) == {"schema", "import:staff", "inferred", "doc:completion:P0001"}
    assert layer.inferred_state() == "fresh"
    assert [r["s"] for r in layer.select(STAFF_OF_COMP)] == [*staff, EX + "erin"]  # through the new subclass
    assert any("VisitingScholar" in line for line in logical(layer)["schema"])
    target.unapply(schema_before, ["P0001"])
    assert logical(layer) == before and layer.inferred_state() == "fresh"
    assert [r["s"] for r in layer.select(STAFF_OF_COMP)] == staff
    assert not any("completion" in line or "erin" in line for line in server_state(layer))


def test_a_failed_apply_leaves_every_backend_as_it_was(layer, monkeypatch):
    """The apply fails after its instances and schema were written (reasoning stops): the proposal's
    graph is removed and the previous schema loaded back, on the server as on the embedded store."""
    from completion.ontology_adapter import LayerTarget

    layer.reason()
    before = logical(layer)
    real, calls = layer._refresh_inferred, []

    def fail_once():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the reasoner stopped")
        return real()

    monkeypatch.setattr(layer, "_refresh_inferred", fail_once)
    with pytest.raises(RuntimeError, match="the reasoner stopped"):
        LayerTarget(layer).apply(*a_proposal())
    assert calls and logical(layer) == before and layer.inferred_state() == "fresh"
    assert not any("completion" in line or "erin" in line for line in server_state(layer))


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_rolled_back_build_leaves_every_backend_as_it_was(kind, tmp_path, servers, monkeypatch):
    """A build's writes (a document graph, a replaced import, new inferences) rolled back by its
    journal: the registry, and so every graph a query reads, is the one from before the build; on a
    server the old versions were kept for it, and what the build wrote is dropped by the next write."""
    from pyramid.workspace import BuildJournal

    root = tmp_path / "ws"
    lay = make_layer(kind, root, servers, monkeypatch)
    lay.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    path = tmp_path / "staff.ttl"
    path.write_text(INSTANCES, encoding="utf-8")
    lay.import_instances(path)
    lay.reason()
    before = logical(lay)
    # the servers are shared by the module's tests: what other tests left there is not this build's
    def this_build(state: tuple) -> set:
        return {line for line in state if "doc%3Ad1" in line or "erin" in line}
    left_by_others = this_build(server_state(lay))
    journal = BuildJournal(lay.ws)
    with lay.ws.writing("build"):
        journal.begin("build", lay.parts())
        lay.add_instances("d1", [(EX + "erin", EX + "works_for", EX + "COMP")])
        path.write_text(INSTANCES.replace(":bob a :Lecturer", ":bob a :Professor"), encoding="utf-8")
        lay.import_instances(path)                        # replaces the import, recomputes the inferences
        assert logical(lay) != before and "doc:d1" in lay.store.graphs()
        assert journal.rollback() is not None
    lay.close()
    again = make_layer(kind, root, servers, monkeypatch)  # as the next process sees the workspace
    try:
        assert logical(again) == before and again.inferred_state() == "fresh"
        assert [r["s"] for r in again.select(STAFF_OF_COMP)] == [EX + "alice", EX + "bob", EX + "carol"]
        assert again.select("ASK { :bob a :Lecturer }") == [{"ask": True}]
        again.add_instances("d2", [(EX + "frank", EX + "works_for", EX + "COMP")])
        assert this_build(server_state(again)) <= left_by_others
    finally:
        again.close()


# ---------------------------------------------------------------------------- LUBM(1,0) through each backend
@pytest.fixture(scope="module")
def lubm_data(tmp_path_factory, shared_data):
    from benchmarks.lubm.generator import generate

    return shared_data / "lubm" / "univ-bench.owl", generate(1, tmp_path_factory.mktemp("lubm-data"), seed=0)


def lubm_answers(lay: OntologyLayer, ontology: Path, data: list[Path]) -> dict:
    """Load, reason and ask the 14 queries through the layer, as `polyrag bench lubm` does; timed."""
    from benchmarks.lubm.answers import answer_key
    from benchmarks.lubm.queries import QUERIES

    start = time.perf_counter()
    lay.load_schema(ontology)
    for path in data:
        lay.import_instances(path)
    load_s = time.perf_counter() - start
    reason_s = lay.reason().seconds
    start = time.perf_counter()
    answers = {}
    for name, q in QUERIES.items():
        res = lay.query(q, row_cap=10**9, timeout_s=600)
        answers[name] = {answer_key(r[v] for v in res.variables) for r in res.rows}
    return {"answers": answers, "load_s": load_s, "reason_s": reason_s, "query_s": time.perf_counter() - start,
            "triples": lay.store.count()}


@pytest.fixture(scope="module")
def lubm_reference(lubm_data, tmp_path_factory, servers):
    lay = make_layer("embedded", tmp_path_factory.mktemp("lubm-embedded") / "ws", servers, pytest.MonkeyPatch())
    try:
        return lubm_answers(lay, *lubm_data)
    finally:
        lay.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["oxigraph-server", "virtuoso", "virtuoso-gsp"])
def test_lubm_gives_the_same_14_answer_sets_on_every_backend(kind, lubm_data, lubm_reference, tmp_path, servers,
                                                             monkeypatch):
    lay = make_layer(kind, tmp_path / "ws", servers, monkeypatch)
    try:
        mine = lubm_answers(lay, *lubm_data)
    finally:
        lay.close()
    ref = lubm_reference
    print(f"\nLUBM(1,0) {kind}: {mine['triples']:,} triples; load {mine['load_s']:.1f} s, reason "
          f"{mine['reason_s']:.1f} s, 14 queries {mine['query_s']:.1f} s (embedded: load {ref['load_s']:.1f} s, "
          f"reason {ref['reason_s']:.1f} s, queries {ref['query_s']:.1f} s)")
    assert mine["triples"] == ref["triples"] > 100_000
    assert all(ref["answers"][n] for n in ref["answers"])          # every query answers something
    differing = [n for n in ref["answers"] if mine["answers"][n] != ref["answers"][n]]
    assert differing == [], {n: (len(mine["answers"][n]), len(ref["answers"][n])) for n in differing}
