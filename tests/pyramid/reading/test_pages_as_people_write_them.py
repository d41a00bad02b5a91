"""Pages as people write them (issue 40): a table of records is about the things its rows name, not the
page's fields; a question answered by a clause gives the clause's value; "Skippers A and B" are two
skippers; "the Red Pennant squadron" gives a squadron property its name; a partitive's number is no
value; "a member of the X squadron" names X; a heading over bullets that are fields reads each field; a
name in a class's plural names no thing of it; a class's name under a vague label is no example of a
free-text property. A harbour authority of our own; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from tests.pyramid.reading.test_page_reader import facts, schema_reader

H = "http://harbours.example/"
TTL = """@prefix h: <http://harbours.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
h:Harbour a owl:Class ; rdfs:label "harbour" ; rdfs:comment "A port where the authority's vessels call." .
h:Vessel a owl:Class ; rdfs:label "vessel" ; rdfs:comment "A boat the authority runs." .
h:Person a owl:Class ; rdfs:label "person" .
h:Skipper a owl:Class ; rdfs:subClassOf h:Person ; rdfs:label "skipper" ;
    rdfs:comment "Someone licensed to command one of the vessels." .
h:Office a owl:Class ; rdfs:label "harbour office" ;
    rdfs:comment "A section of the authority that looks after one kind of work." .
h:callsAt a owl:ObjectProperty ; rdfs:domain h:Vessel ; rdfs:range h:Harbour ; rdfs:label "calls at" .
h:crewedBy a owl:ObjectProperty ; rdfs:domain h:Vessel ; rdfs:range h:Skipper ; rdfs:label "crewed by" .
h:homePort a owl:ObjectProperty ; rdfs:domain h:Skipper ; rdfs:range h:Harbour ; rdfs:label "home port" ;
    rdfs:comment "The harbour the skipper is licensed for." .
h:servedBy a owl:ObjectProperty ; rdfs:domain h:Harbour ; rdfs:range h:Skipper ; rdfs:label "served by" .
h:squadron a owl:DatatypeProperty ; rdfs:domain h:Skipper ; rdfs:range xsd:string ;
    rdfs:label "sailing squadron" ; rdfs:comment "The squadron the skipper sails with." .
h:gauge a owl:DatatypeProperty ; rdfs:domain h:Harbour ; rdfs:range xsd:string ; rdfs:label "tide gauge code" .
h:feeMonth a owl:DatatypeProperty ; rdfs:domain h:Harbour ; rdfs:range xsd:string ;
    rdfs:label "mooring fee month" ; rdfs:comment "The month in which mooring fees fall due." .
