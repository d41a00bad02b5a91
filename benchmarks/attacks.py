"""`polyrag bench attacks`: the adversarial SPARQL suite at full size (issue 16, item 1).

    run(data_dir, out_dir, *, cli_sample=200, ask_sample=60, timeout_s=1.0, workspace=None, progress=None)

1. Every generated query (benchmarks/attack_queries.py, 11,083) through the safety check in this process,
   an audit hook recording any file opened or socket used meanwhile: per category the cases, refused,
   input errors, allowed, cases off their expectation and the slowest check.
2. A deterministic sample through the real command line, one process per case: `polyrag sparql WS
   QUERY --timeout T` and `ask WS Q --layer ontology --sparql raw` with a scripted model emitting the
   query, on a workspace holding the academic schema and the PolyU instances
   (data_dir/polyu/polyu_onto.ttl; three people when it is absent), every SERVICE and LOAD pointing at
   a loopback HTTP logger. Per case: exit code, one error line or not, seconds, the store's quads
   hashed before and after, requests the logger heard.

A case holds when the check gives its expected verdict with a one-line message and, on the command
line, when a refusal is one `error:` line with exit 2, no traceback shows, the command ends within its
timeout plus a margin (the process start), the store is unchanged and nobody was called.
Writes reports/attacks.{json,md}.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.report import ignore_cache_dir, md_table, write_report
from pyramid.errors import InputError, PolyragError, QueryRefused
from pyramid.progress import NullProgress, Progress

NAME = "attacks"
ROOT = Path(__file__).resolve().parents[1]
MARKER = ".bench-attacks"
MARGIN_S = 4.0  # a fresh process: Python, the imports, the query process starting
STAFF = """@prefix : <http://example.org/> .
:alice a :ChairProfessor ; :has_name "Alice" ; :head_of :COMP .
:bob a :Lecturer ; :has_name "Bob" ; :works_for :COMP .
:COMP a :DEPARTMENT ; :belongs_to :FENG .
"""
_LINES = re.compile(r"\r\n|\r|\n")
_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _generator():
    from benchmarks import attack_queries
    return attack_queries


# ------------------------------------------------------------------ what the check opens
_WATCH: dict[str, Any] = {"on": False, "seen": []}
_EVENTS = {"open", "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.bind", "socket.sendto",
           "urllib.Request", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn"}


def _audit(event: str, args: tuple) -> None:
    if _WATCH["on"] and event in _EVENTS:
        _WATCH["seen"].append(f"{event} {repr(args)[:160]}")


def _hook() -> None:
    # audit hooks stay for the life of the process: one per process, inert unless _WATCH["on"]
    if not getattr(sys, "_polyrag_attack_bench_hook", False):
        sys.addaudithook(_audit)
        sys._polyrag_attack_bench_hook = True  # type: ignore[attr-defined]


def check_all(cases: list, progress: Progress) -> dict[str, Any]:
    """Every case through check_query: verdicts per category, what is off, the slowest, I/O seen."""
    from pyramid.ontology.safety import check_query

    check_query("SELECT * WHERE { ?s ?p ?o }")  # any lazy import before the watch
    _hook()
    per: dict[str, Counter] = defaultdict(Counter)
    slowest: dict[str, float] = defaultdict(float)
    off: list[dict[str, str]] = []
    task = progress.task("safety check", len(cases))
    start = time.perf_counter()
    _WATCH["seen"], _WATCH["on"] = [], True
    try:
        for c in cases:
            t = time.perf_counter()
            try:
                check_query(c.query)
                got, message = "allowed", ""
            except QueryRefused as err:
                got, message = "refused", str(err)
            except InputError as err:
                got, message = "input_error", str(err)
            slowest[c.category] = max(slowest[c.category], time.perf_counter() - t)
            per[c.category][got] += 1
            per[c.category]["cases"] += 1
            if got != c.expect or _BREAKS.search(message):
                per[c.category]["off"] += 1
                off.append({"id": c.id, "expect": c.expect, "got": got, "message": message[:200],
                            "query": c.query[:300]})
            task.advance()
    finally:
        _WATCH["on"] = False
        task.done()
    seen = list(_WATCH["seen"])
    return {"seconds": round(time.perf_counter() - start, 2), "io_events": seen[:50], "io_event_count": len(seen),
            "off": off[:50], "per_category": {
                k: {"expect": next(c.expect for c in cases if c.category == k), **dict(v),
                    "slowest_ms": round(slowest[k] * 1000, 2)} for k, v in per.items()}}


# ------------------------------------------------------------------ the command line
EMPTY_RESULTS = b'{"head":{"vars":["x"]},"results":{"bindings":[]}}'


@contextlib.contextmanager
def request_logger(reply: bytes = EMPTY_RESULTS) -> Iterator[tuple[int, list[str]]]:
    """A loopback HTTP server that answers every request with SPARQL JSON `reply` and records its path:
    (port, paths heard). Anything heard is a query that reached the network."""
    hits: list[str] = []

    class Logger(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/sparql-results+json")
            self.end_headers()
            self.wfile.write(reply)

        do_POST = do_GET

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Logger)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


def _workspace(root: Path, data_dir: Path) -> tuple[Path, str]:
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.ontology.schema import Schema
    from pyramid.workspace import Workspace

    if root.exists():  # only a workspace this benchmark made is replaced
        if not (root / MARKER).is_file():
            raise PolyragError(f"{root} exists and was not made by `bench attacks`: give another --workspace")
        shutil.rmtree(root)
    ignore_cache_dir(root)
    polyu = Path(data_dir) / "polyu" / "polyu_onto.ttl"
    if not polyu.is_file():
        polyu = root.parent / "attacks-staff.ttl"
        polyu.write_text(STAFF, encoding="utf-8")
    layer = OntologyLayer(Workspace.open(root, create=True))
    layer.load_schema(Schema.load(ROOT / "ontology_schemas" / "academic.ttl"))
    layer.import_instances(polyu)
    layer.reason()
    layer.store.close()
    (root / MARKER).write_text("made by `polyrag bench attacks`; replaced by its next run\n", encoding="utf-8")
    return root, polyu.name


def store_digest(ws: Path) -> str:
    import pyoxigraph as ox

    store = ox.Store.read_only(str(ws / "ontology" / "store"))
    quads = sorted(str(q) for q in store)
    del store
    return hashlib.sha256("\n".join(quads).encode() + (ws / "ontology" / "graphs.json").read_bytes()).hexdigest()


def _one_error_line(err: str) -> bool:
    lines = [line for line in _LINES.split(err) if line.strip()]
    return len(lines) == 1 and lines[0].startswith("error: ")


def _cli(args: list[str], env: dict[str, str], limit_s: float) -> tuple[int | None, str, str, float]:
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=limit_s, check=False)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as stuck:
        code, out, err = None, stuck.stdout or "", stuck.stderr or ""
        out, err = (out.decode(errors="replace") if isinstance(out, bytes) else out,
                    err.decode(errors="replace") if isinstance(err, bytes) else err)
    return code, out, err, time.perf_counter() - start


def run_cli_sample(ws: Path, cases: list, path: str, timeout_s: float, hits: list[str], scratch: Path,
                   progress: Progress) -> list[dict[str, Any]]:
    """`path` is "sparql" or "ask": one process per case, each judged as the module docstring says."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if path == "ask":
        script = scratch / "attack-script.json"
        env.update({"POLYRAG_LLM__PROVIDER": "scripted", "POLYRAG_LLM__SCRIPTED_FILE": str(script),
                    "POLYRAG_LLM__CACHE": "false", "POLYRAG_ONTOLOGY__TIMEOUT_S": str(timeout_s)})
    bound = timeout_s * (2 if path == "ask" else 1) + MARGIN_S  # raw mode may run a draft and its repair
    out_rows = []
    task = progress.task(f"{path}: {len(cases)} cases", len(cases))
    for c in cases:
        before, heard = store_digest(ws), len(hits)
        if path == "ask":
            reply = {"sparql": c.query}
            script.write_text(json.dumps({"Write one SPARQL SELECT": reply, "This query is wrong": reply}),
                              encoding="utf-8")
            args = ["ask", str(ws), "Who works for COMP?", "--layer", "ontology", "--sparql", "raw", "--json"]
        else:
            query = c.query
            if len(query.encode()) > 100_000:  # past what one argument may hold (128 kB): `sparql` reads @FILE
                (scratch / "attack-query.rq").write_text(query, encoding="utf-8")
                query = "@" + str(scratch / "attack-query.rq")
            args = ["sparql", str(ws), query, "--format", "json", "--timeout", str(timeout_s)]
        code, out, err, seconds = _cli(args, env, bound + 60)
        unchanged = store_digest(ws) == before
        one_line = _one_error_line(err)
        problems = []
        if code is None:
            problems.append("did not end")
        if "Traceback" in out + err:
            problems.append("traceback")
        if seconds >= bound:
            problems.append(f"{seconds:.1f} s")
        if not unchanged:
            problems.append("store changed")
        if len(hits) > heard:
            problems.append(f"{len(hits) - heard} requests heard")
        if c.expect == "refused" and not (code == 2 and one_line and "refused: " in err):
            problems.append("not refused in one line")
        elif c.expect == "input_error" and path == "sparql" and not (code == 2 and one_line):
            problems.append("no one-line error")
        elif code not in (0, None) and not one_line:
            problems.append("error not one line")
        out_rows.append({"id": c.id, "category": c.category, "expect": c.expect, "path": path, "code": code,
                         "seconds": round(seconds, 2), "one_line": one_line, "store_unchanged": unchanged,
                         "error": _LINES.split(err.strip())[0][:200] if err.strip() else "",
                         "held": not problems, "problems": problems})
        task.advance()
    task.done()
    return out_rows


