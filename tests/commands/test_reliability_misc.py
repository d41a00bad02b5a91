"""Reliability findings of issue 16 ("Model faults", "Other"): a garbage cache file is set aside and
replaced with one warning; a damaged ontology store is one error naming it and what to do; `ask --json`
prints the Answer even when the layer asked failed, and an empty model reply is no silent blank
answer; counts of the completion and benchmark commands are checked by the command line."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli

from pyramid.errors import WorkspaceError
from pyramid.llm.base import RawReply
from pyramid.llm.cache import LLMCache
from pyramid.ontology.store import OntologyStore

DOCS = ["Green bonds fund climate projects.", "A mortgage is a loan secured by a house."]
ONTO = """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:Bond a owl:Class ; rdfs:label "bond" .
ex:Project a owl:Class ; rdfs:label "project" .
ex:funds a owl:ObjectProperty ; rdfs:label "funds" ; rdfs:domain ex:Bond ; rdfs:range ex:Project .
ex:green a ex:Bond ; rdfs:label "green bond" ; ex:funds ex:climate .
ex:climate a ex:Project ; rdfs:label "climate project" .
"""
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


def flat(text: str) -> str:
    return " ".join(text.split())


def tree(root) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def one_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and err.count("error:") == 1, err
    for needle in needles:
        assert needle in flat(err), err


def set_aside(path) -> list:
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def cache_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "pyramid.sqlite" and r.levelno == logging.WARNING]


@pytest.fixture
def indexed(workspace, tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": f"d{i}", "text": t}) + "\n" for i, t in enumerate(DOCS)))
    code, out, err = run_cli(["index", workspace.root, "--docs", docs], capsys)
    assert code == 0, err
    return workspace.root


@pytest.fixture
def scripted(tmp_path, monkeypatch):
    """The scripted provider answering every prompt with `replies[""]` (empty text by default)."""
    def use(reply: str = "") -> None:
        path = tmp_path / "script.json"
        path.write_text(json.dumps({"": reply}))
        monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
        monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(path))
    return use


@pytest.fixture
def with_ontology(indexed, tmp_path, capsys):
    ttl = tmp_path / "onto.ttl"
    ttl.write_text(ONTO)
    code, out, err = run_cli(["ontology", "import", indexed, ttl], capsys)
    assert code == 0, err
    code, out, err = run_cli(["sparql", indexed, COUNT, "--format", "rows"], capsys)
    assert code == 0 and json.loads(out) == [{"n": 13}], out + err
    return indexed


# ------------------------------------------------------------------ 1. disposable cache files

# each makes `path` something that is not a cache whose table is `table`
GARBAGE = {
    "random bytes": lambda path, table: path.write_bytes(os.urandom(3000) + b"not sqlite"),
    "other columns": lambda path, table: _sqlite(path, f"CREATE TABLE {table} (a, b)"),
    "a key column only": lambda path, table: _sqlite(path, f"CREATE TABLE {table} (key TEXT PRIMARY KEY)"),
    "a directory": lambda path, table: path.mkdir(),
}


def _sqlite(path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize("kind", GARBAGE)
def test_an_unreadable_llm_cache_is_set_aside_and_replaced(tmp_path, caplog, kind):
    path = tmp_path / "llm.sqlite"
    GARBAGE[kind](path, "replies")
    cache = LLMCache(path)
    assert cache.get("k") is None  # a miss, not a traceback
    cache.put("k", "m", RawReply("four", 3, 1))
    assert cache.get("k") == RawReply("four", 3, 1) and len(cache) == 1
    cache.close()
    assert len(set_aside(path)) == 1, sorted(tmp_path.iterdir())
    warnings = cache_warnings(caplog)
    assert len(warnings) == 1 and "LLM cache" in warnings[0] and str(path) in warnings[0], warnings
    assert LLMCache(path).get("k") == RawReply("four", 3, 1)  # the new file is a good cache


@pytest.mark.parametrize("kind", GARBAGE)
def test_an_unreadable_page_reading_cache_is_set_aside_and_replaced(tmp_path, caplog, kind):
    from pyramid.reading.corpus import CACHE, SegmentCache
    from pyramid.reading.page import Page, Segment
    from pyramid.workspace import Workspace

    ws = Workspace.init(tmp_path / "ws")
    path = ws.root / CACHE
    path.parent.mkdir(parents=True, exist_ok=True)
    GARBAGE[kind](path, "segments")
    cache = SegmentCache(ws)
    assert cache.get("d1", "k") is None  # a miss, not a traceback
    page = Page("Ada Lovelace", [Segment(context="Born", value="1815", kind="field")], ["She wrote notes."])
    cache.put("d1", "k", page)
    cache.commit()
    assert cache.get("d1", "k") == page and cache.get("d1", "other key") is None
    assert len(set_aside(path)) == 1
    assert any("page-reading cache" in w for w in cache_warnings(caplog))


def test_a_cache_corrupted_while_in_use_is_replaced(tmp_path, caplog):
    path = tmp_path / "llm.sqlite"
    cache = LLMCache(path)
    for i in range(300):
        cache.put(f"k{i}", "m", RawReply("x" * 500, 1, 2))
    cache.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    data[4096 * 3:4096 * 8] = b"\xff" * (4096 * 5)  # pages in the middle, the header intact
    path.write_bytes(bytes(data))
    cache = LLMCache(path)
    assert len(cache) in (0, 300) and cache.get("k5") in (None, RawReply("x" * 500, 1, 2))
    cache.put("new", "m", RawReply("t", 1, 1))
    assert cache.get("new") == RawReply("t", 1, 1)
    assert len(set_aside(path)) == 1 and len(cache_warnings(caplog)) == 1


def test_rows_of_another_shape_are_misses(tmp_path):
    path = tmp_path / "llm.sqlite"
    cache = LLMCache(path)
    cache.put("k", "m", RawReply("ok", 1, 1))
    db = sqlite3.connect(path)
    db.execute("INSERT INTO replies (key, model, text) VALUES ('bad', 'm', X'00ff')")  # a blob: TEXT affinity keeps it one
    db.commit()
    db.close()
    assert cache.get("bad") is None and cache.get("k") == RawReply("ok", 1, 1)


def test_ask_with_a_garbage_llm_cache_answers_and_warns(indexed, scripted, caplog, capsys):
    scripted("Green bonds fund climate projects.")
    llm_cache = indexed / "cache" / "llm.sqlite"
    llm_cache.write_bytes(os.urandom(4096))
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", "--pipeline", "hybrid"], capsys)
    assert code == 0 and "Traceback" not in err, err
    assert "A: Green bonds fund climate projects." in out
    assert len(set_aside(llm_cache)) == 1 and len(LLMCache(llm_cache)) == 1
    assert len(cache_warnings(caplog)) == 1


@pytest.mark.parametrize("kind", GARBAGE)
def test_an_unreadable_embedding_cache_is_set_aside_and_replaced(embedder, tmp_path, caplog, kind):
    from pyramid.config import EmbeddingSettings
    from pyramid.embeddings import Embedder, EmbeddingCache

    path = tmp_path / "embeddings.sqlite"
    GARBAGE[kind](path, "vectors")
    fresh = Embedder(EmbeddingSettings(), path)
    vecs = fresh.embed(DOCS)
    assert vecs.shape == (2, embedder.dim)
    assert abs(float(vecs[0] @ embedder.embed_one(DOCS[0], kind="document", use_cache=False)) - 1) < 1e-4
    assert len(set_aside(path)) == 1
    warnings = cache_warnings(caplog)
    assert len(warnings) == 1 and "embedding cache" in warnings[0] and str(path) in warnings[0], warnings
    assert len(EmbeddingCache(path).get_many([fresh._key(fresh._prompt("document"), t) for t in DOCS])) == 2


def test_embedding_rows_of_another_shape_are_misses(tmp_path):
    from pyramid.embeddings import EmbeddingCache

    path = tmp_path / "embeddings.sqlite"
    cache = EmbeddingCache(path)
    cache.put_many([(b"good", b"\x00" * 8), (b"odd", b"\x00" * 7)])
    db = sqlite3.connect(path)
    db.execute("INSERT INTO vectors VALUES (X'01', 'text, not a vector')")
    db.commit()
    db.close()
    assert cache.get_many([b"good", b"odd", b"\x01"]) == {b"good": b"\x00" * 8}


def test_the_warning_is_one_line_on_stderr(indexed, tmp_path):
    """A real process (no logging configured): the set-aside cache is one `warning:` line on stderr."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"": "Green bonds fund climate projects."}))
    (indexed / "cache" / "llm.sqlite").write_bytes(os.urandom(4096))
    env = {**os.environ, "POLYRAG_LLM__PROVIDER": "scripted", "POLYRAG_LLM__SCRIPTED_FILE": str(script)}
    result = subprocess.run([sys.executable, "-c", "import cli; cli.main()", "ask", str(indexed),
                             "What funds climate projects?", "--pipeline", "hybrid"], capture_output=True,
                            text=True, cwd=ROOT, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: the LLM cache"), result.stderr
    assert "set aside as llm.sqlite.corrupt-" in lines[0]


# ------------------------------------------------------------------ 2. a damaged ontology store

def damage_current(ws) -> None:
    (ws / "ontology" / "store" / "CURRENT").unlink()


def damage_manifest(ws) -> None:
    for f in (ws / "ontology" / "store").glob("MANIFEST-*"):
        f.write_bytes(b"\x00garbage" * 40)


def remove_store(ws) -> None:
    import shutil

    shutil.rmtree(ws / "ontology" / "store")


@pytest.mark.parametrize("damage, why", [
    (damage_current, "its CURRENT file is missing"),
    (damage_manifest, "Corruption"),
    (remove_store, "the directory is missing though graphs.json names"),
])
def test_a_damaged_store_is_one_error_naming_it(with_ontology, tmp_path, capsys, damage, why):
    ws = with_ontology
    damage(ws)
    store = ws / "ontology" / "store"
    before = tree(ws / "ontology")
    ttl = tmp_path / "onto.ttl"
    for args in (["sparql", ws, COUNT], ["ontology", "stats", ws], ["ontology", "reason", ws],
                 ["ontology", "import", ws, ttl], ["ask", ws, "What do green bonds fund?", "--layer", "ontology"]):
        code, out, err = run_cli(args, capsys)
        one_error(code, err, f"the ontology store {store} is damaged", why, "move it and",
                  "build the ontology layer again")
        # nothing was written: RocksDB opened read-write over a store without CURRENT starts a new one
        assert tree(ws / "ontology") == before, args


def test_the_waterfall_passes_a_damaged_store_down_and_says_so(with_ontology, scripted, capsys):
    scripted("")
    damage_current(with_ontology)
    code, out, err = run_cli(["ask", with_ontology, "What funds climate projects?", "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["layer"] == "text"
    assert any(s["step"] == "ontology.error" and "is damaged" in s["outcome"] for s in answer["trace"])
    assert "Traceback" not in err and err.count("warning:") == 1
    assert "answered by the text layer after a failure: ontology: WorkspaceError" in flat(err)


def test_moving_the_damaged_store_aside_and_importing_again_recovers(with_ontology, tmp_path, capsys):
    ws = with_ontology
    damage_current(ws)
    (ws / "ontology" / "store").rename(tmp_path / "store.bad")
    (ws / "ontology" / "graphs.json").rename(tmp_path / "graphs.bad")
    ttl = tmp_path / "onto.ttl"
    code, out, err = run_cli(["ontology", "import", ws, ttl], capsys)
    assert code == 0, err
    code, out, err = run_cli(["sparql", ws, COUNT, "--format", "rows"], capsys)
    assert code == 0 and json.loads(out) == [{"n": 13}], err


def test_store_api_refuses_a_damaged_directory_before_opening_it(workspace):
    store_root = workspace.layer_dir("ontology")
    store = OntologyStore(store_root)
    (store_root / "store").mkdir(parents=True)
    (store_root / "store" / "000001.log").write_bytes(b"x")  # files, but no CURRENT
    with pytest.raises(WorkspaceError, match="CURRENT file is missing"):
        with store.writer():
            pass
    assert sorted(p.name for p in (store_root / "store").iterdir()) == ["000001.log"]
    (store_root / "store" / "000001.log").unlink()  # an empty directory: nothing written yet, fine
    assert store.count() == 0 and list(store.quads()) == []
    with store.writer() as raw:
        assert len(raw) == 0


# ------------------------------------------------------------------ 3. ask --json when a layer fails

@pytest.fixture
def dead_endpoint(monkeypatch):
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "openai")
    monkeypatch.setenv("POLYRAG_LLM__BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("POLYRAG_LLM__MODEL", "any")
    monkeypatch.setenv("POLYRAG_LLM__MAX_RETRIES", "0")


@pytest.mark.parametrize("how, step, pipeline", [
    ([], "text.error", "waterfall"),
    (["--layer", "text"], "text.error", "text"),
    (["--pipeline", "hybrid"], "text.error", "hybrid"),
])
def test_ask_json_prints_the_answer_when_the_layer_failed(indexed, dead_endpoint, capsys, how, step, pipeline):
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", "--json", *how], capsys)
    one_error(code, err, "LLM endpoint http://127.0.0.1:9/v1 is unreachable")
    answer = json.loads(out)
    assert answer["layer"] == "none" and answer["pipeline"] == pipeline
    assert "No layer could answer this question" in answer["text"]
    failed = [s for s in answer["trace"] if s["step"] == step]
    assert failed and "LLMUnavailable" in failed[0]["outcome"], answer["trace"]


@pytest.mark.parametrize("how, message", [
    (["--pipeline", "nope"], "unknown pipeline 'nope'"),
    (["--sparql", "llm"], "unknown SPARQL mode 'llm'"),
    (["--options", "only one"], "at least two options"),
])
def test_ask_json_argument_errors_print_no_answer(indexed, dead_endpoint, capsys, how, message):
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", "--json", *how], capsys)
    one_error(code, err, message)
    assert out == ""


@pytest.mark.parametrize("how", [["--pipeline", "semantic"], ["--pipeline", "hybrid"], ["--generate"]])
def test_an_empty_model_answer_says_why(indexed, scripted, monkeypatch, capsys, how):
    """Scripted model answering every prompt with empty text: no blank answer with exit 0."""
    scripted("")
    if how == ["--generate"]:
        monkeypatch.setenv("POLYRAG_QUERY__TEXT_ANSWER", "generate")
        how = []
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", "--json", *how], capsys)
    one_error(code, err, "no layer answered; text:", "the model (scripted:script.json) returned an empty answer")
    answer = json.loads(out)
    assert answer["layer"] == "none" and "returned an empty answer" in answer["text"]
    assert answer["trace"][-1]["step"] == "text.error"
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", *how], capsys)
    assert code == 2 and "returned an empty answer" in flat(out)


def test_an_empty_rewrite_keeps_the_extractive_answer(indexed, scripted, capsys):
    scripted("")
    code, out, err = run_cli(["ask", indexed, "What funds climate projects?", "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["layer"] == "text" and "Green bonds fund climate projects." in answer["text"]


# ------------------------------------------------------------------ 4. counts on complete and bench

@pytest.mark.parametrize("args, option", [
    (["complete", "run", "{ws}", "-k", "-1"], "-k"),
    (["complete", "run", "{ws}", "--top", "0"], "--top"),
    (["complete", "run", "{ws}", "--top", "-3"], "--top"),
    (["bench", "multihop", "--limit", "0"], "--limit"),
    (["bench", "multihop", "--docs-limit", "-1"], "--docs-limit"),
    (["bench", "fiqa-retrieval", "--limit", "-1"], "--limit"),
    (["bench", "fiqa-answers", "--limit", "0"], "--limit"),
    (["bench", "acadchall", "--limit", "-2"], "--limit"),
    (["bench", "extraction", "--limit", "0"], "--limit"),
    (["bench", "pages", "--limit", "0"], "--limit"),
    (["bench", "kg-build", "--docs", "0"], "--docs"),
    (["bench", "kg-search", "--queries", "-1"], "--queries"),
    (["bench", "kg-sufficiency", "--questions", "0"], "--questions"),
    (["bench", "summarise", "--multihop-docs", "0"], "--multihop-docs"),
    (["bench", "summarise", "--fiqa-docs", "-1"], "--fiqa-docs"),
])
def test_negative_or_zero_counts_are_refused(workspace, tmp_path, monkeypatch, capsys, args, option):
    monkeypatch.chdir(tmp_path)  # a bench that slipped through would write reports/ here, not in the repo
    before = tree(workspace.root)
    code, out, err = run_cli([a.replace("{ws}", str(workspace.root)) for a in args], capsys)
    assert code == 2 and "Traceback" not in err
    assert f"Invalid value for '{option}'" in flat(err), err
    assert tree(workspace.root) == before and not (tmp_path / "reports").exists()


@pytest.mark.parametrize("args, message", [
    (["--wordings", "mine"], "--wordings takes one of ours, held, fresh"),
    (["--kind", "open", "--wordings", "held"], "--wordings held has no open questions"),
    (["--wordings", "kinds"], "--wordings kinds has no MCQ/MAQ questions"),
])
def test_make_questions_names_a_wording_set_it_does_not_have(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)  # refused before any workspace is made
    code, out, err = run_cli(["bench", "make-questions", "--out", str(tmp_path / "q.jsonl"), *args], capsys)
    assert code != 0 and "Traceback" not in err and message in flat(err), err
    assert not (tmp_path / "q.jsonl").exists() and not (tmp_path / "reports").exists()
