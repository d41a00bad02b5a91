"""A text answer to a question that asks for a thing by its kind ("Which operator …?") names a thing of that
kind, by the ontology's instances of the class (querying.asked_kind). A ferry network of our own: its
schema and instances in Turtle, its passages in prose; a real text layer (MiniLM + BM25) and Oxigraph; the
scripted LLM has no rules, so any model call raises."""

from __future__ import annotations

import pytest

from pyramid.config import load_settings
from pyramid.corpus import Document
from pyramid.llm.scripted import ScriptedProvider
from pyramid.session import Session
from pyramid.workspace import Workspace
from querying.answerers import answerers
from querying.asked_kind import Things
from tests.querying.test_ontology_qa import own_ontology

FERRIES = """@prefix : <http://example.org/ferry/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Operator a owl:Class ; rdfs:label "operator" ; rdfs:comment "A company that runs ferries." .
:Harbour a owl:Class ; rdfs:label "harbour" .
:Ferry a owl:Class ; rdfs:label "ferry" .
:Crossing a owl:Class ; rdfs:label "crossing" .
:northwind a :Operator ; rdfs:label "Northwind Lines" .
:tern a :Operator ; rdfs:label "Tern Shipping" .
:hand a :Operator ; rdfs:label "the deckhand" .
:gullhaven a :Harbour ; rdfs:label "Gullhaven" .
:holm a :Harbour ; rdfs:label "Holm" .
:skerry a :Ferry ; rdfs:label "Skerry Rose" .
"""
PASSAGES = [
    Document("skerry", "The Skerry Rose sails to Holm twice a day. The Skerry Rose was refitted in 2019 and now "
                       "carries forty cars. The Skerry Rose is run by Northwind Lines from its office on the quay."),
    Document("gullhaven-pier", "The pier at Gullhaven Harbour was rebuilt after the storm. A café by the "
                               "Gullhaven pier sells hot soup to passengers."),
]


@pytest.fixture(scope="module")
def text(tmp_path_factory, embedder):
    ws = own_ontology(tmp_path_factory.mktemp("kinds"), "ferries", FERRIES)
    Session(ws, provider=ScriptedProvider({}), embedder=embedder).text.add_documents(PASSAGES)
    settings = load_settings(ws.root / "polyrag.toml", llm={"cache": False}, query={"abstain_below": 0.0})
    s = Session(Workspace(ws.root, settings), provider=ScriptedProvider({}), embedder=embedder)
    return answerers(s, ["text"])[0]


def test_the_things_asked_for_are_the_named_instances_of_the_class_the_question_names(text):
    """"Which operator": the operators, by the names a sentence can say (a lone lower-case word read as an
    operator is any sentence's word); "what number" names no class, and "when" asks for no kind."""
    things = text.kinds("Which operator runs the Skerry Rose?")
    assert things is not None and things.kind == "operator"
    assert {k for ks in things.starts.values() for k in ks} == {("northwind", "lines"), ("tern", "shipping")}
    assert text.kinds("What number should I ring to book the Skerry Rose?") is None
    assert text.kinds("When does the Skerry Rose sail?") is None


def test_a_question_asking_for_a_kind_is_answered_by_the_sentence_naming_one(text):
    a = text.answer("Which operator runs the Skerry Rose?", mode="extractive")
    assert not a.abstained and "Northwind Lines" in a.text, a.text


def test_sentences_naming_no_thing_of_the_kind_asked_for_are_no_answer(text):
    """The pier's passage names no harbour but the Gullhaven the question names; the passage that names
    Holm is not about Gullhaven: nothing answers, and the trace says what no sentence did."""
    a = text.answer("Which harbour is the Gullhaven pier in?", mode="extractive")
    assert a.abstained, a.text
    assert any(s.step == "text.abstain" and "names a harbour" in s.outcome for s in a.trace)


def test_a_thing_is_named_whole_and_outside_the_questions_own_names():
    things = Things("harbour", {"holm": (("holm",),), "gullhaven": (("gullhaven",),)})
    # the question's own name "Gullhaven pier" covers its words; a second "Gullhaven" outside it counts
    assert things.named_in("The ferry sails to Holm.")
    assert not things.named_in("The Gullhaven pier was rebuilt.", own=(("gullhaven", "pier"),))
    assert things.named_in("The Gullhaven pier faces Gullhaven harbour.", own=(("gullhaven", "pier"),))
    assert not things.named_in("Holmfirth is inland.")


def test_a_kind_the_ontology_knows_none_of_is_answered_by_no_sentence(text):
    """No crossing was ever read into the ontology: no sentence can be checked to name one, so "Which
    crossings does the Skerry Rose make?" is not answered from a passage that only names places."""
    things = text.kinds("Which crossings does the Skerry Rose make?")
    assert things is not None and things.unknown and not things.named_in("The Skerry Rose sails to Holm.")
    a = text.answer("Which crossings does the Skerry Rose make?", mode="extractive")
    assert a.abstained, a.text


def test_where_none_of_the_kind_is_known_the_options_offered_are_the_things(text):
    """The options of "Which crossing does the Skerry Rose make?" are crossings by the question's own
    offer: a sentence naming one of them answers; one naming none does not."""
    things = text.kinds("Which crossings does the Skerry Rose make?").offered(["Holm Run", "Sound Loop"])
    assert things.named_in("The Skerry Rose makes the Holm Run twice a day.")
    assert not things.named_in("The Skerry Rose sails to Holm.")
