"""querying.ontology_context: one context per store generation; a server's is rebuilt beside the requests.

A small registry of our own (two ferries, then a third imported); the real Oxigraph store. The build of
the new generation's context is held on an event, so what a request sees meanwhile is checked, not raced.
"""

from __future__ import annotations

import threading

import pytest

from pyramid.config import load_settings
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying import ontology_context
from querying.ontology_qa import OntologyAnswerer

TTL = """@prefix f: <http://example.org/ferry#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
f:Ferry a owl:Class ; rdfs:label "ferry" .
{rows}
"""


def _ferries(*names: str) -> str:
    return TTL.format(rows="".join(f'f:{n} a f:Ferry ; rdfs:label "{n} Star" .\n' for n in names))


def _session(ws: Workspace, embedder, *, serving: bool) -> Session:
    settings = load_settings(ws.root / "polyrag.toml", llm={"cache": False})
    s = Session(Workspace(ws.root, settings), provider=ScriptedProvider({}), embedder=embedder)
    s.serving = serving
    return s


@pytest.fixture
def ferry_ws(tmp_path, embedder) -> Workspace:
    ws = Workspace.init(tmp_path / "ws")
    (tmp_path / "a.ttl").write_text(_ferries("Marlow", "Tessaly"), encoding="utf-8")
    _session(ws, embedder, serving=False).ontology.import_instances(tmp_path / "a.ttl", reason=False)
    return ws


def _import_third(ws: Workspace, embedder, tmp_path) -> None:
    (tmp_path / "b.ttl").write_text(_ferries("Quenby"), encoding="utf-8")
    _session(ws, embedder, serving=False).ontology.import_instances(tmp_path / "b.ttl", reason=False)


def _held_builds(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """build_context waits for `release` once `started` is set (the first build of a test runs freely)."""
    started, release = threading.Event(), threading.Event()
    real = ontology_context.build_context
    calls = []

    def held(layer, cache_dir, fp):
        calls.append(fp)
        if len(calls) > 1:
            started.set()
            assert release.wait(30), "the test never released the build"
        return real(layer, cache_dir, fp)

    monkeypatch.setattr(ontology_context, "build_context", held)
    return started, release


def test_a_server_answers_from_the_last_context_while_the_new_one_is_built(ferry_ws, embedder, tmp_path,
                                                                             monkeypatch):
    started, release = _held_builds(monkeypatch)
    s = _session(ferry_ws, embedder, serving=True)
    answerer = OntologyAnswerer.from_session(s)
    first = answerer.context()
    assert not first.stale and not first.index.link("Quenby Star")

    _import_third(ferry_ws, embedder, tmp_path)
    during = answerer.context()  # returns at once: the build waits on `release`
    assert started.wait(10)
    assert during.stale and during.fingerprint == first.fingerprint
    assert answerer.context().stale  # a second request meanwhile does not start a second build

    release.set()
    for _ in range(200):  # the build thread finishes on its own
        after = answerer.context()
        if not after.stale:
            break
        threading.Event().wait(0.05)
    assert not after.stale and after.fingerprint == s.ontology.store.generation
    assert after.index.link("Quenby Star")


def test_outside_a_server_a_new_generation_is_waited_for(ferry_ws, embedder, tmp_path):
    s = _session(ferry_ws, embedder, serving=False)
    answerer = OntologyAnswerer.from_session(s)
    before = answerer.context()
    _import_third(ferry_ws, embedder, tmp_path)
    after = answerer.context()
    assert not after.stale and after.fingerprint != before.fingerprint and after.index.link("Quenby Star")


def test_the_trace_says_when_the_names_are_the_last_generations(ferry_ws, embedder, tmp_path, monkeypatch):
    started, release = _held_builds(monkeypatch)
    s = _session(ferry_ws, embedder, serving=True)
    answerer = OntologyAnswerer.from_session(s)
    answerer.context()
    _import_third(ferry_ws, embedder, tmp_path)
    try:
        answer = answerer.answer("How many ferries are there?")
        assert started.wait(10)
    finally:
        release.set()
    step = next(t for t in answer.trace if t.step == "ontology.context")
    assert "last generation" in step.outcome
    assert "3" in answer.text  # the query read the store's current generation: three ferries
