"""Analytical questions through the ontology layer, on a plant nursery of our own (trees and shrubs with
heights in metres, prices in pounds and planting dates; nurseries in towns; gardeners who learn from
gardeners): superlatives and top-k with ties, comparisons with units, years against dates, totals,
counts of a class, counts per group, yes/no, several attributes, absence, names by a part, and derived
values passed down.
Gold comes from the Turtle below, read by eye, never from the planner. The scripted model has no rules:
every test proves its path makes no model call."""

from __future__ import annotations

import pytest

from querying.ontology_qa import answer_ontology
from querying.planning.measures import base_adjective
from querying.sparql_plan import Order, QueryPlan, check_plan, first_ordered
from tests.querying.test_ontology_qa import own_ontology, session

NURSERY = """@prefix : <http://example.org/nursery/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Plant a owl:Class ; rdfs:label "plant" .
:Tree a owl:Class ; rdfs:subClassOf :Plant ; rdfs:label "tree" .
:Shrub a owl:Class ; rdfs:subClassOf :Plant ; rdfs:label "shrub" .
:Nursery a owl:Class ; rdfs:label "nursery" .
:Town a owl:Class ; rdfs:label "town" .
:Gardener a owl:Class ; rdfs:label "gardener" .
:grownAt a owl:ObjectProperty ; rdfs:domain :Plant ; rdfs:range :Nursery ; rdfs:label "is grown at" .
:inTown a owl:ObjectProperty ; rdfs:domain :Nursery ; rdfs:range :Town ; rdfs:label "lies in" .
:tends a owl:ObjectProperty ; rdfs:domain :Gardener ; rdfs:range :Nursery ; rdfs:label "tends" .
:height a owl:DatatypeProperty ; rdfs:domain :Plant ; rdfs:range xsd:decimal ; rdfs:label "height" ;
    rdfs:comment "How tall the plant stands, in metres." .
:cost a owl:DatatypeProperty ; rdfs:domain :Plant ; rdfs:range xsd:decimal ; rdfs:label "sale price" ;
    rdfs:comment "What the plant sells for, in pounds." .
:planted a owl:DatatypeProperty ; rdfs:domain :Plant ; rdfs:range xsd:date ; rdfs:label "planting date" .
:phone a owl:DatatypeProperty ; rdfs:domain :Gardener ; rdfs:range xsd:string ; rdfs:label "phone number" .
:mail a owl:DatatypeProperty ; rdfs:domain :Gardener ; rdfs:range xsd:string ; rdfs:label "mail address" .
:oak a :Tree ; rdfs:label "Old Moss Oak" ; :height 6.5 ; :cost 120.0 ; :planted "2016-03-01"^^xsd:date ;
    :grownAt :fernhill .
:birch a :Tree ; rdfs:label "Silver Birch Sapling" ; :height 2.1 ; :cost 35.0 ; :planted "2021-05-12"^^xsd:date ;
    :grownAt :fernhill .
:yew a :Tree ; rdfs:label "Churchyard Yew" ; :height 6.5 ; :cost 210.0 ; :planted "2012-10-20"^^xsd:date ;
    :grownAt :marsh .
:box a :Shrub ; rdfs:label "Round Box" ; :height 0.6 ; :cost 18.0 ; :planted "2022-04-02"^^xsd:date ;
    :grownAt :marsh .
:holly a :Shrub ; rdfs:label "Blue Holly" ; :height 1.4 ; :cost 18.0 ; :planted "2019-09-09"^^xsd:date ;
    :grownAt :fernhill .
:fernhill a :Nursery ; rdfs:label "Fernhill Nursery" ; :inTown :tarnby .
:marsh a :Nursery ; rdfs:label "Marsh End Growers" ; :inTown :wold .
:tarnby a :Town ; rdfs:label "Tarnby" .
:wold a :Town ; rdfs:label "Wold Cross" .
:quinn a :Gardener ; rdfs:label "Quinn Ashdown" ; :tends :fernhill ; :phone "0161 555 0101" ;
    :mail "quinn@fernhill.example" .
:rhea a :Gardener ; rdfs:label "Rhea Moult" ; :tends :fernhill ; :mail "rhea@fernhill.example" .
:sol a :Gardener ; rdfs:label "Sol Brandt" ; :tends :marsh ; :mentor :quinn .
:rhea :mentor :quinn .
:mentor a owl:ObjectProperty ; rdfs:domain :Gardener ; rdfs:range :Gardener ; rdfs:label "learns from" .
:Greenhouse a owl:Class ; rdfs:label "greenhouse" .
:glass a :Greenhouse ; rdfs:label "East Glasshouse" .
:heated a owl:DatatypeProperty ; rdfs:domain :Greenhouse ; rdfs:range xsd:boolean ; rdfs:label "heating" .
"""


