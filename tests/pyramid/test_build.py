"""`polyrag build`: the whole pyramid in one command, resumable, with a cost table; bad input leaves the
workspace as it was. Four of the demo documents with the default reading by shape (three pages read against
the schema, a news item by sentence: the real local model is there for the grounded reader's close calls),
the real Oxigraph, LadybugDB and MiniLM."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, run_cli

from pyramid.session import Session
from pyramid.workspace import Workspace

SCHEMA = ROOT / "ontology_schemas" / "academic.ttl"


@pytest.fixture
def docs(tmp_path):
    keep = {"dept-computing", "staff-ben-okafor", "course-comp3010", "news-observatory"}
    lines = [line for line in (ROOT / "examples/demo/documents.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["id"] in keep]
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _build(args, capsys) -> dict:
    code, out, err = run_cli([*args, "--json"], capsys)
    assert code == 0, err
    return {s["step"]: s for s in json.loads(out)["steps"]}


def _tree(root):
    return sorted((str(p.relative_to(root)), p.stat().st_size) for p in root.rglob("*")
                  if p.is_file() and p.name != ".lock")


@pytest.mark.llm
@pytest.mark.slow
def test_build_is_one_command_resumable_and_removes_everywhere(tmp_path, docs, capsys):
    ws = tmp_path / "ws"
    first = _build(["build", ws, "--docs", docs, "--schema", SCHEMA], capsys)
    assert list(first) == ["text", "kg", "ontology.schema", "ontology.extract", "ontology.reason"]
    assert first["text"]["outcome"].startswith("4 new, 0 changed documents")
    assert first["kg"]["outcome"].startswith("by-shape mode: 4 documents read")
    assert "3 pages read, 1 documents by sentence" in first["ontology.extract"]["outcome"]
    s = Session(Workspace.open(ws))
    assert {"text", "kg", "ontology"} <= set(s.ws.manifest()["layers"])
    rows = s.ontology.select("PREFIX : <http://example.org/> SELECT ?d WHERE { ?s :works_for ?d ; "
                             "<http://www.w3.org/2000/01/rdf-schema#label> ?n FILTER(CONTAINS(?n, 'Okafor')) }")
    assert rows, "Ben Okafor works_for should come out of the ontology extraction"
    s.ontology.close()
    s.kg.close()

    # a second run finds everything done: nothing embedded, nothing extracted, no model call
    code, out, err = run_cli(["build", ws, "--docs", docs, "--schema", SCHEMA, "--json"], capsys)
    assert code == 0, err
    again = json.loads(out)
    steps = {s["step"]: s for s in again["steps"]}
    assert steps["text"]["outcome"].startswith("0 new, 0 changed documents; 0 chunks embedded")
    assert "0 documents read" in steps["kg"]["outcome"] and "ontology.schema" not in steps
    assert again["usage"]["calls"] == 0

    # the table a person reads carries the same steps and a total
    code, out, err = run_cli(["build", ws], capsys)
    assert code == 0 and "build cost" in out and "total" in out and "ontology.extract" in out

    # --remove drops a document from every layer
    removed = _build(["build", ws, "--remove", "staff-ben-okafor"], capsys)
    assert removed["remove"]["outcome"].startswith("dropped 1 text documents")
    s = Session(Workspace.open(ws))
    assert "staff-ben-okafor" not in s.text.docs
    assert all(t.doc_id != "staff-ben-okafor" for t in s.kg.store().iter_triples())
    assert not any("staff-ben-okafor" in g for g in s.ontology.store.graphs())


def test_bad_input_is_one_message_and_changes_nothing(tmp_path, docs, capsys):
    ws = tmp_path / "ws"
    Workspace.init(ws)
    before = _tree(ws)
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix : <http://example.org/> .\n:A a :B ;\n", encoding="utf-8")
    code, out, err = run_cli(["build", ws, "--docs", docs, "--schema", bad], capsys)
    assert code == 2 and "bad.ttl" in err and "line" in err and "Traceback" not in err + out
    assert _tree(ws) == before
    code, _, err = run_cli(["build", ws, "--docs", docs, "--layers", "text,graph"], capsys)
    assert code == 2 and "--layers" in err
    code, _, err = run_cli(["build", ws], capsys)
    assert code == 2 and "no documents" in err
    for cmd in (["build", ws, "--docs", docs, "--kg-mode", "bogus"], ["kg", "build", ws, "--mode", "bogus"]):
        code, _, err = run_cli(cmd, capsys)      # both commands choose the mode in one place
        assert code == 2 and "unknown KG extraction mode 'bogus'" in err
    code, _, err = run_cli(["build", tmp_path / "nowhere"], capsys)
    assert code == 2 and "nowhere" in err
    assert _tree(ws) == before
