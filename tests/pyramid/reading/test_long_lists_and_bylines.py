"""Prose the parser alone reads badly (issue 40): a long comma list is one sentence whatever its items
hold — a capitalised title opening with a preposition ("In Situ Imaging of Roots"), an abbreviation in
brackets, a preposition inside an item ("design of traps by remote sensing") —, and a byline's name says
who the entity is and where it works ("Senior Curator Ines Varga of the Seed Bank Laboratory presented
…"). A botanic garden of our own; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from tests.pyramid.reading.test_page_reader import facts, schema_reader

G = "http://garden.example/"
TTL = """@prefix g: <http://garden.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
g:Laboratory a owl:Class ; rdfs:label "laboratory" ; rdfs:comment "A research unit of the garden." .
g:Botanist a owl:Class ; rdfs:label "botanist" ; rdfs:comment "A scientist on the garden's staff." .
g:basedIn a owl:ObjectProperty ; rdfs:domain g:Botanist ; rdfs:range g:Laboratory ; rdfs:label "based in" .
g:studies a owl:DatatypeProperty ; rdfs:domain g:Botanist ; rdfs:range xsd:string ;
    rdfs:label "research topic" ; rdfs:comment "A subject the botanist's research is about." .
g:jobTitle a owl:DatatypeProperty ; rdfs:domain g:Botanist ; rdfs:range xsd:string ; rdfs:label "job title" .
g:phone a owl:DatatypeProperty ; rdfs:domain g:Laboratory ; rdfs:range xsd:string ; rdfs:label "telephone" .
"""
TOPICS_1 = ["soil microbiomes", "root exudates", "arbuscular mycorrhizal fungi (AMF)", "drought tolerance",
            "Nitrogen Fixation", "In Situ Imaging of Roots", "Seed Banking", "plant phenology"]
PAGES = [
    ("Seed Bank Laboratory", "Seed Bank Laboratory\n\nThe Seed Bank Laboratory is one of the laboratories of "
                             "the garden.\nTelephone: 01632 960 222"),
    ("Herbarium Laboratory", "Herbarium Laboratory\n\nThe Herbarium Laboratory is a laboratory of the garden."),
    ("Dr Ines Varga", "Dr Ines Varga\n\nWelcome to my page\n\nI am a botanist based in the Herbarium Laboratory. "
                      "My research covers " + ", ".join(TOPICS_1[:-1]) + " and " + TOPICS_1[-1] + "."),
    ("Tomas Ruiz", "Tomas Ruiz\n\nAt an open evening last spring, Senior Curator Tomas Ruiz of the Seed Bank "
                   "Laboratory showed new results to visitors.\n\nRuiz's research covers pollinator decline, "
                   "seed dormancy, alpine flora, Cryopreservation of Orchid Seeds and wetland restoration."),
    ("Mei Ota", "Mei Ota\n\nMei Ota is a botanist in the Seed Bank Laboratory. Her research has covered lichens, mosses, "
                "Bryophyte Ecology, On-Farm Conservation of Landraces and seed viability at the Herbarium "
                "Laboratory."),
]


@pytest.fixture(scope="module")
def read(tmp_path_factory, embedder):
    reader = schema_reader(tmp_path_factory.mktemp("garden"), TTL, embedder, [t for t, _ in PAGES])
    return {t: facts(r) for (t, _), r in zip(PAGES, reader.read_all(PAGES))}


def test_a_long_list_keeps_items_the_parser_would_cut_it_at(read):
    # the parser alone starts a new sentence at "In Situ …" and hangs "(AMF)" off another object: the
    # tail of the list was lost
    assert sorted(read["Dr Ines Varga"].get("studies", [])) == sorted(TOPICS_1)
    assert read["Dr Ines Varga"].get("basedIn") == ["Herbarium Laboratory"]


def test_a_list_ends_at_a_phrase_the_verb_takes_after_it(read):
    mei = read["Mei Ota"]
    assert sorted(mei.get("studies", [])) == sorted(["lichens", "mosses", "Bryophyte Ecology",
                                                    "On-Farm Conservation of Landraces", "seed viability"])
    assert "Herbarium Laboratory" not in mei.get("studies", [])


def test_a_byline_says_where_the_entity_works_and_its_title(read):
    ruiz = read["Tomas Ruiz"]
    assert ruiz.get("basedIn") == ["Seed Bank Laboratory"]
    assert ruiz.get("jobTitle") == ["Senior Curator"]
    assert "Cryopreservation of Orchid Seeds" in ruiz.get("studies", [])


def test_an_honorific_before_a_name_is_no_title():
    from pyramid.reading.english import parser
    from pyramid.reading.prose import _title_before, parse_in_sentences

    doc = parse_in_sentences(parser(), "Yesterday, Dr It of the laboratory gave a talk.")
    subjects = [t for t in doc if t.dep_ == "nsubj"]
    assert _title_before(subjects, 0) == []
