"""Pages of a music school of our own (in no file of ../shared), read against its own schema, in which a
lesson has no property of its own: what others do to it is all that says what it is. A passive field
("Taught by: …") names who does the verb to the page's entity, as plainly as a property said forwards; a
property whose own name is a passive ("is mentored by") is still held by the page's entity. Real MiniLM and
the real parser, no model."""

from __future__ import annotations

import pytest

from tests.pyramid.reading.test_page_reader import read_titled

M = "http://music-school.example/onto#"
TTL = """@prefix m: <http://music-school.example/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:Person a owl:Class ; rdfs:label "person" .
m:Tutor a owl:Class ; rdfs:subClassOf m:Person ; rdfs:label "tutor" .
m:Pupil a owl:Class ; rdfs:subClassOf m:Person ; rdfs:label "pupil" .
m:Lesson a owl:Class ; rdfs:label "lesson" .
m:Masterclass a owl:Class ; rdfs:subClassOf m:Lesson ; rdfs:label "masterclass" .
m:Ensemble a owl:Class ; rdfs:label "ensemble" .
m:teaches a owl:ObjectProperty ; rdfs:domain m:Tutor ; rdfs:range m:Lesson ; rdfs:label "teaches" .
m:attends a owl:ObjectProperty ; rdfs:domain m:Pupil ; rdfs:range m:Lesson ; rdfs:label "attends" .
m:mentor a owl:ObjectProperty ; rdfs:domain m:Pupil ; rdfs:range m:Tutor ; rdfs:label "is mentored by" .
m:playsIn a owl:ObjectProperty ; rdfs:domain m:Person ; rdfs:range m:Ensemble ; rdfs:label "plays in" .
m:instrument a owl:DatatypeProperty ; rdfs:domain m:Person ; rdfs:label "instrument" .
"""
PAGES = [
    ("Sight-reading for Strings", "Sight-reading for Strings\n\nTaught by: Ms Ana Ruiz\n"
                                  "Pupils this term: Tom Bell, Mia Chen"),
    ("Harmony Basics", "Harmony Basics\n\nTaught by: Mr Olu Adebayo\nPupils this term: Mia Chen, Rafe Dunn"),
    ("Bowing Masterclass", "Bowing Masterclass\n\nTaught by: Mr Olu Adebayo\nPupils this term: Tom Bell"),
    ("Tom Bell", "Tom Bell\n\nInstrument: viola\nMentored by: Ms Ana Ruiz\nEnsemble: Riverside Youth Strings"),
    ("Mia Chen", "Mia Chen\n\nInstrument: cello\nMentored by: Mr Olu Adebayo"),
    ("Ms Ana Ruiz", "Ms Ana Ruiz\n\nAna Ruiz is a tutor at the school. Instrument: violin"),
    ("Mr Olu Adebayo", "Mr Olu Adebayo\n\nOlu Adebayo is a tutor at the school. Instrument: piano"),
    ("Riverside Youth Strings", "Riverside Youth Strings is an ensemble for young string players."),
]


@pytest.fixture(scope="module")
def readings(tmp_path_factory, embedder):
    return read_titled(tmp_path_factory.mktemp("music"), TTL, embedder, PAGES)


def test_a_class_with_no_property_of_its_own_is_known_by_what_is_said_of_it(readings):
    # nothing in the schema is declared on a lesson: the tutor who teaches it and the pupils who attend it type it
    for title in ("Sight-reading for Strings", "Harmony Basics"):
        assert readings[title].cls == M + "Lesson", (title, readings[title].cls)


def test_what_is_said_of_a_class_is_said_of_the_narrower_one_the_page_names(readings):
    # "Taught by" says a lesson; the title's last word says which kind of lesson
    assert readings["Bowing Masterclass"].cls == M + "Masterclass", readings["Bowing Masterclass"].cls


def test_a_passive_field_names_who_does_the_verb_to_the_entity(readings):
    # "Taught by: Ms Ana Ruiz": Ana Ruiz teaches the lesson (held by her, read backwards), not a mentor of it
    r = readings["Sight-reading for Strings"]
    taught = [(f.value, f.reverse) for f in r.facts if f.prop == M + "teaches"]
    assert taught == [("Ms Ana Ruiz", True)], [(f.prop, f.value, f.reverse) for f in r.facts]
    assert not [f for f in r.facts if f.prop == M + "mentor"]


def test_a_property_named_as_a_passive_is_held_by_the_entity(readings):
    # "Mentored by: Ms Ana Ruiz" on a pupil's page: the pupil is mentored ("is mentored by" is the pupil's)
    r = readings["Tom Bell"]
    assert r.cls == M + "Pupil", r.cls
    mentored = [(f.value, f.reverse) for f in r.facts if f.prop == M + "mentor"]
    assert mentored == [("Ms Ana Ruiz", False)], [(f.prop, f.value, f.reverse) for f in r.facts]
