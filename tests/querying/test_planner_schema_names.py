"""Schemas written by someone else, through the ontology layer: a property whose label is a phrase and
whose local name says what it is, a superclass with no instances of its own, a class named by two words
beside one named by the last of them, and relations whose ends the schema leaves open. The domain is a
harbour registry of our own; gold comes from the Turtle below, read by eye. The scripted model has no
rules: every test proves its path makes no model call."""

from __future__ import annotations

import pytest

from querying.ontology_qa import answer_ontology
from tests.querying.test_ontology_qa import own_ontology, session

HARBOUR = """@prefix : <http://example.org/harbour/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Vessel a owl:Class ; rdfs:label "vessel" .
:Ferry a owl:Class ; rdfs:subClassOf :Vessel ; rdfs:label "ferry" .
:VehicleFerry a owl:Class ; rdfs:subClassOf :Ferry ; rdfs:label "vehicle ferry" .
:Tug a owl:Class ; rdfs:subClassOf :Vessel ; rdfs:label "tug" .
:Port a owl:Class ; rdfs:label "port" .
:Sailor a owl:Class ; rdfs:label "sailor" .
:Inspector a owl:Class ; rdfs:label "inspector" .
:homePort a owl:ObjectProperty ; rdfs:domain :Vessel ; rdfs:range :Port ; rdfs:label "is registered in" .
:callSign a owl:DatatypeProperty ; rdfs:domain :Vessel ; rdfs:range xsd:string ; rdfs:label "can be hailed with" .
:tonnage a owl:DatatypeProperty ; rdfs:domain :Vessel ; rdfs:range xsd:decimal ; rdfs:label "gross tonnage" .
:channel a owl:DatatypeProperty ; rdfs:domain :Vessel ; rdfs:range xsd:string ; rdfs:label "radio channel" .
:worksAboard a owl:ObjectProperty ; rdfs:label "works aboard" .
:inspects a owl:ObjectProperty ; rdfs:label "inspects" .
:mentors a owl:ObjectProperty ; rdfs:domain :Sailor ; rdfs:range :Sailor ; rdfs:label "mentors" .
:oban a :Port ; rdfs:label "Oban Harbour" .
:mallaig a :Port ; rdfs:label "Mallaig Pier" .
:isle a :VehicleFerry ; rdfs:label "Isle of Mull" ; :homePort :oban ; :callSign "MGUL3" ; :tonnage 4719 ;
    :channel "VHF 16" .
:clan a :VehicleFerry ; rdfs:label "Clansman" ; :homePort :oban ; :callSign "VQRT2" ; :tonnage 5499 .
:lord a :VehicleFerry ; rdfs:label "Lord of the Isles" ; :homePort :mallaig ; :callSign "MHBQ7" ; :tonnage 3504 .
:coll a :Ferry ; rdfs:label "Coll Rover" ; :homePort :oban ; :callSign "2BXK9" ; :tonnage 120 .
:staffa a :Ferry ; rdfs:label "Staffa Lass" ; :homePort :mallaig ; :tonnage 95 .
:brae a :Ferry ; rdfs:label "Brae Runner" ; :homePort :mallaig ; :tonnage 88 .
:arm a :Tug ; rdfs:label "Strong Arm" ; :homePort :oban ; :tonnage 310 .
:puffin a :Tug ; rdfs:label "Puffin" ; :homePort :mallaig ; :tonnage 280 .
:ann a :Sailor ; rdfs:label "Ann Mackay" ; :worksAboard :isle .
:ben a :Sailor ; rdfs:label "Ben Rae" ; :worksAboard :lord .
:ann :mentors :ben .
:ivy a :Inspector ; rdfs:label "Ivy Lorne" ; :inspects :isle .
"""


@pytest.fixture(scope="module")
def harbour(tmp_path_factory, embedder):
    ws = own_ontology(tmp_path_factory.mktemp("harbour"), "harbour", HARBOUR)
    s = session(ws, embedder)
    s.ontology.reason()  # a vehicle ferry is a ferry is a vessel
    return s


def ask(s, question: str):
    ans = answer_ontology(s, question)
    assert ans.usage.calls == 0
    return ans


def test_a_property_is_asked_for_by_its_local_name_where_its_label_is_a_phrase(harbour):
    """callSign is labelled "can be hailed with": "call sign" names it all the same, and no other value
    of the ferry (its radio channel, its tonnage) answers."""
    ans = ask(harbour, "What is the call sign of the Isle of Mull?")
    assert ans.layer == "ontology"
    assert "MGUL3" in ans.text and "VHF" not in ans.text and "4719" not in ans.text


def test_a_superclass_with_no_instances_of_its_own_counts_its_subclasses(harbour):
    """Every vessel is a ferry, a vehicle ferry or a tug: "vessels" registered in Mallaig are all four of
    them, not the three ferries or the one vehicle ferry."""
    ans = ask(harbour, "How many vessels are registered in Mallaig Pier?")
    assert ans.layer == "ontology"
    assert ans.text.strip().startswith("4")


