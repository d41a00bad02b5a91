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
        if s["failures"]:
            lines += ["", f"## {name}: what failed", *[f"- {f}" for f in s["failures"][:30]]]
    return "\n".join(lines) + "\n"