h:quayAddress a owl:DatatypeProperty ; rdfs:domain h:Harbour ; rdfs:range xsd:string ; rdfs:label "street address" .
h:officePhone a owl:DatatypeProperty ; rdfs:domain h:Office ; rdfs:range xsd:string ; rdfs:label "telephone" .
h:openedYear a owl:DatatypeProperty ; rdfs:domain h:Harbour ; rdfs:range xsd:gYear ; rdfs:label "year opened" .
h:berths a owl:DatatypeProperty ; rdfs:domain h:Harbour ; rdfs:range xsd:integer ; rdfs:label "number of berths" .
"""
PAGES = [
    ("Morning Star", "Morning Star\n\nThe Morning Star is one of the vessels of the authority.\n\n"
                     "Harbours on this crossing\nCalls at | Quay | Address\nNorthport | North Quay | 4 Dock Road\n"
                     "Eastwick | Fish Quay | 9 Wharf Lane\nSaltmarsh Quay | Old Steps | 2 Pier Street\n\n"
                     "It is crewed by Ann Lee."),
    ("Sea Lark", "Sea Lark\nKind: vessel\nCrewed by: Bo Wu"),
    ("Northport", "Northport\nTide gauge code: NP4\n\nNorthport is a harbour on the north shore.\n\n"
                  "Vessels at Northport\nVessel | Skipper | Berth\nMorning Star | Ann Lee | 3\nSea Lark | Bo Wu | 5\n"),
    ("Eastwick", "Eastwick: your questions answered\n\nEastwick is a harbour.\n\n"
                 "Q: When are mooring fees due in Eastwick?\nA: Mooring fees fall due in March.\n\n"
                 "Q: What is the tide gauge code for Eastwick?\nA: The gauge there reads EW2."),
    ("Saltmarsh Quay", "Saltmarsh Quay\n\nSaltmarsh Quay is a harbour. It is served by Skippers Ann Lee and Bo Wu."),
    ("Ann Lee", "Ann Lee\n\nAbout me\n\nI am one of the three skippers for Northport. "
                "I am a member of the Red Pennant squadron."),
    ("Bo Wu", "Bo Wu\nRole: skipper\n\nBo Wu sails with the Blue Ensign squadron."),
    ("Cara Moss", "Cara Moss\nRole: skipper\nSailing squadron: Harbour Cadets"),
    ("Westhaven", "Westhaven\n\nWesthaven is a harbour on the west shore. It is looked after by the Tidewater Trust.\n"
                  "Getting there — Westhaven lies past the lighthouse. The address is 12 Quay Street.\n"
                  "A little history — The harbour has been open since 1890."),
    ("Boats and Moorings", "Boats and Moorings\n\nBoats and Moorings is one of the harbour offices of the "
                           "authority.\n\nHighlights:\n• Telephone: 01632 960 111\n• Open: weekdays"),
    ("Moorings Desk", "Moorings Desk: your questions answered\n\nMoorings Desk is one of the harbour offices of the "
                      "authority.\n\nQ: Can I ring the desk?\nA: The front desk line is (01632) 960-222."),
]


@pytest.fixture(scope="module")
def read(tmp_path_factory, embedder):
    reader = schema_reader(tmp_path_factory.mktemp("harbours"), TTL, embedder, [t for t, _ in PAGES])
    readings = reader.read_all(PAGES)
    return {t: r for (t, _), r in zip(PAGES, readings)}, reader


def values(reading) -> set[str]:
    return {v for vs in facts(reading).values() for v in vs}


def test_a_table_of_records_lists_the_things_its_rows_name(read):
    readings, _ = read
    assert sorted(facts(readings["Morning Star"]).get("callsAt", [])) == ["Eastwick", "Northport", "Saltmarsh Quay"]
    assert readings["Morning Star"].cls == H + "Vessel"


def test_a_table_s_other_cells_are_no_fields_of_the_page(read):
    readings, _ = read
    northport = facts(readings["Northport"])
    assert northport.get("gauge") == ["NP4"]
    assert not {"Morning Star", "Ann Lee", "Bo Wu", "3", "5", "Sea Lark"} & values(readings["Northport"])
    assert "4 Dock Road" not in values(readings["Morning Star"])


def test_an_answer_said_as_a_clause_gives_the_clause_s_value(read):
    readings, _ = read
    eastwick = facts(readings["Eastwick"])
    assert eastwick.get("feeMonth") == ["March"]
    assert eastwick.get("gauge") == ["EW2"]
    # a number dialled with a bracketed code is the whole number
    assert facts(readings["Moorings Desk"]).get("officePhone") == ["(01632) 960-222"]


def test_a_plural_class_word_before_names_lists_things_of_that_class(read):
    readings, _ = read
    assert sorted(facts(readings["Saltmarsh Quay"]).get("servedBy", [])) == ["Ann Lee", "Bo Wu"]


def test_a_name_before_the_noun_of_a_property_is_that_property_s_value(read):
    readings, _ = read
    assert facts(readings["Bo Wu"]).get("squadron") == ["Blue Ensign"]
    assert facts(readings["Ann Lee"]).get("squadron") == ["Red Pennant"]  # "a member of the … squadron"


def test_a_partitive_types_the_speaker_and_its_number_is_no_value(read):
    readings, _ = read
    ann = readings["Ann Lee"]
    assert ann.cls == H + "Skipper"
    assert facts(ann).get("homePort") == ["Northport"]
    assert not {"3", "three", "skippers"} & values(ann)


def test_a_heading_over_bullets_that_are_fields_reads_each_field(read):
    readings, _ = read
    office = readings["Boats and Moorings"]
    assert office.cls == H + "Office"  # "Boats and …" names no vessel: a name in a class's plural
    assert facts(office).get("officePhone") == ["01632 960 111"]


def test_a_heading_over_sentences_reads_the_sentences(read):
    """"Getting there — … The address is 12 Quay Street.": the sentences under a run-in heading are read as
    prose; a house number before a street's name is one value; "open since 1890" is a year, no count."""
    readings, _ = read
    westhaven = facts(readings["Westhaven"])
    assert westhaven.get("quayAddress") == ["12 Quay Street"]
    assert westhaven.get("openedYear") == ["1890"]
    assert "berths" not in westhaven


def test_a_name_without_a_page_is_none_of_the_things_that_have_pages(read):
    """Skippers have pages of their own: "looked after by the Tidewater Trust" names none of them."""
    readings, _ = read
    assert "Tidewater Trust" not in values(readings["Westhaven"])


def test_a_class_s_name_is_no_example_of_a_free_text_property(read):
    _, reader = read
    assert "skipper" not in reader.lessons.examples.get(H + "squadron", [])
