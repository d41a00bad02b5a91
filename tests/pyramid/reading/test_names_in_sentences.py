"""Names and values as sentences write them: a day in words is stored as the date the schema declares;
"A and the B" are two things without their article; "blues and ragtime" are two styles where the corpus
gave one of them; "the label Quayside Records" is the label; a name in its class's plural ("Quayside
Records") is no thing of that class; a title that opens with a preposition keeps it; a link the other
end's page contradicts is dropped; an e-mail address in a sentence is one value; what a class's comment
defines it as names it. A record archive of our own; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from pyramid.ontology.schema import Schema
from pyramid.reading.page_reader import PageReader
from pyramid.reading.terms import iso_date, value_fits
from pyramid.vocab import Vocab
from tests.pyramid.reading.test_page_reader import facts, schema_reader

R = "http://records.example/"
TTL = """@prefix r: <http://records.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
r:Record a owl:Class ; rdfs:label "record" ; rdfs:comment "A published recording." .
r:Musician a owl:Class ; rdfs:label "musician" .
r:Label a owl:Class ; rdfs:label "record company" ; rdfs:comment "A label or imprint that issues records." .
r:Style a owl:Class ; rdfs:label "musical style" .
r:Honour a owl:Class ; rdfs:label "honour" .
r:issuedBy a owl:ObjectProperty ; rdfs:domain r:Record ; rdfs:range r:Label ; rdfs:label "issued by" .
r:inStyle a owl:ObjectProperty ; rdfs:domain r:Record ; rdfs:range r:Style ; rdfs:label "style" .
r:honouredWith a owl:ObjectProperty ; rdfs:domain r:Record ; rdfs:range r:Honour ; rdfs:label "honoured with" .
r:madeBy a owl:ObjectProperty ; rdfs:domain r:Record ; rdfs:range r:Musician ; rdfs:label "made by" .
r:featuring a owl:ObjectProperty ; rdfs:domain r:Record ; rdfs:range r:Musician ; rdfs:label "featuring" .
r:recorded a owl:ObjectProperty ; owl:inverseOf r:madeBy ; rdfs:domain r:Musician ; rdfs:range r:Record ;
    rdfs:label "recorded" .
