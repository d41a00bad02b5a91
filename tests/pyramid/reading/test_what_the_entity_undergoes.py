"""Relations the page's entity undergoes rather than holds: a label opening with a participle over the things
it lists ("Mentored apprentices: …"), a sentence whose object is the entity ("Ann Lee runs LOOM 210"), and the
names a coded title carries ("LOOM 210 — Tapestry Basics", said "Tapestry Basics is …"), a field naming the
page's class over its own name. A weavers' guild of our own, in no file of ../shared; real MiniLM and the real
parser, no model."""

from __future__ import annotations

import pytest

from pyramid.reading.corpus import name_in_title
from pyramid.reading.english import participle_by, past_participle
from tests.pyramid.reading.test_page_reader import read_titled, schema_reader

G = "http://guild.example/onto#"
TTL = """@prefix g: <http://guild.example/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
g:Person a owl:Class ; rdfs:label "person" .
g:Weaver a owl:Class ; rdfs:subClassOf g:Person ; rdfs:label "master weaver" .
g:Apprentice a owl:Class ; rdfs:subClassOf g:Person ; rdfs:label "apprentice" .
g:Workshop a owl:Class ; rdfs:label "workshop" .
g:mentor a owl:ObjectProperty ; rdfs:domain g:Apprentice ; rdfs:range g:Weaver ; rdfs:label "is mentored by" .
g:runs a owl:ObjectProperty ; rdfs:domain g:Weaver ; rdfs:range g:Workshop ; rdfs:label "runs" .
g:hostedBy a owl:ObjectProperty ; rdfs:domain g:Workshop ; rdfs:range g:Person ; rdfs:label "is hosted by" .
g:code a owl:DatatypeProperty ; rdfs:domain g:Workshop ; rdfs:label "workshop code" .
g:loomCount a owl:DatatypeProperty ; rdfs:domain g:Weaver ; rdfs:label "number of looms" .
g:Academy a owl:Class ; rdfs:label "academy" .
g:trainedAt a owl:ObjectProperty ; rdfs:domain g:Person ; rdfs:range g:Academy ; rdfs:label "trained at" .
g:diplomaFrom a owl:ObjectProperty ; rdfs:subPropertyOf g:trainedAt ; rdfs:domain g:Person ; rdfs:range g:Academy ;
    rdfs:label "holds a diploma from" .
g:mastersFrom a owl:ObjectProperty ; rdfs:subPropertyOf g:trainedAt ; rdfs:domain g:Person ; rdfs:range g:Academy ;
    rdfs:label "holds a master's certificate from" .
g:pastime a owl:DatatypeProperty ; rdfs:label "spends free time on" .
"""
PAGES = [
    ("LOOM 210 — Tapestry Basics", "LOOM 210 — Tapestry Basics\n\nTapestry Basics is a workshop for newcomers "
                                   "to the loom. Ann Lee runs LOOM 210 this season."),
    ("Ann Lee", "Ann Lee is a master weaver of the guild.\n\nLooms: 3\nMentored apprentices: Ola Berg and Bo Wu\n"
                "Training: Master's certificate, Hallam Weaving Academy\nPastime: sailing"),
    ("Hallam Weaving Academy", "Hallam Weaving Academy is an academy of the northern guilds."),
    ("Ola Berg", "Ola Berg is an apprentice at the guild. She is mentored by Ann Lee."),
    ("Bo Wu", "Bo Wu is an apprentice at the guild. She writes about the history of natural dyes."),
    ("Dye Chemistry", "Workshop: Dye Chemistry\nWorkshop code: LOOM 330\nHosted by: Ann Lee"),
]


@pytest.fixture(scope="module")
def readings(tmp_path_factory, embedder):
    return read_titled(tmp_path_factory.mktemp("guild"), TTL, embedder, PAGES)


def held(reading, prop: str) -> list[tuple[str, bool]]:
    """The values of one property the page states, each with whether the named thing holds it."""
    return [(f.value, f.reverse) for f in reading.facts if f.prop == G + prop]


def test_a_participle_label_over_the_things_it_lists_says_what_they_undergo(readings):
    # "Mentored apprentices: Ola Berg and Bo Wu" on a weaver's page: each is mentored by her
    assert sorted(held(readings["Ann Lee"], "mentor")) == [("Bo Wu", True), ("Ola Berg", True)]


def test_a_sentence_whose_object_is_the_entity_reads_its_verb_as_written(readings):
    # "Ann Lee runs LOOM 210": she runs the workshop (the property she holds), not a host the workshop has
    page = readings["LOOM 210 — Tapestry Basics"]
    assert held(page, "runs") == [("Ann Lee", True)]
    assert held(page, "hostedBy") == []


def test_a_coded_title_s_name_without_its_code_is_the_entity(readings):
    # "Tapestry Basics is a workshop …" is said of LOOM 210's page: it types the page
    assert readings["LOOM 210 — Tapestry Basics"].cls == G + "Workshop"


def test_a_field_naming_a_class_over_the_page_s_own_name_types_the_page(readings):
    page = readings["Dye Chemistry"]
    assert page.cls == G + "Workshop"
    assert held(page, "hostedBy") == [("Ann Lee", False)]


def test_a_list_item_naming_no_thing_says_which_relation_links_the_others(readings):
    # "Training: Master's certificate, Hallam Weaving Academy": the academy gave her the master's certificate,
    # and the certificate is no academy (nor any value)
    ann = readings["Ann Lee"]
    assert held(ann, "mastersFrom") == [("Hallam Weaving Academy", False)]
    assert not any("certificate" in f.value for f in ann.facts)


def test_a_sentence_s_value_reaches_a_property_of_no_domain_only_by_plain_words(readings):
    # "writes about the history of natural dyes" says no pastime, though "Pastime: sailing" is one
    assert held(readings["Ann Lee"], "pastime") == [("sailing", False)]
    assert held(readings["Bo Wu"], "pastime") == []


def test_a_title_s_name_runs_on_through_in():
    text = "Readings in Natural Dyes meets weekly. Readings in Natural Dyes is led by Ann Lee."
    assert name_in_title("Readings in Natural Dyes: questions and answers", text) == "Readings in Natural Dyes"


@pytest.mark.parametrize(("verb", "participle"), [
    ("teaches", "taught"), ("supervises", "supervised"), ("runs", "run"), ("studies", "studied"),
    ("wrote", "written"), ("directed", "directed"), ("goes", "gone"), ("founds", "founded")])
def test_past_participles(verb, participle):
    assert past_participle(verb) == participle


def test_only_a_label_opening_with_a_participle_reads_as_a_passive():
    assert participle_by("Supervised students") == "supervised by"
    assert participle_by("Written papers") == "written by"
    assert participle_by("Red squares") is None      # too short to be a participle
    assert participle_by("Supervised") is None       # no noun after it
    assert participle_by("Research interests") is None


def test_a_subject_doing_something_to_the_entity_says_the_relation(tmp_path, embedder):
    # "Apprentices taking Tapestry Basics this season include A and B": the participle after the subject is what
    # A and B do to the workshop, not "include"
    reader = schema_reader(tmp_path, TTL, embedder, [])
    page = reader.segment("Tapestry Basics", "Apprentices taking Tapestry Basics this season include Ola Berg "
                                             "and Bo Wu.")
    said = [s for s in page.segments if "Ola Berg" in s.value]
    assert said and all("taking" in s.context.split() for s in said)
