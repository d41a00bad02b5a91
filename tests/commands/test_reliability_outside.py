"""Cases an outside probe found (issue 42) that ended in a traceback or a 500: numbers that are not
finite or absurdly large, from the config file, the environment, the command line or an HTTP body; a
`polyrag.toml` that is a directory; JSON nested thousands deep given to `index` and `kg import`. Each
now ends in one clear error naming where the problem is, and nothing is written."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

ONTO = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:Lighthouse a owl:Class ; rdfs:label "lighthouse" .
ex:fastnet a ex:Lighthouse ; rdfs:label "Fastnet Rock" .
"""


@pytest.fixture
def with_ontology(workspace, tmp_path, capsys):
    ttl = tmp_path / "onto.ttl"
    ttl.write_text(ONTO)
    code, _, err = run_cli(["ontology", "import", workspace.root, ttl], capsys)
    assert code == 0, err
    return workspace


@pytest.mark.parametrize("value, says", [("inf", "finite number"), ("nan", "finite number"),
                                         ("1e12", "less than or equal to 604800")])
def test_a_time_limit_from_the_environment_or_the_file_is_checked_like_the_option(
        with_ontology, capsys, monkeypatch, value, says):
    """`ontology.timeout_s = inf` (or 1e12) once reached the query process and overflowed there."""
    ws = with_ontology
    monkeypatch.setenv("POLYRAG_ONTOLOGY__TIMEOUT_S", value)
    code, out, err = run_cli(["sparql", ws.root, "ASK { ?s ?p ?o }"], capsys)
    assert code != 0 and "ontology.timeout_s" in err and says in err and "Traceback" not in err + out
    monkeypatch.delenv("POLYRAG_ONTOLOGY__TIMEOUT_S")
    toml = ws.root / "polyrag.toml"
    head, _, rest = toml.read_text().partition("[ontology]\n")
    toml.write_text(head + "[ontology]\n" + rest.replace("\ntimeout_s = 10.0", f"\ntimeout_s = {value}", 1))
    code, out, err = run_cli(["sparql", ws.root, "ASK { ?s ?p ?o }"], capsys)
    assert code != 0 and "polyrag.toml" in err and "ontology.timeout_s" in err and says in err


def test_a_time_limit_option_past_a_week_is_refused(with_ontology, capsys):
    code, _, err = run_cli(["sparql", with_ontology.root, "ASK { ?s ?p ?o }", "--timeout", "1e12"], capsys)
    assert code != 0 and "--timeout" in err and "604800" in " ".join(err.split())


def test_a_settings_file_that_is_a_directory_is_one_error(workspace, capsys):
    toml = workspace.root / "polyrag.toml"
    toml.unlink()
    toml.mkdir()
    code, out, err = run_cli(["stats", workspace.root], capsys)
    assert code != 0 and "polyrag.toml: cannot be read" in err and "Traceback" not in err + out


def _deep(inner: str, depth: int = 50_000) -> str:
    return "[" * depth + inner + "]" * depth


def test_index_refuses_a_row_nested_thousands_deep_naming_its_line(workspace, tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "Fine."}) + "\n"
                    + '{"id": "b", "text": "x", "tags": ' + _deep("1") + "}\n")
    code, out, err = run_cli(["index", workspace.root, "--docs", docs], capsys)
    assert code != 0 and "docs.jsonl, line 2" in err and "nested deeper than 32" in err
    assert not (workspace.root / "text").exists() or not any((workspace.root / "text").rglob("chunks*"))


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
def test_kg_import_refuses_a_row_nested_thousands_deep(workspace, tmp_path, capsys, suffix):
    row = '{"subject": "Fastnet Rock", "relation": "stands in", "object": ' + _deep('"sea"') + "}"
    path = tmp_path / f"triples.{suffix}"
    path.write_text(row + "\n" if suffix == "jsonl" else "[\n" + row + "\n]\n")
    code, out, err = run_cli(["kg", "import", workspace.root, path], capsys)
    assert code != 0 and f"triples.{suffix}" in err and "nested deeper than 32" in err
    assert ("line 1" in err) if suffix == "jsonl" else ("line 2" in err)
    assert "Traceback" not in err + out


def test_a_number_that_is_not_finite_in_an_http_body_is_a_422(with_ontology):
    """`POST /ask` with `"k": NaN` was a 500 (the error could not be written as JSON)."""
    from fastapi.testclient import TestClient

    from serving.app import create_app

    client = TestClient(create_app(with_ontology.root), raise_server_exceptions=False)
    for raw in (b'{"question": "Which lighthouse?", "k": NaN}', b'{"question": "Which lighthouse?", "k": 1e400}'):
        resp = client.post("/ask", content=raw, headers={"Content-Type": "application/json"})
        assert resp.status_code == 422, resp.text
        assert resp.json()["error"] == "k: Input should be a finite number"


