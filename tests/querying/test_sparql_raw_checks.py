"""Raw SPARQL from a model, checked against the schema (domains and ranges, variables bound), run, and
repaired once from the errors or from an empty result; `auto` writes raw first for any model but the
tiny default and falls back to the plan. Every test uses the scripted model (canned replies keyed by
prompt, failing loudly on anything unexpected): these are control-flow tests. The schema and data are
the nursery of our own (tests.querying.test_planner_measures)."""

from __future__ import annotations

import pytest

from pyramid.llm.scripted import Seq
from querying.ontology_qa import answer_ontology
from querying.sparql_raw import fit_problems, query_terms
from tests.querying.test_ontology_qa import own_ontology, session
from tests.querying.test_planner_measures import NURSERY

P = "PREFIX n: <http://example.org/nursery/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
WRITE, REPAIR = "Write one SPARQL SELECT", "This query is wrong"


@pytest.fixture
def vocab(tmp_path):
    from pyramid.ontology.schema import Schema
    from pyramid.vocab import Vocab

    path = tmp_path / "n.ttl"
    path.write_text(NURSERY, encoding="utf-8")
    return Vocab.from_schema(Schema.load(path))


def test_a_property_on_a_thing_its_domain_or_range_rules_out_is_named(vocab):
    wrong_end = P + "SELECT ?x WHERE { ?x a n:Nursery . ?x n:grownAt ?y }"
    assert any("grownAt takes a Plant as its subject, but ?x is a Nursery" in p
               for p in fit_problems(query_terms(wrong_end), vocab))
    wrong_range = P + "SELECT ?x WHERE { ?x a n:Tree ; n:grownAt ?t . ?t a n:Town }"
    assert any("as its object, but ?t is a Town" in p for p in fit_problems(query_terms(wrong_range), vocab))
    fine = P + "SELECT ?x WHERE { ?x a n:Tree ; n:grownAt ?g . ?g a n:Nursery }"
    assert fit_problems(query_terms(fine), vocab) == []


def test_a_selected_variable_nothing_binds_is_named(vocab):
    q = P + "SELECT ?x ?height WHERE { ?x a n:Tree ; n:height ?h }"
    assert fit_problems(query_terms(q), vocab) == ["?height is selected but nothing in the WHERE clause binds it"]
    q = P + "SELECT (MAX(?h) AS ?tallest) WHERE { ?x a n:Tree ; n:height ?h }"
    assert fit_problems(query_terms(q), vocab) == []


@pytest.fixture
def nursery_ws(tmp_path):
    return own_ontology(tmp_path, "nursery", NURSERY)


def test_a_misfit_is_repaired_once_from_the_schema_errors(nursery_ws, embedder):
    bad = {"sparql": P + "SELECT ?x ?label WHERE { ?x a n:Nursery ; n:grownAt ?g ; rdfs:label ?label }"}
    good = {"sparql": P + "SELECT ?x ?label WHERE { ?x a n:Tree ; n:grownAt n:marsh ; rdfs:label ?label }"}
    s = session(nursery_ws, embedder, {WRITE: bad, REPAIR: good})
    ans = answer_ontology(s, "Which trees grow at Marsh End Growers?", mode="raw")
    assert ans.layer == "ontology" and "Churchyard Yew" in ans.text, ans.text
    raw = next(st for st in ans.trace if st.step == "ontology.raw")
    assert raw.input["attempts"] == 2 and raw.usage.calls == 2


def test_an_empty_result_is_repaired_once_then_kept(nursery_ws, embedder):
    backwards = {"sparql": P + "SELECT ?x ?label WHERE { n:marsh n:grownAt ?x . ?x rdfs:label ?label }"}
    right = {"sparql": P + "SELECT ?x ?label WHERE { ?x n:grownAt n:marsh ; rdfs:label ?label }"}
    s = session(nursery_ws, embedder, {WRITE: backwards, REPAIR: right})
    ans = answer_ontology(s, "What grows at Marsh End Growers?", mode="raw")
    assert ans.layer == "ontology" and "Round Box" in ans.text and "Churchyard Yew" in ans.text, ans.text
    repair_prompt = s.llm.provider.calls[-1][-1]["content"]  # what the repair was told
    assert "found nothing" in repair_prompt
    s = session(nursery_ws, embedder, {WRITE: backwards, REPAIR: Seq(backwards)})
    ans = answer_ontology(s, "What grows at Marsh End Growers?", mode="raw")
    assert ans.layer == "none", ans.text  # still nothing after the one repair: no answer, no third call


def test_auto_writes_raw_for_a_strong_model_and_falls_back_to_the_plan(nursery_ws, embedder):
    right = {"sparql": P + "SELECT ?x ?label WHERE { ?x a n:Shrub ; rdfs:label ?label }"}
    s = session(nursery_ws, embedder, {WRITE: right})
    ans = answer_ontology(s, "Which shrubs are there?", mode="auto")
    assert ans.layer == "ontology" and any(st.step == "ontology.raw" for st in ans.trace), ans.trace
    nothing = {"sparql": P + "SELECT ?x ?label WHERE { ?x a n:Shrub ; n:height 99 ; rdfs:label ?label }"}
    s = session(nursery_ws, embedder, {WRITE: nothing, REPAIR: nothing})
    ans = answer_ontology(s, "Which trees cost under 150 pounds?", mode="auto")
    assert ans.layer == "ontology" and any(st.step == "ontology.fallback" for st in ans.trace), ans.trace
    assert "Old Moss Oak" in ans.text and "Churchyard Yew" not in ans.text, ans.text
