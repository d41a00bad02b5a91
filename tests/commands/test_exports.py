"""`polyrag ontology export` and `polyrag kg export` (issue 13, item 3), read back by other tools:
rdflib for the RDF, networkx for GraphML, csv, and `kg import` for its own JSONL. Real Oxigraph and LadybugDB."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import run_cli

ONTO = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:Harbour a owl:Class ; rdfs:label "harbour" .
ex:Port a owl:Class ; rdfs:subClassOf ex:Harbour ; rdfs:label "port" .
ex:Town a owl:Class ; rdfs:label "town" .
ex:serves a owl:ObjectProperty ; rdfs:domain ex:Harbour ; rdfs:range ex:Town .
ex:arlow a ex:Port ; rdfs:label "Arlow Port" ; ex:serves ex:arlowmouth .
ex:arlowmouth a ex:Town ; rdfs:label "Arlowmouth" .
"""
TRIPLES = [("Arlow Port", "serves", "Arlowmouth"), ("Arlowmouth", "lies on", "River Arl"),
           ("Captain Brisk", "ran", "Arlow Port"), ("Arlow Port", "opened in", "1851")]


@pytest.fixture
def onto_ws(workspace, tmp_path, capsys):
    ttl = tmp_path / "harbours.ttl"
    ttl.write_text(ONTO)
    assert run_cli(["ontology", "import", workspace.root, ttl], capsys)[0] == 0
    assert run_cli(["ontology", "reason", workspace.root], capsys)[0] == 0
    return workspace.root


@pytest.fixture
def kg_ws(workspace, tmp_path, capsys):
    f = tmp_path / "harbours.jsonl"
    f.write_text("".join(json.dumps({"subject": s, "relation": r, "object": o, "doc_id": "log"}) + "\n"
                         for s, r, o in TRIPLES))
    assert run_cli(["kg", "import", workspace.root, f], capsys)[0] == 0
    return workspace.root


def _graph(data: str, fmt: str):
    import rdflib

    return rdflib.Graph().parse(data=data, format=fmt)


def test_ontology_parts_and_formats_read_back(onto_ws, capsys):
    import rdflib

    ex = rdflib.Namespace("http://example.org/")
    code, out, err = run_cli(["ontology", "export", onto_ws], capsys)
    everything = _graph(out, "turtle")
    assert code == 0 and (ex.arlow, rdflib.RDF.type, ex.Harbour) in everything  # inferred included
    code, schema, _ = run_cli(["ontology", "export", onto_ws, "--part", "schema", "--format", "ntriples"], capsys)
    schema_g = _graph(schema, "nt")
    assert (ex.Port, rdflib.RDFS.subClassOf, ex.Harbour) in schema_g and (ex.arlow, None, None) not in schema_g
    code, inst, _ = run_cli(["ontology", "export", onto_ws, "--part", "instances", "--format", "jsonld"], capsys)
    inst_g = _graph(inst, "json-ld")
    assert (ex.arlow, ex.serves, ex.arlowmouth) in inst_g and (ex.arlow, rdflib.RDF.type, ex.Harbour) not in inst_g
    code, inferred, _ = run_cli(["ontology", "export", onto_ws, "--part", "inferred", "--format", "ntriples"], capsys)
    assert (ex.arlow, rdflib.RDF.type, ex.Harbour) in _graph(inferred, "nt")
    # the parts together are the whole
    assert len(everything) == len(schema_g + inst_g + _graph(inferred, "nt"))
    code, quads, _ = run_cli(["ontology", "export", onto_ws, "--format", "nquads"], capsys)
    ds = rdflib.Dataset()
    ds.parse(data=quads, format="nquads")
    assert len({str(g.identifier) for g in ds.graphs()} - {"urn:x-rdflib:default"}) >= 3  # schema, import, inferred


def test_export_to_a_file_and_bad_arguments(onto_ws, tmp_path, capsys):
    target = tmp_path / "out" / "onto.ttl"
    target.parent.mkdir()
    code, out, err = run_cli(["ontology", "export", onto_ws, "-o", target], capsys)
    assert code == 0 and out == "" and len(_graph(target.read_text(), "turtle")) > 10
    assert [p.name for p in target.parent.iterdir()] == ["onto.ttl"]  # no temporary file left behind
    for args, msg in ((["--part", "everything"], "unknown part 'everything'"), (["--format", "rdfxml"],
                                                                               "unknown format 'rdfxml'")):
        code, _, err = run_cli(["ontology", "export", onto_ws, *args], capsys)
        assert code == 2 and msg in err and "Traceback" not in err


def test_kg_csv_jsonl_graphml_and_rdf(kg_ws, tmp_path, capsys):
    import networkx as nx
    import rdflib

    code, out, err = run_cli(["kg", "export", kg_ws], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {(r["subject"], r["relation"], r["object"]) for r in rows} == set(TRIPLES)
    assert {r["doc_id"] for r in rows} == {"log"}

    code, out, _ = run_cli(["kg", "export", kg_ws, "--format", "jsonl", "-o", tmp_path / "kg.jsonl"], capsys)
    assert code == 0
    again = tmp_path / "again"
    assert run_cli(["kg", "import", again, tmp_path / "kg.jsonl"], capsys)[0] == 0  # read back by `kg import`
    code, out, _ = run_cli(["kg", "export", again], capsys)
    assert {(r["subject"], r["relation"], r["object"]) for r in csv.DictReader(io.StringIO(out))} == set(TRIPLES)

    code, out, _ = run_cli(["kg", "export", kg_ws, "--format", "graphml", "-o", tmp_path / "kg.graphml"], capsys)
    g = nx.read_graphml(tmp_path / "kg.graphml")
    names = {d["name"] for _, d in g.nodes(data=True)}
    assert {"Arlow Port", "Arlowmouth", "River Arl", "Captain Brisk", "1851"} == names
    assert sorted(d["relation"] for *_, d in g.edges(data=True)) == sorted(r for _, r, _ in TRIPLES)

    code, out, _ = run_cli(["kg", "export", kg_ws, "--format", "rdf"], capsys)
    rdf = _graph(out, "nt")
    statements = set(rdf.subjects(rdflib.RDF.type, rdflib.RDF.Statement))
    assert len(statements) == len(TRIPLES)
    assert {str(o) for o in rdf.objects(None, rdflib.RDFS.label)} >= {"Arlow Port", "lies on"}


def test_kg_export_of_an_empty_workspace_is_one_error(workspace, capsys):
    code, _, err = run_cli(["kg", "export", workspace.root], capsys)
    assert code == 2 and "no knowledge graph" in err and "Traceback" not in err
