"""`polyrag bench reliability` (issue 16, item 8): every reliability suite at full size, one table of
cases tried, held and failed per suite, in reports/reliability.md.

- adversarial SPARQL: benchmarks.attacks (the whole generated set through the safety check, and
  samples through `polyrag sparql` and `ask --sparql raw`, one process per case);
- malformed inputs: benchmarks.malformed, every kind including the 24 MB files;
- the suites that live as tests (crash-resume, model faults, bad arguments, readers during a write,
  prompt injection, the safety refusals): run by pytest in a child process, cases counted from its
  JUnit report (a skipped case is counted apart, never as held).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress

NAME = "reliability"
ROOT = Path(__file__).resolve().parents[1]
# (suite, test files): what each suite promises is in each file's docstring
TEST_SUITES = [
    ("crash-resume (SIGKILL, SIGINT, failures)", ["tests/pyramid/test_crash_resume.py"]),
    ("model faults", ["tests/pyramid/llm/test_llm_faults.py"]),
    ("bad arguments, every command", ["tests/commands/test_cli_walk.py", "tests/commands/test_malformed_inputs.py"]),
    ("readers during a write", ["tests/pyramid/test_concurrency.py", "tests/pyramid/test_workspace.py"]),
    ("prompt injection", ["tests/querying/test_prompt_injection.py"]),
    ("damaged workspace files", ["tests/commands/test_reliability_misc.py"]),
    ("checked from outside: numbers, nesting, import limits, manifest, dataset parameters",
     ["tests/commands/test_reliability_outside.py"]),
    ("serve: tokens, limits, slow queries beside /ask, reads beside writes", ["tests/serving/test_serve.py"]),
]


def run_pytest(files: list[str]) -> dict[str, Any]:
    """The files' tests in a child pytest; counts from its JUnit XML."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                               *files], cwd=ROOT, capture_output=True, text=True)
        seconds = round(time.perf_counter() - start, 1)
        if not report.exists():
            return {"tried": 0, "held": 0, "failed": 0, "skipped": 0, "seconds": seconds,
                    "failures": [f"pytest did not run: {proc.stderr.strip()[-300:]}"]}
        cases = ET.parse(report).getroot().iter("testcase")
        tried = held = skipped = 0
        failures = []
        for case in cases:
            tried += 1
            bad = case.find("failure") if case.find("failure") is not None else case.find("error")
            if case.find("skipped") is not None:
                skipped += 1
            elif bad is not None:
                failures.append(f"{case.get('classname')}::{case.get('name')}: {(bad.get('message') or '')[:200]}")
            else:
                held += 1
    return {"tried": tried, "held": held, "failed": len(failures), "skipped": skipped, "seconds": seconds,
            "failures": failures}


def run(data_dir: Path, out_dir: Path, *, cli_sample: int = 200, ask_sample: int = 60,
        progress: Progress | None = None) -> dict[str, Any]:
    from benchmarks import attacks, malformed

    progress = progress or NullProgress()
    suites: dict[str, dict[str, Any]] = {}

    start = time.perf_counter()
    sparql = attacks.run(data_dir, out_dir, cli_sample=cli_sample, ask_sample=ask_sample, progress=progress)
    off = sum(v.get("off", 0) for v in sparql["check"]["per_category"].values())
    cli_failed = len(sparql["cli_failures"]) + (0 if sparql["store_unchanged"] else 1) + sparql["requests_heard"]
    tried = sparql["cases"] + len(sparql["cli_rows"])
    suites["adversarial SPARQL (check + CLI samples)"] = {
        "tried": tried, "held": tried - off - len(sparql["cli_failures"]), "failed": off + cli_failed, "skipped": 0,
        "seconds": round(time.perf_counter() - start, 1),
        "failures": [f"{f['path']} {f['id']}: {', '.join(f['problems'])}" for f in sparql["cli_failures"][:20]]}

    start = time.perf_counter()
    cases = malformed.generate(huge=True)
    task = progress.task("malformed inputs", total=len(cases))
    with tempfile.TemporaryDirectory() as tmp:
        rows = malformed.run_cases(cases, Path(tmp), progress=task.advance)
    task.done()
    suites["malformed input files"] = {
        "tried": len(rows), "held": sum(r["held"] for r in rows), "failed": sum(not r["held"] for r in rows),
        "skipped": 0, "seconds": round(time.perf_counter() - start, 1),
        "failures": [f"{r['command']} · {r['format']} · {r['kind']}: {r['why']}" for r in rows if not r["held"]]}

    task = progress.task("store health after imports at the limits", total=1)
    with tempfile.TemporaryDirectory() as tmp:
        suites["store health after imports at the limits"] = store_health(data_dir, Path(tmp))
    task.advance()
    task.done()

    for name, files in TEST_SUITES:
        task = progress.task(name, total=1)
        suites[name] = run_pytest(files)
        task.advance()
        task.done()

    root_user = os.geteuid() == 0
    data = {"suites": suites,
            "not_run": ["unreadable input files (run as root, which reads a mode-0 file anyway)"] if root_user else []}
    write_report(out_dir, NAME, data, markdown(data))
    return data


