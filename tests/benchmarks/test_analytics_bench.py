"""`bench analytics`: result-set scoring (a wrong answer counted apart from none; a derived value right
only when unanswered), and the catalogue's gold rows checked against the instance graph by fixed SPARQL
of our own (not by the planner)."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from benchmarks.analytics import answer_rows, generate, generate_library, normal, score
from pyramid.types import Answer, SparqlEvidence


def test_numbers_compare_to_two_decimals_and_text_case_folded():
    assert normal("1234.5666") == normal("1234.57") == "1234.57"
    assert normal("Maria@Example.org") == "maria@example.org"


def test_a_row_matches_a_gold_row_when_it_holds_all_its_values():
    gold = [["a", "5"], ["b", "3"]]
    rows = [{"a", "5.00"}, {"b", "4"}]
    s = score(gold, [{normal(v) for v in r} for r in rows], answered=True)
    assert s["p"] == 0.5 and s["r"] == 0.5 and not s["wrong"]
    assert score(gold, [{"c"}], answered=True)["wrong"]
    unanswered = score(gold, [], answered=False)
    assert unanswered["f1"] == 0.0 and not unanswered["wrong"]


def test_a_derived_question_is_right_only_when_passed_down():
    assert score(None, [], answered=False)["f1"] == 1.0
    assert score(None, [{"x"}], answered=True) == {"p": 0.0, "r": 0.0, "f1": 0.0, "wrong": True}


def test_answer_rows_read_a_verdict_or_the_sparql_rows_without_labels():
    yes = Answer(question="q", text="Yes — found", layer="ontology", pipeline="p")
    assert answer_rows(yes) == [{"yes"}]
    rows = Answer(question="q", text="Oak: 6.5", layer="ontology", pipeline="p",
                  evidence=[SparqlEvidence(query="SELECT", rows=[{"x": "http://e/oak", "x_label": "Oak", "v": "6.5"}])])
    assert answer_rows(rows) == [{"http://e/oak", "6.50"}]
    assert answer_rows(Answer(question="q", text="none", layer="none", pipeline="p")) == []


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    schema, instances, questions = generate()
    path: Path = tmp_path_factory.mktemp("cat") / "c.ttl"
    path.write_text(instances, encoding="utf-8")
    store = ox.Store()
    store.load(path=str(path), format=ox.RdfFormat.TURTLE)
    return store, questions


def _select(store, q: str) -> list[tuple[str, ...]]:
    prefix = "PREFIX c: <http://example.org/catalogue#> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> "
    return [tuple(t.value for t in row) for row in store.query(prefix + q)]


def test_catalogue_gold_agrees_with_the_graph(catalogue):
    """A few kinds' gold rows against SPARQL written by hand over the generated instances."""
    store, questions = catalogue
    by_text = {q["question"]: q for q in questions}
    cheapest = next(q for t, q in by_text.items() if t.startswith("Which laptop is the cheapest")
                    or t == "What is our cheapest laptop?" or t == "Name the cheapest laptop."
                    or t == "Which is the cheapest laptop we sell?")
    want = _select(store, "SELECT ?x WHERE { ?x a c:Laptop ; c:price ?p } ORDER BY ?p LIMIT 1")
    assert [tuple(r) for r in cheapest["gold"]] == want
    heads = _select(store, "SELECT ?d WHERE { ?d a c:Department FILTER NOT EXISTS { ?d c:headedBy ?h } }")
    assert sorted(tuple(r) for r in by_text["Which departments have no head?"]["gold"]) == sorted(heads)
    n = _select(store, "SELECT (COUNT(?x) AS ?n) WHERE { ?x a c:Monitor }")[0][0]
    monitors = next(q for t, q in by_text.items() if q["kind"] == "count" and "monitors" in t)
    assert monitors["gold"] == [[n]]
    assert all(q["gold"] is None for q in questions if q["kind"] == "derived")
    assert len(questions) >= 150 and len({q["kind"] for q in questions}) >= 12


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    schema, instances, questions = generate_library()
    root: Path = tmp_path_factory.mktemp("lib")
    store = ox.Store()
    for name, text in (("schema.ttl", schema), ("instances.ttl", instances)):
        (root / name).write_text(text, encoding="utf-8")
        store.load(path=str(root / name), format=ox.RdfFormat.TURTLE)
    return store, {q["question"]: q for q in questions}


