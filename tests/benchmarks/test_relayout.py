"""`bench make-pages` (benchmarks/relayout.py): the dev pages re-written from the gold facts in
layouts of ours. The pages must keep their ids (the scorer maps ids to gold entities), state every
gold value of the scored properties, and not be laid out like the dev pages."""

from __future__ import annotations

import json

import pytest

from benchmarks.pages import load_gold
from benchmarks.relayout import write_pages

SCORED = ("works_for", "offered_by", "belongs_to", "has_research_interest", "has_subject_code",
          "has_subject_title", "has_subject_level", "has_credit_value")


@pytest.mark.parametrize("layouts", ["ours", "fresh", "blind", "unseen"])
def test_relaid_pages_keep_ids_state_the_facts_and_change_the_layout(shared_data, tmp_path, layouts):
    src = shared_data / "polyu_pages" / "pages_dev.jsonl"
    out = tmp_path / "pages.jsonl"
    n = write_pages(src, shared_data / "polyu" / "polyu_onto.ttl", out, limit=120, layouts=layouts)
    pages = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    dev = {p["id"]: p for p in map(json.loads, src.read_text(encoding="utf-8").splitlines()[:120])}
    gold = load_gold(shared_data / "polyu" / "polyu_onto.ttl")
    assert n == len(pages) >= 100 and {p["id"] for p in pages} <= set(dev)
    for p in pages:
        facts = gold.page_facts(p["id"])
        for prop in SCORED:
            for (value, *_) in facts.get(prop, []):
                assert value in p["text"] or value in p["title"], (p["id"], prop, value)
        assert p["text"] != dev[p["id"]]["text"]
    # more than one layout per kind, and none of the dev pages' field labels
    shapes = {(p["text"].startswith("|"), "\n• " in p["text"], " | " in p["text"] and not p["text"].startswith("|"),
               "\n" not in p["text"], " = " in p["text"], " // " in p["text"]) for p in pages if p["id"].startswith("staff-")}
    assert len(shapes) >= 3
    assert not any(line.startswith(("Name:", "Position:", "Department:", "Research Interests:"))
                   for p in pages for line in p["text"].splitlines())