@pytest.mark.parametrize("garbage", ["{not json", "[1, 2]"])
def test_a_manifest_that_cannot_be_read_stops_an_import_before_anything_is_written(
        with_ontology, tmp_path, capsys, garbage):
    """`ontology import` once registered the graph and recomputed the inferred one, then said it failed."""
    ws = with_ontology
    graphs = json.loads((ws.root / "ontology" / "graphs.json").read_text())
    (ws.root / "manifest.json").write_text(garbage)
    more = tmp_path / "more.ttl"
    more.write_text('@prefix ex: <http://example.org/> .\nex:skerries a ex:Lighthouse .\n')
    code, out, err = run_cli(["ontology", "import", ws.root, more], capsys)
    assert code != 0 and "manifest.json" in err and "nothing was written" in " ".join(err.split())
    assert json.loads((ws.root / "ontology" / "graphs.json").read_text()) == graphs


def test_no_reason_leaves_the_inferred_graph_as_it_was(with_ontology, tmp_path, capsys):
    """`--no-reason` once re-ran reasoning all the same; now the inferred graph is left (and said stale)."""
    ws = with_ontology
    code, _, err = run_cli(["ontology", "reason", ws.root], capsys)
    assert code == 0, err
    before = json.loads((ws.root / "ontology" / "graphs.json").read_text())["graphs"]["inferred"]
    more = tmp_path / "more.ttl"
    more.write_text('@prefix ex: <http://example.org/> .\nex:skerries a ex:Lighthouse .\n')
    code, _, err = run_cli(["ontology", "import", ws.root, more, "--no-reason"], capsys)
    assert code == 0, err
    assert json.loads((ws.root / "ontology" / "graphs.json").read_text())["graphs"]["inferred"] == before
    code, out, _ = run_cli(["ontology", "stats", ws.root], capsys)
    assert "stale" in out


def test_an_offset_too_large_says_so_in_words(with_ontology, capsys):
    """The parser's own sentence among its expected tokens came out word by word ("expected a number,
    The, query, offset, should, …")."""
    code, out, err = run_cli(["sparql", with_ontology.root,
                              "SELECT * WHERE { ?s ?p ?o } OFFSET 99999999999999999999999"], capsys)
    flat = " ".join(err.split())
    assert code != 0 and "the query offset should be a non negative integer" in flat and "The, query" not in flat


def test_dataset_parameters_are_said_to_be_ignored(with_ontology):
    """default-graph-uri and named-graph-uri were dropped without a word; the reply now carries a Warning
    header naming them (the dataset is always the union of the workspace's graphs)."""
    from urllib.parse import quote

    from fastapi.testclient import TestClient

    from serving.app import create_app

    client = TestClient(create_app(with_ontology.root), raise_server_exceptions=False)
    q = quote("SELECT ?x WHERE { ?x a <http://example.org/Lighthouse> }")
    plain = client.get(f"/sparql?query={q}")
    assert plain.status_code == 200 and "warning" not in plain.headers
    named = client.get(f"/sparql?query={q}&default-graph-uri=http://example.org/g1")
    assert named.status_code == 200 and "default-graph-uri ignored" in named.headers["warning"]
    form = client.post("/sparql", data={"query": "ASK { ?s ?p ?o }", "named-graph-uri": "http://example.org/g2"})
    assert form.status_code == 200 and "named-graph-uri ignored" in form.headers["warning"]


def test_an_import_past_the_limits_is_refused_naming_the_line(with_ontology, tmp_path, capsys, monkeypatch):
    """One literal of a few megabytes once took minutes to import and slowed every later query over the
    literals; the file is refused before anything is written, the setting named; raised, it goes in."""
    ws = with_ontology
    big = tmp_path / "big.ttl"
    big.write_text('@prefix ex: <http://example.org/> .\nex:fastnet ex:note "short" .\n'
                   'ex:skerries ex:note "' + "wave " * 300_000 + '" .\n')
    graphs = (ws.root / "ontology" / "graphs.json").read_text()
    code, _, err = run_cli(["ontology", "import", ws.root, big], capsys)
    flat = " ".join(err.split())
    assert code != 0 and "big.ttl, line 3" in flat and "ontology.max_term_kb (1,024 KB)" in flat
    assert (ws.root / "ontology" / "graphs.json").read_text() == graphs
    monkeypatch.setenv("POLYRAG_ONTOLOGY__MAX_TERM_KB", "2048")
    code, _, err = run_cli(["ontology", "import", ws.root, big], capsys)
    assert code == 0, err
    monkeypatch.setenv("POLYRAG_ONTOLOGY__MAX_TRIPLES", "1")
    code, _, err = run_cli(["ontology", "import", ws.root, big, "--name", "again"], capsys)
    assert code != 0 and "2 triples, more than ontology.max_triples (1)" in " ".join(err.split())
