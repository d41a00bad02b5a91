"""Pages of a hill observatory of our own (in no file of ../shared), read against its own schema: a field
that states the entity's kind, a first-person clause joined on with "and I …", a time put first ("This
season the guide …"), questions that state nothing, and a class guessed from a word of a name giving way
to words that plainly mean a relation. Real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from tests.pyramid.reading.test_page_reader import read_titled

O = "http://observatory.example/onto#"
TTL = """@prefix o: <http://observatory.example/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:Person a owl:Class ; rdfs:label "person" .
o:Astronomer a owl:Class ; rdfs:subClassOf o:Person ; rdfs:label "astronomer" .
o:NightGuide a owl:Class ; rdfs:subClassOf o:Person ; rdfs:label "night guide" .
o:Body a owl:Class ; rdfs:label "organisation" .
o:Club a owl:Class ; rdfs:subClassOf o:Body ; rdfs:label "club" .
o:College a owl:Class ; rdfs:subClassOf o:Body ; rdfs:label "college" .
o:Society a owl:Class ; rdfs:subClassOf o:Body ; rdfs:label "learned society" .
o:Instrument a owl:Class ; rdfs:label "telescope" .
o:operates a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Instrument ; rdfs:label "operates" .
o:memberOf a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Body ; rdfs:label "is a member of" .
o:trainedAt a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:College ; rdfs:label "trained at" .
o:topic a owl:DatatypeProperty ; rdfs:domain o:Astronomer ; rdfs:label "research topic" .
o:joined a owl:DatatypeProperty ; rdfs:domain o:Person ; rdfs:label "year joined" .
o:phone a owl:DatatypeProperty ; rdfs:domain o:Person ; rdfs:label "phone number" .
"""
PAGES = [
    ("Mara Quist", "Mara Quist\n\nName: Mara Quist\nStatus: Night guide\nPhone number: 0161 555 0192\n"
                   "Club: Ridgeway Stargazers"),
    ("Ivo Brandt", "Ivo Brandt\n\nMy name is Ivo Brandt. I joined the Ridgeway Stargazers in 2019, and I am now a "
                   "night guide there."),
    ("Lena Ortiz", "Lena Ortiz\n\nLena Ortiz is a night guide at the observatory. This season the guide is operating "
                   "Hartley Refractor, Brook Reflector and Pell Camera."),
    ("Sunniva Holt", "Sunniva Holt\n\nSunniva Holt is an astronomer at the observatory. She is best known for work on "
                     "variable stars. Did Sunniva Holt ever work as a night guide? Was she a night guide before? Her "
                     "training was at the Penmoor "
                     "Optical Society."),
    ("Ridgeway Stargazers", "Ridgeway Stargazers is a club of amateur astronomers."),
    ("Hartley Refractor", "The Hartley Refractor is a telescope on the east dome."),
    ("Brook Reflector", "The Brook Reflector is a telescope in the west dome."),
    ("Pell Camera", "The Pell Camera is a telescope that photographs meteors."),
]


@pytest.fixture(scope="module")
def readings(tmp_path_factory, embedder):
    return read_titled(tmp_path_factory.mktemp("observatory"), TTL, embedder, PAGES)


def values(reading, prop: str) -> list[str]:
    return [f.value for f in reading.facts if f.prop == O + prop]


def test_a_field_that_states_the_kind_types_the_entity_and_is_no_value(readings):
    # "Status: Night guide" says what Mara is; "status" plainly means none of her properties
    r = readings["Mara Quist"]
    assert r.cls == O + "NightGuide", r.cls
    assert all("guide" not in f.value.lower() for f in r.facts), [(f.prop, f.value) for f in r.facts]
    assert values(r, "phone") == ["0161 555 0192"]


def test_a_clause_joined_on_with_the_same_pronoun_says_more_of_the_entity(readings):
    # "I joined … in 2019, and I am now a night guide there": the second clause is Ivo's too
    r = readings["Ivo Brandt"]
    assert r.cls == O + "NightGuide", r.cls
    assert values(r, "memberOf") == ["Ridgeway Stargazers"]


def test_a_time_put_first_does_not_hide_the_clause(readings):
    # the parser roots "This season the guide is operating A, B and C" at "season"; the clause after it is Lena's
    assert values(readings["Lena Ortiz"], "operates") == ["Hartley Refractor", "Brook Reflector", "Pell Camera"]


def test_a_question_on_the_page_states_nothing(readings):
    # "Did Sunniva Holt ever work as a night guide? Was she a night guide before?" assert no kind: she is what
    # the page states, an astronomer
    r = readings["Sunniva Holt"]
    assert r.cls == O + "Astronomer", r.cls


def test_words_that_plainly_mean_a_relation_outweigh_a_class_guessed_from_a_name(readings):
    # "Penmoor Optical Society" has no page: its last word guesses a society, but "training was at" plainly means
    # trained at, whose range (a college) is an organisation too — the relation stands, not "is a member of"
    r = readings["Sunniva Holt"]
    assert values(r, "trainedAt") == ["Penmoor Optical Society"], [(f.prop, f.value) for f in r.facts]
    assert not values(r, "memberOf")
