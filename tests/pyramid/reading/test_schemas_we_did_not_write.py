"""Reading pages against a schema written the way published OWL schemas are, not the way we would write
one: properties with no declared domain or range (the schema says them elsewhere: a class defined by a
restriction on the property, the inverse property's ends), two properties between the same classes told apart
by the class one of them defines, classes said without their head noun ("a postgraduate"),
a page titled "Name — Section", course names that hold prepositions and codes. A conservatory of our own,
in no file of ../shared; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from pyramid.ontology.schema import Schema
from pyramid.reading.corpus import name_in_title
from pyramid.reading.identity import without_code
from tests.pyramid.reading.test_page_reader import schema_reader

C = "http://conservatory.example/onto#"
TTL = """@prefix c: <http://conservatory.example/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
c:Person a owl:Class ; rdfs:label "person" .
c:Module a owl:Class ; rdfs:label "taught module" .
c:Ensemble a owl:Class ; rdfs:label "ensemble" .
c:Student a owl:Class ; rdfs:label "student" ;
    owl:equivalentClass [ owl:intersectionOf ( c:Person [ a owl:Restriction ; owl:onProperty c:enrolledIn ;
                                                           owl:someValuesFrom c:Module ] ) ] .
c:PostgraduateStudent a owl:Class ; rdfs:subClassOf c:Student ; rdfs:label "postgraduate student" .
c:Teacher a owl:Class ; rdfs:subClassOf c:Person ; rdfs:label "teacher" .
c:Tutor a owl:Class ; rdfs:label "module tutor" ;
    owl:intersectionOf ( c:Person [ a owl:Restriction ; owl:onProperty c:tutorOf ; owl:someValuesFrom c:Module ] ) .
