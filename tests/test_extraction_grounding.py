"""The deterministic parts of grounded extraction (pyramid/reading: sentences, names, rules; the relation
check of pyramid/kg/extractors/grounded.py, the typing and range checks of grounded f_ins). Expectations are written by
hand from the sentences; the embedder (MiniLM) is the real one where a property is chosen."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramid.kg.extractors.grounded import grounded_relation
from pyramid.reading.names import main_entity, name_spans, resolve
from pyramid.reading.rules import candidates, read, rule_triples
from pyramid.reading.sentences import split_sentences, tokenize

ROOT = Path(__file__).resolve().parents[1]


def triples(sentence: str) -> set[tuple[str, str, str]]:
    return {(t.subject, t.relation, t.object) for t in rule_triples(sentence)}


def test_sentences_split_at_full_stops_but_not_after_titles_or_abbreviations():
    text = ("Prof. Alice Chen is a professor. She received her PhD in 2009! Dr. Okafor met the St. Louis Blues. "
            "Rangers F.C. is blue")
    assert [s.text for s in split_sentences(text)] == [
        "Prof. Alice Chen is a professor.", "She received her PhD in 2009!",
        "Dr. Okafor met the St. Louis Blues.", "Rangers F.C. is blue"]
    s = split_sentences(text)[1]
    assert text[s.start:s.end] == s.text


def test_main_entity_is_the_title_when_written_else_the_first_subject():
    person = main_entity("Dr Ben Okafor is an assistant professor.", "Dr Ben Okafor")
    assert (person.name, person.person) == ("Dr Ben Okafor", True)
    dept = main_entity("The Department of Computing belongs to the Faculty of Engineering.", "Department of Computing")
    assert (dept.person, dept.heads) == (False, {"department"})
    course = main_entity("COMP3010 Information Retrieval is a subject.", "COMP3010 Information Retrieval")
    assert course.heads == {"subject", "course", "module"}
    # a news title that the text does not write is no entity: the first sentence's subject is
    lab = main_entity("The Northbridge AI Lab opened in September 2021.", "AI Lab opens")
    assert lab.name == "Northbridge AI Lab" and lab.heads == {"lab"}


def test_pronouns_and_the_head_word_resolve_to_the_main_entity():
    alice = main_entity("Prof. Alice Chen is a professor.", "Prof. Alice Chen")
    assert resolve("She received her PhD from the University of Edinburgh.", alice) == \
        "Prof. Alice Chen received her PhD from the University of Edinburgh."   # 'her' inside stays
    assert resolve("Her research interests are ontologies.", alice) == "Prof. Alice Chen's research interests are ontologies."
    dept = main_entity("The Department of Computing is big.", "Department of Computing")
    assert resolve("Its head is Prof. Alice Chen.", dept) == "Department of Computing's head is Prof. Alice Chen."
    assert resolve("The department offers programmes.", dept) == "Department of Computing offers programmes."
    # 'the department of X' is another department; 'she' never names a department
    assert resolve("The department of Physics is near. She left.", dept) == "The department of Physics is near. She left."
    course = main_entity("COMP3010 Information Retrieval is a subject.", "COMP3010 Information Retrieval")
    assert resolve("The subject is taught by Dr Ben Okafor.", course) == \
        "COMP3010 Information Retrieval is taught by Dr Ben Okafor."


def test_candidate_spans_are_names_codes_and_counted_nouns():
    toks = tokenize("Dr Ben Okafor teaches COMP3010 Information Retrieval and supervises four PhD students.")
    assert [(s.text, s.kind) for s in name_spans(toks)] == [
        ("Dr Ben Okafor", "name"), ("COMP3010 Information Retrieval", "code"), ("four PhD students", "number")]
    toks = tokenize("Visitors look at the Moon, Jupiter and Saturn from the Department of Accounting and Finance.")
    # a sentence's first capitalised word is kept: it is the subject ('Visitors'); 'and' joins inside
    # a name with 'of' only
    assert [s.text for s in name_spans(toks)] == ["Visitors", "Moon", "Jupiter", "Saturn",
                                                  "Department of Accounting and Finance"]
    toks = tokenize("Salt Lake City hosted the Winter 2002 Olympics with Prof. Rahul Mehta.")
    assert [s.text for s in name_spans(toks)] == ["Salt Lake City", "Winter 2002 Olympics", "Prof. Rahul Mehta"]


def test_candidates_for_the_model_leave_out_pieces_of_listed_names():
    sent = read("The Department of Computing belongs to the Faculty of Engineering.")[0]
    assert candidates(sent) == ["Department of Computing", "Faculty of Engineering"]


def test_rule_triples_read_subject_verb_group_and_objects():
    assert triples("The primary diet of jaguars includes deer, capybaras, and fish.") == {
        ("jaguars", "primary diet includes", "deer"), ("jaguars", "primary diet includes", "capybaras"),
        ("jaguars", "primary diet includes", "fish")}
    assert triples("The primary language spoken in Canada is English.") == {
        ("English", "is the primary language spoken in", "Canada")}
    assert triples("Philipp Lahm was the captain of the German national team that won the FIFA World Cup in 2014.") == {
        ("Philipp Lahm", "was the captain of", "German national team"), ("German national team", "won", "FIFA World Cup")}
    assert triples("Prof. Rahul Mehta is a chair professor and head of the Department of Physics.") == {
        ("Prof. Rahul Mehta", "is a", "chair professor"), ("Prof. Rahul Mehta", "is head of", "Department of Physics")}


def test_rule_triples_after_resolution_name_the_main_entity():
    doc = ("Dr Ben Okafor is an assistant professor in the Department of Computing. He obtained his PhD from "
           "University College London. Dr Okafor teaches COMP3010 Information Retrieval.")
    got = {(t.subject, t.relation, t.object) for s in read(doc, "Dr Ben Okafor") for t in s.triples}
    assert ("Dr Ben Okafor", "is an assistant professor in", "Department of Computing") in got
    assert ("Dr Ben Okafor", "obtained his PhD from", "University College London") in got
    assert ("Dr Ben Okafor", "teaches", "COMP3010 Information Retrieval") in got   # 'Dr Okafor' → the full name


def test_a_relation_must_be_written_in_the_sentence_outside_its_ends():
    sentence = "Dr Ben Okafor teaches COMP3010 at Northbridge University."
    ents = ["Dr Ben Okafor", "COMP3010", "Northbridge University"]
    assert grounded_relation(sentence, "Dr Ben Okafor", "teaches", "COMP3010", ents) == "teaches"
    # an entity used as the relation, or words the sentence lacks: the words between the ends instead
    assert grounded_relation(sentence, "Dr Ben Okafor", "Dr Ben Okafor", "COMP3010", ents) == "teaches"
    assert grounded_relation(sentence, "Dr Ben Okafor", "works for", "COMP3010", ents) == "teaches"
    # the placeholder words of a prompt ('relation') are not in the sentence, and nothing lies between
    # these ends in this order: dropped
    assert grounded_relation(sentence, "COMP3010", "relation", "Dr Ben Okafor", ents) == ""
    # a relation that swallows another entity is no relation
    assert grounded_relation(sentence, "Dr Ben Okafor", "teaches COMP3010 at", "Northbridge University", ents) == ""
    assert grounded_relation(sentence, "COMP3010", "subject", "COMP3010", ents) == ""   # a self-loop


# ------------------------------------------------------------------ grounded f_ins: typing and ranges
@pytest.fixture(scope="module")
def reader(embedder):
    from pyramid.ontology.extractors.grounded import GroundedChunkReader, GroundedFactExtractor
    from pyramid.ontology.extractors.linker import Linker
    from pyramid.ontology.labels import LabelIndex
    from pyramid.ontology.schema import Schema
    from pyramid.vocab import Vocab

    schema = Schema.load(ROOT / "ontology_schemas" / "academic.ttl")
    vocab = Vocab.from_schema(schema)
    linker = Linker(LabelIndex.from_rows([], []), embedder, 0.85, "http://example.org/")
    ex = GroundedFactExtractor(None, embedder, vocab, linker, schema=schema)
    return GroundedChunkReader(ex)


EX = "http://example.org/"


def test_instances_are_typed_from_cues_not_from_a_model(reader):
    assert reader.cue_class("Dr Ben Okafor") == EX + "STAFF"
    assert reader.cue_class("Prof. Alice Chen") == EX + "Professor"
    assert reader.cue_class("Department of Physics") == EX + "DEPARTMENT"
    assert reader.cue_class("Faculty of Engineering") == EX + "FACULTY"
    assert reader.cue_class("COMP3010 Information Retrieval") == EX + "COURSE"
    assert reader.cue_class("Northbridge University") == EX + "University"
    assert reader.cue_class("knowledge graphs") is None
    assert reader.rank_class("an assistant professor") == EX + "AssistantProfessor"


def test_object_values_must_be_instances_of_the_range_and_literals_fit_theirs(reader):
    types = {"Dr Ben Okafor": EX + "STAFF", "Department of Computing": EX + "DEPARTMENT",
             "COMP3010": EX + "COURSE", "knowledge graphs": None, "3": None, "three": None}
    subj, prop, value = reader.choose("Dr Ben Okafor", "is an assistant professor in", "Department of Computing", types)
    assert (subj, prop.name, value) == ("Dr Ben Okafor", "works_for", "Department of Computing")
    # read backwards: 'the department's head is Dr X' → head_of(X, department)
    subj, prop, value = reader.choose("Department of Computing", "head is", "Dr Ben Okafor", types)
    assert (subj, prop.name, value) == ("Dr Ben Okafor", "head_of", "Department of Computing")
    # works_for needs an academic unit: an untyped phrase is no value of it
    got = reader.choose("Dr Ben Okafor", "works for", "knowledge graphs", types)
    assert got is None or got[1].kind == "datatype"
    # has_credit_value is an integer: '3' fits, 'three' does not
    assert reader.choose("COMP3010", "has credit", "3", types)[1].name == "has_credit_value"
    assert reader.choose("COMP3010", "has credit", "three", types) is None
    has_name = reader.vocab.get("has_name")
    assert not reader._value_fits(has_name, "Ben Okafor", "Dr Ben Okafor")   # the subject's own name
    assert reader._value_fits(has_name, "Alice Chen", "Dr Ben Okafor")
