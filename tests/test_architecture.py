"""Guard rails on the shape of the code: the direction of imports, no import cycles, a light
`polyrag --help`, and ruff's checks. Every import is read, inside functions too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

# pyramid (types, errors, settings, workspace, providers, layers, extraction, build) ← querying
# ← completion ← serving (the HTTP app) ← the command line; benchmarks may import anything, and
# nothing imports them.
RANK = {"pyramid": 0, "querying": 1, "completion": 2, "serving": 2.5, "commands": 3, "cli": 3}
PACKAGES = ("pyramid", "querying", "completion", "serving", "commands", "benchmarks")


def _modules() -> dict[str, Path]:
    out = {}
    for path in [*(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")), ROOT / "cli.py"]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every project module the file imports, anywhere in it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from pkg import mod` imports pkg.mod when that is a module
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                     if f"{node.module}.{a.name}" in MODULES]
        else:
            continue
        for name in names:
            target = _resolve(name)
            if target is not None:
                found.append((node.lineno, target))
    return found


GRAPH = {name: {t for _, t in _imports(path) if t != name} for name, path in MODULES.items()}


def _room(module: str) -> str:
    return module.split(".")[0]


def test_imports_flow_one_way():
    against = []
    for name, path in MODULES.items():
        for line, target in _imports(path):
            src, dst = _room(name), _room(target)
            if dst == "benchmarks" and src != "benchmarks":
                against.append(f"{path.relative_to(ROOT)}:{line} imports {target} (nothing imports the benchmarks)")
            elif src in RANK and dst in RANK and RANK[dst] > RANK[src]:
                against.append(f"{path.relative_to(ROOT)}:{line} imports {target} ({src} is below {dst})")
    assert not against, "imports against the direction:\n" + "\n".join(against)


def test_the_guard_sees_an_upward_import(tmp_path):
    # the test above must be able to fail: an upward import inside a function is found
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from querying.router import ask\n    return ask\n")
    assert (2, "querying.router") in _imports(probe)


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_one_that_imports_it_back():
    assert _cycles() == []


@pytest.mark.parametrize("args", [["--help"], ["bench", "--help"], ["kg", "--help"]])
def test_help_loads_neither_numpy_nor_torch(args):
    code = ("import sys\nimport cli\nsys.argv = ['polyrag', *sys.argv[1:]]\ntry:\n    cli.main()\n"
            "except SystemExit:\n    pass\nheavy = [m for m in ('numpy', 'torch', 'pyoxigraph', 'kuzu') if m in sys.modules]\n"
            "print('HEAVY', heavy, file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                            timeout=120, check=False)
    assert "HEAVY []" in result.stderr, result.stderr[-2000:]
    assert "Usage" in result.stdout


def test_the_benchmarks_join_the_command_line_as_a_plug_in():
    from importlib import metadata

    plugins = {ep.name: ep.value for ep in metadata.entry_points(group="polyrag.commands")}
    assert plugins.get("bench") == "benchmarks.commands:register"


def test_ruff_passes():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True,
                            text=True, cwd=ROOT, timeout=300, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
