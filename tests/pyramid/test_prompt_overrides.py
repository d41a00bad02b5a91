"""Workspace prompt overrides (`WS/prompts/<name>.md` wins over the packaged prompt) and `--version`.
The scripted model answers only the overridden wording, so the test fails if the packaged one is sent."""

from __future__ import annotations

import json
from importlib import metadata

import pytest
from conftest import run_cli

from pyramid.errors import InputError
from pyramid.prompts import load_prompt

OVERRIDE = """A workspace's own rewrite prompt.
### system
Answer in the house style.
### user
HOUSE STYLE. Facts:
$sentences
Asked: $question
"""


@pytest.fixture
def indexed(workspace, tmp_path, capsys):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "The Wenn ferry runs every hour in summer. It stops in winter."})
                    + "\n")
    assert run_cli(["index", workspace.root, "--docs", docs], capsys)[0] == 0
    return workspace.root


def test_a_workspace_prompt_replaces_the_packaged_one(indexed, tmp_path, capsys, monkeypatch):
    (indexed / "prompts").mkdir()
    (indexed / "prompts" / "rewrite.md").write_text(OVERRIDE)
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"HOUSE STYLE": "The ferry runs every hour in summer."}))
    monkeypatch.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    monkeypatch.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(rules))
    monkeypatch.setenv("POLYRAG_QUERY__TEXT_ANSWER", "rewrite")
    code, out, err = run_cli(["ask", indexed, "How often does the ferry run in summer?", "--layer", "text",
                              "--json"], capsys)
    answer = json.loads(out)
    assert code == 0, err
    assert answer["text"] == "The ferry runs every hour in summer." and answer["usage"]["calls"] == 1
    # another workspace, opened later in the same process, gets the packaged prompt again
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    Session(Workspace.init(tmp_path / "other"))
    assert "HOUSE STYLE" not in load_prompt("querying", "rewrite").user


def test_a_broken_override_is_one_error_naming_its_file(indexed):
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    (indexed / "prompts").mkdir()
    bad = indexed / "prompts" / "rewrite.md"
    bad.write_text("no sections here\n")
    Session(Workspace.open(indexed))
    with pytest.raises(InputError, match=r"prompts/rewrite\.md: not a prompt file"):
        load_prompt("querying", "rewrite")


def test_version(capsys):
    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0 and out.strip() == f"polyrag {metadata.version('polyrag')}"
