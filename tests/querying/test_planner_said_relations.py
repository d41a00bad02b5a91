"""The planner answers with the relation the question says, or not at all, on a sailing club of our own: a
class defined by a relation ("a skipper is whoever is in charge of a boat"), a chain of places, a property
whose range is wider than the class asked for, a date beside no measure. The scripted model has no rules:
every answer here is the planner's own, with no model call."""

from __future__ import annotations

import pytest

from querying.ontology_qa import answer_ontology
from tests.querying.test_ontology_qa import own_ontology, session

CLUB = """@prefix : <http://example.org/club/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Person a owl:Class ; rdfs:label "person" .
:Boat a owl:Class ; rdfs:label "boat" .
:Place a owl:Class ; rdfs:label "place" .
:Marina a owl:Class ; rdfs:subClassOf :Place ; rdfs:label "marina" .
:Town a owl:Class ; rdfs:subClassOf :Place ; rdfs:label "town" .
:Instructor a owl:Class ; rdfs:subClassOf :Person ; rdfs:label "sailing instructor" .
:Crew a owl:Class ; rdfs:subClassOf :Person ; rdfs:label "crew member" .
:Skipper a owl:Class ; rdfs:label "skipper" ;
    owl:equivalentClass [ owl:intersectionOf ( :Person [ a owl:Restriction ; owl:onProperty :inChargeOf ;
                                                          owl:someValuesFrom :Boat ] ) ] .
:inChargeOf a owl:ObjectProperty ; rdfs:domain :Person ; rdfs:range :Boat ; rdfs:label "is in charge of" .
:crewOn a owl:ObjectProperty ; rdfs:domain :Person ; rdfs:range :Boat ; rdfs:label "sails on" .
:mooredAt a owl:ObjectProperty ; rdfs:domain :Boat ; rdfs:range :Marina ; rdfs:label "is moored at" .
:liesIn a owl:ObjectProperty ; rdfs:domain :Marina ; rdfs:range :Town ; rdfs:label "lies in" .
:seenNear a owl:ObjectProperty ; rdfs:domain :Boat ; rdfs:range :Place ; rdfs:label "was last seen near" .
:Fleet a owl:Class ; rdfs:label "fleet" .
:inFleet a owl:ObjectProperty ; rdfs:domain :Boat ; rdfs:range :Fleet ; rdfs:label "belongs to fleet" .
:launched a owl:DatatypeProperty ; rdfs:domain :Boat ; rdfs:range xsd:date ; rdfs:label "launched on" .
:northern a :Fleet ; rdfs:label "Northern Fleet" .
:heron a :Boat ; rdfs:label "Heron" ; :inFleet :northern ; :mooredAt :northgate ; :launched "2011-05-02"^^xsd:date .
:kestrel a :Boat ; rdfs:label "Kestrel" ; :inFleet :northern ; :mooredAt :northgate ; :seenNear :northgate, :dunmore .
:ann a :Instructor ; rdfs:label "Ann Rook" ; :inChargeOf :heron ; :crewOn :heron .
:bo a :Crew ; rdfs:label "Bo Finch" ; :crewOn :kestrel .
:northgate a :Marina ; rdfs:label "Northgate Marina" ; :liesIn :harlow .
:harlow a :Town ; rdfs:label "Harlow" .
:dunmore a :Town ; rdfs:label "Dunmore" .
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory, embedder):
    s = session(own_ontology(tmp_path_factory.mktemp("club"), "club", CLUB), embedder)
    s.ontology.reason()
    return s


def test_a_class_named_by_its_verb_is_reached_by_the_relation_that_defines_it(club):
    """"Who skippers X?": a skipper is whoever is in charge of a boat — the one in charge of the Heron is its
    skipper; the Kestrel has crew and nobody in charge, and its crew are no answer."""
    ans = answer_ontology(club, "Who skippers the Heron?")
    assert ans.usage.calls == 0
    assert ans.layer == "ontology" and "Ann Rook" in ans.text, ans.text
    ans = answer_ontology(club, "Who skippers the Kestrel?")
    assert "Bo Finch" not in ans.text, ans.text


def test_a_measure_is_not_answered_with_a_date(club):
    ans = answer_ontology(club, "How high is the Heron?")
    assert ans.layer == "none" and "2011" not in ans.text, ans.text


def test_a_chain_of_places_answers_where_a_thing_is(club):
    """The Heron is moored at a marina that lies in Harlow: "in" asks for where, and both steps say where."""
    ans = answer_ontology(club, "Which town is the Heron in?")
    assert ans.layer == "ontology" and "Harlow" in ans.text and "Dunmore" not in ans.text, ans.text


def test_a_path_through_what_the_question_neither_names_nor_says_answers_nothing(club):
    """"Which marina does Ann Rook prefer?" says no relation the schema has: the marina of the boat she is in
    charge of answers another question. Naming the boat asks that one."""
    assert answer_ontology(club, "Which marina does Ann Rook prefer?").layer == "none"
    ans = answer_ontology(club, "At which marina is the boat that Ann Rook is in charge of moored?")
    assert ans.layer == "ontology" and "Northgate Marina" in ans.text, ans.text


def test_a_wider_range_is_narrowed_to_the_class_asked_for(club):
    """The Kestrel was last seen near a marina and a town: "which town" is the town among them."""
    ans = answer_ontology(club, "Near which town was the Kestrel last seen?")
    assert ans.layer == "ontology" and "Dunmore" in ans.text and "Northgate" not in ans.text, ans.text


def test_a_question_offering_two_kinds_is_answered_with_the_one_the_thing_is(club):
    """"Is X an A or a B?" asks which, not whether: no "Yes" or "No"; the kind X is, where it is exactly one of
    them (the head noun the second kind says is the first's too), else nothing."""
    ans = answer_ontology(club, "Is Ann Rook a sailing instructor or a crew member?")
    assert ans.layer == "ontology" and "sailing instructor" in ans.text and not ans.text.startswith(("Yes", "No")), ans.text
    ans = answer_ontology(club, "Is Bo Finch a sailing instructor or a skipper?")
    assert ans.layer == "none" and "neither or both" in ans.trace[-1].outcome, ans.text   # he is crew: neither


def test_a_chain_through_a_part_of_what_the_question_names_answers_for_the_whole(club):
    """"Across the Northern Fleet" says no relation, but its boats belong to it: the people who sail on them are
    the fleet's (Ann on the Heron, Bo on the Kestrel)."""
    ans = answer_ontology(club, "How many people are there across the Northern Fleet?")
    assert ans.layer == "ontology" and ans.text.strip() == "2", ans.text
