"""What a sentence names and what it only describes, read against a schema whose class and property names
overlap the way published ones do: a class "study" beside a class "study circle", a datatype property with no
domain that any value could fill, a room number beside a telephone, degrees told apart by level. An
observatory of our own, in no file of ../shared; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from tests.pyramid.reading.test_page_reader import schema_reader
from tests.pyramid.reading.test_schemas_we_did_not_write import facts

O = "http://observatory.example/onto#"
TTL = """@prefix o: <http://observatory.example/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:Organisation a owl:Class ; rdfs:label "organisation" .
o:Person a owl:Class ; rdfs:label "person" .
o:Astronomer a owl:Class ; rdfs:subClassOf o:Person ; rdfs:label "astronomer" .
o:Observer a owl:Class ; rdfs:subClassOf o:Person ; rdfs:label "observer" .
o:Academy a owl:Class ; rdfs:subClassOf o:Organisation ; rdfs:label "academy" .
o:Work a owl:Class ; rdfs:label "work" .
o:Study a owl:Class ; rdfs:subClassOf o:Work ; rdfs:label "study" .
o:StudyCircle a owl:Class ; rdfs:subClassOf o:Organisation ; rdfs:label "study circle" .
o:memberOf a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Organisation ; rdfs:label "is a member of" .
o:mentors a owl:ObjectProperty ; rdfs:domain o:Astronomer ; rdfs:range o:Observer ; rdfs:label "mentors" .
o:authored a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Work ; rdfs:label "is the author of" .
o:firstDegreeFrom a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Academy ;
    rdfs:label "has a bachelor's degree from" .
o:mastersFrom a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Academy ;
    rdfs:label "has a master's degree from" .
o:doctorateFrom a owl:ObjectProperty ; rdfs:domain o:Person ; rdfs:range o:Academy ;
    rdfs:label "has a doctoral degree from" .
o:observes a owl:DatatypeProperty ; rdfs:label "is observing" .
o:deskNumber a owl:DatatypeProperty ; rdfs:domain o:Person ; rdfs:label "office desk No." .
o:telephone a owl:DatatypeProperty ; rdfs:domain o:Person ; rdfs:label "telephone" .
"""
PAGES = [
    ("Mira Holt", "Mira Holt is an astronomer at the observatory. She is known for work on stellar winds. She "
                  "belongs to the observatory's Variable Stars Circle. She took both her master's degree and her "
                  "doctorate at the Hallam Academy of Sciences. Her bachelor's degree is from the Brenton "
                  "Academy. Her office line is (0131) 496-0144. She mentors Tomas Eyre, Lina Fosse and Pia Lund."),
    ("Tomas Eyre", "Observer record\nName: Tomas Eyre\nRole: observer"),
    ("Lina Fosse", "Lina Fosse joined the observatory in 2021 and keeps the night log."),
    ("Pia Lund", "Pia Lund writes the monthly sky notes."),
    ("Variable Stars Circle", "The Variable Stars Circle is a study circle of the observatory.\n"
                              "Study circle: Variable Stars Circle"),
]


@pytest.fixture(scope="module")
def reader(tmp_path_factory, embedder):
    return schema_reader(tmp_path_factory.mktemp("observatory"), TTL, embedder, [t for t, _ in PAGES])


@pytest.fixture(scope="module")
def mira(reader):
    return next(r for (t, _), r in zip(PAGES, reader.read_all(PAGES)) if t == "Mira Holt")


def test_a_class_is_the_one_whose_name_holds_most_of_the_words(reader):
    # "study circle" holds both words of the circle's class and one of the study's: it is a study circle
    words = reader.lessons.words
    assert words.class_word("study circle") == O + "StudyCircle"
    assert words.class_word("a new study") == O + "Study"


def test_a_common_noun_phrase_in_a_sentence_describes_and_names_no_thing(mira):
    # "work on stellar winds" holds the word of the class Work, but no name: it is no work she authored
    assert "stellar winds" not in " ".join(facts(mira).get("authored", []))
    assert not any("work on" in v for v in facts(mira).get("authored", []))


def test_a_name_after_a_possessive_noun_is_the_value(mira):
    # "the observatory's Variable Stars Circle": the circle, whoever's it is
    assert facts(mira).get("memberOf") == ["Variable Stars Circle"]


def test_coordinated_objects_each_take_the_preposition_s_value(mira):
    # "took both her master's degree and her doctorate at X": X gave each of them
    got = facts(mira)
    assert got.get("mastersFrom") == ["Hallam Academy of Sciences"]
    assert got.get("doctorateFrom") == ["Hallam Academy of Sciences"]


def test_the_subject_s_own_words_say_which_degree(mira):
    # "Her bachelor's degree is from X": the noun with its possessive says the level
    assert facts(mira).get("firstDegreeFrom") == ["Brenton Academy"]


def test_a_phone_number_goes_to_the_property_named_for_phones(mira):
    # "office line" is nearer "office desk No." in its words; the value's shape is a phone number's
    got = facts(mira)
    assert got.get("telephone") == ["(0131) 496-0144"]
    assert "deskNumber" not in got


def test_a_list_of_names_is_of_the_class_one_of_them_is_known_by(mira):
    # only Tomas Eyre's page says he is an observer; Lina and Pia are named beside him, in one list
    held = sorted(f.value for f in mira.facts if f.prop == O + "mentors")
    assert held == ["Lina Fosse", "Pia Lund", "Tomas Eyre"]


def test_no_value_of_a_property_without_a_domain_is_a_possessed_thing_or_a_description(mira):
    # "observes" has no domain and no range: any value could fill it, so only words that say it may
    values = facts(mira).get("observes", [])
    assert not any(v.split()[0].lower() in ("her", "his") for v in values), values
