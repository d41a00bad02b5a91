"""A page's points under a heading that names no property ("At a glance:"), each read on its own; a year
said inside a phrase; an "it" that stands for the clause after it; a known thing named with a noun after
it ("the Berths and Moorings team"); an address given in a sentence about someone else that names the
entity. A harbour schema of our own; real MiniLM and the real parser, no model."""

from __future__ import annotations

import pytest

from pyramid.ontology.schema import Schema
from pyramid.reading.page_reader import PageReader
from pyramid.vocab import Vocab
from tests.pyramid.reading.test_page_reader import facts as props

H = "http://harbour.example/"
TTL = """@prefix h: <http://harbour.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
h:Basin a owl:Class ; rdfs:label "basin" .
h:Section a owl:Class ; rdfs:label "harbour section" .
h:Berth a owl:Class ; rdfs:label "berth" .
h:Warden a owl:Class ; rdfs:label "warden" .
h:liesIn a owl:ObjectProperty ; rdfs:domain h:Berth ; rdfs:range h:Basin ; rdfs:label "lies in" .
h:operatedBy a owl:ObjectProperty ; rdfs:domain h:Berth ; rdfs:range h:Section ; rdfs:label "operated by" .
h:looksAfter a owl:ObjectProperty ; rdfs:domain h:Warden ; rdfs:range h:Berth ; rdfs:label "looks after" .
h:memberOf a owl:ObjectProperty ; rdfs:domain h:Warden ; rdfs:range h:Section ; rdfs:label "works in section" .
h:keptBy a owl:ObjectProperty ; rdfs:domain h:Berth ; rdfs:range h:Warden ; rdfs:label "is kept by" .
h:builtIn a owl:DatatypeProperty ; rdfs:domain h:Berth ; rdfs:range xsd:gYear ; rdfs:label "year built" .
h:mooringCount a owl:DatatypeProperty ; rdfs:domain h:Berth ; rdfs:range xsd:integer ;
    rdfs:label "number of moorings" .
h:maxDraught a owl:DatatypeProperty ; rdfs:domain h:Berth ; rdfs:range xsd:decimal ;
    rdfs:label "greatest draught in metres" .
h:quayPhone a owl:DatatypeProperty ; rdfs:domain h:Berth ; rdfs:range xsd:string ; rdfs:label "quay telephone" .
h:sectionPage a owl:DatatypeProperty ; rdfs:domain h:Section ; rdfs:range xsd:string ; rdfs:label "web page" .
h:wardenPhone a owl:DatatypeProperty ; rdfs:domain h:Warden ; rdfs:range xsd:string ; rdfs:label "warden's phone" .
h:mailAddress a owl:DatatypeProperty ; rdfs:domain h:Warden ; rdfs:range xsd:string ; rdfs:label "e-mail address" .
"""
PAGES = [
    ("North Basin", "North Basin is the older of the two basins. Three berths lie in it."),
    ("South Basin", "South Basin is the deeper basin, dredged every spring."),
    ("Berths and Moorings", "Berths and Moorings is a harbour section. It books every visiting yacht."),
    ("Dredging", "Dredging is a harbour section that keeps the channels deep."),
    ("Ropery Berth", "Ropery Berth\n\nRopery Berth is a berth for working boats.\n\nAt a glance:\n"
                     "• In North Basin\n• Built in 1898\n• Operated by Berths and Moorings\n• 14 moorings\n"
                     "• Phone: 01632 960 111\n• Cobbled quayside"),
    ("Tar Yard Berth", "Tar Yard Berth\n\nTar Yard Berth is a berth used by the ferries.\n\nWorth knowing:\n"
                       "• Lies in South Basin\n• In service since 1931\n• Operated by Dredging\n\n"
                       "Ola Quist is in charge of the berth."),
    ("Harbour Works", "Harbour Works is a harbour section that mends the quays. Notices and forms are at "
                      "www.harbour.example/works."),
    ("Salt Quay Berth", "Salt Quay Berth: your questions answered\n\nQ: Which section operates Salt Quay Berth?\n"
                        "A: Harbour Works operates the berth.\n\nQ: How many moorings does it have?\nA: Up to 30 "
                        "moorings.\n\nQ: Which basin is it in?\nA: South Basin."),
    ("Crane Berth", "Crane Berth reopened on Monday after repairs. The 12-mooring berth in North Basin had been "
                    "closed since the spring storms."),
    ("Ola Quist", "Ola Quist\n\nHello, I'm Ola. I am a warden at the harbour. I keep the visitors' moorings in "
                  "order. I am part of the Berths and Moorings team."),
    ("Warden Jon Berg", "Warden Jon Berg\n\nHello, I'm Jon. It is a privilege to speak up for the "
                        "people of North Basin, the basin I represent. I am part of the Dredging team."),
    ("Warden Pia Ruiz", "Warden Pia Ruiz\n\nPia Ruiz is a warden in the Dredging section. Skippers can write to "
                        "Warden Ruiz at pia.ruiz@harbour.example. Skippers can also write to Warden Tom Abt at "
                        "tom.abt@harbour.example."),
]


@pytest.fixture(scope="module")
def harbour_reader(tmp_path_factory, embedder) -> PageReader:
    path = tmp_path_factory.mktemp("harbour") / "harbour.ttl"
    path.write_text(TTL, encoding="utf-8")
    return PageReader(Vocab.from_schema(Schema.load(path)), embedder, titles=[t for t, _ in PAGES])


@pytest.fixture(scope="module")
def harbour(harbour_reader) -> dict[str, object]:
    return {t: r for (t, _), r in zip(PAGES, harbour_reader.read_all(PAGES))}


