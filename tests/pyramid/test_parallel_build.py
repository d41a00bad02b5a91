"""Parallel model calls in builds (issue 14, item 3): against a loopback OpenAI-compatible server that
takes a fixed time per request (benchmarks.fake_llm), a build with `llm.concurrency` 4 sends four
requests at once and ends with the same KG triples and ontology facts as one sent one at a time.
The throughput figure is `polyrag bench scale`'s, not this test's."""

from __future__ import annotations

import pytest

from benchmarks.fake_llm import slow_server
from pyramid.build import build_pyramid
from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.session import Session
from pyramid.workspace import Workspace

SCHEMA = """@prefix : <http://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Harbour a owl:Class ; rdfs:label "harbour" .
:Town a owl:Class ; rdfs:label "town" .
:serves a owl:ObjectProperty ; rdfs:label "serves" ; rdfs:domain :Harbour ; rdfs:range :Town .
:opened a owl:DatatypeProperty ; rdfs:label "opened in" ; rdfs:domain :Harbour ; rdfs:range xsd:string .
"""
TOWNS = ["Arlow", "Brisk", "Corran", "Dunmore", "Elvey", "Fenwick", "Garth", "Holm"]
DOCS = [Document(f"h{i}", f"The {t} Harbour serves the town of {t}mouth. It opened in {1850 + i} and "
                          f"Captain {TOWNS[(i + 1) % 8]}son ran it for decades.")
        for i, t in enumerate(TOWNS)]


def build(root, url: str, concurrency: int, embedder) -> tuple[set, set]:
    ws = Workspace.init(root)
    settings = load_settings(root / "polyrag.toml", llm={"provider": "openai", "base_url": url, "model": "slow",
                                                         "cache": False, "concurrency": concurrency},
                             ontology={"extract_method": "chunk"})
    session = Session(Workspace(ws.root, settings), embedder=embedder)
    schema = root.parent / "schema.ttl"
    schema.write_text(SCHEMA)
    build_pyramid(session, DOCS, schema=schema)
    triples = {(t.subject.name, t.relation, t.object.name, t.doc_id) for t in session.kg.store().iter_triples()}
    facts = {(str(q.subject), str(q.predicate), str(q.object)) for q in session.ontology.store.quads()}
    session.kg.close()
    return triples, facts


@pytest.mark.slow
def test_four_calls_at_once_give_the_sequential_build(tmp_path, embedder):
    with slow_server(0.05) as one_at_a_time:
        seq = build(tmp_path / "seq" / "ws", one_at_a_time.url, 1, embedder)
    with slow_server(0.05) as four_at_once:
        par = build(tmp_path / "par" / "ws", four_at_once.url, 4, embedder)
    assert one_at_a_time.most_at_once == 1
    assert four_at_once.most_at_once == 4, four_at_once.most_at_once
    assert one_at_a_time.requests == four_at_once.requests > 8
    assert seq[0] and seq[0] == par[0]          # KG triples, with their documents
    assert len(seq[1]) > 20 and seq[1] == par[1]  # ontology quads: minted the same, in the same order


def test_a_local_model_is_never_sent_concurrent_calls():
    from pyramid.llm.client import LLM
    from pyramid.llm.llamacpp import LlamaCppProvider
    from pyramid.llm.scripted import ScriptedProvider

    local = LlamaCppProvider.__new__(LlamaCppProvider)  # no model loaded: only its class matters here
    assert LLM(local, concurrency=8).concurrency == 1
    assert LLM(ScriptedProvider({}), concurrency=8).concurrency == 8
