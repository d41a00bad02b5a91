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

Protocol (JSON lines on stdin/stdout): request {"query", "row_cap", "prefixes", "graphs", "generation"};
reply {"ok": true, "kind", "variables", "rows", "truncated"} or {"ok": false, "error", "why"} where why is
"syntax" (Oxigraph refused the text), "network" (the query tried to open a connection) or "store".
Started with no store path, the worker answers from an empty in-memory store.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
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


def execute(store, query: str, *, row_cap: int | None, prefixes: dict[str, str] | None = None,
            graphs: list[str] | None = None) -> QueryResult:
    """Run a (checked) read query on an open pyoxigraph store; `graphs` = the default graph's members."""
    import pyoxigraph as ox

    from pyramid.ontology.rdfio import to_python

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
    if isinstance(result, ox.QuerySolutions):
        kind, names = "SELECT", [v.value for v in result.variables]
        for sol in result:
            if row_cap is not None and len(rows) >= row_cap:
                truncated = True
                break
            rows.append({n: to_python(sol[n]) for n in names})
    else:
        kind, names = "CONSTRUCT", ["subject", "predicate", "object"]
        for t in result:
            if row_cap is not None and len(rows) >= row_cap:
                truncated = True
                break
            rows.append({"subject": to_python(t.subject), "predicate": to_python(t.predicate),
                         "object": to_python(t.object)})
    return QueryResult(kind, names, rows, truncated, _ms(start))


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def serve(path: str, memory_mb: int) -> None:
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
            if not sandboxed and "service" in req["query"].lower():
                # no system-level guard here (not Linux x86_64/aarch64): fail closed on the word itself
                raise PermissionError("SERVICE")
            res = execute(store, req["query"], row_cap=req.get("row_cap"), prefixes=req.get("prefixes"),
                          graphs=req.get("graphs"))
            reply = {"ok": True, **res.__dict__}
        except SyntaxError as err:
            reply = {"ok": False, "why": "syntax", "error": str(err)}
        except PermissionError as err:  # socket() refused by the sandbox: the query reached for the network
            reply = {"ok": False, "why": "network", "error": str(err)}
        except Exception as err:  # noqa: BLE001 - reported to the parent, which raises a typed error
            reply = {"ok": False, "why": "store", "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()


class _StoreChanged(WorkspaceError):
    """The store failed under a query (e.g. files removed by a concurrent write); retried once."""


class QueryWorker:
    """Parent side: one long-lived child per store path (None: an empty store); `run` waits at most
    `timeout_s`; the child's heap is capped at `memory_mb`."""

    def __init__(self, store_path: Path | None, *, memory_mb: int = 2048) -> None:
        self.store_path = Path(store_path) if store_path is not None else None
        self.memory_mb = memory_mb
        self._proc: subprocess.Popen | None = None
        atexit.register(self.close)

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            root = str(Path(__file__).resolve().parents[2])
            env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
            where = str(self.store_path) if self.store_path is not None else ""
            self._proc = subprocess.Popen([sys.executable, "-m", "pyramid.ontology.query_worker", where,
                                           str(self.memory_mb)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          text=True, env=env, bufsize=1)
        return self._proc

    def run(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None,
            graphs: list[str] | None, generation: str | None) -> QueryResult:
        try:
            return self._run(query, timeout_s, row_cap, prefixes, graphs, generation)
        except _StoreChanged:
            # A write replaced files under the worker's read-only snapshot mid-query: once more, fresh.
            self.close()
            return self._run(query, timeout_s, row_cap, prefixes, graphs, generation)

    def _run(self, query: str, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None,
             graphs: list[str] | None, generation: str | None) -> QueryResult:
        from pyramid.errors import QueryRefused, QueryTimeout
        from pyramid.ontology.safety import syntax_error

        start = time.perf_counter()
        proc = self._start()
        request = {"query": query, "row_cap": row_cap, "prefixes": prefixes, "graphs": graphs,
                   "generation": generation}
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            raise WorkspaceError(f"the query process for {self.store_path} died: {self._stderr()}") from None
        ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
        if not ready:
            self.close()
            raise QueryTimeout(f"the query ran longer than {timeout_s:g} s and was stopped "
                               "(raise ontology.timeout_s, or narrow the query)")
        line = proc.stdout.readline()
        if not line:
            where = self.store_path or "an empty store"
            raise WorkspaceError(f"the query process for {where} stopped ({self._stderr()}); a query "
                                 f"that needs more than {self.memory_mb} MB (ontology.memory_mb) ends so")
        reply = json.loads(line)
        if not reply["ok"]:
            if reply["why"] == "syntax":
                raise syntax_error(query, reply["error"])
            if reply["why"] == "network":
                raise QueryRefused("refused: the query tried to open a network connection (a SERVICE clause); "
                                   "queries here read the local store only")
            raise _StoreChanged(f"query failed on {self.store_path}: {reply['error']}")
        reply.pop("ok")
        reply["ms"] = _ms(start)
        return QueryResult(**reply)

    def _stderr(self) -> str:
        code = self._proc.poll() if self._proc else None
        self.close()
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
    serve(sys.argv[1], int(sys.argv[2]))
