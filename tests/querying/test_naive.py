"""The naive K²RAG pipelines (semantic, keyword, hybrid): routing of λ, prompt content, evidence.

Uses the scripted LLM for the answer call and the real MiniLM embedder for retrieval."""

from __future__ import annotations

import pytest

from pyramid.corpus import Document
from pyramid.errors import InputError
from pyramid.llm.client import LLM
from pyramid.llm.scripted import ScriptedProvider
from pyramid.text_layer import TextLayer
from querying.naive import answer_naive

DOCS = [
    Document("obs", "The teaching observatory opens to visitors on the first Friday of every month."),
    Document("ir", "COMP3010 Information Retrieval covers BM25 ranking and dense retrieval."),
    Document("fin", "The sustainable finance centre studies green bonds and climate risk disclosure."),
]


@pytest.fixture
def text(workspace, embedder) -> TextLayer:
    layer = TextLayer(workspace, embedder)
    layer.add_documents(DOCS)
    return layer


@pytest.mark.parametrize("pipeline,lam", [("semantic", 1.0), ("keyword", 0.0), ("hybrid", 0.8)])
def test_pipelines_use_their_lambda_and_cite_what_they_retrieved(text, pipeline, lam):
    provider = ScriptedProvider({"Question: Which subject covers BM25?": "COMP3010."})
    answer = answer_naive("Which subject covers BM25?", text, LLM(provider), pipeline, k=2)
    expected = text.search("Which subject covers BM25?", k=2, lam=lam)
    assert [e.chunk_id for e in answer.evidence] == [h.chunk.id for h in expected]
    assert answer.evidence[0].doc_id == "ir"
    assert (answer.text, answer.layer, answer.pipeline) == ("COMP3010.", "text", pipeline)
    prompt = provider.calls[0][-1]["content"]
    for h in expected:                                    # every retrieved chunk reached the prompt
        assert " ".join(h.chunk.text.split()) in prompt
    assert answer.trace[0].input["lam"] == lam
    assert answer.usage.calls == 1 and answer.trace[1].usage.calls == 1


def test_default_k_is_answer_k(text):
    text.cfg.answer_k = 3
    provider = ScriptedProvider({"Question:": "x"})
    assert len(answer_naive("observatory visitors?", text, LLM(provider)).evidence) == 3


@pytest.mark.parametrize("q,msg", [("", "empty"), ("   ", "empty"), ("x" * 100_000, "100,000 characters")])
def test_bad_questions_are_refused_before_any_work(text, q, msg):
    provider = ScriptedProvider({})
    with pytest.raises(InputError, match=msg):
        answer_naive(q, text, LLM(provider))
    assert provider.calls == []
