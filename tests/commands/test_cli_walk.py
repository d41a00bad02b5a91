"""Every command under bad arguments (issue 16, item 6), found by walking the live command tree, so a
command added later is walked too: counts below their minimum, NaN and negative time limits,
non-UTF-8 text, and a workspace that is a file or carries a garbage config. Each case ends with a
non-zero exit, one message and no traceback, and leaves the workspace's bytes as they were.
`run_cli` runs in-process, so an exception that escapes the entry point fails the test itself."""

from __future__ import annotations

import hashlib

import pytest
import typer
from conftest import run_cli

# Commands that run until stopped (a server) are walked for their refusals only; the bench commands
# are walked for their ranges and time limits (a bad value must stop them before any work).
LONG_RUNNING = {("serve",)}


# Typer builds its command tree on click, vendored in newer releases (typer._click) with attributes
# moved: the walk reads parameters by duck typing, so it holds on either.
def _kind(p) -> str:
    """"int", "float", "str", "bool", "path" or "other" for a parameter."""
    descriptor = getattr(p, "type_descriptor", None)
    if descriptor is not None:
        ann = descriptor.annotation
        ann = getattr(ann, "__args__", (ann,))[0] if getattr(ann, "__origin__", None) is not None else ann
        return {int: "int", float: "float", str: "str", bool: "bool"}.get(ann, "path" if "Path" in str(ann)
                                                                         else "other")
    name = getattr(getattr(p, "type", None), "name", "")
    return {"integer": "int", "integer range": "int", "float": "float", "float range": "float", "text": "str",
            "boolean": "bool", "path": "path"}.get(name, "other")


def _min(p):
    return getattr(p, "min", None) if hasattr(p, "min") else getattr(getattr(p, "type", None), "min", None)


def _is_argument(p) -> bool:
    return p.param_type_name == "argument"


def _leaves() -> list:
    import cli

    root = typer.main.get_command(cli.app)
    found = []

    def walk(cmd, path: tuple[str, ...]) -> None:
        if hasattr(cmd, "commands"):
            for name, sub in sorted(cmd.commands.items()):
                walk(sub, (*path, name))
        else:
            found.append((path, cmd))

    walk(root, ())
    return found


LEAVES = _leaves()


def _fill(cmd, ws: str) -> list[str]:
    """Values for the required positional arguments: the workspace where one is asked, else a word."""
    return [ws if p.name == "workspace" else "word" for p in cmd.params if _is_argument(p) and p.required]


def _bad_numbers(cmd) -> list[tuple[str, str]]:
    """(option, value) pairs that the option must refuse: below an int option's minimum, and NaN,
    infinity and -1 for every float option."""
    cases = []
    for p in cmd.params:
        if _is_argument(p) or not p.opts[0].startswith("-"):
            continue
        kind = _kind(p)
        if kind == "int" and _min(p) is not None:
            cases.append((p.opts[0], str(_min(p) - 1)))
        elif kind == "float":
            cases += [(p.opts[0], v) for v in ("nan", "inf", "-1")]
    return cases


NUMBER_CASES = [pytest.param(path, opt, value, id=f"{' '.join(path)} {opt} {value}")
                for path, cmd in LEAVES for opt, value in _bad_numbers(cmd)]
WORKSPACE_COMMANDS = [pytest.param(path, id=" ".join(path)) for path, cmd in LEAVES
                      if any(_is_argument(p) and p.name == "workspace" for p in cmd.params)]
TEXT_CASES = [pytest.param(path, p.name, id=f"{' '.join(path)} {p.name}") for path, cmd in LEAVES
              if path[0] != "bench" and path not in LONG_RUNNING
              for p in cmd.params if _is_argument(p) and p.name != "workspace" and _kind(p) == "str"]


def _command(path: tuple[str, ...]):
    return dict(LEAVES)[path]


def snapshot(root) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def refused(code: int, err: str) -> None:
    assert code != 0, err
    assert "Traceback" not in err, err
    # one message: the project's `error:` line, or click's usage box (which names the parameter)
    assert err.count("error:") + err.count("─ Error ─") == 1, err


def test_the_walk_finds_the_commands_it_should():
    # the walk is only as good as its reach: the main commands, the groups' leaves and their options
    names = {" ".join(p) for p, _ in LEAVES}
    assert {"ask", "search", "sparql", "build", "kg search", "ontology import", "complete run",
            "bench lubm"} <= names, names
    assert len(NUMBER_CASES) >= 20 and len(WORKSPACE_COMMANDS) >= 15 and len(TEXT_CASES) >= 4


@pytest.mark.parametrize("path, option, value", NUMBER_CASES)
def test_every_number_option_refuses_values_out_of_range(workspace, capsys, path, option, value):
    cmd = _command(path)
    before = snapshot(workspace.root)
    # the bad option first: click checks parameters in the order they were given
    code, out, err = run_cli([*path, f"{option}={value}", *_fill(cmd, str(workspace.root))], capsys)
    refused(code, err)
    assert "Invalid value for" in err and option in err, err
    assert snapshot(workspace.root) == before


@pytest.mark.parametrize("path", WORKSPACE_COMMANDS)
def test_a_workspace_that_is_a_file_is_one_error(tmp_path, capsys, path):
    cmd = _command(path)
    not_a_dir = tmp_path / "notes.txt"
    not_a_dir.write_text("a file, not a workspace\n")
    code, out, err = run_cli([*path, *_fill(cmd, str(not_a_dir))], capsys)
    refused(code, err)
    assert not_a_dir.read_text() == "a file, not a workspace\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("path", WORKSPACE_COMMANDS)
def test_a_garbage_config_is_one_error_naming_the_file(workspace, capsys, path):
    cmd = _command(path)
    config = workspace.root / "polyrag.toml"
    config.write_bytes(b"[llm\nprovider = = 3\n\xff")
    before = snapshot(workspace.root)
    code, out, err = run_cli([*path, *_fill(cmd, str(workspace.root))], capsys)
    refused(code, err)
    assert snapshot(workspace.root) == before
    if path == ("stats",):  # reads nothing but the manifest, and still refuses a config it cannot read
        assert "polyrag.toml" in " ".join(err.split()), err


@pytest.mark.parametrize("path, name", TEXT_CASES)
def test_non_utf8_text_arguments_are_one_error(workspace, capsys, path, name):
    cmd = _command(path)
    args = [("caf\udcff" if p.name == name else (str(workspace.root) if p.name == "workspace" else "word"))
            for p in cmd.params if _is_argument(p) and (p.required or p.name == name)]
    before = snapshot(workspace.root)
    code, out, err = run_cli([*path, *args], capsys)
    refused(code, err)
    assert snapshot(workspace.root) == before