@pytest.fixture
def nursery(tmp_path, embedder):
    ws = own_ontology(tmp_path, "nursery", NURSERY)
    s = session(ws, embedder)
    s.ontology.reason()  # a tree is a plant
    return s


def ask(s, question: str):
    ans = answer_ontology(s, question)
    assert ans.usage.calls == 0
    return ans


def test_a_superlative_ranks_by_the_value_its_adjective_measures_ties_kept(nursery):
    """"the tallest" is the highest height, "the cheapest" the lowest price (English says which end); a
    tie at the top keeps both; a superclass ("plant") ranks its subclasses' things."""
    ans = ask(nursery, "Which is the tallest tree?")
    assert ans.layer == "ontology" and "Old Moss Oak" in ans.text and "Churchyard Yew" in ans.text, ans.text
    assert "Birch" not in ans.text, ans.text
    ans = ask(nursery, "What is the cheapest plant?")
    assert "Round Box" in ans.text and "Blue Holly" in ans.text and "Oak" not in ans.text, ans.text
    ans = ask(nursery, "Name the most expensive shrub.")
    assert "Blue Holly" in ans.text or "Round Box" in ans.text  # tied at 18
    ans = ask(nursery, "Which tree was planted most recently?")
    assert ans.layer != "ontology" or "Silver Birch" in ans.text, ans.text


def test_top_k_in_digits_or_words_and_age_read_off_a_date(nursery):
    ans = ask(nursery, "List the two oldest plants.")
    assert "Churchyard Yew" in ans.text and "Old Moss Oak" in ans.text and "Holly" not in ans.text, ans.text
    ans = ask(nursery, "Show the 3 newest plants.")
    assert {"Round Box", "Silver Birch Sapling", "Blue Holly"} <= set(ans.text.replace(":", "|").split(" | ")) or \
        all(n in ans.text for n in ("Round Box", "Silver Birch", "Blue Holly")), ans.text
    assert "Yew" not in ans.text, ans.text


def test_comparisons_with_a_unit_pick_the_property_whose_schema_names_it(nursery):
    """"under 40 pounds" is the price (its comment says pounds), "taller than 2 m" the height."""
    ans = ask(nursery, "Which plants cost under 40 pounds?")
    assert ans.layer == "ontology", ans.text
    for name in ("Silver Birch Sapling", "Round Box", "Blue Holly"):
        assert name in ans.text, ans.text
    assert "Oak" not in ans.text and "Yew" not in ans.text
    ans = ask(nursery, "Which trees are taller than 3 metres?")
    assert "Old Moss Oak" in ans.text and "Churchyard Yew" in ans.text and "Birch" not in ans.text, ans.text
    ans = ask(nursery, "How many plants are more than 1 m tall?")
    assert ans.layer == "ontology" and ans.text.strip() == "4", ans.text


def test_a_year_is_compared_with_a_date(nursery):
    ans = ask(nursery, "Which plants were planted after 2019?")
    assert "Silver Birch Sapling" in ans.text and "Round Box" in ans.text, ans.text
    assert "Holly" not in ans.text and "Oak" not in ans.text, ans.text
    ans = ask(nursery, "Which shrubs were planted in 2019?")
    assert "Blue Holly" in ans.text and "Round Box" not in ans.text, ans.text


def test_totals_and_counts_of_a_whole_class(nursery):
    ans = ask(nursery, "What is the average sale price of the shrubs?")
    assert ans.layer == "ontology" and float(ans.text) == pytest.approx(18.0), ans.text
    ans = ask(nursery, "What is the total height of all trees?")
    assert float(ans.text) == pytest.approx(15.1), ans.text
    ans = ask(nursery, "How many trees are there?")
    assert ans.text.strip() == "3", ans.text


