"""Guard rails on the shape of the code: the direction of imports (between the rooms, and inside
pyramid: reading below the layers, the KG and ontology layers apart), no import cycles, small classes
and functions, one name per class, the environment read by the settings alone, a light
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


# Inside pyramid: what sits below the layers imports no layer (reading documents, the schema's
# vocabulary, the chunk journal, the plug-in registry), and the two layers that both read documents
# (kg, ontology) share what they need through those, never each other's modules.
BELOW_LAYERS = ("pyramid.reading", "pyramid.vocab", "pyramid.chunk_journal", "pyramid.plugins",
                "pyramid.normalise", "pyramid.embeddings")
LAYER_ROOMS = ("pyramid.kg", "pyramid.ontology", "pyramid.text_layer")


def _inside(module: str, rooms: tuple[str, ...]) -> str | None:
    return next((r for r in rooms if module == r or module.startswith(r + ".")), None)


def _pyramid_arrows_against(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for src, targets in graph.items():
        for dst in targets:
            below, layer = _inside(src, BELOW_LAYERS), _inside(dst, LAYER_ROOMS)
            if below and (layer or dst.split(".")[0] in ("querying", "completion", "serving", "commands")):
                bad.append(f"{src} imports {dst} ({below} sits below the layers)")
            a, b = _inside(src, LAYER_ROOMS), _inside(dst, LAYER_ROOMS)
            if a and b and a != b:
                bad.append(f"{src} imports {dst} (the layers share through pyramid.reading and friends)")
    return bad


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


def test_reading_sits_below_the_layers_and_the_layers_stay_apart():
    bad = _pyramid_arrows_against(GRAPH)
    assert not bad, "\n".join(bad)


def test_the_inner_guard_sees_a_layer_reaching_into_another():
    # the test above must be able to fail
    graph = {"pyramid.kg.layer": {"pyramid.ontology.vocab"}, "pyramid.reading.rules": {"pyramid.kg.model"},
             "pyramid.reading.names": {"pyramid.normalise"}}
    assert len(_pyramid_arrows_against(graph)) == 2


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
            "except SystemExit:\n    pass\n"
            "heavy = [m for m in ('numpy', 'torch', 'pyoxigraph', 'kuzu', 'ladybug', 'mcp') if m in sys.modules]\n"
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


# ------------------------------------------------------------------ size and names
MAX_CLASS_LINES, MAX_FUNCTION_LINES = 400, 80  # outside benchmarks (reports and their tables)


def _too_big(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        lines = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
        if isinstance(node, ast.ClassDef) and lines > MAX_CLASS_LINES:
            out.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: class {node.name}, {lines} lines")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and lines > MAX_FUNCTION_LINES:
            out.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {node.name}(), {lines} lines")
    return out


def _sources() -> list[Path]:
    return [p for pkg in (*PACKAGES, "tests") if pkg != "benchmarks" for p in (ROOT / pkg).rglob("*.py")] + [ROOT / "cli.py"]


def test_no_class_or_function_is_too_big_outside_the_benchmarks():
    big = [x for p in _sources() for x in _too_big(p)]
    assert not big, "split these along their stages:\n" + "\n".join(big)


def test_the_size_guard_sees_a_long_function(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n" + "    x = 1\n" * MAX_FUNCTION_LINES)
    assert _too_big(probe) == [f"{probe}: f(), {MAX_FUNCTION_LINES + 1} lines"]


def test_no_two_classes_share_a_name():
    seen: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not name.startswith("benchmarks"):
                seen.setdefault(node.name, []).append(name)
    twice = {c: ms for c, ms in seen.items() if len(ms) > 1}
    assert not twice, f"one name, two things: {twice}"


# Only pyramid/config.py reads the environment (its settings, and `process_environment()` for the
# few variables that belong to the process). Two places hand it on untouched, which is no reading:
# the query process's child gets the parent's environment, and the embedding workers are told to
# stay offline before they import the model libraries.
ENVIRONMENT_READERS = {"pyramid.config"}
HANDS_ON = {"pyramid.ontology.query_worker": "{**os.environ", "pyramid.embed_pool": "os.environ.setdefault("}


def _reads_environment(name: str, source: str) -> bool:
    uses = [line for line in source.splitlines() if "os.environ" in line or "getenv" in line]
    allowed = HANDS_ON.get(name)
    return any(allowed is None or allowed not in line for line in uses)


def test_only_the_settings_read_the_environment():
    readers = sorted(n for n, p in MODULES.items() if not n.startswith("benchmarks") and n not in ENVIRONMENT_READERS
                     and _reads_environment(n, p.read_text(encoding="utf-8")))
    assert readers == [], f"read it through pyramid.config (Settings or process_environment): {readers}"


def test_the_environment_guard_sees_a_reader():
    assert _reads_environment("pyramid.some", "x = os.environ.get('HOME')")
    assert not _reads_environment("pyramid.embed_pool", "os.environ.setdefault('HF_HUB_OFFLINE', '1')")


def _unmapped(page: str) -> list[str]:
    """Modules the architecture page's map does not list under their folder."""
    sections = {}
    for block in page.split("\n## Every folder and module", 1)[-1].split("\n### `")[1:]:
        folder, _, body = block.partition("/`")
        sections[folder] = body
    missing = []
    for pkg in (*PACKAGES, "ontology_schemas"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            folder = str(path.parent.relative_to(ROOT))
            if path.name != "__init__.py" and f"`{path.name}`" not in sections.get(folder, ""):
                missing.append(str(path.relative_to(ROOT)))
    return missing


def test_the_architecture_page_maps_every_module():
    """docs/CONVENTIONS.md says what each folder and module is for: a new module is added there too."""
    missing = _unmapped((ROOT / "docs" / "CONVENTIONS.md").read_text(encoding="utf-8"))
    assert missing == [], f"add to docs/CONVENTIONS.md's map: {missing}"


def test_the_map_guard_sees_a_missing_module():
    assert "pyramid/plugins.py" in _unmapped("## Every folder and module\n### `pyramid/` — x\n- `types.py` — y\n")
