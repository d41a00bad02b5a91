"""KG build: the f_kg cascade and single-call mode, grounding, resume after failures, deletion
of changed documents. The LLM is the scripted one (canned replies keyed by prompt text); the
embedder (MiniLM) and the graph store (LadybugDB) are real."""

from __future__ import annotations

import json

import pytest
from kg_fixtures import DOCS, kg_session, single_reply

from pyramid.errors import WorkspaceError
from pyramid.llm.scripted import Seq
from pyramid.progress import NullProgress

CASCADE = {
    "Text: Karim Benzema": {"statements": ["Karim Benzema was the top scorer for Real Madrid in 2020.",
                                           "Real Madrid plays in La Liga."]},
    "List the entities": {"entities": [{"name": "Karim Benzema", "type": "PERSON"},
                                       {"name": "Real Madrid", "type": "ORGANIZATION"},
                                       {"name": "La Liga", "type": "EVENT"}]},
    "Write the facts in the statements": {"triples": [
        ["Karim Benzema", "was the top scorer for", "Real Madrid", "year: 2020"],
        ["Karim Benzema", "top scorer of", "Real Madrid"],          # same meaning: merged by f_dis
        ["Real Madrid", "plays in", "La Liga"],
        ["Lionel Messi", "plays for", "Inter Miami"]]},              # not in the chunk: dropped
    "Some of the relations": {"relations": [
        {"relation": "was the top scorer for", "canonical": "top scorer for"},
        {"relation": "top scorer of", "canonical": "top scorer for"},
        {"relation": "invented relation", "canonical": "ignored"}]},
}


def test_cascade_runs_four_steps_merges_relations_and_drops_inventions(workspace, embedder):
    s = kg_session(workspace, embedder, CASCADE, {"benzema": DOCS["benzema"]})
    r = s.kg.build(s.llm, mode="cascade")
    prompts = [m[-1]["content"] for m in s.llm.provider.calls]
    assert [p.split("\n")[0][:20] for p in prompts] == ["Rewrite the text as ", "List the entities na",
                                                         "Write the facts in t", "Some of the relation"]
    assert r.dropped_ungrounded == 1 and r.duplicates_dropped == 1
    triples = {(t.subject.name, t.relation, t.object.name): t for t in s.kg.store().iter_triples()}
    assert set(triples) == {("Karim Benzema", "was the top scorer for", "Real Madrid"),
                            ("Real Madrid", "plays in", "La Liga")}
    top = triples[("Karim Benzema", "was the top scorer for", "Real Madrid")]
    assert top.canonical == "top_scorer_for" and top.properties == {"year": "2020"}
    assert (top.chunk_id, top.doc_id, top.subject.type) == ("benzema#0", "benzema", "PERSON")
    assert top.confidence == 1.0
    assert r.totals["triples"] == 2 and r.usage.calls == 4
    assert s.ws.manifest()["layers"]["kg"]["triples"] == 2


def test_single_mode_is_one_call_per_chunk(workspace, embedder):
    s = kg_session(workspace, embedder, {
        "Text: Karim": single_reply(["Karim Benzema", "top scorer for", "Real Madrid"]),
        "Text: Paris": single_reply(["Paris Saint-Germain", "won", "French Ligue 1", "year: 2019"],
                                    ["Paris Saint-Germain", "won", "Paris Saint-Germain"])},  # self-loop dropped
        DOCS)
    r = s.kg.build(s.llm, mode="single")
    assert r.usage.calls == 2 and r.chunks == 2
    got = {t.text() for t in s.kg.store().iter_triples()}
    assert got == {"Karim Benzema top scorer for Real Madrid",
                   "Paris Saint-Germain won French Ligue 1 (year: 2019)"}
    # A second build has nothing new to do.
    again = s.kg.build(s.llm, mode="single")
    assert again.usage.calls == 0 and again.documents == 0 and again.totals["triples"] == 2


