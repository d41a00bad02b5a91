"""The ontology layer on a real on-disk Oxigraph store: graphs per source, atomic replacement,
documents added and removed with their inferences, schema persisted in the workspace."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from conftest import ROOT

from pyramid.errors import InputError
from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.store import OntologyStore

EX = "http://example.org/"
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture
def layer(workspace):
    layer = OntologyLayer(workspace)
    layer.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    yield layer
    layer.close()


def staff(iri: str) -> list[tuple[str, str, str]]:
    return [(EX + iri, "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", EX + "ChairProfessor"),
            (EX + iri, EX + "has_name", "Prof. " + iri), (EX + iri, EX + "head_of", EX + "COMP")]


def test_schema_is_persisted_and_reopened(layer, workspace):
    again = OntologyLayer(workspace)
    assert again.schema == layer.schema and EX + "STAFF" in again.schema.classes
    assert (workspace.layer_dir("ontology") / "schema.ttl").exists()
    assert workspace.manifest()["steps"]["ontology.load-schema"]["runs"] == 1


def test_documents_bring_and_take_their_facts_and_inferences(layer):
    assert layer.add_instances("d1", staff("alice")) == 3
    layer.add_instances("d2", staff("bob"))
    layer.reason()
    professors = "SELECT ?s WHERE { ?s a :STAFF ; :works_for :COMP } ORDER BY ?s"  # via subclass + subproperty
    assert [r["s"] for r in layer.select(professors)] == [EX + "alice", EX + "bob"]
    assert layer.remove_document("d1") is True
    # alice's asserted facts and everything inferred from them are gone; bob's stay
    assert [r["s"] for r in layer.select(professors)] == [EX + "bob"]
    assert layer.select(f"ASK {{ <{EX}alice> ?p ?o }}") == [{"ask": False}]
    assert layer.remove_document("d1") is False


def test_adding_marks_inferences_stale_until_reasoning(layer):
    layer.add_instances("d1", staff("alice"))
    layer.reason()
    layer.add_instances("d2", staff("bob"))
    assert layer.stats()["inferred_stale"] is True
    layer.reason()
    stats = layer.stats()
    assert stats["inferred_stale"] is False and stats["instances"]["STAFF"] == 2


def test_readding_a_document_replaces_its_graph(layer):
    layer.add_instances("d1", staff("alice"))
    layer.add_instances("d1", staff("carol"))
    names = layer.select("SELECT ?n WHERE { ?s :has_name ?n }")
    assert names == [{"n": "Prof. carol"}]


def test_failed_write_leaves_the_store_as_it_was(layer):
    layer.add_instances("d1", staff("alice"))
    before = layer.select(COUNT)

    def broken():
        yield from staff("dave")
        raise RuntimeError("extractor crashed")
    with pytest.raises(RuntimeError):
        layer.add_instances("d1", broken())
    assert layer.select(COUNT) == before
    assert layer.select("SELECT ?n WHERE { ?s :has_name ?n }") == [{"n": "Prof. alice"}]


def test_a_bad_schema_file_changes_nothing(layer, tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix : <http://e/> .\n:a :b \n", encoding="utf-8")
    before = layer.schema
    with pytest.raises(InputError):
        layer.load_schema(bad)
    assert layer.schema == before


def test_store_writes_need_the_workspace_lock(workspace):
    store = OntologyStore(workspace.layer_dir("ontology"), require_write=workspace._require_lock)
    with pytest.raises(RuntimeError, match="writing"):
        store.replace_graph("doc:x", [])
    with workspace.writing("test"):
        store.replace_graph("doc:x", [ox.Triple(ox.NamedNode(EX + "a"), ox.NamedNode(EX + "b"), ox.Literal("c"))])
    assert store.count("doc:x") == 1


def test_unregistered_leftovers_are_invisible_and_collected(layer):
    layer.add_instances("d1", staff("alice"))
    before = layer.select(COUNT)
    with layer.ws.writing("test"), layer.store.writer() as raw:  # what a crash mid-write leaves behind
        raw.add(ox.Quad(ox.NamedNode(EX + "ghost"), ox.NamedNode(EX + "has_name"), ox.Literal("ghost"),
                        ox.NamedNode("urn:polyrag:graph:doc%3Ad9:deadbeef")))
    del raw  # the read-write handle closes with its last reference
    assert layer.select(COUNT) == before
    layer.add_instances("d2", staff("bob"))  # the next write removes it
    assert layer.store.run_trusted("ASK { GRAPH ?g { ?s ?p 'ghost' } }").rows == [{"ask": False}]


def test_string_triples_become_iris_or_literals(layer):
    layer.add_instances("d1", [(EX + "x", EX + "works_for", EX + "COMP"), (EX + "x", EX + "has_name", "X Y")])
    rows = layer.select("SELECT ?o WHERE { ?s ?p ?o FILTER(isIRI(?o)) } ")
    assert {"o": EX + "COMP"} in rows and {"o": "X Y"} not in rows


def test_a_manifest_left_behind_by_a_stop_after_reasoning_is_settled(layer, workspace, monkeypatch):
    layer.add_instances("d1", staff("alice"))
    # the stop: the inferred graph is committed, then the process dies before the manifest is written
    monkeypatch.setattr(workspace, "record_step", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        layer.reason()
    monkeypatch.undo()
    assert layer.inferred_state() == "fresh"
    assert workspace.manifest()["layers"].get("ontology", {}).get("inferred_triples", 0) == 0
    assert layer.settle_manifest() is True       # what the next build does when it finds nothing to reason
    counts = workspace.manifest()["layers"]["ontology"]
    assert counts["inferred_triples"] == layer.stats()["inferred_triples"] > 0
    assert layer.settle_manifest() is False      # and then there is nothing left to settle
