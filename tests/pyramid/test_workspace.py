"""Workspace: settings precedence, init file, lock with a named holder, atomic writes, generations."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from pyramid.config import Settings, load_settings, render_default_toml
from pyramid.errors import ConfigError, WorkspaceError, WorkspaceLocked
from pyramid.workspace import Generations, Workspace, atomic_write_text


def test_init_writes_a_commented_file_that_loads_back_to_the_defaults(tmp_path):
    ws = Workspace.init(tmp_path / "w")
    text = (ws.root / "polyrag.toml").read_text()
    assert "# λ of the hybrid score" in text and "[llm]" in text and "# api_key" in text
    assert ws.settings.model_dump() == Settings().model_dump()
    assert (ws.root / "manifest.json").exists()


def test_toml_then_environment_then_code_overrides(tmp_path, monkeypatch):
    f = tmp_path / "polyrag.toml"
    f.write_text('[text]\nlam = 0.3\nk = 7\n[llm]\nprovider = "openai"\n')
    assert load_settings(f).text.lam == 0.3
    monkeypatch.setenv("POLYRAG_TEXT__LAM", "0.6")
    s = load_settings(f)
    assert (s.text.lam, s.text.k, s.llm.provider) == (0.6, 7, "openai")
    assert load_settings(f, text={"lam": 0.9}).text.lam == 0.9


def test_bad_settings_name_the_file_and_field(tmp_path, monkeypatch):
    f = tmp_path / "polyrag.toml"
    f.write_text('[text]\nlam = 3\n')
    with pytest.raises(ConfigError, match=r"polyrag\.toml.*: text\.lam: Input should be less than or equal to 1"):
        load_settings(f)
    f.write_text('[text\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(f)
    f.write_text('[txt]\nlam = 0.5\n')
    with pytest.raises(ConfigError, match=r"txt: Extra inputs are not permitted"):
        load_settings(f)


def test_default_toml_is_valid_toml_for_every_section():
    import tomllib

    data = tomllib.loads(render_default_toml())
    assert set(data) == set(Settings.model_fields)


def test_second_writer_is_refused_with_the_holder_named(tmp_path):
    ws = Workspace.init(tmp_path / "w")
    holder = textwrap.dedent(f"""
        import sys, time
        from pyramid.workspace import Workspace
        ws = Workspace({str(ws.root)!r})
        with ws.writing("index"):
            print("locked", flush=True)
            sys.stdin.readline()
    """)
    proc = subprocess.Popen([sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(WorkspaceLocked, match=rf"being written by pid {proc.pid} on .*\(index: "):
            with Workspace(ws.root).writing("other"):
                pass
    finally:
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait(timeout=30)
    with Workspace(ws.root).writing("after"):  # released when the holder ends
        pass


def test_lock_is_reentrant_within_one_workspace_object(tmp_path):
    ws = Workspace.init(tmp_path / "w")
    with ws.writing("a"):
        with ws.writing("b"):
            ws.record_step("b", seconds=1.0)
    assert ws.manifest()["steps"]["b"]["runs"] == 1


def test_manifest_writes_need_the_lock(tmp_path):
    ws = Workspace.init(tmp_path / "w")
    with pytest.raises(RuntimeError, match="writing"):
        ws.record_step("x", seconds=0)


def test_atomic_write_leaves_no_temp_files_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "f.txt"
    atomic_write_text(target, "old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write_text(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_generation_commit_is_all_or_nothing(tmp_path):
    gens = Generations(tmp_path / "layer")
    with gens.commit() as d:
        (d / "a").write_text("1")
    first = gens.current()
    with pytest.raises(ValueError):
        with gens.commit() as d:
            (d / "a").write_text("2")
            raise ValueError("stop halfway")
    assert gens.current() == first and (first / "a").read_text() == "1"
    assert not [p for p in (tmp_path / "layer").iterdir() if p.name.startswith(".gen-tmp")]
    for i in range(3):
        with gens.commit() as d:
            (d / "a").write_text(str(i))
    names = sorted(p.name for p in (tmp_path / "layer").glob("gen-*"))
    assert len(names) == 2 and (gens.current() / "a").read_text() == "2"  # current + previous kept


def test_opening_a_missing_or_foreign_directory(tmp_path):
    with pytest.raises(WorkspaceError, match="does not exist"):
        Workspace.open(tmp_path / "nope")
    (tmp_path / "other").mkdir()
    with pytest.raises(WorkspaceError, match="not a PolyRAG workspace"):
        Workspace.open(tmp_path / "other")
