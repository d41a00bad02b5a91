"""A thing the question names inside a phrase about another thing ("the person who mentors X", "the orchard
X tends", "Where did X's mentor train?") is two steps from the answer: one to the other thing, one on. On an
orchard cooperative of our own; no model call (every answer is the planner's)."""

from __future__ import annotations

import pytest

from querying.ontology_qa import answer_ontology
from querying.planning.cues import embedding_phrase
from tests.querying.test_ontology_qa import own_ontology, session

COOP = """@prefix : <http://example.org/coop/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Grower a owl:Class ; rdfs:label "grower" .
:Orchard a owl:Class ; rdfs:label "orchard" .
:Village a owl:Class ; rdfs:label "village" .
:College a owl:Class ; rdfs:label "college" .
:tends a owl:ObjectProperty ; rdfs:domain :Grower ; rdfs:range :Orchard ; rdfs:label "tends" .
:mentoredBy a owl:ObjectProperty ; rdfs:domain :Grower ; rdfs:range :Grower ; rdfs:label "is mentored by" .
:trainedAt a owl:ObjectProperty ; rdfs:domain :Grower ; rdfs:range :College ; rdfs:label "trained at" .
:liesIn a owl:ObjectProperty ; rdfs:domain :Orchard ; rdfs:range :Village ; rdfs:label "lies in" .
:ida a :Grower ; rdfs:label "Ida Kerr" ; :mentoredBy :tom ; :trainedAt :eastfield ; :tends :lowmead .
:tom a :Grower ; rdfs:label "Tom Vale" ; :trainedAt :ashby ; :tends :hillside .
:hillside a :Orchard ; rdfs:label "Hillside Rows" ; :liesIn :brockton .
:lowmead a :Orchard ; rdfs:label "Lowmead" ; :liesIn :orwell .
:brockton a :Village ; rdfs:label "Brockton" .
:orwell a :Village ; rdfs:label "Orwell" .
:eastfield a :College ; rdfs:label "Eastfield College" .
:ashby a :College ; rdfs:label "Ashby College" .
"""


@pytest.fixture(scope="module")
def coop(tmp_path_factory, embedder):
    return session(own_ontology(tmp_path_factory.mktemp("coop"), "coop", COOP), embedder)


@pytest.mark.parametrize("question", ["Which college trained the person who mentors Ida Kerr?",
                                      "Where did Ida Kerr's mentor train?"])
def test_the_answer_is_of_the_other_thing_not_of_the_one_named(coop, question):
    """Ida trained at Eastfield; the one who mentors her at Ashby. Her own college answers another question."""
    ans = answer_ontology(coop, question)
    assert ans.usage.calls == 0
    assert "Eastfield" not in ans.text, ans.text
    assert ans.layer == "none" or "Ashby College" in ans.text, ans.text


def test_a_place_two_steps_away_through_the_thing_said(coop):
    ans = answer_ontology(coop, "In which village is the orchard that Tom Vale tends?")
    assert ans.layer == "ontology" and "Brockton" in ans.text and "Orwell" not in ans.text, ans.text


def test_a_thing_said_plainly_is_one_step_away(coop):
    """No phrase about another thing: the orchard Tom Vale tends is the answer itself."""
    ans = answer_ontology(coop, "Which orchard does Tom Vale tend?")
    assert ans.layer == "ontology" and "Hillside Rows" in ans.text and "Lowmead" not in ans.text, ans.text


@pytest.mark.parametrize(("text", "said"), [
    ("Which college trained the person who mentors X?", ("person", False)),
    ("Who tends the orchard X belongs to?", ("orchard", True)),
    ("Where did X's mentor train?", ("mentor", False)),
    ("Name the village of the orchard that X tends.", ("orchard", False)),
    ("Who is the grower who mentors X?", None),          # the phrase is what is asked for
    ("Name the grower who mentors X.", None),
    ("Which grower who mentors X trained at Ashby?", None),
    ("The orchard X lies in which village?", None),      # the question's own subject and verb
    ("What is X's college?", None),
    ("Which orchards does the grower X tend?", None),     # "the grower X" is X, then the question's verb
])
def test_what_a_phrase_about_another_thing_is(text, said):
    assert embedding_phrase(text) == said
