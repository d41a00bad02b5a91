"""`polyrag bench serve`: `polyrag serve` driven over loopback (issue 13's targets), bounded in count
and time.

- /ask on ontology-answered questions (the open AcadChall dev questions the ontology layer answers,
  on the imported PolyU ontology): latency alone, then throughput with 8 concurrent clients;
- /sparql on LUBM(1): each of the 14 queries through HTTP (W3C JSON) beside the same query in
  process (`OntologyLayer.query`), best of 3 each;
- a build beside 8 clients: another process indexes 100 more pages (the text layer's new generation)
  and imports 40,000 triples (the ontology's) while the clients ask (/ask), search (/search) and
  query (/sparql); failed requests are counted, and partial answers: replies that are neither the
  reply from before the build nor the one from after it.

The server runs as its own process (`polyrag serve`), with the default (tiny) model, which the
ontology layer does not call for these questions.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import md_table, write_report
from pyramid.progress import NullProgress, Progress

NAME = "serve"
ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 8


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*args: Any) -> None:
    proc = subprocess.run([sys.executable, "-c", "import cli; cli.main()", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"polyrag {' '.join(map(str, args))}: {proc.stderr[-500:]}")


class Served:
    """`polyrag serve WS` in a child process, on a free loopback port."""

    def __init__(self, ws: Path) -> None:
        self.port = _port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "serve", str(ws), "--port",
                                      str(self.port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 120
        while True:
            try:
                if self.get("/health")[0] == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("the server did not start: " + (self.proc.stderr.read() or b"").decode()[-500:])
            time.sleep(0.2)

    def get(self, path: str, headers: dict | None = None) -> tuple[int, bytes]:
        return self._send(urllib.request.Request(self.base + path, headers=headers or {}))

    def post(self, path: str, body: dict) -> tuple[int, bytes]:
        return self._send(urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                                 headers={"Content-Type": "application/json"}))

    @staticmethod
    def _send(req: urllib.request.Request) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


PAGES, MORE_PAGES = 300, 100  # pages indexed in the cached workspace, pages the build beside adds


def _pages(data_dir: Path, start: int, count: int, out: Path) -> Path:
    lines = (data_dir / "polyu_pages" / "pages_dev.jsonl").read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines[start:start + count]) + "\n", encoding="utf-8")
    return out


def _ontology_ws(data_dir: Path, cache: Path) -> Path:
    """The PolyU ontology imported, and a text layer over the first PAGES PolyU pages (cached)."""
    ws = cache / "serve-polyu-ws"
    if not (ws / "ontology" / "graphs.json").exists():
        _cli("ontology", "import", ws, data_dir / "polyu" / "polyu_onto.ttl")
    if not (ws / "text").exists():
        _cli("index", ws, "--docs", _pages(data_dir, 0, PAGES, cache / "serve-pages.jsonl"))
    return ws


def _ask(server: Served, question: str) -> tuple[float, int, dict]:
    t0 = time.perf_counter()
    status, body = server.post("/ask", {"question": question, "layers": ["ontology"]})
    ms = (time.perf_counter() - t0) * 1000
    return ms, status, (json.loads(body) if status == 200 else {"error": body[:200].decode(errors="replace")})


def ask_load(server: Served, questions: list[str], rounds: int) -> dict[str, Any]:
    for q in questions:  # warm: the ontology context, caches
        _ask(server, q)
    answered = [q for q in questions if _ask(server, q)[2].get("layer") == "ontology"]
    alone = [_ask(server, q)[0] for q in answered for _ in range(2)]
    jobs = answered * rounds
    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(lambda q: _ask(server, q), jobs))
    wall = time.perf_counter() - start
    lat = [ms for ms, _, _ in results]
    return {"questions": len(questions), "ontology_answered": len(answered),
            "alone_p50_ms": round(float(np.percentile(alone, 50)), 1),
            "alone_p95_ms": round(float(np.percentile(alone, 95)), 1),
            "clients": CLIENTS, "requests": len(jobs), "failed": sum(s != 200 for _, s, _ in results),
            "per_s": round(len(jobs) / wall, 1), "loaded_p50_ms": round(float(np.percentile(lat, 50)), 1),
            "loaded_p95_ms": round(float(np.percentile(lat, 95)), 1)}


def sparql_overhead(tmp: Path) -> dict[str, Any]:
    from urllib.parse import quote

    from benchmarks.lubm import ONTOLOGY
    from benchmarks.lubm.generator import generate
    from benchmarks.lubm.queries import QUERIES
    from pyramid.ontology.layer import OntologyLayer
    from pyramid.workspace import Workspace

    data = generate(1, tmp / "lubm-data")
    ws = tmp / "lubm-ws"
    layer = OntologyLayer(Workspace.init(ws))
    layer.load_schema(ONTOLOGY)
    for path in data:
        layer.import_instances(path)
    layer.reason()
    rows = []
    server = Served(ws)
    try:
        layer.query("ASK { ?s ?p ?o }")
        for name, q in QUERIES.items():
            local, remote, n = [], [], 0
            for _ in range(3):
                t0 = time.perf_counter()
                n = len(layer.query(q, row_cap=10**7, timeout_s=120).rows)
                local.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                status, body = server.get("/sparql?query=" + quote(q),
                                          headers={"Accept": "application/sparql-results+json"})
                remote.append(time.perf_counter() - t0)
                if status != 200:
                    raise RuntimeError(f"{name}: HTTP {status}: {body[:200]!r}")
            rows.append({"query": name, "rows": n, "in_process_ms": round(min(local) * 1000, 1),
                         "http_ms": round(min(remote) * 1000, 1)})
    finally:
        server.close()
        layer.close()
    total_local = sum(r["in_process_ms"] for r in rows)
    total_http = sum(r["http_ms"] for r in rows)
    return {"rows": rows, "in_process_ms": round(total_local, 1), "http_ms": round(total_http, 1),
            "overhead": round(total_http / total_local - 1, 3)}


SEARCH = "research interests in robotics"
COUNT = ("SELECT (COUNT(?s) AS ?n) WHERE { ?s a ?c . FILTER(CONTAINS(LCASE(STR(?c)), 'staff')) }")


def _replies(server: Served, questions: list[str]) -> dict[str, bytes]:
    """What each request of the mix answers now (answer text for /ask, the whole body otherwise)."""
    from urllib.parse import quote

    out = {f"ask:{q}": str(_ask(server, q)[2].get("text")).encode() for q in questions}
    out["search"] = server.get(f"/search?q={quote(SEARCH)}&k=5")[1]
    out["sparql"] = server.get("/sparql?query=" + quote(COUNT), {"Accept": "application/sparql-results+json"})[1]
    return out


@contextlib.contextmanager
def _clients(server: Served, questions: list[str]) -> Iterator[list[tuple[str, int, bytes]]]:
    """CLIENTS threads sending a third each of /ask (cycling through the questions), /search and /sparql
    until the block ends; yields the list the (kind, status, reply) of each request goes to."""
    from urllib.parse import quote

    stop = threading.Event()
    results: list[tuple[str, int, bytes]] = []
    kinds = [k for q in questions for k in (f"ask:{q}", "search", "sparql")]

    def one(kind: str) -> tuple[int, bytes]:
        if kind == "search":
            return server.get(f"/search?q={quote(SEARCH)}&k=5")
        if kind == "sparql":
            return server.get("/sparql?query=" + quote(COUNT), {"Accept": "application/sparql-results+json"})
        _, status, answer = _ask(server, kind.removeprefix("ask:"))
        return status, str(answer.get("text")).encode()

    def client(i: int) -> None:
        k = i
        while not stop.is_set():
            kind = kinds[k % len(kinds)]
            k += 1
            try:
                status, body = one(kind)
            except OSError as err:  # no reply within the client's 120 s, a refused connection: failed
                status, body = 0, repr(err).encode()
            results.append((kind, status, body))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    try:
        yield results
    finally:
        stop.set()
        for t in threads:
            t.join()


def _by_kind(results: list[tuple[str, int, bytes]]) -> dict[str, int]:
    return {k: sum(r[0].split(":")[0] == k for r in results) for k in ("ask", "search", "sparql")}


def write_beside(server: Served, ws: Path, questions: list[str], data_dir: Path, tmp: Path) -> dict[str, Any]:
    """8 clients ask, search and query while another process builds: the text layer indexes
    MORE_PAGES pages, then the ontology imports 40,000 triples (a new generation of each)."""
    before = _replies(server, questions)
    pages = _pages(data_dir, PAGES, MORE_PAGES, tmp / "more-pages.jsonl")
    extra = tmp / "extra.ttl"
    extra.write_text("@prefix ex: <http://example.org/bench#> .\n" + "".join(
        f"ex:thing{i} a ex:Thing ; ex:note \"note {i}\" .\n" for i in range(20_000)))
    with _clients(server, questions) as results:
        start = time.perf_counter()
        _cli("index", ws, "--docs", pages)
        _cli("ontology", "import", ws, extra)
        write_s = time.perf_counter() - start
        time.sleep(1.0)
    after = _replies(server, questions)
    failed = sum(status != 200 for _, status, _ in results)
    partial = sum(status == 200 and body not in (before[kind], after[kind]) for kind, status, body in results)
    changed = sorted({k.split(":")[0] for k in before if before[k] != after[k]})
    return {"requests": len(results), "failed": failed, "partial": partial, "write_s": round(write_s, 1),
            "changed_by_build": changed, "by_kind": _by_kind(results)}


IMPORTS_MIN_REQUESTS, IMPORTS_MAX_S = 2_000, 300  # imports go on until the clients sent this many requests
# seconds between two imports: none, back to back (a server rebuilds the planner's indexes of each new
# generation beside the requests: querying.ontology_context)
IMPORT_PAUSE_S = 0.0


def imports_beside(server: Served, ws: Path, questions: list[str], tmp: Path) -> dict[str, Any]:
    """8 clients ask, search and query while another process imports small files, one every
    IMPORT_PAUSE_S seconds (each import a new generation of the store, each the same graph name
    replaced), until the clients have sent IMPORTS_MIN_REQUESTS requests: every request must be
    answered, with the reply from before (the imports add nothing any request reads)."""
    before = _replies(server, questions)
    imports = 0
    with _clients(server, questions) as results:
        start = time.perf_counter()
        while len(results) < IMPORTS_MIN_REQUESTS and time.perf_counter() - start < IMPORTS_MAX_S:
            path = tmp / f"beside-{imports}.ttl"
            path.write_text("@prefix ex: <http://example.org/bench#> .\n" + "".join(
                f"ex:item{imports}-{i} a ex:Item ; ex:note \"note {i}\" .\n" for i in range(500)))
            _cli("ontology", "import", ws, path, "--name", "beside", "--no-reason")
            imports += 1
            time.sleep(IMPORT_PAUSE_S)
        seconds = time.perf_counter() - start
    failed = [(kind, status) for kind, status, _ in results if status != 200]
    changed = sum(status == 200 and body != before[kind] for kind, status, body in results)
    return {"requests": len(results), "imports": imports, "seconds": round(seconds, 1), "failed": len(failed),
            "failed_by": sorted({f"{k.split(':')[0]} {s}" for k, s in failed}), "changed": changed,
            "by_kind": _by_kind(results)}


SLOW = 4  # expensive /sparql queries kept running while /ask is timed
CROSS = "SELECT (COUNT(*) AS ?n) WHERE { " + " . ".join(f"?a{i} ?b{i} ?c{i}" for i in range(8)) + " }"


def ask_beside_slow(server: Served, questions: list[str], asks: int = 40) -> dict[str, Any]:
    """SLOW cross products sent to /sparql again and again (each runs to its time limit or waits for a
    free query process and is refused), and meanwhile /ask timed, one question after another."""
    from urllib.parse import quote

    stop = threading.Event()
    statuses: list[int] = []

    def slow() -> None:
        while not stop.is_set():
            statuses.append(server.get("/sparql?query=" + quote(CROSS))[0])

    threads = [threading.Thread(target=slow) for _ in range(SLOW)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    timed = [_ask(server, questions[i % len(questions)]) for i in range(asks)]
    stop.set()
    for t in threads:
        t.join()
    lat = [ms for ms, _, _ in timed]
    return {"asks": asks, "failed": sum(s != 200 for _, s, _ in timed),
            "p50_ms": round(float(np.percentile(lat, 50)), 1), "p95_ms": round(float(np.percentile(lat, 95)), 1),
            "sparql": {str(code): statuses.count(code) for code in sorted(set(statuses))}}


def run(data_dir: Path, out_dir: Path, *, rounds: int = 5, progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    task = progress.task("serve: /ask, /sparql, writes beside, slow queries beside", 3)
    questions = [json.loads(line)["question"] for line in
                 (data_dir / "acadchall" / "questions_open_dev.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    cache = ROOT / "reports" / ".cache"
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="polyrag-serve-") as tmp_name:
        tmp = Path(tmp_name)
        ws = tmp / "polyu"
        src = _ontology_ws(data_dir, cache)
        subprocess.run(["cp", "-a", str(src), str(ws)], check=True)  # the write below must not touch the cache
        server = Served(ws)
        try:
            ask = ask_load(server, questions, rounds)
            task.advance()
            answered = [q for q in questions if _ask(server, q)[2].get("layer") == "ontology"]
            beside = write_beside(server, ws, answered, data_dir, tmp)
            slow = ask_beside_slow(server, answered)
            imports = imports_beside(server, ws, answered, tmp)
        finally:
            server.close()
        task.advance()
        sparql = sparql_overhead(tmp)
        task.advance()
    task.done()
    data = {"ask": ask, "sparql": sparql, "write_beside": beside, "slow_beside": slow, "imports_beside": imports,
            "cpu_count": os.cpu_count()}
    write_report(out_dir, NAME, data, markdown(data))
    return data


def markdown(d: dict[str, Any]) -> str:
    a, s, w = d["ask"], d["sparql"], d["write_beside"]
    return "\n".join([
        "# `polyrag serve` over loopback", "",
        f"## /ask, ontology layer ({a['ontology_answered']} of {a['questions']} open AcadChall dev questions answered "
        f"by it; PolyU ontology imported)", "",
        md_table(["measure", "value", "target"], [
            ["p50 latency, one client (ms)", a["alone_p50_ms"], "≤ 50"],
            ["p95 latency, one client (ms)", a["alone_p95_ms"], ""],
            [f"questions/s, {a['clients']} clients ({a['requests']} requests)", a["per_s"], "≥ 50"],
            [f"p50 latency, {a['clients']} clients (ms)", a["loaded_p50_ms"], ""],
            ["failed requests", a["failed"], "0"]]), "",
        "## /sparql on LUBM(1): the 14 queries, HTTP (W3C JSON) beside in-process, best of 3", "",
        md_table(["query", "rows", "in-process ms", "HTTP ms"],
                 [[r["query"], r["rows"], r["in_process_ms"], r["http_ms"]] for r in s["rows"]]
                 + [["**all**", "", s["in_process_ms"], s["http_ms"]]]), "",
        f"Overhead of HTTP over in-process: {s['overhead']:.1%} (target ≤ 10%).", "",
        f"## A build beside {CLIENTS} clients", "",
        f"Another process indexed {MORE_PAGES} more PolyU pages (`polyrag index`) and imported 40,000 triples "
        f"(`polyrag ontology import`) in {w['write_s']} s while {CLIENTS} clients asked, searched and queried: "
        f"{w['requests']} requests ({', '.join(f'{n} {k}' for k, n in w['by_kind'].items())}), "
        f"**{w['failed']} failed**, **{w['partial']} partial** (a reply that is neither the one from before the "
        f"build nor the one from after it). Replies the build changed: {', '.join(w['changed_by_build']) or 'none'}.",
        "", *_markdown_beside(d)])


def _markdown_beside(d: dict[str, Any]) -> list[str]:
    i, sl = d.get("imports_beside"), d.get("slow_beside")
    out = []
    if i:
        apart = f"{IMPORT_PAUSE_S:g} s apart" if IMPORT_PAUSE_S else "back to back"
        out += [f"## Imports beside {CLIENTS} clients, {apart}", "",
                f"Another process imported {i['imports']} small files (`ontology import --name beside --no-reason`, "
                f"each a new generation, {apart}) in {i['seconds']} s while {CLIENTS} clients sent "
                f"{i['requests']} requests ({', '.join(f'{n} {k}' for k, n in i['by_kind'].items())}): "
                f"**{i['failed']} failed** (target 0 of ≥ {IMPORTS_MIN_REQUESTS:,})"
                + (f" — {', '.join(i['failed_by'])}" if i["failed_by"] else "")
                + f"; replies other than the one from before: {i['changed']}.", ""]
    if sl:
        out += [f"## /ask while {SLOW} expensive /sparql queries run", "",
                f"{SLOW} clients sent a cross product of 8 patterns to /sparql again and again (statuses: "
                f"{', '.join(f'{n} × {c}' for c, n in sl['sparql'].items())}); meanwhile {sl['asks']} questions were "
                f"asked one after another: p50 {sl['p50_ms']} ms, **p95 {sl['p95_ms']} ms** (target ≤ 1,000), "
                f"{sl['failed']} failed.", ""]
    return out