def test_a_count_per_group_keeps_every_group(nursery):
    ans = ask(nursery, "How many plants are grown at each nursery?")
    assert ans.layer == "ontology" and "Fernhill Nursery: 3" in ans.text and "Marsh End Growers: 2" in ans.text, \
        ans.text


def test_yes_no_says_yes_or_no_with_what_was_found(nursery):
    assert ask(nursery, "Is any nursery in Tarnby?").text.startswith("Yes")
    ans = ask(nursery, "Does the Churchyard Yew cost more than 150 pounds?")
    assert ans.text.startswith("Yes"), ans.text
    ans = ask(nursery, "Does the Round Box cost more than 150 pounds?")
    assert ans.layer == "ontology" and ans.text.startswith("No"), ans.text


def test_several_attributes_asked_at_once_come_back_together(nursery):
    ans = ask(nursery, "Give the phone number and mail address of Quinn Ashdown.")
    assert "0161 555 0101" in ans.text and "quinn@fernhill.example" in ans.text, ans.text
    ans = ask(nursery, "Give the phone number and mail address of Rhea Moult.")  # no phone: the mail still
    assert "rhea@fernhill.example" in ans.text, ans.text


def test_a_derived_value_is_passed_down_not_answered_with_a_part_of_it(nursery):
    for q in ("What is the price difference between the Old Moss Oak and the Churchyard Yew?",
              "How much taller is the Old Moss Oak than the Silver Birch Sapling?",
              "What percentage of plants are trees?"):
        ans = ask(nursery, q)
        assert ans.layer == "none", (q, ans.text)


def test_plan_language_orders_and_keeps_ties():
    rows = [{"x": "a", "v": "9"}, {"x": "b", "v": "9"}, {"x": "c", "v": "7"}, {"x": "d", "v": "5"}]
    assert [r["x"] for r in first_ordered(rows, 1)] == ["a", "b"]
    assert [r["x"] for r in first_ordered(rows, 3)] == ["a", "b", "c"]


def test_plan_check_refuses_an_order_with_a_count(tmp_path, embedder):
    from pyramid.ontology.schema import Schema
    from pyramid.vocab import Vocab

    path = tmp_path / "n.ttl"
    path.write_text(NURSERY, encoding="utf-8")
    vocab = Vocab.from_schema(Schema.load(path))
    plan = QueryPlan(target="Plant", order=Order(property="height"), count=True)
    assert any("one of them" in p for p in check_plan(plan, vocab))
    assert check_plan(QueryPlan(target="Plant", order=Order(property="height")), vocab) == []
    assert any("does not exist" in p for p in check_plan(QueryPlan(target="Plant", order=Order(property="colour")),
                                                         vocab))


def test_base_adjective_undoes_english_comparison():
    assert [base_adjective(w) for w in ("cheapest", "heavier", "biggest", "widest", "tallest", "oldest")] == \
        ["cheap", "heavy", "big", "wide", "tall", "old"]


def test_absence_reads_which_end_is_missing_from_word_order(nursery):
    """"learns from nobody" lacks the object, "nobody learns from them" the subject; an attribute lacked
    ("no phone number") is an absent value. Nothing found where nothing lacks it: no answer."""
    ans = ask(nursery, "Which gardeners learn from nobody?")
    assert ans.layer == "ontology" and "Quinn Ashdown" in ans.text, ans.text
    assert "Rhea" not in ans.text and "Sol" not in ans.text, ans.text
    ans = ask(nursery, "Which gardeners have nobody learning from them?")
    assert "Rhea Moult" in ans.text and "Sol Brandt" in ans.text and "Quinn" not in ans.text, ans.text
    ans = ask(nursery, "Which gardeners have no phone number?")
    assert "Rhea Moult" in ans.text and "Sol Brandt" in ans.text and "Quinn" not in ans.text, ans.text
    assert ask(nursery, "Which trees are grown at no nursery?").layer == "none"


def test_a_person_named_by_title_and_surname_or_first_name_and_unit(nursery):
    ans = ask(nursery, "What is the mail address of Dr Moult?")
    assert ans.layer == "ontology" and "rhea@fernhill.example" in ans.text, ans.text
    ans = ask(nursery, "What is the phone number of Quinn from Fernhill Nursery?")
    assert "0161 555 0101" in ans.text, ans.text


