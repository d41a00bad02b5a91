"""The OpenAI-compatible chat endpoint (serving.chat) driven by the `openai` Python client, streaming and
not, against a real uvicorn server in a thread. Real Oxigraph, MiniLM and bm25s; the scripted model
with no rules, so any model call fails loudly (the questions asked are answered by the ontology)."""

from __future__ import annotations

import pytest
from serving_fixtures import served_workspace

ONTO = """@prefix g: <http://example.org/garden#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
g:Plot a owl:Class ; rdfs:label "allotment plot" .
g:Gardener a owl:Class ; rdfs:label "gardener" .
g:tends a owl:ObjectProperty ; rdfs:label "tends" ; rdfs:domain g:Gardener ; rdfs:range g:Plot .
g:p14 a g:Plot ; rdfs:label "Plot 14" .
g:p3 a g:Plot ; rdfs:label "Plot 3" .
g:wren a g:Gardener ; rdfs:label "Odile Wren" ; g:tends g:p14 .
"""
DOCS = [{"id": "rules", "text": "Bonfires are not allowed on the allotments between April and October."}]
QUESTION = "Which allotment plot does Odile Wren tend?"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from openai import OpenAI

    with served_workspace(tmp_path_factory.mktemp("chat"), ONTO, DOCS) as (base, _):
        yield OpenAI(base_url=base + "/v1", api_key="not-needed-for-reads", max_retries=0, timeout=120)


def test_models_lists_the_waterfall_and_each_layer(client):
    assert {m.id for m in client.models.list()} == {"polyrag", "polyrag-ontology", "polyrag-kg", "polyrag-text"}


def test_a_chat_completion_answers_the_last_user_message(client):
    reply = client.chat.completions.create(model="polyrag", messages=[
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Who tends Plot 3?"},
        {"role": "assistant", "content": "Nobody is recorded."},
        {"role": "user", "content": QUESTION}])
    assert reply.object == "chat.completion" and reply.choices[0].finish_reason == "stop"
    assert "Plot 14" in reply.choices[0].message.content
    extra = reply.model_extra["polyrag"]
    assert extra["layer"] == "ontology" and extra["answered"] and extra["evidence"]
    assert extra["usage"]["calls"] == 0 and reply.usage.total_tokens == 0


def test_streaming_sends_the_same_answer_in_chunks_with_the_extra_field_last(client):
    whole = client.chat.completions.create(model="polyrag", messages=[{"role": "user", "content": QUESTION}])
    stream = client.chat.completions.create(model="polyrag", stream=True,
                                            messages=[{"role": "user", "content": [{"type": "text", "text": QUESTION}]}])
    parts = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in parts)
    assert text == whole.choices[0].message.content
    assert parts[0].choices[0].delta.role == "assistant" and parts[-1].choices[0].finish_reason == "stop"
    assert parts[-1].model_extra["polyrag"]["layer"] == "ontology"
    assert all("polyrag" not in (c.model_extra or {}) for c in parts[:-1])


def test_one_layer_by_model_name_and_bad_requests_are_client_errors(client):
    import openai

    text_only = client.chat.completions.create(model="polyrag-text", messages=[{"role": "user", "content": QUESTION}])
    extra = text_only.model_extra["polyrag"]
    assert extra["layer"] != "ontology" and not [t for t in extra["trace"] if t["layer"] == "ontology"]
    with pytest.raises(openai.NotFoundError, match="unknown model"):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": QUESTION}])
    with pytest.raises(openai.BadRequestError, match="no user message"):
        client.chat.completions.create(model="polyrag", messages=[{"role": "system", "content": "hello"}])
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(model="polyrag", messages=[])