def test_a_chunk_failing_its_schema_is_recorded_and_retried_on_resume(workspace, embedder):
    bad = "not json at all"
    s = kg_session(workspace, embedder, {
        "Text: Karim": single_reply(["Karim Benzema", "top scorer for", "Real Madrid"]),
        "Text: Paris": Seq(bad, bad, bad, single_reply(["Paris Saint-Germain", "won", "Ligue 1"]))}, DOCS)
    r = s.kg.build(s.llm, mode="single")
    assert r.failed_chunks == ["psg#0"] and r.documents_pending == 1 and r.documents == 1
    assert r.totals["triples"] == 1
    journal = [json.loads(x) for x in (s.kg.dir / "extract-single.jsonl").read_text().splitlines()]
    assert [(e["chunk_id"], e["status"]) for e in journal] == [("benzema#0", "ok"), ("psg#0", "failed")]
    assert "LLMSchemaError" in journal[1]["error"]

    again = s.kg.build(s.llm, mode="single")
    assert again.chunks_resumed == 0 and again.chunks_extracted == 1 and not again.failed_chunks
    assert again.usage.calls == 1 and again.totals["triples"] == 2


def test_interrupted_extraction_resumes_from_the_journal(workspace, embedder):
    s = kg_session(workspace, embedder, {
        "Text: Karim": single_reply(["Karim Benzema", "top scorer for", "Real Madrid"]),
        "Text: Paris": single_reply(["Paris Saint-Germain", "won", "Ligue 1"])}, DOCS)

    class Stop(Exception):
        pass

    class StopAfterOne(NullProgress):
        def task(self, description, total):
            outer = self

            class T:
                def advance(self, n=1):
                    raise Stop
                def done(self):
                    pass
            return T() if description.startswith("extracting") else super(StopAfterOne, outer).task(description, total)

    with pytest.raises(Stop):
        s.kg.build(s.llm, mode="single", progress=StopAfterOne())
    assert not s.kg.exists  # nothing loaded yet
    r = s.kg.build(s.llm, mode="single")
    assert r.chunks_resumed == 1 and r.chunks_extracted == 1 and r.totals["triples"] == 2
    assert len(s.llm.provider.calls) == 2  # each chunk asked once in all


def test_changed_and_removed_documents_are_replaced(workspace, embedder):
    from pyramid.corpus import Document

    s = kg_session(workspace, embedder, {
        "Text: Karim": single_reply(["Karim Benzema", "top scorer for", "Real Madrid"]),
        "Text: Paris": single_reply(["Paris Saint-Germain", "won", "Ligue 1"]),
        "Text: Kylian": single_reply(["Kylian Mbappe", "plays for", "Real Madrid"])}, DOCS)
    s.kg.build(s.llm, mode="single")
    s.corpus.update([Document("benzema", "Kylian Mbappe plays for Real Madrid.")], remove=["psg"])
    r = s.kg.build(s.llm, mode="single")
    assert (r.documents, r.documents_removed) == (1, 1)
    assert {t.text() for t in s.kg.store().iter_triples()} == {"Kylian Mbappe plays for Real Madrid"}
    assert {t.triple.text() for t in s.kg.search("Mbappe", k=5)} == {"Kylian Mbappe plays for Real Madrid"}


def test_build_without_documents_says_what_to_do(workspace, embedder):
    s = kg_session(workspace, embedder, {})
    with pytest.raises(WorkspaceError, match="has no documents") as err:
        s.kg.build(s.llm)
    assert err.value.hint is not None and err.value.hint.action == "add_documents"
    assert "add documents first" in str(err.value)  # said in library words


def test_a_changed_prompt_or_model_re_extracts(workspace, embedder, monkeypatch):
    from pyramid.kg.extractors.base import ChunkTripleExtractor

    s = kg_session(workspace, embedder, {
        "Text: Karim": single_reply(["Karim Benzema", "top scorer for", "Real Madrid"])}, {"benzema": DOCS["benzema"]})
    s.kg.build(s.llm, mode="single")
    assert s.kg.build(s.llm, mode="single").chunks == 0
    monkeypatch.setattr(ChunkTripleExtractor, "version", property(lambda self: "another-prompt"))
    r = s.kg.build(s.llm, mode="single")
    assert r.chunks == 1 and r.chunks_extracted == 1 and r.totals["triples"] == 1
