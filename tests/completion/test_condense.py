"""Condensation: canonical relations, duplicate merging, the cap, reversibility (in memory and on a
real LadybugDB graph store), and the f_con control flow. The f_con tests use the scripted LLM (canned
replies keyed by prompt text); the embeddings are the real MiniLM."""

from __future__ import annotations

import json

import pytest
from completion_fixtures import BASE, kg_triples, ontology_ttl
from conftest import scripted_llm

from completion.condensation import condense, passive
from completion.condense_llm import f_con, llm_decisions
from completion.condense_measure import count_facts
from completion.linking import NameLinker
from completion.sources import load_rdf_store, oxigraph_select, read_view
from completion.types import ClassAttribute, KGTriple
from pyramid.llm.base import LLMSchemaError
from pyramid.llm.scripted import Seq


@pytest.fixture(scope="module")
def view(tmp_path_factory):
    ttl = tmp_path_factory.mktemp("onto") / "onto.ttl"
    ttl.write_text(ontology_ttl(), encoding="utf-8")
    return read_view(oxigraph_select(load_rdf_store(ttl)))


def _embed(embedder):
    return lambda texts: embedder.embed(list(texts))


def _with_duplicates() -> list[KGTriple]:
    extra = [KGTriple("x1", "Prof. Ada CHAN", "has research interest in", "machine learning", "c9", "d9"),
             KGTriple("x2", "Prof. Ada CHAN", "research interests include", "machine learning", "c9", "d9"),
             KGTriple("x3", "PolyU", "offers", "BSc Computing"),
             KGTriple("x4", "BSc Computing", "is offered by", "PolyU")]
    return kg_triples() + extra


def test_condense_names_merges_and_is_reversible(view, embedder):
    triples = _with_duplicates()
    typing = NameLinker(view.instances).link(t.subject for t in triples)
    cond = condense(triples, view.pairs, typing, _embed(embedder), k=20, threshold=0.7, max_relations=400)
    canon = cond.canonical_of
    # same meaning → one canonical; the interest wordings share one
    assert canon["has research interests in"] == canon["has research interest in"] == canon["research interests include"]
    assert canon["has email"] == canon["has email address"]
    # an active and a passive relation never share a name (it would swap subject and object)
    assert passive("is offered by") and not passive("offers")
    assert canon["offers"] != canon["is offered by"]
    # Ada's 'machine learning' interest was said three ways in the KG: one edge now, two folded into it
    ada = [e for e in cond.edges if e.subject == "Prof. Ada CHAN" and e.object == "machine learning"]
    assert len(ada) == 1 and {m.id for m in ada[0].merged} == {"x1", "x2"}
    assert len(cond.edges) == len(triples) - 2
    # reversible: the originals come back exactly, relation texts and provenance included
    key = lambda ts: sorted((t.id, t.subject, t.relation, t.object, t.chunk_id, t.doc_id) for t in ts)
    assert key(cond.expand()) == key(triples)
    facts = count_facts(triples, cond)
    assert facts.connected == facts.facts and facts.relations_after < facts.relations_before


def test_cap_keeps_the_largest_groups_and_records_forced_joins(view, embedder):
    triples = kg_triples()
    typing = NameLinker(view.instances).link(t.subject for t in triples)
    cond = condense(triples, view.pairs, typing, _embed(embedder), k=20, threshold=0.9, max_relations=3)
    assert len({g.canonical for g in cond.groups}) <= 3
    forced = {t: s for g in cond.groups for t, s in g.forced.items()}
    assert forced and all(-1 <= s <= 1 for s in forced.values())
    assert len(cond.expand()) == len(triples)


def test_f_con_keeps_only_listed_phrases_and_single_voice_groups():
    anchor = ClassAttribute(BASE + "STAFF", BASE + "has_research_interest")
    llm = scripted_llm({"Ontology attribute:": {
        "same": ["has research interests in"],
        "groups": [{"canonical": "E-mail!", "relations": ["has email", "has email address"]},
                   {"canonical": "offer", "relations": ["offers", "is offered by"]},
                   {"canonical": "lonely", "relations": ["has email"]}]}})
    got = f_con(llm, anchor, ["has research interests in", "has email", "has email address", "offers",
                              "is offered by"])
    assert got == {"has research interests in": "has_research_interest", "has email": "e_mail",
                   "has email address": "e_mail"}
    # a phrase that was not in the list fails the reply's schema (an enum of the listed phrases)
    invented = scripted_llm({"Ontology attribute:": {"same": ["invented phrase"], "groups": []}},
                            schema_retries=0)
    with pytest.raises(LLMSchemaError, match="same/0"):
        f_con(invented, anchor, ["has email"])


def test_f_con_failure_falls_back_to_clustering(view, embedder):
    triples = kg_triples()
    typing = NameLinker(view.instances).link(t.subject for t in triples)
    anchors = view.pairs[:2]
    llm = scripted_llm({"Ontology attribute:": Seq("not json", "still not json", "{}",
                                                   {"same": [], "groups": []})}, schema_retries=2)
    decided, failures = llm_decisions(llm, anchors, triples, typing, _embed(embedder), k=20)
    assert failures == 1 and decided == {}


def test_condense_on_an_embedded_graph_and_undo(workspace, embedder, view, tmp_path):
    from completion.condense_ws import condense_workspace, undo_condensation
    from pyramid.session import Session

    rows = [{"sub": t.subject, "rel": t.relation, "obj": t.object, "doc_id": t.doc_id, "chunk_id": t.chunk_id}
            for t in _with_duplicates()]
    path = tmp_path / "kg.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    session = Session(workspace, embedder=embedder)
    session.kg.import_file(path, resolve="exact")

    def snapshot():
        return sorted((t.id, t.relation, t.canonical) for t in session.kg.store().iter_triples())

    before, entities = snapshot(), session.kg.store().stats().entities
    rep = condense_workspace(session, view, questions=["What are the research interests of Ada Chan?"])
    after = snapshot()
    # a folded duplicate shares its ends with the edge it joined, so deleting it orphans no entity
    assert session.kg.store().stats().entities == entities
    assert len(after) < len(before) and rep.facts.triples_after == len(after)
    assert all(rel in {r for _, r, _ in before} for _, rel, _ in after)       # relation texts kept on edges
    assert len({c for _, _, c in after}) < len({c for _, _, c in before})
    assert undo_condensation(session) == len(before) - len(after)
    assert snapshot() == before and session.kg.store().stats().entities == entities


@pytest.mark.llm
@pytest.mark.slow
def test_f_con_with_the_real_local_model():
    """SmolLM2 answers f_con in the schema; whatever it decides, only listed phrases come back."""
    from pyramid.llm.client import LLM
    from pyramid.llm.llamacpp import LlamaCppProvider

    relations = ["has research interests in", "has research interest", "research interests include", "has email"]
    llm = LLM(LlamaCppProvider(), max_tokens=160, schema_retries=0)
    got = f_con(llm, ClassAttribute(BASE + "STAFF", BASE + "has_research_interest"),
                relations)
    assert set(got) <= set(relations)
    assert all(name and name == name.lower() and " " not in name for name in got.values())