def _summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    by: dict[str, dict[str, Any]] = {}
    for r in rows:
        s = by.setdefault(r["category"], {"cases": 0, "held": 0, "nonzero": 0, "max_seconds": 0.0,
                                          "store_unchanged": True})
        s["cases"] += 1
        s["held"] += r["held"]
        s["nonzero"] += r["code"] not in (0, None)
        s["max_seconds"] = max(s["max_seconds"], r["seconds"])
        s["store_unchanged"] &= r["store_unchanged"]
    return by


def run(data_dir: Path, out_dir: Path, *, cli_sample: int = 200, ask_sample: int = 60, timeout_s: float = 1.0,
        workspace: Path | None = None, progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    gen = _generator()
    with request_logger() as (port, hits):
        cases = gen.generate(f"http://127.0.0.1:{port}/sparql")
        check = check_all(cases, progress)
        ws, data_name = _workspace(Path(workspace or ROOT / "reports" / ".cache" / "attacks-ws"), data_dir)
        digest = store_digest(ws)
        rows = run_cli_sample(ws, gen.sample(cases, cli_sample), "sparql", timeout_s, hits, ws.parent, progress)
        rows += run_cli_sample(ws, gen.sample([c for c in cases if len(c.query) <= 900], ask_sample), "ask",
                               timeout_s, hits, ws.parent, progress)
        unchanged = store_digest(ws) == digest
    data = {
        "cases": len(cases), "timeout_s": timeout_s, "margin_s": MARGIN_S, "data": data_name,
        "check": check,
        "cli": {path: _summary([r for r in rows if r["path"] == path]) for path in ("sparql", "ask")},
        "cli_failures": [r for r in rows if not r["held"]],
        "cli_rows": rows,
        "store_unchanged": unchanged,
        "requests_heard": len(hits),
    }
    write_report(out_dir, NAME, data, markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    check = d["check"]
    per = check["per_category"]
    lines = [f"# Adversarial SPARQL ({d['cases']:,} generated queries)", "",
             f"Safety check, in-process, every case: {check['seconds']} s in all; files or sockets opened "
             f"while checking: {check['io_event_count']}; cases off their expectation: "
             f"{sum(v.get('off', 0) for v in per.values())}.", "",
             md_table(["category", "cases", "expected", "refused", "input errors", "allowed", "off", "slowest ms"],
                      [[k, v["cases"], v["expect"], v.get("refused", 0), v.get("input_error", 0), v.get("allowed", 0),
                        v.get("off", 0), v["slowest_ms"]] for k, v in per.items()]), ""]
    for path, title in (("sparql", "`polyrag sparql WS QUERY`"), ("ask", "`ask --layer ontology --sparql raw`")):
        s = d["cli"][path]
        lines += [f"## {title}, one process per case, --timeout {d['timeout_s']:g} s (store: {d['data']})", "",
                  md_table(["category", "cases", "held", "exit non-zero", "max seconds", "store unchanged"],
                           [[k, v["cases"], v["held"], v["nonzero"], v["max_seconds"],
                             "yes" if v["store_unchanged"] else "NO"] for k, v in s.items()]), ""]
    failures = d["cli_failures"]
    lines += [f"Store unchanged over every case: {'yes' if d['store_unchanged'] else 'NO'}; requests heard by the "
              f"loopback logger: {d['requests_heard']}; command-line cases that did not hold: {len(failures)}."]
    for f in failures[:20]:
        lines.append(f"- {f['path']} {f['id']}: {', '.join(f['problems'])} ({f['error'][:120]})")
    return "\n".join(lines)
