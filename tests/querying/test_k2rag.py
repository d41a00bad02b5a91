"""The K²RAG text path and the summarisers.

The text path runs with the scripted LLM (canned replies keyed by prompt text) over a real text
layer (MiniLM + BM25), so every step's routing and evidence can be checked exactly."""

from __future__ import annotations

import pytest

from pyramid.corpus import Document
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.summarise import ExtractiveSummariser, sentences
from pyramid.types import Tracer, TripleEvidence
from querying.k2rag import answer_text_path

DOCS = [
    Document("ronaldo", "Ronaldo scored 8 goals at the 2002 FIFA World Cup and won the Golden Shoe."),
    Document("jersey", "Ronaldo wore the number 9 shirt for Brazil in 2002."),
    Document("jaguar", "Jaguars eat deer, capybaras and fish."),
]
TRIPLES = [TripleEvidence(triple_id="t1", subject="Ronaldo", relation="top scorer of", object="2002 FIFA World Cup",
                          chunk_id="ronaldo#0", doc_id="ronaldo")]


@pytest.fixture
def session(workspace, embedder):
    def make(rules, **query):
        from pyramid.config import load_settings
        from pyramid.workspace import Workspace

        ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml", query=query))
        s = Session(ws, provider=ScriptedProvider(rules), embedder=embedder)
        if not s.text.chunks:
            s.text.add_documents(DOCS)
        return s
    return make


Q = "What jersey number did the 2002 World Cup top scorer wear?"
RULES = {
    "What we know so far": {"question": "Which shirt number did Ronaldo wear in 2002?"},
    "Question: Which shirt number did Ronaldo wear in 2002?": "He wore number 9.",
    f"Question: {Q}": "Number 9.",   # the final answer (and, by default, the direct sub-answer)
}


def test_text_path_runs_every_k2rag_step_in_order(session):
    s = session(RULES, subquestion_with_question=False)  # K²RAG exactly as published
    tracer = Tracer(s.meter)
    text, evidence = answer_text_path(s.text, s.llm, s.embedder, s.settings.query, Q, TRIPLES, tracer)
    assert text == "Number 9."
    assert [st.step for st in tracer.steps] == ["text.summarise_kg", "text.subquestions",
                                                "text.summarise_answers", "text.answer"]
    assert tracer.steps[1].input["subquestions"] == ["Which shirt number did Ronaldo wear in 2002?"]
    assert evidence[0].doc_id == "jersey"                     # retrieved for the sub-question
    calls = s.llm.provider.calls
    assert len(calls) == 3                                     # sub-question, sub-answer, final answer
    final_prompt = calls[-1][-1]["content"]
    assert "Ronaldo top scorer of 2002 FIFA World Cup." in final_prompt   # the KG summary
    assert "He wore number 9." in final_prompt                             # the summarised sub-answers


def test_by_default_the_question_itself_is_answered_beside_the_sub_questions(session):
    s = session(RULES)
    tracer = Tracer(s.meter)
    answer_text_path(s.text, s.llm, s.embedder, s.settings.query, Q, TRIPLES, tracer)
    assert tracer.steps[1].input["subquestions"] == [Q, "Which shirt number did Ronaldo wear in 2002?"]
    calls = s.llm.provider.calls
    assert len(calls) == 4                  # sub-question, two sub-answers, final answer
    sub_prompts = [c[-1]["content"] for c in calls[1:3]]
    assert any(p.rstrip().endswith(f"Question: {Q}\nAnswer:") and "Ronaldo wore the number 9" in p
               for p in sub_prompts)       # the direct answer reads the retrieved chunks


def test_without_kg_results_the_naive_hybrid_path_answers_and_says_so(session):
    s = session({"Question: What do jaguars eat?": "Deer, capybaras and fish."})
    tracer = Tracer(s.meter)
    text, evidence = answer_text_path(s.text, s.llm, s.embedder, s.settings.query, "What do jaguars eat?", [], tracer)
    assert text == "Deer, capybaras and fish." and evidence[0].doc_id == "jaguar"
    assert tracer.steps[0].outcome.startswith("no KG results: hybrid naive path")
    assert len(s.llm.provider.calls) == 1


def test_extractive_summary_keeps_central_sentences_in_order_within_budget():
    text = ("Green bonds fund climate projects. The weather was nice. Green bonds pay fixed coupons to "
            "investors in climate projects. Cats sleep a lot.")
    out = ExtractiveSummariser().summarise(text, 15)
    kept = sentences(out)
    assert kept == ["Green bonds fund climate projects.",
                    "Green bonds pay fixed coupons to investors in climate projects."]
    assert ExtractiveSummariser().summarise("Short text.", 50) == "Short text."


def test_a_sub_question_the_model_cannot_write_is_replaced_by_the_question_itself(session):
    # the model runs out of tokens inside its JSON on every attempt (as SmolLM2 did once in 148 × 3)
    rules = {**RULES, "What we know so far": '{"question": "Which shirt number did Ronaldo wear in the year'}
    s = session(rules, subquestion_with_question=False)
    tracer = Tracer(s.meter)
    text, evidence = answer_text_path(s.text, s.llm, s.embedder, s.settings.query, Q, TRIPLES, tracer)
    assert text == "Number 9."                                  # the answer is still given
    assert tracer.steps[1].input["subquestions"] == [Q]
    assert "could not write" in tracer.steps[1].outcome
