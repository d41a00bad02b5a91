"""`bench domain` scoring (benchmarks/domain.py): open answers by whole words, extraction against the
entity a page is about, the scoring fields kept from the build."""

import json

import pytest

from benchmarks.domain import build_copy, score_extraction, score_question, summarise_questions
from benchmarks.pages import Gold, Triple
from pyramid.types import Answer

NS = "http://example.org/zoo#"
TYPE, LABEL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "http://www.w3.org/2000/01/rdf-schema#label"
RDF_TYPE = TYPE


def _ans(text: str, layer: str = "ontology") -> Answer:
    return Answer(question="q", text=text, layer=layer)


def test_an_open_answer_is_right_only_when_it_says_the_gold_as_whole_words():
    q = {"kind": "count", "type": "open", "question": "How many keepers work at the reptile house?", "answer": "3"}
    assert score_question(q, _ans("13 keepers"), 0.1)["f1"] == 0.0      # not the 3 of 13
    assert score_question(q, _ans("There are 3."), 0.1)["f1"] == 1.0
    listed = {"kind": "inverse_list", "type": "open", "question": "Who feeds the otters?",
              "answer": ["Ines Moreau", "Tom Kiel"]}
    row = score_question(listed, _ans("Ines Moreau, Pat Lund"), 0.1)
    assert row["f1"] == 0.5 and row["answered"]
    unanswered = score_question(listed, _ans("Ines Moreau", layer="none"), 0.1)
    assert unanswered["f1"] == 0.0 and not unanswered["answered"]


def test_a_gold_day_is_said_by_the_date_the_store_writes():
    q = {"kind": "date", "type": "open", "question": "When does the penguin parade start?", "answer": "4 March 2026"}
    assert score_question(q, _ans("Penguin parade: 2026-03-04"), 0.1)["f1"] == 1.0
    assert score_question(q, _ans("Penguin parade: 2026-03-14"), 0.1)["f1"] == 0.0


def test_wrong_answers_are_counted_per_kind_and_layer():
    q = {"kind": "attribute", "type": "open", "question": "What does the aviary open at?", "answer": "9 am"}
    rows = [score_question(q, _ans("9 am"), 0.1), score_question(q, _ans("noon", "kg"), 0.1),
            score_question(q, _ans("", "none"), 0.1)]
    s = summarise_questions(rows)
    assert s["open"]["wrong"] == {"kg": 1} and s["choice"] is None
    assert s["kinds"]["attribute · open"]["questions"] == 3


def test_extraction_is_scored_against_the_entity_the_page_is_about():
    gold = Gold({NS + "otterPool": {"keptBy": [("Ines Moreau",)], "opened": [("1998",)]}},
                {NS + "otterPool": {NS + "Enclosure"}}, NS)
    page = {"id": "enc-otters", "title": "Otter Pool", "text": "The Otter Pool opened in 1998 ...",
            "about": NS + "otterPool", "layout": "prose"}
    doc = [Triple("x:1", TYPE, NS + "Enclosure", False), Triple("x:1", LABEL, "Otter Pool", True),
           Triple("x:1", NS + "opened", "1998", True), Triple("x:1", NS + "keptBy", "x:2", False),
           Triple("x:2", LABEL, "Tom Kiel", True)]
    out = score_extraction([page], gold, {"enc-otters": doc}, {"x:1": ("Otter Pool",), "x:2": ("Tom Kiel",)}, NS)
    assert out["properties"]["opened"]["f1"] == 1.0
    assert out["properties"]["keptBy"]["correct"] == 0 and out["properties"]["keptBy"]["found"] == 0
    assert out["typed"] == 1.0 and out["layouts"]["prose"]["gold"] == 2


def test_the_build_never_sees_the_scoring_fields(tmp_path):
    pages = [{"id": "a", "title": "A", "text": "A is a thing.", "about": NS + "a", "layout": "prose"}]
    target = build_copy(pages, tmp_path / "pages.jsonl")
    assert json.loads(target.read_text(encoding="utf-8")) == {"id": "a", "title": "A", "text": "A is a thing."}


@pytest.mark.parametrize("name", ["hospital", "films", "city", "univ", "alpine"])
def test_a_development_domain_is_whole_and_the_same_for_a_seed(name):
    """`bench make-domain`: the schema and gold parse, every page is about a typed gold entity, eight
    kinds of question open and with options, and every open answer is said on some page."""
    import pyoxigraph as ox

    from benchmarks.domains import generate

    data = generate(name, 7)
    assert generate(name, 7) == data
    store = ox.Store()
    store.load(input=data.schema_ttl + "\n" + data.gold_ttl, format=ox.RdfFormat.TURTLE)
    typed = {str(q.subject.value) for q in store.quads_for_pattern(None, ox.NamedNode(RDF_TYPE), None)}
    assert all(p["about"] in typed for p in data.pages)
    kinds = {(q["kind"], q["type"] == "open") for q in data.questions}
    assert len({k for k, _ in kinds}) >= 8 and all((k, False) in kinds for k, is_open in kinds if is_open)
    text = " ".join(p["text"] for p in data.pages).casefold()
    answers = [a for q in data.questions if q["type"] == "open"
               for a in (q["answer"] if isinstance(q["answer"], list) else [q["answer"]])]
    assert all(str(a).casefold() in text for a in answers if not str(a).isdigit())