c:enrolledIn a owl:ObjectProperty ; rdfs:label "is enrolled in" .
c:tutorOf a owl:ObjectProperty ; rdfs:domain c:Tutor ; rdfs:range c:Module ; rdfs:label "tutors" .
c:playsIn a owl:ObjectProperty ; rdfs:label "performs with" ; owl:inverseOf c:hasPlayer .
c:hasPlayer a owl:ObjectProperty ; rdfs:domain c:Ensemble ; rdfs:range c:Person ; rdfs:label "has as a player" .
c:teaches a owl:ObjectProperty ; rdfs:domain c:Teacher ; rdfs:range c:Module ; rdfs:label "teaches" .
c:contactNumber a owl:DatatypeProperty ; rdfs:domain c:Person ; rdfs:label "can be rung on" .
c:practiceRoom a owl:DatatypeProperty ; rdfs:domain c:Person ; rdfs:label "practice room" .
"""
MODULES = ["MUS 210: Harmony in Practice", "Voice and Movement", "History of the Opera", "Studies in Counterpoint"]
PAGES = [
    ("Lena Marsh", "Lena Marsh is a postgraduate in the School of Voice. She is enrolled in Harmony in Practice "
                   "(MUS 210), Voice and Movement and History of the Opera. She can be rung on (0161) 496-0321."),
    ("Tom Reed", "Tom Reed has taught at the conservatory since 2010 and is now a teacher there. He performs with "
                 "the Northgate Brass Ensemble."),
    ("Ada Voss", "Student record\nName: Ada Voss\nYear: Postgraduate, second-year\nModules: Studies in Counterpoint"),
    *[(m, f"{m} is a taught module of the conservatory.") for m in MODULES[:3]],
    (MODULES[3], f"{MODULES[3]} is a taught module.\nTaught by: Tom Reed\nStudents: Ada Voss"),
]


def facts(reading) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in reading.facts:
        out.setdefault(f.prop.rsplit("#", 1)[-1], []).append(f.value)
    return out


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> Schema:
    path = tmp_path_factory.mktemp("conservatory") / "schema.ttl"
    path.write_text(TTL, encoding="utf-8")
    return Schema.load(path)


@pytest.fixture(scope="module")
def readings(tmp_path_factory, embedder):
    reader = schema_reader(tmp_path_factory.mktemp("conservatory"), TTL, embedder, [t for t, _ in PAGES])
    return {t: r for (t, _), r in zip(PAGES, reader.read_all(PAGES))}


def test_the_schema_says_undeclared_ends_elsewhere(schema):
    # a class defined by a restriction on the property: its genus is the domain, the filler the range
    assert (schema.domains_of(C + "enrolledIn"), schema.ranges_of(C + "enrolledIn")) == ([C + "Person"], [C + "Module"])
    # the inverse's declared ends, swapped
    assert (schema.domains_of(C + "playsIn"), schema.ranges_of(C + "playsIn")) == ([C + "Person"], [C + "Ensemble"])
    # a declared domain that is a class defined by having the property stands for its genus: a person tutors a
    # module and so becomes a tutor; they need not be typed one first
    assert schema.domains_of(C + "tutorOf") == [C + "Person"]
    assert schema.domains_of(C + "tutorOf", declared=True) == [C + "Tutor"]
    assert "property c:enrolledIn has no domain" in " ".join(schema.validate())


def test_a_class_said_without_its_head_types_the_page(readings):
    assert readings["Lena Marsh"].cls == C + "PostgraduateStudent"    # "is a postgraduate"
    assert readings["Ada Voss"].cls == C + "PostgraduateStudent"      # "Year: Postgraduate, second-year"


def test_a_copula_joined_to_the_sentence_s_verb_says_what_the_subject_is(readings):
    assert readings["Tom Reed"].cls == C + "Teacher"                  # "… since 2010 and is now a teacher there"
    assert facts(readings["Tom Reed"]).get("playsIn") == ["Northgate Brass Ensemble"]


def test_what_defines_the_class_is_read_before_a_rival_of_the_same_types(readings):
    # "Modules: …" on a student's page: enrolledIn and tutorOf both join a person to a module; the schema defines
    # a student by enrolment (and a tutor by tutoring), so a student's modules are those she is enrolled in
    lena, ada = facts(readings["Lena Marsh"]), facts(readings["Ada Voss"])
    assert sorted(lena.get("enrolledIn", [])) == ["History of the Opera", "MUS 210: Harmony in Practice",
                                                   "Voice and Movement"]
    assert ada.get("enrolledIn") == ["Studies in Counterpoint"]


def test_a_phone_number_as_it_is_dialled_is_one_value(readings):
    assert facts(readings["Lena Marsh"]).get("contactNumber") == ["(0161) 496-0321"]


def test_a_name_with_a_code_is_the_page_that_carries_the_code():
    # "Harmony in Practice (MUS 210)" on Lena's page is the module whose page is "MUS 210: Harmony in Practice"
    # (asserted above); the words beside a code name the thing too
    assert without_code("MUS 210: Harmony in Practice") == "Harmony in Practice"
    assert without_code("Harmony in Practice (MUS 210)") == "Harmony in Practice"
    assert without_code("Voice and Movement") is None


@pytest.mark.parametrize("title, text, name", [
    ("Tom Reed — School of Strings", "Tom Reed teaches in the School of Strings. Tom Reed also conducts.", "Tom Reed"),
    ("Tom Reed | School of Strings", "Tom Reed joined the School of Strings in 2010.", "Tom Reed"),
    ("School of Strings — Tom Reed", "The School of Strings is led by Tom Reed. The School of Strings has 40 "
                                     "students.", "School of Strings"),
])
def test_a_title_with_a_separator_names_what_the_page_says_most_then_what_comes_first(title, text, name):
    assert name_in_title(title, text) == name


def test_a_thing_named_on_another_s_page_holds_the_relation_the_types_allow(readings, tmp_path):
    """"Taught by: Tom Reed" on a module's page: the module has no property for its teacher; Tom Reed, a
    teacher, teaches it (the schema's only property from a teacher to a module), written with him as its
    subject. "Students: Ada Voss" is the enrolment that makes her a student, not a tutoring."""
    from pyramid.ontology.extractors.read import instance_triples

    module = readings[MODULES[3]]
    held = {(f.prop.rsplit("#", 1)[-1], f.value) for f in module.facts if f.reverse}
    assert held == {("teaches", "Tom Reed"), ("enrolledIn", "Ada Voss")}
    assert not [f for f in module.facts if not f.reverse]
    rows = instance_triples(module, "http://c.example/")
    assert ("http://c.example/tom_reed", C + "teaches", "http://c.example/studies_in_counterpoint", False) in rows
