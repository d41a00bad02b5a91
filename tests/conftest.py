"""Shared fixtures. Tests that use the scripted LLM say so in their docstring; the real model runs
in tests marked `llm`."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest

from pyramid.config import EmbeddingSettings
from pyramid.embeddings import Embedder, default_model_dir
from pyramid.llm.client import LLM
from pyramid.llm.scripted import ScriptedProvider
from pyramid.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def private_user_cache(tmp_path_factory):
    """What the library keeps in the user's cache dir (endpoints' learned reply formats) goes to a
    temporary one: tests never read or write the real ~/.cache."""
    import os

    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


@pytest.fixture(scope="session")
def shared_data() -> Path:
    # The data sits beside the repo in CI and here; its absence is a broken setup, not a skip.
    assert SHARED_DATA.is_dir(), f"{SHARED_DATA} missing: tests read ../shared/data in place"
    return SHARED_DATA


@pytest.fixture(scope="session")
def tokenizer():
    """MiniLM's own fast tokenizer (no torch needed), without the 128-token truncation and padding
    of its tokenizer.json, so tests see every token of a text."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(default_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


@pytest.fixture(scope="session")
def embedder(tmp_path_factory) -> Embedder:
    """The real default embedder (MiniLM from its package), with a session-wide vector cache."""
    return Embedder(EmbeddingSettings(), tmp_path_factory.mktemp("emb") / "embeddings.sqlite")


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    return Workspace.init(tmp_path / "ws")


def scripted_llm(rules, **kwargs) -> LLM:
    return LLM(ScriptedProvider(rules), **kwargs)


def cli_exit_code(args: list) -> int:
    """Run the `polyrag` entry point in-process; its exit code (output goes where it goes)."""
    import cli

    old = sys.argv
    sys.argv = ["polyrag", *map(str, args)]
    try:
        cli.main()
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = old
    return 0


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    """Run the `polyrag` entry point in-process; returns (exit code, stdout, stderr)."""
    code = cli_exit_code(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@contextlib.contextmanager
def serve_in_thread(app):
    """A real uvicorn server for `app` on a free loopback port, in a thread; yields its base URL."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not server.started:
        assert time.time() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
