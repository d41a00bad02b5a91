"""Run SPARQL read queries in a child process that can be killed: the timeout of every question query.

Why a process: pyoxigraph 0.5 offers no way to stop a running query. It releases the GIL (so a
thread could wait for it) but neither signals nor any API interrupt it, and a thread cannot be
killed, so a runaway query would keep a core and its memory until it ends. A child process can be
killed, and confined: before it reads anything it refuses itself network sockets
(pyramid.sandbox.deny_network, so a SERVICE clause that got past the text check fails in the engine)
and caps its memory (`memory_mb`). Everything a question's query costs, parsing included, happens
here, inside the timeout: the parent never runs such a query. The worker opens the store read-only
(`Store.read_only`, no RocksDB lock, so it never blocks
a writer or another reader), reopens it when the store's registry generation changes, stops reading
rows at the cap, and answers with plain values (pyramid.ontology.rdfio.to_python) as one JSON line.
Startup costs ~0.1 s once per process; a killed worker is replaced on the next query.

Bounded on both sides: the child stops reading rows once their text passes `reply_mb` (a few rows of
huge strings would otherwise cross the pipe and sit in the parent's memory, which has no ceiling),
and the parent reads the reply against the same deadline as the query, not with a blocking readline.

Protocol (JSON lines on stdin/stdout): request {"query", "row_cap", "prefixes", "graphs", "generation"};
reply {"ok": true, "kind", "variables", "rows", "truncated"} or {"ok": false, "error", "why"} where why is
"syntax" (Oxigraph refused the text), "network" (the query tried to reach a SERVICE: a connection,
a name lookup), "too_big" (the reply passed `reply_mb`) or "store".
Started with no store path, the worker answers from an empty in-memory store.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramid.errors import WorkspaceError


@dataclass
class QueryResult:
    """Rows of a read query: SELECT → one dict per solution; ASK → [{"ask": bool}];
    CONSTRUCT/DESCRIBE → [{"subject", "predicate", "object"}]. Values are plain Python values
    (IRIs as strings); `truncated` says the row cap cut the result."""

    kind: str
    variables: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    truncated: bool = False
    ms: float = 0.0


class ResultTooLarge(Exception):
    """The rows read so far passed the byte budget (`execute(max_bytes=…)`)."""

    def __init__(self, rows: int, size: int) -> None:
        super().__init__(f"the result passed {size / 1e6:.0f} MB of text after {rows:,} rows")


def _size(row: dict[str, Any]) -> int:
    return sum(len(str(v)) + 8 for v in row.values())


def execute(store, query: str, *, row_cap: int | None, prefixes: dict[str, str] | None = None,
            graphs: list[str] | None = None, max_bytes: int | None = None, typed: bool = False) -> QueryResult:
    """Run a (checked) read query on an open pyoxigraph store; `graphs` = the default graph's members;
    `max_bytes`: ResultTooLarge once the rows' text passes it; `typed`: values as W3C JSON bindings
    (rdfio.to_w3c) instead of plain Python values, for results that are serialised."""
    import pyoxigraph as ox

    from pyramid.ontology.rdfio import to_python, to_w3c

    if typed:
        to_python = to_w3c  # noqa: F811 - one conversion or the other, chosen per query

    start = time.perf_counter()
    kwargs: dict[str, Any] = {"prefixes": prefixes or None}
    if graphs is None:
        kwargs["use_default_graph_as_union"] = True
    else:
        names = [ox.NamedNode(g) for g in graphs]
        kwargs.update(default_graph=names or [ox.NamedNode("urn:polyrag:graph:none")], named_graphs=names)
    result = store.query(query, **kwargs)
    if isinstance(result, ox.QueryBoolean):
        return QueryResult("ASK", ["ask"], [{"ask": bool(result)}], ms=_ms(start))
    rows: list[dict[str, Any]] = []
    truncated = False
    size = 0
    if isinstance(result, ox.QuerySolutions):
        kind, names = "SELECT", [v.value for v in result.variables]
        found = ({n: to_python(sol[n]) for n in names} for sol in result)
    else:
        kind, names = "CONSTRUCT", ["subject", "predicate", "object"]
        found = ({"subject": to_python(t.subject), "predicate": to_python(t.predicate),
                  "object": to_python(t.object)} for t in result)
    for row in found:
        if row_cap is not None and len(rows) >= row_cap:
            truncated = True
            break
        if max_bytes is not None:
            size += _size(row)
            if size > max_bytes:
                raise ResultTooLarge(len(rows), size)
        rows.append(row)
    return QueryResult(kind, names, rows, truncated, _ms(start))


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def _names_service(query: str) -> bool:
    """Whether the text could hold a SERVICE clause: Oxigraph's keywords are ASCII, matched without
    regard to case, and never written with escapes."""
    return "service" in query.lower()


def serve(path: str, memory_mb: int, reply_mb: int = 64) -> None:
    """The child's loop: one request line in, one reply line out. Confined first, then reads."""
    from pyramid.sandbox import deny_network, limit_memory

    sandboxed = deny_network()
    limit_memory(memory_mb)
    import pyoxigraph as ox

    store, generation = None, None
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if store is None or req.get("generation") != generation:
                store = None  # close the old snapshot before opening the new one
                store = ox.Store.read_only(path) if path else ox.Store()
                generation = req.get("generation")
            if not sandboxed and _names_service(req["query"]):
                # no system-level guard here (not Linux x86_64/aarch64): fail closed on the word itself
                raise PermissionError("SERVICE")
            res = execute(store, req["query"], row_cap=req.get("row_cap"), prefixes=req.get("prefixes"),
                          graphs=req.get("graphs"), max_bytes=reply_mb * 1_000_000, typed=bool(req.get("typed")))
            reply = {"ok": True, **res.__dict__}
        except SyntaxError as err:
            reply = {"ok": False, "why": "syntax", "error": str(err)}
        except PermissionError as err:  # socket() refused by the sandbox: the query reached for the network
            reply = {"ok": False, "why": "network", "error": str(err)}
        except ResultTooLarge as err:
            reply = {"ok": False, "why": "too_big", "error": str(err)}
        except Exception as err:  # noqa: BLE001 - reported to the parent, which raises a typed error
            # A SERVICE to a host name fails in the name lookup, one to a refused port or scheme in the
            # HTTP client (OSErrors, not the sandbox's PermissionError); one with an unbound name
            # variable says so. The store is not to blame for either.
            service = _names_service(req["query"]) and (isinstance(err, OSError) or "service" in str(err).lower())
            reply = {"ok": False, "why": "network" if service else "store", "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()


class _StoreChanged(WorkspaceError):
    """The store failed under a query (e.g. files removed by a concurrent write); retried once."""


class QueryWorker:
    """Parent side: one long-lived child per store path (None: an empty store); `run` waits at most
    `timeout_s`, reply included; the child's heap is capped at `memory_mb`, its reply at `reply_mb`."""

    def __init__(self, store_path: Path | None, *, memory_mb: int = 2048, reply_mb: int = 64) -> None:
        self.store_path = Path(store_path) if store_path is not None else None
        self.memory_mb = memory_mb
        self.reply_mb = reply_mb
        self._proc: subprocess.Popen | None = None
        self._lock = threading.RLock()
        atexit.register(self.close)

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            root = str(Path(__file__).resolve().parents[2])
            env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
            where = str(self.store_path) if self.store_path is not None else ""
            # Binary pipes: the reply is read with os.read against the deadline (see _read_reply).
            self._proc = subprocess.Popen([sys.executable, "-m", "pyramid.ontology.query_worker", where,
                                           str(self.memory_mb), str(self.reply_mb)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          env=env)
        return self._proc

    def run(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None,
            graphs: list[str] | None, generation: str | None, typed: bool = False) -> QueryResult:
        # one child, one request line at a time: threads of a server take turns
        with self._lock:
            try:
                return self._run(query, timeout_s, row_cap, prefixes, graphs, generation, typed)
            except _StoreChanged:
                # A write replaced files under the worker's read-only snapshot mid-query: once more, fresh.
                self.close()
                return self._run(query, timeout_s, row_cap, prefixes, graphs, generation, typed)

    def _run(self, query: str, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None,
             graphs: list[str] | None, generation: str | None, typed: bool = False) -> QueryResult:
        from pyramid.errors import InputError, QueryRefused, QueryTimeout
        from pyramid.ontology.safety import syntax_error

        start = time.perf_counter()
        proc = self._start()
        request = {"query": query, "row_cap": row_cap, "prefixes": prefixes, "graphs": graphs,
                   "generation": generation, "typed": typed}
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
        except BrokenPipeError:
            raise WorkspaceError(f"the query process for {self.store_path} died: {self._stderr()}") from None
        line = self._read_reply(proc, start + timeout_s)
        if line is None:
            self.close()
            raise QueryTimeout(f"the query ran longer than {timeout_s:g} s and was stopped "
                               "(raise ontology.timeout_s, or narrow the query)")
        if not line:
            where = self.store_path or "an empty store"
            raise WorkspaceError(f"the query process for {where} stopped ({self._stderr()}); a query that needs "
                                 f"more than {self.memory_mb} MB (ontology.memory_mb), or one the engine cannot "
                                 "take, ends so")
        reply = json.loads(line)
        if not reply["ok"]:
            if reply["why"] == "syntax":
                raise syntax_error(query, reply["error"])
            if reply["why"] == "network":
                raise QueryRefused("refused: the query tried to reach the network (a SERVICE clause); queries "
                                   "here read the local store only")
            if reply["why"] == "too_big":
                raise InputError(f"{reply['error']} (the limit is {self.reply_mb} MB) and was stopped; narrow "
                                 "the query or ask for fewer rows", path="query")
            raise _StoreChanged(f"query failed on {self.store_path}: {reply['error']}")
        reply.pop("ok")
        reply["ms"] = _ms(start)
        return QueryResult(**reply)

    @staticmethod
    def _read_reply(proc: subprocess.Popen, deadline: float) -> bytes | None:
        """The child's reply line; None at the deadline (a huge reply still arriving counts as time),
        b"" when the child ended without one."""
        fd = proc.stdout.fileno()
        chunks: list[bytes] = []
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b""
            chunks.append(chunk)
            if chunk.endswith(b"\n"):  # one reply per request, so its newline ends it
                return b"".join(chunks)

    def _stderr(self) -> str:
        import signal

        try:  # the pipe's end comes just before the exit: wait a moment for the code
            code = self._proc.wait(timeout=2) if self._proc else None
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}" if code is not None else "no reply"

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream:
                    stream.close()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), *(int(a) for a in sys.argv[3:4]))
