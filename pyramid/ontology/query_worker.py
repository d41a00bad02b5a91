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

The default graph is the union of the registered graphs, and a union of graphs is a set (the RDF
merge SPARQL's FROM describes), but Oxigraph reads a list of default graphs as a bag: a triple held
by two graphs (one instance typed by two documents' extractions) matched every pattern twice, so a
SELECT without DISTINCT repeated rows. So before the first query of a generation, the worker asks
whether any triple sits in two of the graphs (`overlaps`, a scan the parent caches per set of
physical graphs, which change with every write); when one does, it copies the graphs into an
in-memory store whose default graph holds each triple once, the named graphs beside it for GRAPH
patterns, and queries that copy until the generation changes. A copy that would pass half of
`memory_mb` is not made: the union stays a bag and the result says so (`QueryResult.bag`).

Protocol (JSON lines on stdin/stdout): request {"query", "row_cap", "prefixes", "graphs", "generation"};
reply {"ok": true, "kind", "variables", "rows", "truncated"} or {"ok": false, "error", "why"} where why is
"syntax" (Oxigraph refused the text), "network" (the query tried to reach a SERVICE: a connection,
a name lookup), "too_big" (the reply passed `reply_mb`) or "store". A request {"prepare": true,
"graphs", "generation", "overlap" (known or null), "triples", "disjoint" (graphs known to share no
triple with the others: a fresh inferred graph, left out of the scan)} readies the default graph of
that generation and graph list; its reply is {"ok": true, "overlap", "bag"}.
Started with no store path, the worker answers from an empty in-memory store.
"""

from __future__ import annotations

import atexit
import hashlib
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
    bag: bool = False  # the graph union was read as a bag (too large to copy): a triple in two graphs repeats


class ResultTooLarge(Exception):
    """The rows read so far passed the byte budget (`execute(max_bytes=…)`)."""

    def __init__(self, rows: int, size: int) -> None:
        super().__init__(f"the result passed {size / 1e6:.0f} MB of text after {rows:,} rows")


def _size(row: dict[str, Any]) -> int:
    return sum(len(str(v)) + 8 for v in row.values())


def execute(store, query: str, *, row_cap: int | None, prefixes: dict[str, str] | None = None,
            graphs: list[str] | None = None, max_bytes: int | None = None, typed: bool = False,
            own_default: bool = False, whole: bool | None = None) -> QueryResult:
    """Run a (checked) read query on an open pyoxigraph store; `graphs` = the default graph's members
    (`own_default`: the store's own default graph already holds their union, `graphs` are the named ones);
    `max_bytes`: ResultTooLarge once the rows' text passes it; `typed`: values as W3C JSON bindings
    (rdfio.to_w3c) instead of plain Python values, for results that are serialised; `whole`: `graphs`
    are every named graph of the store (None: found out here, see `covers`)."""
    import pyoxigraph as ox

    from pyramid.ontology.rdfio import to_python, to_w3c

    if typed:
        to_python = to_w3c  # noqa: F811 - one conversion or the other, chosen per query

    start = time.perf_counter()
    kwargs: dict[str, Any] = {"prefixes": prefixes or None}
    if own_default:  # named explicitly so that, as below, the query's FROM clauses do not choose another
        kwargs.update(default_graph=ox.DefaultGraph(),
                      named_graphs=[ox.NamedNode(g) for g in graphs or ()] or [ox.NamedNode("urn:polyrag:graph:none")])
    elif graphs is None or (whole if whole is not None else covers(store, graphs)):
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
        # a solution iterates its values in the variables' order (None when unbound): no lookup by name
        found = (dict(zip(names, map(to_python, sol))) for sol in result)
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


# A graph holds a triple once, so the graphs share a triple exactly when their union has fewer distinct
# triples than they hold together. Counted, not joined: the join (ASK { GRAPH ?a { ?s ?p ?o } GRAPH ?b
# { ?s ?p ?o } FILTER(?a != ?b) }) took 0.94 s CPU on LUBM(1)'s 154k triples, the two counts 0.23 s,
# and at LUBM(10) the join passed the 157 s this check is given on a busy machine.
HELD = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
DISTINCT = "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }"
QUAD_BYTES = 500  # an in-memory Oxigraph quad with its indexes, measured: 49 MB for 105k quads


def covers(store, graphs: list[str]) -> bool:
    """Whether `graphs` hold every named graph of `store`. Then the store's own union of its graphs is
    the default graph asked for, and Oxigraph reads it from one index: a list of graphs costs one
    lookup per graph for every pattern (a join over 3,000 page graphs took seconds a row)."""
    import pyoxigraph as ox

    if len(graphs) < 2:
        return False
    wanted = set(graphs)
    # read to the end: an iterator left half-read is dropped later, maybe by another thread, and
    # Oxigraph's iterators may not be ("GraphNameIter is unsendable" in a server's /ask)
    names = list(store.named_graphs())
    return all(isinstance(g, ox.NamedNode) and g.value in wanted for g in names)


def overlaps(store, graphs: list[str]) -> bool:
    """Whether a triple sits in two of `graphs` (two counting scans of them, see HELD)."""
    import pyoxigraph as ox

    if len(graphs) < 2:
        return False
    names = [ox.NamedNode(g) for g in graphs]

    def count(query: str) -> int:
        return int(next(iter(store.query(query, named_graphs=names)))[0].value)

    return count(DISTINCT) < count(HELD)


def set_union(store, graphs: list[str]):
    """An in-memory copy of `graphs`: their union as its default graph (a set: each triple once), and
    each of them as a named graph, so GRAPH patterns still see where a triple comes from."""
    import pyoxigraph as ox

    names = [ox.NamedNode(g) for g in graphs]
    copy = ox.Store()
    copy.bulk_extend(ox.Quad(q.subject, q.predicate, q.object) for g in names
                     for q in store.quads_for_pattern(None, None, None, g))
    copy.bulk_extend(q for g in names for q in store.quads_for_pattern(None, None, None, g))
    return copy


class _Dataset:
    """The worker's view of one generation: the on-disk snapshot, and the set union when prepared."""

    def __init__(self, path: str, memory_mb: int) -> None:
        self.path, self.memory_mb = path, memory_mb
        self.store, self.generation = None, None
        self.union, self.union_key, self.bag_key = None, None, None
        self.whole: dict[tuple, bool] = {}  # graph list -> it is every named graph of this snapshot

    def open(self, generation: str | None):
        import pyoxigraph as ox

        if self.store is None or generation != self.generation:
            self.store = self.union = self.union_key = self.bag_key = None  # close the old snapshot first
            self.whole = {}
            self.store = ox.Store.read_only(self.path) if self.path else ox.Store()
            self.generation = generation
        return self.store

    def prepare(self, req: dict[str, Any]) -> dict[str, Any]:
        store, graphs = self.open(req.get("generation")), req.get("graphs") or []
        overlap = req.get("overlap")
        if overlap is None:
            disjoint = set(req.get("disjoint") or ())  # graphs known to share no triple with the others
            overlap = overlaps(store, [g for g in graphs if g not in disjoint])
        key = tuple(graphs)
        bag = overlap and 2 * int(req.get("triples") or 0) * QUAD_BYTES > self.memory_mb * 500_000
        if overlap and not bag and self.union_key != key:
            self.union, self.union_key = None, None  # one copy at a time
            self.union, self.union_key = set_union(store, graphs), key
        self.bag_key = key if bag else None
        return {"ok": True, "overlap": overlap, "bag": bag}

    def run(self, req: dict[str, Any], max_bytes: int) -> QueryResult:
        store, graphs = self.open(req.get("generation")), req.get("graphs")
        key = tuple(graphs or ())
        own = self.union is not None and self.union_key == key
        if not own and key not in self.whole:
            self.whole[key] = covers(store, list(key))
        res = execute(self.union if own else store, req["query"], row_cap=req.get("row_cap"),
                      prefixes=req.get("prefixes"), graphs=graphs, max_bytes=max_bytes,
                      typed=bool(req.get("typed")), own_default=own, whole=self.whole.get(key))
        res.bag = self.bag_key == key
        return res


def serve(path: str, memory_mb: int, reply_mb: int = 64) -> None:
    """The child's loop: one request line in, one reply line out. Confined first, then reads."""
    from pyramid.sandbox import deny_network, limit_memory

    sandboxed = deny_network()
    limit_memory(memory_mb)
    dataset = _Dataset(path, memory_mb)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req.get("prepare"):
                sys.stdout.write(json.dumps(dataset.prepare(req)) + "\n")
                sys.stdout.flush()
                continue
            if not sandboxed and _names_service(req["query"]):
                # no system-level guard here (not Linux x86_64/aarch64): fail closed on the word itself
                raise PermissionError("SERVICE")
            res = dataset.run(req, reply_mb * 1_000_000)
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
            service = _names_service(req.get("query", "")) and (isinstance(err, OSError) or "service" in str(err).lower())
            reply = {"ok": False, "why": "network" if service else "store", "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()


class _StoreChanged(WorkspaceError):
    """The store failed under a query (e.g. files removed by a concurrent write); retried. `files`:
    RocksDB said a file was missing or unreadable, the mark of a write racing the read."""

    @property
    def files(self) -> bool:
        return any(mark in str(self) for mark in ("No such file", "IO error", "Corruption"))


class QueryWorker:
    """Parent side: one long-lived child per store path (None: an empty store); `run` waits at most
    `timeout_s`, reply included; the child's heap is capped at `memory_mb`, its reply at `reply_mb`."""

    def __init__(self, store_path: Path | None, *, memory_mb: int = 2048, reply_mb: int = 64,
                 overlap_cache: Path | None = None) -> None:
        self.store_path = Path(store_path) if store_path is not None else None
        self.memory_mb = memory_mb
        self.reply_mb = reply_mb
        self.overlap_cache = overlap_cache  # JSON: digest of a list of physical graphs -> whether they overlap
        self._prepared: tuple | None = None  # (generation, graphs) the child has readied its default graph for
        self._proc: subprocess.Popen | None = None
        self._lock = threading.RLock()
        atexit.register(self.close)

    def start(self) -> None:
        """Start the child process without waiting for it (it reads its first request when ready)."""
        with self._lock:
            self._start()

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
            graphs: list[str] | None, generation: str | None, typed: bool = False, triples: int = 0,
            disjoint: list[str] | None = None, distinct: bool = False) -> QueryResult:
        """`triples`: how many the graphs hold (the registry's count), to judge whether a set copy fits;
        `disjoint`: graphs that share no triple with the others (a fresh inferred graph), left out of
        the check for a triple held twice."""
        # one child, one request line at a time: threads of a server take turns
        with self._lock:
            # A write in another process can remove files under the child's read-only snapshot, or
            # while it opens one (see OntologyStore._open): a fresh child, a moment later, a few times.
            for wait in (0.0, 0.1, 0.3, None):
                try:
                    if not distinct:  # a query that drops repeats itself reads the union as a bag
                        self._prepare(graphs, generation, triples, disjoint or [])
                    return self._run(query, timeout_s, row_cap, prefixes, graphs, generation, typed)
                except _StoreChanged as err:
                    self.close()
                    if wait is None or (wait and not err.files):  # any other failure: one more try only
                        raise
                    time.sleep(wait)
            raise AssertionError("unreachable")

    def _prepare(self, graphs: list[str] | None, generation: str | None, triples: int,
                 disjoint: list[str] | None = None) -> None:
        """Ready the child's default graph for this generation: a set union when the graphs overlap.
        Outside the query's timeout (a copy takes ~1 s per 100k triples), under a deadline of its own."""
        from pyramid.errors import QueryTimeout

        key = (generation, tuple(graphs or ()))
        if key == self._prepared or len(graphs or ()) < 2:
            return
        digest = hashlib.sha256("\n".join(sorted(graphs or ())).encode()).hexdigest()[:24]
        cache = self._read_cache()
        request = {"prepare": True, "graphs": graphs, "generation": generation, "overlap": cache.get(digest),
                   "triples": triples, "disjoint": disjoint or []}
        start = time.perf_counter()
        proc = self._start()
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
        except BrokenPipeError:
            raise WorkspaceError(f"the query process for {self.store_path} died: {self._stderr()}") from None
        limit = 60 + triples / 20_000
        line = self._read_reply(proc, start + limit)
        if line is None:
            self.close()
            raise QueryTimeout(f"reading the ontology's graphs took longer than {limit:.0f} s and was stopped")
        if not line:
            raise WorkspaceError(f"the query process for {self.store_path} stopped while reading the graphs "
                                 f"({self._stderr()}); raise ontology.memory_mb")
        reply = json.loads(line)
        if not reply["ok"]:
            raise _StoreChanged(f"reading the graphs of {self.store_path} failed: {reply['error']}")
        if cache.get(digest) is None and self.overlap_cache is not None:
            self._write_cache({**dict(list(cache.items())[-15:]), digest: reply["overlap"]})
        self._prepared = key

    def _read_cache(self) -> dict[str, bool]:
        try:
            data = json.loads(self.overlap_cache.read_text(encoding="utf-8")) if self.overlap_cache else {}
        except (OSError, ValueError):  # none yet, or half-written by a process killed mid-write: asked again
            return {}
        return data if isinstance(data, dict) else {}

    def _write_cache(self, data: dict[str, bool]) -> None:
        from pyramid.workspace import atomic_write_json

        try:
            atomic_write_json(self.overlap_cache, data)
        except OSError:  # a read-only workspace: the next process scans again
            pass

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
        self._prepared = None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream:
                    stream.close()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), *(int(a) for a in sys.argv[3:4]))