# queries over every literal, timed before and after the big literals are imported
HEALTH_QUERIES = ["SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }",
                  'SELECT ?s WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?o), "zq")) } LIMIT 5',
                  "SELECT (MAX(STRLEN(STR(?o))) AS ?m) WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }"]
BIG_LITERALS = 20  # literals just under ontology.max_term_kb, in one file
HEALTH_SLACK_S = 1.0  # a query may take this much longer afterwards (and no more than twice as long)


def store_health(data_dir: Path, tmp: Path) -> dict[str, Any]:
    """The store's health after an accepted import at the limits (issue 42): the PolyU ontology, then a
    file of BIG_LITERALS literals just under ontology.max_term_kb; each HEALTH_QUERIES query holds when
    it takes at most twice as long as before, or HEALTH_SLACK_S more."""
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    start = time.perf_counter()
    ws = Workspace.init(tmp / "ws")
    layer = Session(ws).ontology
    layer.import_instances(data_dir / "polyu" / "polyu_onto.ttl", reason=False)

    def timed() -> list[float]:
        out = []
        for q in HEALTH_QUERIES:
            t0 = time.perf_counter()
            layer.select(q, timeout_s=120)
            out.append(time.perf_counter() - t0)
        return out

    before = timed()
    body = "x" * ((ws.settings.ontology.max_term_kb - 1) * 1024)
    big = tmp / "big.ttl"
    big.write_text("@prefix ex: <http://example.org/health#> .\n"
                   + "".join(f'ex:a{i} ex:note "{body}{i}" .\n' for i in range(BIG_LITERALS)), encoding="utf-8")
    t0 = time.perf_counter()
    layer.import_instances(big, name="big", reason=False)
    import_s = time.perf_counter() - t0
    after = timed()
    layer.store.close()
    slow = [f"{q[:60]}…: {a:.2f} s after, {b:.2f} s before" for q, b, a in zip(HEALTH_QUERIES, before, after)
            if a > max(2 * b, b + HEALTH_SLACK_S)]
    return {"tried": len(HEALTH_QUERIES), "held": len(HEALTH_QUERIES) - len(slow), "failed": len(slow), "skipped": 0,
            "seconds": round(time.perf_counter() - start, 1), "failures": slow,
            "figures": f"{BIG_LITERALS} literals of {ws.settings.ontology.max_term_kb - 1} KB imported in {import_s:.1f} s; "
                       "queries over the literals " + ", ".join(f"{b * 1000:.0f} → {a * 1000:.0f} ms"
                                                                for b, a in zip(before, after))}


def markdown(d: dict[str, Any]) -> str:
    suites = d["suites"]
    rows = [[name, s["tried"], s["held"], s["failed"], s["skipped"], s["seconds"]] for name, s in suites.items()]
    total = [sum(s[k] for s in suites.values()) for k in ("tried", "held", "failed", "skipped")]
    lines = ["# Reliability suites", "",
             "`polyrag bench reliability`: every suite at full size. A case holds when its promise is kept (see "
             "each suite's module or test file); skipped cases are counted apart, never as held.", "",
             md_table(["suite", "cases tried", "held", "failed", "skipped", "seconds"],
                      [*rows, ["**all**", *total, round(sum(s["seconds"] for s in suites.values()), 1)]]), ""]
    for note in d.get("not_run", []):
        lines.append(f"Not run here: {note}.")
    for name, s in suites.items():
        if s.get("figures"):
            lines += ["", f"{name}: {s['figures']}."]
        if s["failures"]:
            lines += ["", f"## {name}: what failed", *[f"- {f}" for f in s["failures"][:30]]]
    return "\n".join(lines) + "\n"