def _lib(store, q: str) -> list[tuple[str, ...]]:
    prefix = ("PREFIX lib: <http://example.org/libraries#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
              "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ")
    return sorted(tuple(normal(t.value) for t in row) for row in store.query(prefix + q))


def _gold(question: dict) -> list[tuple[str, ...]]:
    return sorted(tuple(normal(v) for v in row) for row in question["gold"])


def test_library_gold_agrees_with_the_graph(library):
    """The held-out library network: a few kinds' gold rows against SPARQL written by hand over the
    generated instances (subclasses through rdfs:subClassOf, as the reasoner would give them)."""
    store, by_text = library
    assert _gold(by_text["Which is the longest book in the collection?"]) == _lib(store, """
        SELECT ?x WHERE { ?x a/rdfs:subClassOf* lib:Book ; lib:pageCount ?p
          { SELECT (MAX(?q) AS ?p) WHERE { ?y a/rdfs:subClassOf* lib:Book ; lib:pageCount ?q } } }""")
    assert _gold(by_text["Which branches have no manager?"]) == _lib(store, """
        SELECT ?b WHERE { ?b a lib:Branch FILTER NOT EXISTS { ?b lib:managedBy ?m } }""")
    assert _gold(by_text["Which members have never borrowed anything?"]) == _lib(store, """
        SELECT ?m WHERE { ?m a lib:Member FILTER NOT EXISTS { ?l lib:borrowedBy ?m } }""")
    assert _gold(by_text["How many audiobooks does the Riverside branch hold?"]) == _lib(store, """
        SELECT (COUNT(?a) AS ?n) WHERE { ?a a lib:Audiobook ; lib:heldAt lib:RiversideLibrary }""")
    assert _gold(by_text["How many books does the library network own?"]) == _lib(store, """
        SELECT (COUNT(?b) AS ?n) WHERE { ?b a/rdfs:subClassOf* lib:Book }""")
    assert _gold(by_text["How many items does each branch hold?"]) == _lib(store, """
        SELECT ?b (COUNT(?i) AS ?n) WHERE { ?i lib:heldAt ?b } GROUP BY ?b""")
    assert _gold(by_text["Average replacement cost per branch"]) == _lib(store, """
        SELECT ?b (AVG(?c) AS ?v) WHERE { ?i lib:heldAt ?b ; lib:replacement_cost ?c } GROUP BY ?b""")
    assert _gold(by_text["List DVDs under 90 minutes."]) == _lib(store, """
        SELECT ?f WHERE { ?f a lib:Film ; lib:runningTime ?t FILTER(?t < 90) }""")
    assert _gold(by_text["Who does the librarian Ms Okafor report to?"]) == _lib(store, """
        SELECT ?boss WHERE { ?p a lib:Librarian ; rdfs:label ?n ; lib:reportsTo ?boss FILTER(CONTAINS(?n, "Okafor")) }""")
    portugal = store.query("PREFIX lib: <http://example.org/libraries#> "
                           "ASK { ?a a lib:Author ; lib:nationality lib:Portugal }")
    assert by_text["Is there an author from Portugal?"]["gold"] == [["yes" if portugal else "no"]]


def test_library_is_a_full_held_out_set():
    schema, instances, questions = generate_library()
    kinds = {q["kind"] for q in questions}
    assert len(questions) >= 120 and len(kinds) >= 14
    assert all(q["gold"] is None for q in questions if q["kind"] == "derived")
    assert len({q["id"] for q in questions}) == len(questions)
    assert instances.count(" a lib:") == instances.count("rdfs:label")  # every instance typed and labelled
    assert 300 <= instances.count(" a lib:") <= 600
