"""What a page says its entity is — a field whose value is a class's name, a copula or a predicative
"as" (in the sentence or in a relative clause on the entity) — types the page and is no fact of it; a
role held in the entity ("has X as its lead") is said of someone else; an address inside a phrase goes
to the property named for its shape; a date or a phone number the parser splits is one value. A library
schema of our own with a class hierarchy and labels that are phrases; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from pyramid.ontology.schema import Schema
from pyramid.reading.page_reader import PageReader
from pyramid.vocab import Vocab
from tests.pyramid.reading.test_page_reader import facts as props

L = "http://library.example/"
TTL = """@prefix l: <http://library.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
l:StaffMember a owl:Class ; rdfs:label "staff member" .
l:Librarian a owl:Class ; rdfs:subClassOf l:StaffMember ; rdfs:label "librarian" .
l:Archivist a owl:Class ; rdfs:subClassOf l:Librarian ; rdfs:label "records archivist" .
l:Room a owl:Class ; rdfs:label "reading room" .
l:stationedIn a owl:ObjectProperty ; rdfs:domain l:StaffMember ; rdfs:range l:Room ; rdfs:label "is stationed in" .
l:supervisedBy a owl:ObjectProperty ; rdfs:domain l:Room ; rdfs:range l:StaffMember ;
    rdfs:label "is looked after by" .
l:contactMail a owl:DatatypeProperty ; rdfs:domain l:StaffMember ; rdfs:range xsd:string ;
    rdfs:label "contact e-mail" .
