"""The embedded graph store's engines: LadybugDB by default; a workspace built with Kùzu is read when
kg.backend says "kuzu", refused with the way to convert it otherwise, and converted by `polyrag kg
migrate`. Kùzu and LadybugDB cannot share a process, so everything that opens Kùzu runs as a child
process (the `polyrag` command line); the rest runs here. Real MiniLM, Kùzu and LadybugDB; no LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import run_cli

from pyramid.kg.embedded_store import ENGINES

ROWS = [("Harbourmaster Ilse Varga", "inspects", "Ferry Calloway"),
        ("Ferry Calloway", "docks at", "Pier Nine"),
        ("Ilse Varga", "reports to", "Port Authority of Brenholm")]


def _cli_child(*args: str, backend: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POLYRAG_KG__")}
    if backend:
        env["POLYRAG_KG__BACKEND"] = backend
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[3], timeout=600, check=False)


@pytest.fixture
def kuzu_ws(tmp_path) -> Path:
    """A workspace whose graph and triple index were built with Kùzu (in a child process)."""
    ws = tmp_path / "ws"
    triples = tmp_path / "harbour.jsonl"
    triples.write_text("".join(json.dumps({"sub": s, "rel": r, "obj": o}) + "\n" for s, r, o in ROWS),
                       encoding="utf-8")
    assert _cli_child("init", str(ws)).returncode == 0
    done = _cli_child("kg", "import", str(ws), str(triples), backend="kuzu")
    assert done.returncode == 0, done.stderr
    assert (ws / "kg" / "graph.kuzu").exists() and not (ws / "kg" / "graph.lbug").exists()
    return ws


def test_a_new_workspace_writes_ladybugdb(tmp_path, capsys):
    ws = tmp_path / "ws"
    triples = tmp_path / "t.jsonl"
    triples.write_text("".join(json.dumps({"sub": s, "rel": r, "obj": o}) + "\n" for s, r, o in ROWS), encoding="utf-8")
    assert run_cli(["init", str(ws)], capsys)[0] == 0
    assert tomllib.loads((ws / "polyrag.toml").read_text())["kg"]["backend"] == "ladybug"
    code, out, err = run_cli(["kg", "import", str(ws), str(triples)], capsys)
    assert code == 0, err
    assert (ws / "kg" / "graph.lbug").exists() and not (ws / "kg" / "graph.kuzu").exists()
    code, out, _ = run_cli(["kg", "stats", str(ws), "--json"], capsys)
    assert code == 0 and json.loads(out)["backend"] == "ladybug" and json.loads(out)["triples"] == 3


def test_a_kuzu_workspace_is_read_with_its_setting_refused_without_it_and_migrated(kuzu_ws, capsys):
    # read as it is, when the setting says Kùzu
    read = _cli_child("kg", "search", str(kuzu_ws), "who inspects the ferry", "--json", backend="kuzu")
    assert read.returncode == 0, read.stderr
    assert "Ferry Calloway" in read.stdout

    # the workspace's file says ladybug (written by init): one clear message, the command to convert
    code, _, err = run_cli(["kg", "search", str(kuzu_ws), "who inspects the ferry"], capsys)
    assert code == 2
    assert "built with Kùzu" in err and "polyrag kg migrate" in err and "Traceback" not in err

    code, out, err = run_cli(["kg", "migrate", str(kuzu_ws)], capsys)
    assert code == 0, err
    assert "3 triples" in out
    assert (kuzu_ws / "kg" / "graph.lbug").exists() and (kuzu_ws / "kg" / "graph.kuzu").exists()  # the old one kept
    assert not [p.name for p in (kuzu_ws / "kg").iterdir() if p.name.startswith(".")]  # no leftovers
    assert tomllib.loads((kuzu_ws / "polyrag.toml").read_text())["kg"]["backend"] == "ladybug"

    code, out, err = run_cli(["kg", "search", str(kuzu_ws), "who inspects the ferry", "--json"], capsys)
    assert code == 0, err
    hits = json.loads(out)
    assert len(hits) == 3 and any(h["relation"] == "inspects" and h["object"] == "Ferry Calloway" for h in hits)

    code, _, err = run_cli(["kg", "migrate", str(kuzu_ws)], capsys)  # a second time: refused, nothing changed
    assert code == 2 and "exists already" in err


def test_migrate_without_a_kuzu_graph_says_so(tmp_path, capsys):
    ws = tmp_path / "ws"
    assert run_cli(["init", str(ws)], capsys)[0] == 0
    code, _, err = run_cli(["kg", "migrate", str(ws)], capsys)
    assert code == 2 and "no Kùzu graph" in err


def test_the_two_engines_in_one_process_are_refused_with_a_message_not_a_crash(tmp_path):
    script = ("import kuzu\nfrom pyramid.kg.embedded_store import EmbeddedStore\nfrom pyramid.kg.store import "
              "GraphStoreError\ntry:\n    EmbeddedStore(r'%s', engine='ladybug')\nexcept GraphStoreError as e:\n"
              "    print('refused:', e)\n" % (tmp_path / ENGINES["ladybug"].file))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                          cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0, done.stderr
    assert "refused: LadybugDB cannot be opened in a process that has opened Kùzu" in done.stdout
