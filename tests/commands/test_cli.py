"""The command line on bad input: one clear message, non-zero exit, the workspace exactly as before."""

from __future__ import annotations

import hashlib
import json

import pytest
from conftest import run_cli


def snapshot(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "cache" not in p.parts and p.name != ".lock"}


@pytest.fixture
def indexed(tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    docs.write_text("\n".join(json.dumps({"id": f"d{i}", "text": t}) for i, t in enumerate(
        ["Green bonds fund climate projects.", "A mortgage is a loan secured by a house."])) + "\n")
    ws = tmp_path / "ws"
    code, out, err = run_cli(["index", ws, "--docs", docs], capsys)
    assert code == 0, err
    assert "indexed 2 new" in out
    return ws


def bad_files(tmp_path):
    (tmp_path / "badline.jsonl").write_text('{"id": "a", "text": "ok"}\n{"id": "b", "text": \n')
    (tmp_path / "latin1.jsonl").write_bytes(b'{"id": "a", "text": "caf\xe9"}\n')
    (tmp_path / "nocol.csv").write_text("body,source\nhello,x\n")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "c.data").write_text("x")
    (tmp_path / "huge.jsonl").write_text(json.dumps({"id": "h", "text": "x " * (5 * 1024 * 1024)}) + "\n")
    return {
        "badline.jsonl": r"badline\.jsonl, line 2: not valid JSON",
        "latin1.jsonl": r"latin1\.jsonl, line 1: not UTF-8",
        "nocol.csv": r"nocol\.csv, line 1: no column 'text' \(columns: body, source\) \(pass --text-field\)",
        "empty.jsonl": r"empty\.jsonl: no documents found",
        "huge.jsonl": r"huge\.jsonl, line 1: document 'h' is 10\.0 MB, above the limit",
        "missing.jsonl": r"missing\.jsonl: not found",
        "c.data": r"c\.data: cannot tell the format from the name \(pass --format jsonl\|csv\|dir\|text\)",
    }


def test_bad_corpus_files_leave_the_workspace_untouched(indexed, tmp_path, capsys):
    import re

    before = snapshot(indexed)
    for name, pattern in bad_files(tmp_path).items():
        code, out, err = run_cli(["index", indexed, "--docs", tmp_path / name], capsys)
        assert code == 2, name
        assert re.search(pattern, " ".join(err.split())), (name, err)
        assert "Traceback" not in err and err.count("error:") == 1
        assert snapshot(indexed) == before, name


def test_unreachable_llm_endpoint_is_one_clear_message(indexed, capsys, monkeypatch):
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "openai")
    monkeypatch.setenv("POLYRAG_LLM__BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("POLYRAG_LLM__MODEL", "any")
    monkeypatch.setenv("POLYRAG_LLM__MAX_RETRIES", "0")
    before = snapshot(indexed)
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?"], capsys)
    assert code == 2
    assert "LLM endpoint http://127.0.0.1:9/v1 is unreachable" in " ".join(err.split())
    assert "Traceback" not in err
    assert snapshot(indexed) == before


def test_search_prints_both_component_scores_as_json(indexed, capsys):
    code, out, err = run_cli(["search", indexed, "mortgage loan", "-k", "2", "--lambda", "0.5", "--json"], capsys)
    assert code == 0, err
    rows = json.loads(out)
    assert rows[0]["doc_id"] == "d1" and rows[0]["rank"] == 1
    top = rows[0]
    assert top["score"] == pytest.approx(0.5 * top["dense"] + 0.5 * top["sparse_norm"], abs=1e-5)


def test_missing_workspace_and_empty_question(tmp_path, capsys):
    code, _, err = run_cli(["search", tmp_path / "nope", "x"], capsys)
    assert code == 2 and "does not exist" in err
    assert f"polyrag init {tmp_path / 'nope'}" in err          # the hint, with the workspace, in CLI words
    code, _, err = run_cli(["ask", tmp_path / "nope", "  "], capsys)
    assert code == 2 and "question is empty" in err


def test_init_then_stats(tmp_path, capsys):
    code, out, _ = run_cli(["init", tmp_path / "w"], capsys)
    assert code == 0 and (tmp_path / "w" / "polyrag.toml").exists()
    code, out, _ = run_cli(["stats", tmp_path / "w", "--json"], capsys)
    assert code == 0 and json.loads(out)["format"] == 1


def test_index_remove_drops_a_document_from_text_and_corpus(indexed, capsys):
    code, out, err = run_cli(["index", indexed, "--remove", "d0"], capsys)
    assert code == 0, err
    assert "removed 1 text documents, 0 KG triples, 0 ontology graphs" in " ".join(out.split())
    code, out, err = run_cli(["search", indexed, "green bonds climate", "--json"], capsys)
    assert [r["doc_id"] for r in json.loads(out)] == ["d1"]
    code, out, err = run_cli(["index", indexed, "--remove", "nope"], capsys)
    assert code == 2 and "unknown document id" in err
