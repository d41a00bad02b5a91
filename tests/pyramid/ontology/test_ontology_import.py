"""Importing the real PolyU instance file (../shared/data/polyu/polyu_onto.ttl) into a workspace with
the academic schema: the report's figures are checked against facts stated in the data README or
read off the file independently of the importer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

from pyramid.ontology.layer import OntologyLayer
from pyramid.workspace import Workspace

EX = "http://example.org/"


@pytest.fixture(scope="module")
def polyu(shared_data) -> Path:
    return shared_data / "polyu" / "polyu_onto.ttl"


@pytest.fixture(scope="module")
def imported(tmp_path_factory, polyu):
    layer = OntologyLayer(Workspace.init(tmp_path_factory.mktemp("polyu") / "ws"))
    layer.load_schema(ROOT / "ontology_schemas" / "academic.ttl")
    report = layer.import_instances(polyu)
    reasoned = layer.reason()
    yield layer, report, reasoned
    layer.close()


def test_class_counts_match_the_data_readme(imported):
    _, report, _ = imported
    assert {k.removeprefix(EX): v for k, v in report.classes.items()} == \
        {"STAFF": 1376, "COURSE": 2061, "DEPARTMENT": 31, "FACULTY": 7}
    assert report.properties[EX + "works_for"] == 1384 and report.properties[EX + "offered_by"] == 2061
    assert report.not_in_schema == []  # the academic schema covers PolyU's vocabulary


def test_case_mismatched_course_iris_are_reconciled(imported, polyu):
    layer, report, _ = imported
    text = polyu.read_text(encoding="utf-8")
    typing_only = set(re.findall(r"^base:(\S+) a base:COURSE \.$", text, re.MULTILINE))
    with_data = set(re.findall(r"^base:(\S+) rdfs:label", text, re.MULTILINE))
    pairs = {t for t in typing_only if t.lower() in with_data and t.lower() != t}
    assert report.case_groups == report.case_reconciled == len(pairs) == 2061
    assert report.untyped_subjects == 0
    rows = layer.select('SELECT ?c WHERE { ?c a :COURSE ; :has_subject_code "AAE1001" }')
    assert rows == [{"c": EX + "aae1001"}]  # the typing moved onto the IRI that holds the facts
    assert layer.select(f"ASK {{ <{EX}AAE1001> ?p ?o }}") == [{"ask": False}]


def test_noise_values_are_reported_and_kept(imported):
    layer, report, _ = imported
    graduated = report.noise[EX + "graduated_from"]
    assert graduated["single character"] >= 5 and {"A", "D", "M", "S"} & set(report.noise_examples[EX + "graduated_from"])
    assert report.noise[EX + "has_position"]["empty"] >= 1
    assert EX + "has_credit_value" not in report.noise  # 1, 2, 3 credits are integers, not noise
    # kept: AAE1's single-letter graduated_from values are still there (see the file's first lines)
    assert layer.select(f'ASK {{ <{EX}AAE1> :graduated_from "A" }}') == [{"ask": True}]


def test_the_files_own_schema_statements_do_not_override_the_schema(imported):
    layer, report, _ = imported
    assert any("DEPARTMENT rdfs:subClassOf FACULTY" in s for s in report.schema_ignored)
    count = "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a :FACULTY }"
    assert layer.select(count) == [{"n": 7}]  # DEPARTMENT ⊑ FACULTY would have made it 38
    assert layer.select("SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a :AcademicUnit }") == [{"n": 38}]


def test_reimport_is_idempotent(imported, polyu):
    layer, report, _ = imported
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before, graphs = layer.select(count), set(layer.store.graphs())
    again = layer.import_instances(polyu)
    assert again.instance_triples == report.instance_triples
    assert layer.select(count) == before and set(layer.store.graphs()) == graphs


def test_import_into_an_empty_workspace_adopts_the_files_schema(tmp_path, polyu):
    layer = OntologyLayer(Workspace.init(tmp_path / "ws"))
    report = layer.import_instances(polyu, name="polyu")
    assert report.schema_action.startswith("loaded as the workspace schema")
    assert set(layer.schema.classes) == {EX + c for c in ("STAFF", "COURSE", "DEPARTMENT", "FACULTY")}
    assert layer.stats()["imports"] == 1
    layer.close()
