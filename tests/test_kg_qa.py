"""Query_kg (sufficiency + answer), options, Mindful-RAG, and `ask --layer kg`. The LLM is the
scripted one (canned replies keyed by prompt text); triples, MiniLM and Kùzu are real."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from kg_fixtures import SPORTS, kg_session, t

from pyramid.kg.index import TripleHit
from querying.kg_qa import answer_kg, compute_signals, decide

Q_BLUES = "Who was the captain of the St. Louis Blues?"


@pytest.fixture
def session(workspace, embedder):
    def make(rules, extra=(), **kg):
        s = kg_session(workspace, embedder, rules, **kg)
        with s.ws.writing("test"):
            store = s.kg.store(write=True)
            store.upsert([], [*SPORTS, *extra])
            s.kg._finish(store, "kg.import", 0.0, None, __import__("pyramid.progress").progress.NullProgress())
        return s
    return make


def test_yes_with_an_entity_match_answers_from_the_kg_citing_triples_and_chunks(session):
    s = session({Q_BLUES: {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]}})
    a = answer_kg(s, Q_BLUES, k=3)
    assert a.layer == "kg" and a.text == "Alex Pietrangelo"
    first = a.evidence[0]
    assert (first.triple_id, first.chunk_id, first.doc_id) == (SPORTS[6].id, "d4#0", "d4")
    assert [st.step for st in a.trace] == ["kg.retrieve", "kg.signals", "kg.sufficiency"]
    assert a.trace[2].outcome.startswith("sufficient: LLM said yes; entity match (St. Louis Blues")
    assert a.usage.calls == 1


def test_a_yes_over_unrelated_triples_is_overruled_and_evidence_kept(session):
    q = "What is the capital of Australia?"
    s = session({q: {"sufficient": True, "answer": "Real Madrid", "facts": [1]}})
    a = answer_kg(s, q, k=3)
    assert a.layer == "none"
    assert "no retrieved triple names an entity of the question (LLM said yes)" in a.trace[2].outcome
    assert len(a.evidence) == 3 and all(e.kind == "triple" for e in a.evidence)   # for the K²RAG text path


def test_a_no_is_rescued_only_by_a_triple_restating_the_question(session):
    q = "Did Paris Saint-Germain win Ligue 1?"
    s = session({q: {"sufficient": False, "answer": "Yes, in 2019.", "facts": []}})
    a = answer_kg(s, q, k=3)
    assert a.layer == "kg" and "LLM said no, but one triple covers 83% of the question's words" in a.trace[2].outcome
    assert a.evidence[0].triple_id == SPORTS[4].id  # nothing cited: the triple naming the entity is
    q2 = "How many goals did Karim Benzema score for Real Madrid?"
    s2 = session({q2: {"sufficient": False, "answer": "", "facts": []}})
    assert answer_kg(s2, q2, k=3).layer == "none"


def test_decision_modes_on_fixed_signals():
    from querying.kg_qa import Signals

    strong, weak = Signals(["Ronaldo"], 0.7, 0.9), Signals([], 0.7, 0.9)
    assert decide("llm", True, weak, 0.4, 0.75)[0] is True
    assert decide("combined", True, weak, 0.4, 0.75)[0] is False
    assert decide("combined", False, strong, 0.4, 0.75)[0] is True
    assert decide("signals", False, strong, 0.4, 0.75)[0] is True
    assert decide("combined", True, Signals(["Ronaldo"], 0.3, 0.9), 0.4, 0.75)[0] is False


def test_signals_link_entities_named_in_the_question():
    hits = [TripleHit(SPORTS[2], 0.8), TripleHit(SPORTS[0], 0.3)]
    sig = compute_signals("What did Ronaldo win in 2002?", hits)
    assert sig.linked == ["Ronaldo"] and sig.top_score == 0.8
    assert sig.overlap == pytest.approx(2 / 3)   # "ronaldo", "2002" of "ronaldo", "win", "2002"


def test_options_select_what_the_triples_support(session):
    q = "Which trophies did Ronaldo win?"
    s = session({q: {"sufficient": True, "answer": "The Golden Shoe", "facts": [1]}})
    a = answer_kg(s, q, options=["Golden Shoe", "Stanley Cup", "Ballon d'Or"], k=3)
    assert a.layer == "kg" and a.selected == [0]


MINDFUL = {
    "List the named entities in the question": {"entities": ["St. Louis Blues"], "keywords": ["captain", "2019"]},
    "What does the question ask for?": {"intent": "the captain's name", "answer_type": "person"},
    "what topic or domain": {"context": "ice hockey"},
    "Which relations can lead to the answer?": {"relations": [2]},
    "Which constraints does the question set?": {"time": "2019", "place": "", "current": False,
                                                 "aggregation": "none"},
    "Do the facts above answer": {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]},
    "Does the answer give what the question asks for?": {"matches": True},
}


def test_mindful_runs_the_seven_steps_as_small_calls(session):
    s = session(MINDFUL)
    a = answer_kg(s, "Who was the captain of the St. Louis Blues in 2019?", mindful=True)
    assert a.layer == "kg" and a.pipeline == "mindful" and a.text == "Alex Pietrangelo"
    steps = [st.step for st in a.trace]
    assert steps[:4] == ["kg.mindful.1_entities", "kg.mindful.2_intent", "kg.mindful.3_context",
                         "kg.mindful.4_candidates"]
    assert "kg.mindful.7_check_try1" in steps and "kg.mindful.5_relations_try2" not in steps
    relations_prompt = [c for c in s.llm.provider.calls if "Which relations" in c[-1]["content"]][0][-1]["content"]
    assert "captain of" in relations_prompt and "won" in relations_prompt   # one hop from the Blues
    assert a.evidence[0].relation == "captain of"


def test_mindful_retries_once_when_the_answer_misses_the_intent(session):
    from pyramid.llm.scripted import Seq

    rules = dict(MINDFUL)
    rules["Does the answer give what the question asks for?"] = Seq({"matches": False}, {"matches": False})
    rules["Which relations can lead to the answer?"] = Seq({"relations": [1]}, {"relations": [1]})
    more = [t("St. Louis Blues", rel, f"Thing {i}", doc="d5") for i, rel in enumerate(
        ["plays in", "is based in", "was founded in", "is owned by", "has coach", "has arena"])]
    s = session(rules, extra=more)
    a = answer_kg(s, "Who was the captain of the St. Louis Blues in 2019?", mindful=True)
    steps = [st.step for st in a.trace]
    tries = [c[-1]["content"].split("Relations:")[1] for c in s.llm.provider.calls
             if "Which relations" in c[-1]["content"]]
    assert len(tries) == 2 and "captain of" in tries[0] and "captain of" not in tries[1]  # next relations
    assert "kg.mindful.5_relations_try2" in steps and "kg.mindful.7_check_try2" in steps
    assert a.layer == "none"


def test_ask_layer_kg_json_from_the_cli(workspace, tmp_path, capsys, monkeypatch):
    f = tmp_path / "kg.json"
    f.write_text(json.dumps([{"sub": "Alex Pietrangelo", "rel": "captain of", "obj": "St. Louis Blues"}]))
    assert run_cli(["kg", "import", workspace.root, f], capsys)[0] == 0
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({Q_BLUES: {"sufficient": True, "answer": "Alex Pietrangelo", "facts": [1]}}))
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(rules))
    code, out, err = run_cli(["ask", workspace.root, Q_BLUES, "--layer", "kg", "--json"], capsys)
    assert code == 0, err
    a = json.loads(out)
    assert a["layer"] == "kg" and a["evidence"][0]["subject"] == "Alex Pietrangelo"
    assert a["evidence"][0]["doc_id"] == "import:kg.json"
    code, out, err = run_cli(["kg", "search", workspace.root, "captain", "--json"], capsys)
    assert json.loads(out)[0]["relation"] == "captain of"


def test_only_names_in_the_question_link_entities():
    from kg_fixtures import t as triple
    from querying.kg_qa import question_names

    assert question_names("Did Paris Saint-Germain win Ligue 1?") == {"paris", "saint", "germain", "ligue", "1"}
    assert question_names("what did ronaldo win") == {"did", "ronaldo", "win"}   # no capitals: all words
    generic = [TripleHit(triple("Dr Wang Wenyi", "has", "research"), 0.9),
               TripleHit(triple("Department of Computing", "offers", "Data Science"), 0.5)]
    sig = compute_signals("Dr Elena Marsh-Okafor has research interest in what?", generic)
    assert sig.linked == []                                   # "research" is a word, not a name, here
    sig = compute_signals("Which courses does the Department of Computing offer?", generic)
    assert sig.linked == ["Department of Computing"]          # filler words do not block a name


def test_auto_mode_trusts_only_the_signals_with_the_tiny_default_model(session):
    from types import SimpleNamespace

    from querying.kg_qa import resolve_mode

    tiny = SimpleNamespace(provider=SimpleNamespace(name="llamacpp", model="SmolLM2-135M-Instruct.Q4_1.gguf"))
    other = SimpleNamespace(provider=SimpleNamespace(name="openai", model="gpt-4o"))
    assert (resolve_mode("auto", tiny), resolve_mode("auto", other), resolve_mode("llm", tiny)) == \
        ("signals", "combined", "llm")
    q = "What is the capital of Australia?"
    s = session({q: {"sufficient": True, "answer": "x", "facts": [1]}}, sufficiency="signals")
    a = answer_kg(s, q, k=3)
    assert a.layer == "none" and a.usage.calls == 0          # signals said no: the LLM is not asked
    s2 = session({Q_BLUES: {"sufficient": False, "answer": "Alex Pietrangelo", "facts": [1]}},
                 sufficiency="signals")
    a2 = answer_kg(s2, "Who was the captain of the St. Louis Blues?", k=3)
    assert a2.layer == "kg" and a2.text == "Alex Pietrangelo"  # the LLM's "no" is not used, its answer is