def test_yes_no_is_no_when_nothing_is_found_under_any_reading(nursery):
    ans = ask(nursery, "Is any nursery in Wold Cross?")
    assert ans.text.startswith("Yes"), ans.text
    ans = ask(nursery, "Is any gardener based at East Glasshouse?")
    assert ans.layer == "none" or ans.text.startswith("No"), ans.text


def test_a_yes_no_question_naming_two_things_asks_whether_one_is_among_the_others_answers(nursery):
    """"Does X tend Y?": the reading whose answers are of Y's kind decides, never a value of X."""
    ans = ask(nursery, "Does Quinn Ashdown tend Fernhill Nursery?")
    assert ans.text.startswith("Yes"), ans.text
    ans = ask(nursery, "Does Sol Brandt tend Fernhill Nursery?")
    assert ans.text.startswith("No"), ans.text


def test_a_comparison_keeps_what_else_the_question_names(nursery):
    ans = ask(nursery, "Which trees grown at Fernhill Nursery cost under 100 pounds?")
    assert ans.layer == "ontology" and "Silver Birch Sapling" in ans.text, ans.text
    assert "Oak" not in ans.text and "Yew" not in ans.text, ans.text


def test_more_ways_english_ranks_compares_and_totals(nursery):
    """A verb with "the most"/"the least", an adverb of a gradable adjective, a range "between … and …",
    "maximum", a total said with "together", "don't have" and "by how much" (derived: passed down)."""
    ans = ask(nursery, "Which tree costs the most?")
    assert "Churchyard Yew" in ans.text and "Oak" not in ans.text, ans.text
    ans = ask(nursery, "Which shrub was planted most recently?")
    assert "Round Box" in ans.text and "Holly" not in ans.text, ans.text
    ans = ask(nursery, "Which plants cost between 30 and 150 pounds?")
    assert "Silver Birch Sapling" in ans.text and "Old Moss Oak" in ans.text, ans.text
    assert "Yew" not in ans.text and "Round Box" not in ans.text, ans.text
    ans = ask(nursery, "What is the maximum height among shrubs?")
    assert float(ans.text) == pytest.approx(1.4), ans.text
    ans = ask(nursery, "What do all the trees cost together?")
    assert float(ans.text) == pytest.approx(365.0), ans.text
    ans = ask(nursery, "Which gardeners don't have a phone number?")
    assert "Rhea Moult" in ans.text and "Quinn" not in ans.text, ans.text
    assert ask(nursery, "By how much does the Churchyard Yew outgrow the Silver Birch Sapling?").layer == "none"


def test_a_total_per_group_reads_every_group_each_thing_once(nursery):
    """"per nursery": every group with its total; two plants of one height at one nursery both count."""
    ans = ask(nursery, "What is the total height of plants per nursery?")
    assert ans.layer == "ontology" and "Fernhill Nursery: 10.0" in ans.text and "Marsh End Growers: 7.1" in ans.text, \
        ans.text
    ans = ask(nursery, "What is the average sale price of plants per nursery?")
    assert "Marsh End Growers: 114.0" in ans.text, ans.text


def test_places_sorting_and_a_ranking_by_an_average(nursery):
    """"the second cheapest" passes one place over; "sorted by height, tallest first" lists every answer in
    that order; "the nursery with the highest average price" ranks groups by an aggregate."""
    ans = ask(nursery, "Which is the second cheapest tree?")
    assert ans.layer == "ontology" and "Old Moss Oak" in ans.text and "Birch" not in ans.text, ans.text
    assert "Yew" not in ans.text, ans.text
    ans = ask(nursery, "List the trees sorted by height, highest first.")
    names = [part.split(":")[0].strip() for part in ans.text.split(" | ")]
    assert names[-1] == "Silver Birch Sapling" and len(names) == 3, ans.text
    ans = ask(nursery, "Which nursery has the highest average sale price?")
    assert "Marsh End Growers" in ans.text and "Fernhill" not in ans.text, ans.text


def test_a_condition_on_a_total_keeps_every_group_past_it(nursery):
    ans = ask(nursery, "Which nurseries have an average sale price above 100 pounds?")
    assert ans.layer == "ontology" and "Marsh End Growers" in ans.text and "Fernhill" not in ans.text, ans.text
    assert ask(nursery, "What is the combined plant count of Fernhill Nursery?").text.strip() != "0"
