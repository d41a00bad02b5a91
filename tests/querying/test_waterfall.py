"""The waterfall (PolyRAG Algorithm 1) over a tiny real pyramid: the academic schema plus a few
instances in Oxigraph, sports triples in LadybugDB, three documents in the text layer, MiniLM for every
vector. The LLM is the scripted one (canned replies keyed by prompt text; an unexpected prompt
raises), so each test pins which layers ran, in which order, and which one answered."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, run_cli
from kg_fixtures import SPORTS

from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.errors import QueryTimeout
from pyramid.llm.scripted import ScriptedProvider
from pyramid.progress import NullProgress
from pyramid.session import Session
from pyramid.types import Answer
from pyramid.workspace import Workspace
from querying.answerers import answerers
from querying.router import ask
from querying.waterfall import answer_waterfall

INSTANCES = """
@prefix : <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:alice_chen a :Professor ; rdfs:label "Alice Chen" ; :has_name "Alice Chen" ;
    :works_for :dept_computing ; :has_research_interest "knowledge graphs" .
:dept_computing a :DEPARTMENT ; rdfs:label "Department of Computing" .
"""
DOCS = [
    Document("jersey", "Ronaldo wore the number 9 shirt for Brazil at the 2002 World Cup."),
    Document("jaguar", "Jaguars eat deer, capybaras and fish."),
    Document("observatory", "The teaching observatory welcomes visitors on the first Friday of every month."),
]
Q_ONTO = "Which department does Alice Chen work for?"
Q_KG = "Who was the captain of the St. Louis Blues?"
Q_TEXT = "What shirt number did Ronaldo wear at the 2002 World Cup?"
Q_NONE = "What do jaguars eat?"


def kg_says(question: str, sufficient: bool, answer: str = "", facts=()) -> dict:
    """The scripted Query_kg reply for `question` (its prompt ends by asking whether the facts answer it)."""
    return {f"Question: {question}\n\nDo the facts": {"sufficient": sufficient, "answer": answer,
                                                        "facts": list(facts)}}


def text_says(question: str, answer: str) -> dict:
    """The scripted K²RAG answer-prompt reply for `question`."""
    return {f"Question: {question}\nAnswer:": answer}


def _build(root, embedder, layers=("ontology", "kg", "text")) -> Workspace:
    ws = Workspace.init(root)
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    if "ontology" in layers:
        s.ontology.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
        data = root.parent / "instances.ttl"
        data.write_text(INSTANCES, encoding="utf-8")
        s.ontology.import_instances(data)
        s.ontology.reason()
    if "kg" in layers:
        with ws.writing("test"):
            store = s.kg.store(write=True)
            store.upsert([], SPORTS)
            s.kg._finish(store, "kg.import", 0.0, None, NullProgress())
    if "text" in layers:
        s.text.add_documents(DOCS)
        s.corpus.update(DOCS)
    return ws


@pytest.fixture(scope="module")
def pyramid_root(tmp_path_factory, embedder):
    return _build(tmp_path_factory.mktemp("pyr") / "ws", embedder).root


def session(root, embedder, rules=None, **query) -> Session:
    # the text layer generates (K²RAG / the answer prompt): these tests pin which prompts each path sends;
    # the extractive and rewrite answers have their own tests (test_text_answers.py)
    query = {"text_answer": "generate", **query}
    settings = load_settings(root / "polyrag.toml", llm={"cache": False}, query=query)
    return Session(Workspace(root, settings), provider=ScriptedProvider(rules or {}), embedder=embedder)


def steps(answer: Answer) -> list[str]:
    return [s.step for s in answer.trace]


def test_the_ontology_answers_first_and_nothing_below_it_runs(pyramid_root, embedder):
    s = session(pyramid_root, embedder)  # no rules: any LLM call would raise
    a = answer_waterfall(s, Q_ONTO)
    assert a.layer == "ontology" and "Department of Computing" in a.text
    assert a.pipeline == "waterfall" and a.usage.calls == 0
    assert all(st.startswith("ontology.") for st in steps(a))
    sparql = a.evidence[0]
    assert sparql.kind == "sparql" and "works_for" in sparql.query and sparql.rows


def test_ontology_empty_then_kg_sufficient(pyramid_root, embedder):
    s = session(pyramid_root, embedder, kg_says(Q_KG, True, "Alex Pietrangelo", [1]))
    a = answer_waterfall(s, Q_KG)
    assert a.layer == "kg" and a.text == "Alex Pietrangelo"
    names = steps(a)
    assert any(n.startswith("ontology.") for n in names) and "kg.sufficiency" in names
    assert names.index("kg.retrieve") > max(i for i, n in enumerate(names) if n.startswith("ontology."))
    assert not any(n.startswith("text.") for n in names)
    assert a.evidence[0].kind == "triple" and a.evidence[0].triple_id == SPORTS[6].id
    assert a.usage.calls == 1


def test_kg_insufficient_hands_its_triples_to_the_k2rag_text_path(pyramid_root, embedder):
    s = session(pyramid_root, embedder, {
        **kg_says(Q_TEXT, False),                                                      # Query_kg says no
        "What we know so far": {"question": "Which shirt number did Ronaldo wear?"},   # sub-question
        **text_says("Which shirt number did Ronaldo wear?", "Number 9."),              # sub-answer
        **text_says(Q_TEXT, "He wore number 9."),                                      # final answer
    }, summariser="extractive")
    a = answer_waterfall(s, Q_TEXT)
    assert a.layer == "text" and a.text == "He wore number 9."
    names = steps(a)
    assert names[-4:] == ["text.summarise_kg", "text.subquestions", "text.summarise_answers", "text.answer"]
    assert "kg.sufficiency" in names
    kinds = [e.kind for e in a.evidence]
    assert "triple" in kinds and "chunk" in kinds                 # KG evidence kept beside the chunks
    assert next(e for e in a.evidence if e.kind == "chunk").doc_id == "jersey"


class _Broken:
    name = "ontology"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def answer(self, question, handover=None, *, options=None):
        raise self.error


def test_a_failing_layer_is_recorded_and_the_next_one_answers(pyramid_root, embedder):
    s = session(pyramid_root, embedder, kg_says(Q_KG, True, "Alex Pietrangelo", [1]))
    chain = [_Broken(QueryTimeout("store did not answer in 10 s")), *answerers(s, ["kg", "text"])]
    a = answer_waterfall(s, Q_KG, chain=chain)
    assert a.layer == "kg"
    err = a.trace[0]
    assert err.step == "ontology.error" and "QueryTimeout: store did not answer" in err.outcome


def test_a_bug_in_a_layer_is_raised_not_passed_down(pyramid_root, embedder):
    # only the project's errors hand the question on; a programming error must be seen
    s = session(pyramid_root, embedder, kg_says(Q_KG, True, "Alex Pietrangelo", [1]))
    chain = [_Broken(TypeError("unsupported operand")), *answerers(s, ["kg", "text"])]
    with pytest.raises(TypeError, match="unsupported operand"):
        answer_waterfall(s, Q_KG, chain=chain)


def test_an_unknown_llm_reply_is_an_error_in_the_trace_not_a_crash(pyramid_root, embedder):
    # No rule matches the KG prompt: the scripted provider raises, the KG layer is recorded as
    # failed and the text path (naive hybrid, no KG evidence) answers.
    s = session(pyramid_root, embedder, text_says(Q_NONE, "Deer, capybaras and fish."))
    a = answer_waterfall(s, Q_NONE, layers=["kg", "text"])
    assert a.layer == "text" and a.text == "Deer, capybaras and fish."
    names = steps(a)
    assert "kg.error" in names and not any(n.startswith("ontology") for n in names)
    assert any(st.step == "text.retrieve" and "no KG results" in st.outcome for st in a.trace)


@pytest.mark.parametrize("layers,answered", [(["ontology"], "none"), (["kg"], "kg"), (["text"], "text"),
                                             (["ontology", "text"], "text"), (["kg", "text"], "kg"),
                                             (["ontology", "kg"], "kg")])
def test_ablations_run_only_the_chosen_layers(pyramid_root, embedder, layers, answered):
    rules = {**kg_says(Q_KG, True, "Alex Pietrangelo", [1]), **text_says(Q_KG, "Alex Pietrangelo.")}
    a = answer_waterfall(session(pyramid_root, embedder, rules), Q_KG, layers=layers)
    ran = [n.split(".")[0] for n in steps(a)]
    assert set(ran) <= set(layers) and ran[0] == layers[0]
    assert a.layer == answered


def test_a_workspace_missing_layers_answers_from_what_it_has_and_says_so(tmp_path, embedder):
    root = _build(tmp_path / "ws", embedder, layers=("text",)).root
    s = session(root, embedder, text_says(Q_NONE, "Deer, capybaras and fish."))
    a = answer_waterfall(s, Q_NONE)
    assert a.layer == "text"
    skipped = {st.step: st.outcome for st in a.trace if st.step.endswith(".skip")}
    assert skipped == {"ontology.skip": "layer not built in this workspace",
                       "kg.skip": "layer not built in this workspace"}
    nothing = tmp_path / "empty"
    Workspace.init(nothing)
    none = answer_waterfall(session(nothing, embedder), Q_NONE)
    assert none.layer == "none" and "not built here: ontology, kg, text" in none.text


def test_options_pick_what_the_answering_layer_supports(pyramid_root, embedder):
    a = ask(session(pyramid_root, embedder), "Which department does Alice Chen work for?",
            options=["Department of Physics", "Department of Computing", "Faculty of Business"])
    assert a.layer == "ontology" and a.selected == [1]


def test_text_layer_options_come_from_its_answer_not_every_chunk(pyramid_root, embedder):
    # every option is named by some retrieved chunk; only the answer says which one is meant
    q = "What do jaguars eat?"
    opts = ["deer", "number 9 shirt", "first Friday"]
    a = answer_waterfall(session(pyramid_root, embedder, text_says(q, "They eat deer.")), q,
                         layers=["text"], options=opts)
    assert a.layer == "text" and a.selected == [0]
    # an answer naming no option falls back to the best chunk alone
    b = answer_waterfall(session(pyramid_root, embedder, text_says(q, "I do not know.")), q,
                         layers=["text"], options=opts)
    assert b.selected == [0]


def test_ask_cli_explains_the_route_and_prints_json(pyramid_root, capsys, monkeypatch):
    # the CLI builds its own session: the scripted provider comes from a replies file via settings
    replies = pyramid_root.parent / "replies.json"
    replies.write_text(json.dumps(kg_says(Q_KG, True, "Alex Pietrangelo", [1])))
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(replies))
    monkeypatch.setenv("POLYRAG_LLM__CACHE", "false")
    code, out, _ = run_cli(["ask", pyramid_root, Q_KG, "--explain"], capsys)
    assert code == 0 and "layer: kg" in out and "kg.sufficiency" in out and "ontology.plan" in out
    code, out, _ = run_cli(["ask", pyramid_root, Q_KG, "--json"], capsys)
    data = json.loads(out)
    assert data["layer"] == "kg" and data["trace"] and data["usage"]["calls"] == 1
    code, out, _ = run_cli(["ask", pyramid_root, Q_ONTO, "--options", "Department of Physics",
                            "Department of Computing"], capsys)
    assert code == 0 and "selected options: [1]" in out and "works_for" in out
    code, _, err = run_cli(["ask", pyramid_root, Q_ONTO, "--options", "only one"], capsys)
    assert code != 0 and "at least two options" in err


@pytest.mark.parametrize("question,message", [("", "the question is empty"),
                                              ("x" * 100_000, "100,000 characters")])
def test_bad_questions_are_one_clear_message(pyramid_root, capsys, question, message):
    code, out, err = run_cli(["ask", pyramid_root, question], capsys)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_a_missing_workspace_is_one_clear_message(tmp_path, capsys):
    code, _, err = run_cli(["ask", tmp_path / "nowhere", "Who?"], capsys)
    assert code == 2 and "nowhere" in err and "Traceback" not in err


def test_removing_a_document_takes_its_facts_out_of_every_layer(tmp_path, embedder, capsys):
    """`polyrag index --remove ID` (and `build --remove`) drop a document from the text layer, the KG
    and the ontology, so no layer can answer from it afterwards."""
    from kg_fixtures import t

    root = _build(tmp_path / "ws", embedder).root
    s = session(root, embedder)
    with s.ws.writing("test"):
        store = s.kg.store(write=True)
        store.upsert([], [t("Ronaldo", "wore", "number 9 shirt", doc="jersey")])
        s.kg._finish(store, "kg.build", 0.0, None, NullProgress())
    s.ontology.add_instances("jersey", [("http://example.org/ronaldo", "http://www.w3.org/2000/01/rdf-schema#label",
                                         "Ronaldo")])
    ask_label = 'SELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> "Ronaldo" }'
    assert s.ontology.select(ask_label)                        # there before
    s.ontology.close()
    s.kg.close()
    code, out, err = run_cli(["index", root, "--remove", "jersey"], capsys)
    assert code == 0, err
    assert "removed 1 text documents, 1 KG triples, 1 ontology graphs" in " ".join(out.split())
    after = session(root, embedder)
    assert "jersey" not in after.text.docs and after.corpus.get("jersey") is None
    assert all(tr.doc_id != "jersey" for tr in after.kg.store().iter_triples())
    assert not after.ontology.select(ask_label)
    assert len(list(after.kg.store().iter_triples())) == len(SPORTS)   # the other documents' triples stay