l:yearJoined a owl:DatatypeProperty ; rdfs:domain l:StaffMember ; rdfs:range xsd:gYear ; rdfs:label "year of joining" .
l:seatCount a owl:DatatypeProperty ; rdfs:domain l:Room ; rdfs:range xsd:integer ; rdfs:label "number of seats" .
l:openedOn a owl:DatatypeProperty ; rdfs:domain l:Room ; rdfs:range xsd:date ; rdfs:label "first day of service" .
l:deskLine a owl:DatatypeProperty ; rdfs:domain l:Room ; rdfs:range xsd:string ; rdfs:label "desk telephone" .
"""
ROOMS = ["Map Room", "Quiet Room", "Periodicals Hall"]


@pytest.fixture(scope="module")
def library(tmp_path_factory, embedder) -> PageReader:
    path = tmp_path_factory.mktemp("library") / "library.ttl"
    path.write_text(TTL, encoding="utf-8")
    return PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=ROOMS)




def test_a_field_whose_value_is_a_class_name_types_the_page_and_states_nothing_else(library):
    r = library.read("Tove Lindqvist", "Tove Lindqvist\nPosition: records archivist\nDesk: Map Room\n"
                                       "Looks after: Map Room")
    assert r.cls == L + "Archivist"
    assert "records archivist" not in [f.value for f in r.facts]


@pytest.mark.parametrize("text", [
    "Oskar Brandt works as a librarian and is stationed in the Quiet Room. He joined in 2011.",
    "Oskar Brandt, who is a librarian, joined in 2011. He is stationed in the Quiet Room.",
    "Question: What does Oskar Brandt do?\nAnswer: He is a librarian.\n\n"
    "Question: Where is he stationed?\nAnswer: In the Quiet Room.",
])
def test_what_a_sentence_says_the_entity_is_types_it(library, text):
    r = library.read("Oskar Brandt", text)
    assert r.cls == L + "Librarian"
    assert props(r).get("stationedIn") == ["Quiet Room"]


def test_a_role_held_in_the_entity_is_said_of_someone_else(library):
    r = library.read("Periodicals Hall", "Periodicals Hall has Mira Castell as its duty librarian. "
                                         "It has 48 seats.")
    assert r.cls == L + "Room"
    assert props(r).get("seatCount") == ["48"]


def test_an_address_inside_a_phrase_goes_to_the_property_named_for_its_shape(library):
    r = library.read("Ada Moreno", "Ada Moreno\nRole: librarian\nHow to reach her: By e-mail at ada.moreno@lib.example.org")
    assert props(r).get("contactMail") == ["ada.moreno@lib.example.org"]


@pytest.mark.parametrize("date", ["2003-09-15", "15 September 2003", "September 15, 2003"])
def test_a_date_and_a_phone_number_in_a_sentence_are_one_value_each(library, date):
    r = library.read("Quiet Room", f"The Quiet Room is a reading room. It first welcomed readers on {date} and "
                                   "takes enquiries on 0161 496 0733. It has 30 seats.")
    got = props(r)
    # the property is declared a date: its value is written as one, whichever way the page wrote it
    assert got.get("openedOn") == ["2003-09-15"] and got.get("deskLine") == ["0161 496 0733"]
    assert got.get("seatCount") == ["30"]


def test_a_property_declared_a_date_takes_no_words(library):
    r = library.read("Map Room", "Map Room\nKind: reading room\nFirst day of service: being refurbished")
    assert "openedOn" not in props(r)


STUDIO_TTL = """@prefix s: <http://studio.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:Studio a owl:Class ; rdfs:label "animation studio" .
s:Picture a owl:Class ; rdfs:label "animated picture" .
s:Nation a owl:Class ; rdfs:label "nation" .
s:basedIn a owl:ObjectProperty ; rdfs:domain s:Studio ; rdfs:range s:Nation ; rdfs:label "has its home in" .
s:madeBy a owl:ObjectProperty ; rdfs:domain s:Picture ; rdfs:range s:Studio ; rdfs:label "made by" .
"""


def test_a_name_that_is_another_pages_title_has_that_pages_class(tmp_path, embedder):
    """The types of both ends: once the corpus is read, a title names a thing of its page's class, so a
    studio page listing its pictures never makes one of them the nation it has its home in."""
    path = tmp_path / "studio.ttl"
    path.write_text(STUDIO_TTL, encoding="utf-8")
    pages = [("Paper Lanterns", "Paper Lanterns is an animated picture made by Moth & Fern."),
             ("Kelp Forest Tales", "Kelp Forest Tales is an animated picture made by Moth & Fern."),
             ("Moth & Fern", "Moth & Fern is an animation studio from Norway. Its works include Paper Lanterns "
                             "and Kelp Forest Tales.")]
    reader = PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=[t for t, _ in pages])
    segmented = [reader.segment(t, x) for t, x in pages]
    reader.study(segmented)
    studio = reader.link_all(segmented)[2]
    assert studio.cls == "http://studio.example/Studio"
    assert props(studio).get("basedIn") == ["Norway"], studio.facts


def test_a_field_left_empty_is_no_value(library):
    from pyramid.reading.page import Segment

    assert library.candidates(Segment("Holdings", " ", "field"), "Map Room") == []


def test_a_piece_of_the_title_that_is_another_pages_title_names_that_thing(tmp_path, embedder):
    """On the page of "Map Room Annexe", "looked after from the Map Room" names the Map Room, which has a
    page of its own; a piece of the title that is no other page's title stays the entity's own name."""
    path = tmp_path / "library.ttl"
    path.write_text(TTL + 'l:annexOf a owl:ObjectProperty ; rdfs:domain l:Room ; rdfs:range l:Room ; '
                          'rdfs:label "is an annexe of" .\n', encoding="utf-8")
    reader = PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=[*ROOMS, "Map Room Annexe"])
    got = props(reader.read("Map Room Annexe", "Map Room Annexe is a reading room with 12 seats. "
                                               "It is an annexe of the Map Room."))
    assert got.get("annexOf") == ["Map Room"], got


def test_names_before_a_common_noun_of_their_kind_are_things_of_it(tmp_path, embedder):
    """"the poetry and local history collections": two collections, named "poetry" and "local history"
    (the kind word, in lower case, closes the list and is every item's); "Harbour Collection", a name in
    capitals, stays one name."""
    path = tmp_path / "library.ttl"
    path.write_text(TTL + 'l:Collection a owl:Class ; rdfs:label "collection" .\n'
                          'l:holds a owl:ObjectProperty ; rdfs:domain l:Room ; rdfs:range l:Collection ; '
                          'rdfs:label "houses" .\n', encoding="utf-8")
    reader = PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=ROOMS)
    got = props(reader.read("Quiet Room", "Quiet Room is a reading room. It houses the poetry and local history "
                                          "collections."))
    assert sorted(got.get("holds", [])) == ["local history", "poetry"], got
    got = props(reader.read("Map Room", "Map Room is a reading room. It houses the Harbour Collection."))
    assert got.get("holds") == ["Harbour Collection"], got
