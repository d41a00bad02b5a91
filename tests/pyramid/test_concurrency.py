"""Readers during a write (issue 16, item 5): four reader processes search the text layer and count
ontology instances in a loop while another process adds documents and imports instances. Every
reader must see whole generations, the one before the write or the one after, never an error and
never a mix (chunks of one generation with vectors or BM25 postings of another).

Real MiniLM, bm25s and Oxigraph; no model calls. Each reader opens a new session per round, as a
new CLI process would, and one reader keeps a long-lived session and reloads it (as a server would).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from conftest import ROOT

QUERY = "Which bonds pay for solar farms?"
COUNT = "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a <http://example.org/Project> }"
READER = r'''
import json, sys, time, traceback
from pathlib import Path
from pyramid.config import EmbeddingSettings
from pyramid.embeddings import Embedder
from pyramid.ontology.rdfio import text_rows
from pyramid.session import Session
from pyramid.workspace import Workspace

root, out, stop, query, count, long_lived = sys.argv[1:7]
emb = Embedder(EmbeddingSettings(), Path(out).with_suffix(".emb.sqlite"))
kept = Session(Workspace.open(root), embedder=emb) if long_lived == "1" else None
with open(out, "w") as f:
    while not Path(stop).exists():
        t = time.time()
        try:
            s = kept or Session(Workspace.open(root), embedder=emb)
            if kept is not None:
                s.text.load()
            text = s.text
            shapes = [len(text.chunks), int(text.matrix.shape[0]), int(text.sparse_scores("bond").shape[0])]
            hits = sorted(h.chunk.id for h in text.search(query, k=5))
            n = int(text_rows(s.ontology.select(count, timeout_s=30, row_cap=1))[0]["n"])
            rec = {"t": t, "shapes": shapes, "hits": hits, "n": n}
        except Exception:
            rec = {"t": t, "error": traceback.format_exc()}
        f.write(json.dumps(rec) + "\n")
        f.flush()
'''


def _docs(prefix: str, n: int, topic: str) -> str:
    return "".join(json.dumps({"id": f"{prefix}{i}", "text": f"Note {i} on {topic}: issue {i} of the series "
                                                             f"funds project {i} in region {i % 7}."}) + "\n"
                   for i in range(n))


def _ttl(names: list[str]) -> str:
    head = "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    return head + "".join(f'ex:{n} a ex:Project ; rdfs:label "{n}" .\n' for n in names)


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_four_readers_see_whole_generations_while_a_build_writes(tmp_path):
    ws = tmp_path / "ws"
    first, more = tmp_path / "first.jsonl", tmp_path / "more.jsonl"
    first.write_text(_docs("old", 40, "municipal water bonds"))
    more.write_text(_docs("new", 160, "green bonds that pay for solar farms"))
    (tmp_path / "a.ttl").write_text(_ttl([f"p{i}" for i in range(5)]))
    (tmp_path / "b.ttl").write_text(_ttl([f"q{i}" for i in range(300)]))
    for args in (["index", ws, "--docs", first], ["ontology", "import", ws, tmp_path / "a.ttl"]):
        assert _cli(*args).returncode == 0

    script = tmp_path / "reader.py"
    script.write_text(READER)
    stop = tmp_path / "stop"
    logs = [tmp_path / f"reader{i}.jsonl" for i in range(4)]
    readers = [subprocess.Popen([sys.executable, script, ws, log, stop, QUERY, COUNT, "1" if i == 0 else "0"],
                                cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                               "HF_HUB_OFFLINE": "1"})
               for i, log in enumerate(logs)]
    try:
        deadline = time.time() + 300
        while not all(log.exists() and log.read_text().count("\n") >= 1 for log in logs):
            assert time.time() < deadline, "readers did not start"
            assert all(r.poll() is None for r in readers), "a reader died"
            time.sleep(0.5)
        began = time.time()
        write = _cli("index", ws, "--docs", more)
        assert write.returncode == 0, write.stderr
        write = _cli("ontology", "import", ws, tmp_path / "b.ttl")
        assert write.returncode == 0, write.stderr
        ended = time.time()
        time.sleep(3)  # every reader gets a round or more on the final state
    finally:
        stop.touch()
        for r in readers:
            r.wait(timeout=120)

    rounds = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    errors = [r["error"] for r in rounds if "error" in r]
    assert not errors, errors[0]
    during = [r for r in rounds if began <= r["t"] <= ended]
    assert len(during) >= 8, f"only {len(during)} reads overlapped the write"

    # two whole states, each read the same way by every reader: before the write and after it
    sizes = {tuple(r["shapes"]) for r in rounds}
    assert sizes <= {(40, 40, 40), (200, 200, 200)}, sizes  # chunks, vectors and postings always agree
    assert {r["n"] for r in rounds} <= {5, 305}
    old_hits = {tuple(r["hits"]) for r in rounds if r["shapes"][0] == 40}
    new_hits = {tuple(r["hits"]) for r in rounds if r["shapes"][0] == 200}
    assert len(old_hits) == 1 and len(new_hits) == 1, (old_hits, new_hits)  # one answer per generation
    assert all(h.startswith("new") for h in next(iter(new_hits)))  # the solar-farm notes win after it
    assert all(r["shapes"][0] == 200 and r["n"] == 305 for r in rounds if r["t"] > ended + 1)