def test_points_under_a_heading_that_names_no_property_are_each_read(harbour):
    """"At a glance:" names no property of a berth: each point says something of its own — a place, a
    year, who runs it, a count, a field — and none is lost in one value under the heading."""
    got = props(harbour["Ropery Berth"])
    assert got.get("liesIn") == ["North Basin"], got
    assert got.get("builtIn") == ["1898"], got
    assert got.get("operatedBy") == ["Berths and Moorings"], got
    assert got.get("mooringCount") == ["14"], got
    assert got.get("quayPhone") == ["01632 960 111"], got


def test_a_year_said_inside_a_phrase_is_the_year(harbour):
    got = props(harbour["Tar Yard Berth"])
    assert got.get("builtIn") == ["1931"], got
    assert got.get("liesIn") == ["South Basin"], got
    assert got.get("operatedBy") == ["Dredging"], got
    assert got.get("keptBy") == ["Ola Quist"], got  # "Ola Quist is in charge of the berth"


def test_a_known_name_with_a_noun_after_it_is_that_thing(harbour):
    """"the Berths and Moorings team": the section of that name, not "Moorings team" after a kind word."""
    got = props(harbour["Ola Quist"])
    assert got.get("memberOf") == ["Berths and Moorings"], got
    assert "looksAfter" not in got, got


def test_an_address_given_in_a_sentence_naming_the_entity_is_its_own(harbour):
    """"Skippers can write to Warden Ruiz at …" is about the skippers, but names the page's warden: the
    address is hers; the next sentence names another warden, and gives his."""
    got = props(harbour["Warden Pia Ruiz"])
    assert got.get("mailAddress") == ["pia.ruiz@harbour.example"], got
    assert got.get("memberOf") == ["Dredging"], got


def test_an_it_that_stands_for_a_clause_is_not_the_entity(harbour_reader):
    """"It is a privilege to speak up for …": the "it" stands for the infinitive after it, not for the page's
    warden, so nothing that sentence says is the warden's; the sentences about him still are."""
    page = harbour_reader.segment("Warden Jon Berg", dict(PAGES)["Warden Jon Berg"])
    assert not [s for s in page.segments if "speak" in s.context or "North Basin" in s.value], page.segments
    assert any(s.value.startswith("Dredging") for s in page.segments), page.segments


def test_an_answer_that_names_who_does_it_and_a_bounded_count(harbour):
    """"Harbour Works operates the berth." answers who operates it (the name doing it to the entity, not the
    berth); "Up to 30 moorings." is a count of 30, not a thing called "to 30 moorings"."""
    got = props(harbour["Salt Quay Berth"])
    assert got.get("operatedBy") == ["Harbour Works"], got
    assert got.get("mooringCount") == ["30"], got
    assert got.get("liesIn") == ["South Basin"], got


def _news(title: str, body: str, day: int) -> tuple[str, str]:
    return title, (f"{title}\n\nNews release · {day} March 2025\n\n{body}\n\nENDS\n\n"
                   "Press enquiries: harbour press desk, 01632 960 000.")


NEWS = [
    _news("Ropery Berth", "Ropery Berth is a berth in North Basin. It was built in 1898. Its quay telephone is "
                          "01632 960 111.", 3),
    _news("Tar Yard Berth", "Tar Yard Berth is a berth in South Basin. It was built in 1931. Its quay telephone "
                            "is 01632 960 222.", 4),
    _news("Salt Quay Berth", "Salt Quay Berth is a berth in South Basin. It was built in 1902.", 5),
    _news("Ola Quist", "Ola Quist is a warden. Her e-mail address is ola.quist@harbour.example.", 6),
    _news("Pia Ruiz", "Pia Ruiz is a warden. Her e-mail address is pia.ruiz@harbour.example.", 7),
    ("North Basin", "North Basin is the older of the two basins."),
    ("South Basin", "South Basin is the deeper basin."),
]


def test_a_news_page_s_date_and_the_contact_every_page_gives_are_no_facts(harbour_reader):
    """"News release · 3 March 2025" dates the page, not the berth; the press desk's number under every
    release, for berths and wardens alike, is the site's, not each thing's. What each page says of its own
    thing stays."""
    reader = PageReader(harbour_reader.vocab, harbour_reader.embedder, titles=[t for t, _ in NEWS])
    got = {t: props(r) for (t, _), r in zip(NEWS, reader.read_all(NEWS))}
    assert got["Ropery Berth"].get("builtIn") == ["1898"], got["Ropery Berth"]
    assert got["Ropery Berth"].get("quayPhone") == ["01632 960 111"], got["Ropery Berth"]
    assert got["Salt Quay Berth"].get("builtIn") == ["1902"], got["Salt Quay Berth"]
    assert "quayPhone" not in got["Salt Quay Berth"], got["Salt Quay Berth"]
    assert got["Pia Ruiz"].get("mailAddress") == ["pia.ruiz@harbour.example"], got["Pia Ruiz"]
    assert "wardenPhone" not in got["Pia Ruiz"], got["Pia Ruiz"]


def test_an_address_in_a_sentence_that_names_nothing_else_is_the_page_s(harbour):
    """"Notices and forms are at www.…": the sentence is about no one, and names no one but the address."""
    assert props(harbour["Harbour Works"]).get("sectionPage") == ["www.harbour.example/works"], harbour["Harbour Works"]


def test_a_description_standing_for_the_entity_says_what_it_holds(harbour):
    """"The 12-mooring berth in North Basin had been closed …": the description stands for the page's berth,
    and its count and its place are the berth's."""
    got = props(harbour["Crane Berth"])
    assert got.get("mooringCount") == ["12"], got
    assert got.get("liesIn") == ["North Basin"], got
