"""`polyrag ontology ...` and `polyrag sparql` end to end (in-process CLI, real store): output,
exit codes, and bad input leaving the store unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

DATA = """@prefix : <http://example.org/> .
:alice a :ChairProfessor ; :has_name "Alice" ; :head_of :COMP .
:bob a :Lecturer ; :has_name "Bob" ; :works_for :COMP .
:COMP a :DEPARTMENT ; :belongs_to :FENG .
"""
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture
def ws(tmp_path, capsys) -> Path:
    ws = tmp_path / "ws"
    code, out, err = run_cli(["ontology", "load-schema", ws, ROOT / "ontology_schemas" / "academic.ttl"], capsys)
    assert code == 0 and "19 classes" in out, err
    data = tmp_path / "staff.ttl"
    data.write_text(DATA, encoding="utf-8")
    code, out, err = run_cli(["ontology", "import", ws, data], capsys)
    assert code == 0, err
    assert "STAFF" not in out.split("classes:")[1].split("\n")[0]  # only asserted classes are listed
    assert "ChairProfessor 1" in out and "materialised" in out
    return ws


def count(ws: Path, capsys) -> int:
    code, out, _ = run_cli(["sparql", ws, COUNT, "--format", "rows"], capsys)
    assert code == 0
    return json.loads(out)[0]["n"]


def test_sparql_formats(ws, capsys):
    q = "SELECT ?name WHERE { ?s a :STAFF ; :has_name ?name } ORDER BY ?name"  # STAFF only by inference
    code, out, err = run_cli(["sparql", ws, q, "--format", "rows"], capsys)
    assert code == 0 and json.loads(out) == [{"name": "Alice"}, {"name": "Bob"}]
    code, out, _ = run_cli(["sparql", ws, q, "--format", "csv"], capsys)
    assert out.splitlines() == ["name", "Alice", "Bob"]
    code, out, err = run_cli(["sparql", ws, q], capsys)
    assert code == 0 and "Alice" in out and "2 rows" in err


def test_stats(ws, capsys):
    code, out, _ = run_cli(["ontology", "stats", ws, "--json"], capsys)
    stats = json.loads(out)
    assert code == 0 and stats["instances"]["STAFF"] == 2 and stats["instances"]["AcademicUnit"] == 2
    assert stats["inferred_stale"] is False


@pytest.mark.parametrize("query", ["INSERT DATA { <http://a> <http://b> <http://c> }", "DELETE WHERE { ?s ?p ?o }",
                                   "CLEAR ALL", "LOAD <http://example.org/x.ttl>",
                                   "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"])
def test_unsafe_sparql_is_refused_and_changes_nothing(ws, capsys, query):
    before = count(ws, capsys)
    code, out, err = run_cli(["sparql", ws, query], capsys)
    assert code == 2 and "refused" in err and out == ""
    assert count(ws, capsys) == before


def test_bad_files_exit_2_with_position_and_change_nothing(ws, tmp_path, capsys):
    before = count(ws, capsys)
    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix : <http://example.org/> .\n:x :has_name "unterminated .\n', encoding="utf-8")
    for command in (["ontology", "import", ws, bad], ["ontology", "load-schema", ws, bad]):
        code, _, err = run_cli(command, capsys)
        assert code == 2 and "bad.ttl, line 2" in err and "column" in err
    code, _, err = run_cli(["sparql", ws, "SELECT ?s WHERE { ?s ?p }"], capsys)
    assert code == 2 and "line 1" in err
    assert count(ws, capsys) == before


def test_missing_workspace_and_bad_format(tmp_path, ws, capsys):
    code, _, err = run_cli(["sparql", tmp_path / "nope", COUNT], capsys)
    assert code == 2 and "does not exist" in err
    code, _, err = run_cli(["sparql", ws, COUNT, "--format", "yaml"], capsys)
    assert code == 2 and "unknown --format 'yaml'" in err
    code, _, err = run_cli(["sparql", ws, COUNT, "--format", "turtle"], capsys)  # a table is no graph
    assert code == 2 and "format 'turtle' does not fit a SELECT/ASK result" in err


W3C_CASES = [("json", "application/sparql-results+json"), ("xml", None), ("csv", None), ("tsv", None)]


def test_w3c_result_formats_keep_iris_and_literals_apart(ws, capsys):
    """`--format json|xml|csv|tsv` are the SPARQL 1.1 result formats: an IRI and a string with the
    same characters come out different (the plain `rows` format cannot tell them apart)."""
    import xml.etree.ElementTree as ET

    q = ('SELECT ?x ?label WHERE { VALUES (?x ?label) { (<http://example.org/a> "http://example.org/a") '
         '(<http://example.org/b> "b"@en) (<http://example.org/c> 3) } }')
    code, out, err = run_cli(["sparql", ws, q, "--format", "json"], capsys)
    body = json.loads(out)
    assert code == 0 and body["head"]["vars"] == ["x", "label"], err
    first, second, third = body["results"]["bindings"]
    assert first == {"x": {"type": "uri", "value": "http://example.org/a"},
                     "label": {"type": "literal", "value": "http://example.org/a"}}
    assert second["label"] == {"type": "literal", "value": "b", "xml:lang": "en"}
    assert third["label"] == {"type": "literal", "value": "3",
                              "datatype": "http://www.w3.org/2001/XMLSchema#integer"}
    code, out, _ = run_cli(["sparql", ws, q, "--format", "xml"], capsys)
    ns = {"r": "http://www.w3.org/2005/sparql-results#"}
    root = ET.fromstring(out)
    assert [v.get("name") for v in root.findall("r:head/r:variable", ns)] == ["x", "label"]
    assert root.find("r:results/r:result/r:binding[@name='x']/r:uri", ns).text == "http://example.org/a"
    code, out, _ = run_cli(["sparql", ws, q, "--format", "tsv"], capsys)
    assert out.splitlines()[1] == '<http://example.org/a>\t"http://example.org/a"'
    assert out.splitlines()[3].endswith('"3"^^<http://www.w3.org/2001/XMLSchema#integer>')
    code, out, _ = run_cli(["sparql", ws, "ASK { }", "--format", "json"], capsys)
    assert json.loads(out) == {"head": {}, "boolean": True}


def test_construct_comes_out_as_rdf(ws, capsys):
    import rdflib

    q = "CONSTRUCT { ?s a ?c } WHERE { ?s a ?c } LIMIT 5"
    for fmt, parse_as in (("turtle", "turtle"), ("ntriples", "nt"), ("jsonld", "json-ld")):
        code, out, err = run_cli(["sparql", ws, q, "--format", fmt], capsys)
        assert code == 0, err
        g = rdflib.Graph().parse(data=out, format=parse_as)
        assert 0 < len(g) <= 5


@pytest.mark.parametrize("query,message", [
    ("SELECT ?s WHERE { ?s a :STAF }", "class STAF does not exist; nearest: STAFF"),
    ("SELECT ?s WHERE { ?s :work_for :COMP }", "property work_for does not exist; nearest: works_for"),
    ("ASK { ?s <http://example.org/has_nmae> ?o }", "property has_nmae does not exist; nearest: has_name"),
])
def test_unknown_schema_terms_are_refused_with_the_nearest_names(ws, capsys, query, message):
    before = count(ws, capsys)
    code, out, err = run_cli(["sparql", ws, query], capsys)
    assert code == 2 and message in err and out == ""
    assert count(ws, capsys) == before


def test_only_class_and_predicate_terms_of_the_schema_namespace_are_checked(ws, tmp_path, capsys):
    ok = ["SELECT ?p ?o WHERE { :alice ?p ?o }",                          # an instance IRI is not a schema term
          "SELECT ?c WHERE { ?c a owl:Class }",                            # other vocabularies are not checked
          "SELECT ?s WHERE { ?s <http://other.org/knows> ?o }"]
    for q in ok:
        code, _, err = run_cli(["sparql", ws, q, "--format", "rows"], capsys)
        assert code == 0, (q, err)
    # a term the schema lacks but the data uses is real: the query runs
    extra = tmp_path / "extra.ttl"
    extra.write_text('@prefix : <http://example.org/> .\n:alice :nickname "Al" .\n', encoding="utf-8")
    assert run_cli(["ontology", "import", ws, extra], capsys)[0] == 0
    code, out, err = run_cli(["sparql", ws, "SELECT ?n WHERE { ?s :nickname ?n }", "--format", "rows"], capsys)
    assert code == 0 and json.loads(out) == [{"n": "Al"}], err
