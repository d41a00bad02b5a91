"""The ontology layer's answerer over the real PolyU ontology (imported once per module into a real
Oxigraph-backed workspace, reasoned). Control flow runs with the scripted LLM (canned replies keyed by
prompt text; a provider without rules proves a path makes no LLM call): plan mode, the model's small
choice, raw mode's repair loop. One end-to-end `ask --layer ontology` runs the real SmolLM2 model.
Gold options were read off the AcadChall dev file / the Turtle file by hand."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from pyramid.config import load_settings
from pyramid.llm.scripted import ScriptedProvider, Seq
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying.ontology_qa import answer_ontology, context

EX = "http://example.org/"


@pytest.fixture(scope="module")
def polyu_ws(tmp_path_factory, shared_data) -> Workspace:
    ws = Workspace.init(tmp_path_factory.mktemp("polyu") / "ws")
    s = Session(ws)
    s.ontology.import_instances(shared_data / "polyu" / "polyu_onto.ttl")
    s.ontology.reason()
    return ws


@pytest.fixture(scope="module")
def academic_polyu_ws(tmp_path_factory, shared_data) -> Workspace:
    """The shipped academic schema (STAFF labelled "staff member", altLabel "staff", with seven
    subclasses) over the PolyU instances."""
    from pathlib import Path

    ws = Workspace.init(tmp_path_factory.mktemp("academic") / "ws")
    s = Session(ws)
    s.ontology.load_schema(Path(__file__).resolve().parents[1] / "ontology_schemas" / "academic.ttl")
    s.ontology.import_instances(shared_data / "polyu" / "polyu_onto.ttl")
    s.ontology.reason()
    return ws


def session(ws: Workspace, embedder, rules=None) -> Session:
    settings = load_settings(ws.root / "polyrag.toml", llm={"cache": False})
    return Session(Workspace(ws.root, settings), provider=ScriptedProvider(rules or {}), embedder=embedder)


def test_plan_mode_answers_mcq_and_maq_without_the_model(polyu_ws, embedder):
    s = session(polyu_ws, embedder)  # no scripted rules: any LLM call would raise
    maq = answer_ontology(s, "Which of the following staff members work for the School of Design?",
                          options=["Henry Duh", "Prof. Daniel T.L. SHEK", "Dr Yijing LI", "Vincie PY Lee",
                                   "Shera Hyunyim Park", "Ms Jin HUANG", "Dr Richard LI", "WONG Wai On 黃偉安 (Dr)"])
    assert maq.layer == "ontology" and maq.selected == [0, 3, 4] and maq.usage.calls == 0
    ev = maq.evidence[0]
    assert ev.kind == "sparql" and ev.plan["target"] == "STAFF" and "works_for" in ev.query and ev.rows
    assert [t.step for t in maq.trace] == ["ontology.context", "ontology.plan", "ontology.compile", "ontology.run",
                                           "ontology.decide"]
    two_hops = answer_ontology(s, "Which faculty does the department of Dr Shuran ZHANG belong to?",
                               options=["Faculty of Health and Social Sciences", "Faculty of Humanities",
                                        "OtherFaculties", "Faculty of Construction and Environment",
                                        "Faculty of Business", "Faculty of Engineering", "Faculty of Science",
                                        "None of the above"])
    assert two_hops.selected == [4] and "belongs_to" in two_hops.evidence[0].query
    literal = answer_ontology(s, "Which of the following staff members have research interests in mechatronics?",
                              options=["Y.M. Li", "ZHANG Dan", "Dr Huang Bolong", "Stephen J. Wang",
                                       "Ir Prof. K.L. Yung", "Dr Huang Xinyan", "Dr Joe CHING",
                                       "Ir Dr Duo Wai-chi WONG"])
    assert literal.selected == [0, 1, 4]
    free = answer_ontology(s, 'Which department offers the subject AAE6203 "Mathematics for Aircraft Structure, '
                              'Guidance, Navigation, and Control"?')
    assert free.layer == "ontology" and free.text == "Department of Aeronautical and Aviation Engineering"
    attribute = answer_ontology(s, "What is the credit value of AAE6203?")
    assert attribute.layer == "ontology" and attribute.text.endswith(": 3")


def test_a_bare_class_word_names_that_class_not_a_subclass(academic_polyu_ws, embedder):
    s = session(academic_polyu_ws, embedder)  # no scripted rules: any LLM call would raise
    bare = answer_ontology(s, "Which staff work for the School of Design?")
    assert bare.usage.calls == 0 and bare.evidence[0].plan["target"] == "STAFF" and bare.evidence[0].rows
    assert "named exactly" in bare.trace[1].input["decisions"]["target"]
    mcq = answer_ontology(s, "Which of the following staff work for the School of Design?",
                          options=["Henry Duh", "Prof. Daniel T.L. SHEK", "Dr Yijing LI", "Vincie PY Lee",
                                   "Shera Hyunyim Park", "Ms Jin HUANG", "Dr Richard LI", "WONG Wai On 黃偉安 (Dr)"])
    assert mcq.layer == "ontology" and mcq.selected == [0, 3, 4] and mcq.usage.calls == 0
    # a class's own label is not an entity of the question, and names that class exactly
    academic = answer_ontology(s, "Which academic staff work for the School of Design?")
    assert academic.usage.calls == 0 and academic.evidence[0].plan["target"] == "AcademicStaff"


def test_empty_or_too_broad_is_not_answered_here(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    broad = answer_ontology(s, "Which staff members work for the School of Design?")
    assert broad.layer == "none" and broad.trace[-1].outcome.startswith("too broad: 58 answers")
    assert broad.evidence and broad.selected is None  # the evidence stays for the next layer
    empty = answer_ontology(s, "Which staff members have research interests in underwater basket weaving?")
    assert empty.layer == "none" and empty.trace[-1].outcome.startswith("empty")


def test_the_model_only_picks_among_close_readings(polyu_ws, embedder):
    # "Who …" names no class; the planner offers the closest classes as readings and the model picks one
    s = session(polyu_ws, embedder, {"Which reading matches": {"choice": 1}})
    ans = answer_ontology(s, "Who has research interests in proteomics?")
    assert ans.usage.calls == 1
    prompt = s.llm.provider.calls[0][-1]["content"]
    first = next(line for line in prompt.splitlines() if line.startswith("1. "))[3:]
    decision = ans.trace[1].input["decisions"]["target"]
    assert decision.startswith(first) and "chosen by the model" in decision


def test_raw_mode_feeds_errors_back_for_one_repair(polyu_ws, embedder):
    wrong = {"sparql": "SELECT ?x ?label WHERE { ?x ex:work_for ex:SD ; a ex:STAF ; rdfs:label ?label }"}
    right = {"sparql": "SELECT ?x ?label WHERE { ?x ex:works_for ex:SD ; a ex:STAFF ; rdfs:label ?label } LIMIT 5"}
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": wrong, "This query is wrong": right})
    ans = answer_ontology(s, "Name five staff members of the School of Design.", mode="raw")
    assert ans.usage.calls == 2 and ans.layer == "ontology" and len(ans.evidence[0].rows) == 5
    repair = s.llm.provider.calls[1][-1]["content"]
    assert "property work_for does not exist; nearest: works_for" in repair
    assert "class STAF does not exist; nearest: STAFF" in repair

    # a repair that is still wrong: not answered, the errors are in the trace, exactly two calls
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": wrong, "This query is wrong": wrong})
    ans = answer_ontology(s, "Name five staff members of the School of Design.", mode="raw")
    assert ans.layer == "none" and ans.usage.calls == 2
    assert any("nearest: works_for" in e for e in ans.trace[-1].input["errors"])


def test_raw_mode_never_runs_a_write(polyu_ws, embedder):
    drop = {"sparql": "DELETE WHERE { ?s ?p ?o }"}
    s = session(polyu_ws, embedder, {"Write one SPARQL SELECT": drop, "This query is wrong": Seq(drop)})
    before = s.ontology.store.count()
    ans = answer_ontology(s, "Remove everything.", mode="raw")
    assert ans.layer == "none" and s.ontology.store.count() == before


def test_context_follows_store_changes(polyu_ws, embedder):
    s = session(polyu_ws, embedder)
    first = context(s)
    assert context(s) is first  # cached per session while the store is unchanged
    assert first.index.fingerprint == s.ontology.store.generation


@pytest.mark.llm
@pytest.mark.slow
def test_ask_layer_ontology_end_to_end_with_the_real_model(polyu_ws, capsys):
    """`polyrag ask WS ... --layer ontology --json` with the default SmolLM2 model: "who" names no class,
    so the planner leaves the model one choice (which class is meant); the rest needs no model."""
    code, out, err = run_cli(["ask", polyu_ws.root, "Who has research interests in proteomics?", "--layer",
                              "ontology", "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["layer"] == "ontology" and answer["usage"]["calls"] + answer["usage"]["cache_hits"] == 1
    assert "Prof. Zhou Lei" in answer["text"] and "Tai Chi-shing, William" in answer["text"]
    assert "has_research_interest" in answer["evidence"][0]["query"]
    code, out, _ = run_cli(["ask", polyu_ws.root, "Who has research interests in proteomics?", "--layer",
                            "ontology", "--explain"], capsys)
    assert code == 0 and "layer: ontology" in out and "ontology.plan" in out