def test_what_is_counted_is_the_class_named_by_the_most_words(harbour):
    """"vehicle ferries" names the vehicle ferry, not the ferry its last word also names: Oban has two car
    ferries to Mallaig's one (three ferries each, which would tie)."""
    ans = ask(harbour, "Which port has the most vehicle ferries?")
    assert ans.layer == "ontology"
    assert "Oban Harbour" in ans.text and "Mallaig" not in ans.text
    ans = ask(harbour, "Which ports have more than 1 vehicle ferry?")
    assert "Oban Harbour" in ans.text and "Mallaig" not in ans.text


@pytest.mark.parametrize("question, gold, not_gold", [
    # the relation's verb with nobody before it: no one works aboard them (Isle of Mull and Lord of the
    # Isles have a sailor each)
    ("Which vehicle ferries does nobody work aboard?", {"Clansman"}, {"Isle of Mull", "Lord of the Isles"}),
    # a passive in the question turns the order round: nobody inspects them
    ("Which vehicle ferries are inspected by nobody?", {"Clansman", "Lord of the Isles"}, {"Isle of Mull"}),
    ("Which vehicle ferries are not inspected by anyone?", {"Clansman", "Lord of the Isles"}, {"Isle of Mull"}),
])
def test_absence_along_a_relation_whose_ends_the_schema_leaves_open(harbour, question, gold, not_gold):
    """worksAboard and inspects declare no domain and no range: read only where the question uses
    their verb, and English word order (with the question's voice) says which end is missing."""
    ans = ask(harbour, question)
    assert ans.layer == "ontology", ans.text
    assert all(g in ans.text for g in gold) and not any(n in ans.text for n in not_gold)


def test_an_attribute_of_what_a_named_thing_is_related_to_is_read_where_the_question_names_it(harbour):
    """"the call sign of the boat Ann Mackay works aboard": no class is called boat, but the call sign's
    owner is one step from Ann Mackay; the answer is its call sign, never the vessel itself."""
    ans = ask(harbour, "What is the call sign of the boat Ann Mackay works aboard?")
    assert ans.layer == "ontology", ans.text
    assert "MGUL3" in ans.text


@pytest.mark.parametrize("question, verdict", [
    ("Does Ann Mackay mentor Ben Rae?", "Yes"),
    ("Does Ben Rae mentor Ann Mackay?", "No"),
])
def test_a_yes_no_question_keeps_the_order_its_relation_words_give(harbour, question, verdict):
    """Ann mentors Ben: the question's own relation word says who mentors whom, so the reading that
    finds Ann among Ben's mentors answers only the first question."""
    ans = ask(harbour, question)
    assert ans.text.startswith(verdict), ans.text



UNITS = """@prefix : <http://example.org/units/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Unit a owl:Class ; rdfs:label "unit" .
:within a owl:ObjectProperty , owl:TransitiveProperty ; rdfs:domain :Unit ; rdfs:range :Unit ;
    rdfs:label "is a section of" .
:board a :Unit ; rdfs:label "Harbour Board" .
:pier a :Unit ; rdfs:label "Pier Office" ; :within :board .
:desk a :Unit ; rdfs:label "Berthing Desk" ; :within :pier .
"""


@pytest.fixture(scope="module")
def units(tmp_path_factory, embedder):
    ws = own_ontology(tmp_path_factory.mktemp("units"), "units", UNITS)
    s = session(ws, embedder)
    s.ontology.reason()  # the desk is a section of the board too
    return s


@pytest.mark.parametrize("question, verdict", [
    ("Is the Pier Office a section of the Harbour Board?", "Yes"),
    ("Is the Harbour Board a section of the Pier Office?", "No"),
])
def test_a_yes_no_question_relates_its_two_names_not_a_third_thing_to_both(units, question, verdict):
    """The Berthing Desk is a section of both the Pier Office and the Harbour Board, so "is some unit a
    section of both?" finds one either way; the question relates the two names it gives, in its order."""
    ans = ask(units, question)
    assert ans.text.startswith(verdict), ans.text


def test_no_to_a_yes_no_question_is_read_where_the_data_holds_no_such_step(harbour):
    """Ben Rae mentors nobody: the reading the question asks for ("whom does Ben Rae mentor?") is made
    although the data never takes that step from him, and its nothing is the "no"."""
    ans = ask(harbour, "Does Ben Rae mentor Ann Mackay?")
    assert ans.text.startswith('No — "Ben Rae" mentors'), ans.text


def test_whose_asks_for_someone(harbour):
    """"Under whose guidance is Ben Rae working?" asks for a sailor, not the vessel he works aboard."""
    assert ask(harbour, "Under whose guidance is Ben Rae working?").text == "Ann Mackay"
