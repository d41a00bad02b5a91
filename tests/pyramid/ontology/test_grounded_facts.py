"""Grounded f_ins, the deterministic part (pyramid/ontology/extractors/grounded.py): instances typed
from cues, values checked against the ranges. Expectations are written by hand from the sentences;
the embedder (MiniLM) is the real one where a property is chosen; no model."""

from __future__ import annotations

import pytest
from conftest import ROOT


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
