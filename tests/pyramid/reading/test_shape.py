"""Which documents are read as pages about one entity and which by sentence (pyramid.reading.shape),
and a default build that makes that choice per document for both layers. The build runs with a
scripted model that has no replies: any model call fails the test."""

from __future__ import annotations

from pathlib import Path

from pyramid.reading.corpus import name_in_title
from pyramid.reading.shape import names_one_thing

PAGES = [
    ("page-1", "Dr Wen-Li Haraldsen",
     "Dr Wen-Li Haraldsen is a Senior Lecturer in the Department of Marine Cartography. She works on tidal mapping."),
    ("page-2", "Department of Marine Cartography",
     "The Department of Marine Cartography belongs to the Faculty of Ocean Studies."),
    ("news-1", "Survey boat joins the fleet",
     "A new survey boat joined the fleet of the Department of Marine Cartography this spring."),
]


def test_a_title_that_names_one_thing_has_no_finite_verb():
    assert names_one_thing(["Dr Wen-Li Haraldsen", "Department of Marine Cartography", "MRN4410 Charting Reefs",
                            "Survey boat joins the fleet", "Cartographers won the regional prize"]) == \
        [True, True, True, False, False]
    # a capitalised word is a name's, whatever the tagger says; a code names a thing however long its title
    assert names_one_thing(["Prof. Ada MAN Sing", "MRN5120 Reading the Tides: How Harbours Shape the Coastal "
                                                  "Charts and What the Surveys of the Estuary Show"]) == [True, True]


def test_a_headline_or_a_phrase_as_title_carries_the_name_the_page_says_again():
    """A page titled as people title web pages is about the name in its title that its text repeats;
    a title that is a name, a person's with a lower-case particle, a code's, or a headline naming nothing
    the page says again, stays as it is."""
    body = "The Saltmarsh Observatory sits above the harbour. Saltmarsh Observatory opens at dusk."
    assert name_in_title("Getting to the Saltmarsh Observatory", body) == "Saltmarsh Observatory"
    assert name_in_title("Saltmarsh Observatory: what to bring", body) == "Saltmarsh Observatory"
    assert name_in_title("Explore Saltmarsh Observatory", body) == "Saltmarsh Observatory"
    assert name_in_title("Pilot Bay: opening times", "Pilot Bay opens in May.") == "Pilot Bay"
    assert name_in_title("Saltmarsh Observatory", body) == "Saltmarsh Observatory"
    assert name_in_title("Dr LAM Wai fung", "Dr LAM teaches optics. LAM Wai fung joined in 2001.") == "Dr LAM Wai fung"
    assert name_in_title("MRN4410 Charting the Saltmarsh Observatory", body) == "MRN4410 Charting the Saltmarsh Observatory"
    assert name_in_title("Survey boat joins the fleet", "A survey boat joined the fleet.") == "Survey boat joins the fleet"
    assert name_in_title("Lanterns return to the Quay", "Lanterns were lit on the quay.") == "Lanterns return to the Quay"


def test_auto_reads_pages_and_takes_other_text_by_sentence(workspace, embedder, shared_data):
    from pyramid.build import build_pyramid
    from pyramid.config import load_settings
    from pyramid.corpus import Document
    from pyramid.llm import LLM
    from pyramid.llm.scripted import ScriptedProvider
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml", ontology={"extract_method": "auto"}))
    s = Session(ws, embedder=embedder)
    assert s.settings.kg.mode == "auto"  # the KG's default follows the instance method
    s.__dict__["llm"] = LLM(ScriptedProvider([], model="smollm2-135m-scripted"))  # the tiny default's choices
    docs = [Document(i, text, {"title": t}) for i, t, text in PAGES]
    r = build_pyramid(s, docs, schema=Path(shared_data) / "polyu_pages" / "polyu_schema.ttl")
    steps = {x.step: x for x in r.steps}
    assert steps["kg"].outcome.startswith("by-shape mode") and r.usage.calls == 0
    assert "2 pages read, 1 documents by sentence" in steps["ontology.extract"].outcome
    kg = {(t.subject.name, t.relation, t.object.name) for t in s.kg.store().iter_triples()}
    assert ("Wen-Li Haraldsen", "works for", "Department of Marine Cartography") in kg  # from the page's reading
    assert any(t[0] != "Wen-Li Haraldsen" and "boat" in t[0].lower() + t[2].lower() for t in kg), kg  # the news
    s.kg.close()