r:contactMail a owl:DatatypeProperty ; rdfs:domain r:Musician ; rdfs:range xsd:string ; rdfs:label "contact e-mail" .
r:trackCount a owl:DatatypeProperty ; rdfs:domain r:Record ; rdfs:range xsd:integer ; rdfs:label "number of tracks" .
r:releasedOn a owl:DatatypeProperty ; rdfs:domain r:Record ; rdfs:range xsd:date ; rdfs:label "release day" .
r:bornYear a owl:DatatypeProperty ; rdfs:domain r:Musician ; rdfs:range xsd:gYear ; rdfs:label "year of birth" .
"""
PAGES = [
    ("Harbour Lights", "Harbour Lights\nStyle: ragtime\nIssued by: Quayside Records\nMade by: Ines Varga\n"
                       "Featuring: Teo Lund"),
    ("Low Tide", "Low Tide\nStyle: swing\nIssued by: Quayside Records\nMade by: Ines Varga"),
    ("Beyond the Pier", "Beyond the Pier\nStyle: swing\nIssued by: Quayside Records\nMade by: Ines Varga"),
    ("The Long Shore", "The Long Shore\nStyle: swing\nIssued by: Quayside Records\nMade by: Ines Varga"),
    ("Quayside Records", "Quayside Records\nKind: record company"),
    ("Gold Disc Medal", "Gold Disc Medal\nKind: honour"),
    ("Northern Sound Prize", "Northern Sound Prize\nKind: honour"),
    ("Ines Varga", "Born in 1931, Ines Varga is a musician. Her records are Beyond the Pier, Low Tide and the Long Shore."),
    ("Teo Lund", "Born in 1940, Teo Lund is a musician. His records are Harbour Lights and Low Tide. "
                 "He works as a musician and lists teo.lund@quay-side-music.example.org as his work address."),
    ("Night Ferry", "Fans queued for the reissue of Night Ferry. The record, which was issued by Quayside "
                    "Records, mixes swing. Reports say that it came out on 3 June 1958. It returns after a "
                    "six-week campaign and now has 12 tracks."),
    ("Harbour Sounds", "Harbour Sounds opened a new shop this week. The imprint recorded Low Tide, Salt Road "
                       "and Night Ferry."),
    ("Salt Road", "Made by Ines Varga for the label Quayside Records, Salt Road is a record that came out on "
                  "3 March 1961. It mixes blues and ragtime. It was honoured with the Gold Disc Medal and the "
                  "Northern Sound Prize."),
]


@pytest.fixture(scope="module")
def readings(tmp_path_factory, embedder) -> dict[str, dict[str, list[str]]]:
    reader = schema_reader(tmp_path_factory.mktemp("records"), TTL, embedder, [t for t, _ in PAGES])
    return {t: facts(r) for (t, _), r in zip(PAGES, reader.read_all(PAGES))}


def test_a_day_in_words_is_stored_as_the_date_the_schema_declares(readings):
    assert readings["Salt Road"].get("releasedOn") == ["1961-03-03"]


def test_two_things_joined_by_and_the_are_two_without_their_article(readings):
    assert sorted(readings["Salt Road"].get("honouredWith", [])) == ["Gold Disc Medal", "Northern Sound Prize"]


def test_a_common_noun_beside_one_the_corpus_knows_is_a_second_value(readings):
    assert sorted(readings["Salt Road"].get("inStyle", [])) == ["blues", "ragtime"]


def test_a_name_after_its_kind_word_is_the_name(readings):
    # "the label Quayside Records" names the company whose page the corpus has; its plural last word
    # ("Records") does not make it a record
    assert readings["Salt Road"].get("issuedBy") == ["Quayside Records"]
    assert readings["Salt Road"].get("madeBy") == ["Ines Varga"]


def test_a_title_keeps_its_opening_preposition_and_its_own_article(readings):
    # "the Long Shore" in mid-sentence is the record whose page is "The Long Shore": one label, the page's
    assert sorted(readings["Ines Varga"].get("recorded", [])) == ["Beyond the Pier", "Low Tide", "The Long Shore"]


def test_an_address_inside_a_sentence_is_read_whole(readings):
    # the small parser breaks a sentence around a long address; a plain name stands in for it while parsing
    assert readings["Teo Lund"].get("contactMail") == ["teo.lund@quay-side-music.example.org"]


def test_a_link_the_other_ends_page_contradicts_is_dropped(readings):
    # Harbour Lights' page names who made it (Ines Varga) and names Teo Lund in another role: his page's
    # "his records are" does not make him its maker; Low Tide's page does not name him, and it stays
    assert readings["Harbour Lights"].get("featuring") == ["Teo Lund"]
    assert readings["Teo Lund"].get("recorded") == ["Low Tide"]


def test_a_clause_on_the_entitys_stand_in_and_a_reported_clause_state_its_facts(readings):
    night = readings["Night Ferry"]
    assert night.get("issuedBy") == ["Quayside Records"]   # "The record, which was issued by …,"
    assert night.get("releasedOn") == ["1958-06-03"]        # "Reports say that it came out on …"
    # a number counted by a noun that means no numeric property ("a six-week campaign") is none of them
    assert night.get("trackCount") == ["12"]


def test_what_a_class_is_defined_as_names_it(tmp_path, embedder, readings):
    # "The imprint recorded …": the class's comment defines it as "a label or imprint", so the page is about
    # a record company, not a musician with three records
    reader = schema_reader(tmp_path, TTL, embedder, [t for t, _ in PAGES])
    sounds = reader.read_all(PAGES)[[t for t, _ in PAGES].index("Harbour Sounds")]
    assert sounds.cls == R + "Label" and "recorded" not in facts(sounds)


@pytest.mark.parametrize(("written", "iso"), [
    ("3 March 1961", "1961-03-03"), ("March 3, 1961", "1961-03-03"), ("3rd of March 1961", "1961-03-03"),
    ("1961-3-3", "1961-03-03"), ("Sept. 9, 1999", "1999-09-09"),
    ("31 April 1961", None), ("March 1961", None), ("1961", None), ("the spring season", None)])
def test_a_day_is_written_as_an_iso_date_or_not_at_all(written, iso):
    assert iso_date(written) == iso


def test_a_year_or_a_date_property_takes_a_year_not_any_number(tmp_path):
    path = tmp_path / "records.ttl"
    path.write_text(TTL, encoding="utf-8")
    vocab = Vocab.from_schema(Schema.load(path))
    born, released = vocab.by_iri[R + "bornYear"], vocab.by_iri[R + "releasedOn"]
    assert value_fits(born, "1947") and not value_fits(born, "6")
    assert value_fits(released, "3 March 1961") and not value_fits(released, "a 91-minute record")


def test_one_of_the_things_of_a_kind_is_a_thing_of_that_kind(embedder, tmp_path):
    """"Ada Brook is one of the four musicians …": the partitive types the entity a musician, and its kind
    in nothing but a class's words ("musicians") is no value of any property."""
    path = tmp_path / "records.ttl"
    path.write_text(TTL, encoding="utf-8")
    pages = [*PAGES, ("Ada Brook", "Ada Brook is one of the four musicians of the Harbour Quartet.")]
    reader = PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=[t for t, _ in pages])
    reading = reader.read_all(pages)[-1]
    assert reading.cls == R + "Musician"
    assert "musicians" not in {v.lower() for vs in facts(reading).values() for v in vs}
