"""The ontology layer's RDF store: pyoxigraph on disk, one named graph per source, atomic replacement.

Layout under `ws.layer_dir("ontology")`::

    store/        the Oxigraph (RocksDB) database
    graphs.json   the registry: logical graph name -> physical graph IRI, triple count, source, time

Logical graphs: "schema", "inferred" (reasoner output), "doc:<doc_id>" (instances extracted from a
document), "import:<name>" (an imported file). `doc_graph(id)` / `import_graph(name)` build the names.

    store = OntologyStore(ws.layer_dir("ontology"), require_write=ws._require_lock)
    store.select(query, *, timeout_s, row_cap, prefixes=None, graphs=None) -> list[dict[str, Any]]
        checked by pyramid.ontology.safety.check_query (read-only; SERVICE refused), run in a killable,
        network-less, memory-capped child process (QueryTimeout after timeout_s), at most row_cap rows; values are plain Python
        values with IRIs as strings. `graphs` limits the default graph to some logical graphs.
    store.run_query(...) -> QueryResult  the same with kind, variables and the truncated flag; the default
        graph is the union of the graphs as a set (a triple held by two graphs matches once; query_worker)
    store.run_trusted(query, graphs=None) -> QueryResult   in-process, unchecked: the layer's own queries
    store.quads(names=None) -> Iterator[ox.Quad]; store.count(name=None) -> int; store.graphs() -> dict
    store.ntriples(names=None) -> NTriples     the same triples as text lines (the reasoner's input)
    store.replace_graph(name, triples, source="") -> GraphInfo     (writes need the workspace lock)
        `triples`: pyoxigraph triples/quads, or `rdfio.NTriples` (bulk-loaded from text, in Rust)
    store.remove_graph(name) -> bool

The registry (`GraphRegistry`) and the choice of what a replacement writes (`plan_replacement`) are
shared with the SPARQL-server backend (pyramid.ontology.remote_store; pyramid.ontology.backends picks one).

Atomicity. Oxigraph's transactional writes (`extend`, `update`) took 1.5 s for 49k triples here and a
graph MOVE 6 s, while `bulk_load`/`bulk_extend` took 0.5 s but are not transactional. So a new version
of a graph is bulk-written into a fresh physical graph no reader looks at, then the registry file is
replaced atomically (the switch), then the old physical graph is dropped. Readers query only the
registered graphs, so they see the old version or the new one, never a mix; a crash before the switch
leaves an unregistered graph that the next write removes.

Damage. Every open goes through `_open`, after `_on_disk` has looked at the directory: a store whose
files are damaged (CURRENT deleted, a corrupt MANIFEST or table file, a file where the directory
should be, the directory gone while graphs.json still names graphs) is one WorkspaceError naming the
directory and what to do. The check comes before the read-write open on purpose: RocksDB opened
read-write over a directory without CURRENT starts a new database there and damages it further.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyoxigraph as ox

from pyramid.errors import WorkspaceError
from pyramid.ontology.query_pool import Lane, QueryPool
from pyramid.ontology.query_worker import QueryResult, QueryWorker, _StoreChanged, execute
from pyramid.ontology.rdfio import NTriples

SCHEMA = "schema"
INFERRED = "inferred"
REGISTRY = "graphs.json"
OVERLAP_CACHE = "cache/overlap.json"  # query_worker: whether a set of physical graphs shares a triple (a cache)
GRAPH_PREFIX = "urn:polyrag:graph:"
_BULK_MIN = 2000  # below this, a transactional extend is as fast as a bulk write
TEXT_CACHE_LINES = 3_000_000  # graphs written as text kept for the next reason() (~150 bytes a line)


def inferred_fingerprint(graphs: dict[str, GraphInfo]) -> str:
    """What the inferred graph was derived from: the physical graphs of every other graph. The
    inferred graph's `source` holds it; equal to the current one, the inferred graph is fresh, and
    then shares no triple with those graphs (the reasoner writes only what is not asserted)."""
    iris = sorted(g.iri for n, g in graphs.items() if n != INFERRED)
    return "asserted:" + hashlib.sha256("\n".join(iris).encode()).hexdigest()[:16]


DOCUMENT_GRAPH = "doc:"  # the prefix of the graphs of instances read from documents


def doc_graph(doc_id: str) -> str:
    return f"{DOCUMENT_GRAPH}{doc_id}"


def import_graph(name: str) -> str:
    return f"import:{name}"


@dataclass
class GraphInfo:
    name: str          # logical name
    iri: str           # physical graph IRI in the store
    triples: int
    source: str = ""
    loaded: str = ""
    digest: str = ""   # of the content: replacing a graph by the same triples writes nothing


def _quad(t, graph: ox.NamedNode) -> ox.Quad:
    s, p, o = (t.subject, t.predicate, t.object) if hasattr(t, "subject") else t
    return ox.Quad(s, p, o, graph)


class GraphRegistry:
    """The registry file (logical graph -> physical graph IRI, count, digest; the generation) that
    every store backend keeps in the workspace, so a write switches versions by one atomic rename.
    `_store_tag` (remote stores) names the server the physical graphs live on."""

    root: Path
    _store_tag: dict[str, str] | None = None

    def _registry(self) -> dict[str, Any]:
        import json

        path = self.root / REGISTRY
        if not path.exists():
            return {"generation": "", "graphs": {}}
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise WorkspaceError(f"{path}: not valid JSON ({err})") from None

    def graphs(self) -> dict[str, GraphInfo]:
        return {name: GraphInfo(**info) for name, info in self._registry()["graphs"].items()}

    @property
    def generation(self) -> str:
        return self._registry()["generation"]

    def has_graph(self, name: str) -> bool:
        return name in self._registry()["graphs"]

    def _iris(self, names: Iterable[str] | None) -> list[str]:
        graphs = self.graphs()
        chosen = graphs.values() if names is None else [graphs[n] for n in names if n in graphs]
        return [g.iri for g in chosen]

    def _save_registry(self, graphs: dict[str, GraphInfo]) -> None:
        from pyramid.workspace import atomic_write_json

        tag = {"store": self._store_tag} if self._store_tag else {}
        atomic_write_json(self.root / REGISTRY, {"generation": uuid.uuid4().hex, **tag,
                                                 "graphs": {n: asdict(g) for n, g in sorted(graphs.items())}})

    def count(self, name: str | None = None) -> int:
        graphs = self.graphs()
        return sum(g.triples for n, g in graphs.items() if name is None or n == name)


Content = list[ox.Quad] | NTriples   # what one graph's new version holds, as `plan_replacement` passes it on


def plan_replacement(graphs: dict[str, GraphInfo], contents: dict[str, tuple[list | NTriples, str]]
                     ) -> tuple[dict[str, GraphInfo], list[tuple[str, ox.NamedNode, Content, str, str]], bool]:
    """What `replace_graphs` must write: (graphs unchanged by content, with their new source;
    (name, new physical graph, content, source, digest) to write; whether a source alone changed).
    A content given as triples is passed on as quads in the new graph; one given as `NTriples` (the
    import's and the reasoner's large graphs) stays text, which the stores load in Rust.
    `graphs` (the registry as read) gets the new sources of the unchanged ones."""
    before = {n: g.source for n, g in graphs.items()}
    out: dict[str, GraphInfo] = {}
    pending: list[tuple[str, ox.NamedNode, Content, str, str]] = []
    for name, (triples, source) in contents.items():
        graph = ox.NamedNode(f"{GRAPH_PREFIX}{quote(name, safe='')}:{uuid.uuid4().hex[:12]}")
        content: Content = triples if isinstance(triples, NTriples) else [_quad(t, graph) for t in triples]
        # Dropping a replaced graph costs Oxigraph ~2 s per 50k triples, so identical content is a
        # no-op (blank-node labels differ between parses, so files with blank nodes are always rewritten).
        digest = (content if isinstance(content, NTriples) else NTriples.from_triples(content)).digest()
        current = graphs.get(name)
        if current is not None and current.digest == digest:
            out[name] = current
            current.source = source  # same triples, maybe new provenance (the inferred graph's fingerprint)
        else:
            pending.append((name, graph, content, source, digest))
    return out, pending, any(graphs[n].source != before[n] for n in out)


class OntologyStore(GraphRegistry):
    server_reasons = False  # pyramid.ontology.backends.OntologyBackend: the reasoner fills "inferred"

    def __init__(self, root: Path, *, require_write: Callable[[], None] | None = None,
                 memory_mb: int = 2048, query_processes: int = 2, queue_wait_s: float = 5.0) -> None:
        self.root = Path(root)
        self.memory_mb = memory_mb  # each query process's heap ceiling
        self.query_processes, self.queue_wait_s = query_processes, queue_wait_s
        self.path = self.root / "store"
        self._require_write = require_write or (lambda: None)
        self._pool: QueryPool | None = None
        self._writer_store: ox.Store | None = None
        self._texts: dict[str, NTriples] = {}  # physical graph IRI -> what this process wrote there (ntriples)

    # ------------------------------------------------------------------ reading
    def _damaged(self, why: str) -> WorkspaceError:
        return WorkspaceError(
            f"the ontology store {self.path} is damaged ({' '.join(why.split())[:300]}); move it and "
            f"{self.root / REGISTRY} aside, then build the ontology layer again (load the schema, import the "
            "instance files and extract the documents' instances again)")

    def _on_disk(self, *, for_write: bool = False) -> bool:
        """True when a store is on disk, False when nothing was written yet; raises when what is there
        cannot be a healthy store (checked without opening it: a read-write open would write)."""
        registered = len(self._registry()["graphs"])
        if not self.path.exists():
            if registered:  # the registry names graphs that would silently read as empty
                raise self._damaged(f"the directory is missing though {REGISTRY} names {registered} graphs")
            return False
        if not self.path.is_dir():
            raise self._damaged("it is not a directory")
        if not (self.path / "CURRENT").is_file():
            # Nothing registered: nothing committed, so a reader sees an empty store (this is also
            # what a reader meets while the first writer creates the store). A writer never lets
            # RocksDB create a database over files it does not know.
            if registered or (for_write and any(self.path.iterdir())):
                raise self._damaged("its CURRENT file is missing")
            return False
        return True

    def _open(self, *, read_only: bool) -> ox.Store:
        # A read-only open lists the table files in the MANIFEST, then opens them: a writer in another
        # process compacting in between removes one ("No such file ... .sst", reported as Corruption),
        # which is a race, not damage. So a read-only open is tried again for ~0.8 s before it is called so.
        waits = (0.05, 0.1, 0.2, 0.4) if read_only else ()
        for wait in (*waits, None):
            try:
                return ox.Store.read_only(str(self.path)) if read_only else ox.Store(str(self.path))
            except (RuntimeError, FileNotFoundError, NotADirectoryError) as err:  # RocksDB's Corruption, files gone
                if wait is None:
                    raise self._damaged(str(err)) from None
                time.sleep(wait)
            except OSError as err:  # not damage: a lock held elsewhere, permissions
                raise WorkspaceError(f"cannot open the ontology store {self.path}: {err}") from None
        raise AssertionError("unreachable")

    @contextlib.contextmanager
    def _reader(self) -> Iterator[ox.Store]:
        if self._writer_store is not None:
            yield self._writer_store
        elif not self._on_disk():
            yield ox.Store()  # nothing written yet: an empty store answers every read
        else:
            yield self._open(read_only=True)

    def run_query(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None = None,
                  graphs: list[str] | None = None, typed: bool = False, distinct: bool = False,
                  lane: Lane = "user") -> QueryResult:
        """A user's or a question's query: checked read-only, killed after timeout_s, capped at row_cap.
        `distinct`: the query removes repeated rows itself (SELECT DISTINCT, COUNT(DISTINCT)), so the
        union of the graphs may stay a bag and no set copy is made (a fresh process answers at once).
        `lane`: whose query it is (see query_pool: a question's never waits behind a user's)."""
        from pyramid.ontology.safety import check_query

        check_query(query, prefixes)
        # Never in this process, even on an empty store: the worker is the confined, killable place.
        where = self.path if self._on_disk() else None
        with self._pool_at(where).worker(lane) as worker:
            return self._run_in(worker, query, where, timeout_s=timeout_s, row_cap=row_cap, prefixes=prefixes,
                                graphs=graphs, typed=typed, distinct=distinct)

    def _run_in(self, worker: QueryWorker, query: str, where: Path | None, *, timeout_s: float,
                row_cap: int | None, prefixes: dict[str, str] | None, graphs: list[str] | None, typed: bool,
                distinct: bool) -> QueryResult:
        registry = self._registry()
        chosen = [GraphInfo(**g) for n, g in registry["graphs"].items() if graphs is None or n in graphs]
        everything = {n: GraphInfo(**g) for n, g in registry["graphs"].items()}
        inferred = everything.get(INFERRED)
        # a fresh inferred graph shares no triple with the others: the query process's check for a
        # triple held twice (a scan, ~1 s CPU per 150k triples) leaves it out
        disjoint = [inferred.iri] if inferred and inferred.source == inferred_fingerprint(everything) else []
        try:
            return worker.run(query, timeout_s=timeout_s, row_cap=row_cap, prefixes=prefixes,
                                    graphs=[g.iri for g in chosen] if where else [], generation=registry["generation"],
                                    typed=typed, triples=sum(g.triples for g in chosen), disjoint=disjoint,
                                    distinct=distinct)
        except _StoreChanged:
            # The store failed in the worker twice: if it does not even open here, say it is damaged.
            if where is not None:
                self._open(read_only=True)
            raise

    def _pool_at(self, where: Path | None) -> QueryPool:
        if self._pool is None or self._pool.where != where:
            self.close()
            self._pool = QueryPool(where, lambda: QueryWorker(where, memory_mb=self.memory_mb,
                                                              overlap_cache=self.root / OVERLAP_CACHE),
                                   user_processes=self.query_processes, wait_s=self.queue_wait_s)
        return self._pool

    def warm(self) -> None:
        """Start a question's query process now, so that its start-up overlaps the caller's own work
        (a cold `polyrag ask` loads its indexes meanwhile)."""
        self._pool_at(self.path if self._on_disk() else None).start("question")

    def select(self, query: str, *, timeout_s: float, row_cap: int | None, prefixes: dict[str, str] | None = None,
               graphs: list[str] | None = None) -> list[dict[str, Any]]:
        return self.run_query(query, timeout_s=timeout_s, row_cap=row_cap, prefixes=prefixes, graphs=graphs).rows

    def run_trusted(self, query: str, *, graphs: list[str] | None = None, row_cap: int | None = None,
                    prefixes: dict[str, str] | None = None) -> QueryResult:
        """Our own fixed queries (stats, benchmarks, the planner's indexes): in-process, no safety check,
        no timeout. A writer in another process may remove a file under the snapshot while it is read
        (FileNotFoundError, RocksDB's "No such file"): read again from a fresh snapshot, a few times."""
        for wait in (0.05, 0.2, 0.5, None):
            try:
                with self._reader() as store:
                    return execute(store, query, row_cap=row_cap, prefixes=prefixes, graphs=self._iris(graphs))
            except (FileNotFoundError, RuntimeError):  # RocksDB reports a file gone as a RuntimeError
                if wait is None or self._writer_store is not None or not self._on_disk():
                    raise
                time.sleep(wait)
        raise AssertionError("unreachable")

    def quads(self, names: Iterable[str] | None = None) -> Iterator[ox.Quad]:
        """Quads of the given logical graphs (all registered ones by default)."""
        iris = self._iris(names)
        with self._reader() as store:
            for iri in iris:
                yield from store.quads_for_pattern(None, None, None, ox.NamedNode(iri))

    def ntriples(self, names: Iterable[str] | None = None) -> NTriples:
        """The triples of the given logical graphs (all by default) as text, for the reasoner: a
        graph this process wrote as text is taken from memory (a physical graph never changes after
        its write, so the copy cannot be stale), any other is dumped by Oxigraph (~1 s per 150k)."""
        iris = self._iris(names)
        lines: list[str] = []
        missing = [iri for iri in iris if iri not in self._texts]
        if missing:
            with self._reader() as store:
                for iri in missing:
                    lines += NTriples.from_bytes(store.dump(format=ox.RdfFormat.N_TRIPLES,
                                                            from_graph=ox.NamedNode(iri))).lines
        for iri in iris:
            if iri in self._texts:
                lines += self._texts[iri].lines
        return NTriples(lines)

    def _remember(self, iri: str, text: NTriples) -> None:
        """Keep a graph written as text for `ntriples` (the oldest go past TEXT_CACHE_LINES)."""
        if len(text) > TEXT_CACHE_LINES:
            return
        self._texts[iri] = text
        while sum(map(len, self._texts.values())) > TEXT_CACHE_LINES:
            del self._texts[next(iter(self._texts))]

    # ------------------------------------------------------------------ writing
    @contextlib.contextmanager
    def writer(self) -> Iterator[ox.Store]:
        """The read-write store for one write operation (re-entrant). pyoxigraph closes RocksDB when
        the last reference goes, so do not keep the yielded store past the block: other processes
        (and later writes) can open it only once it is closed."""
        self._require_write()
        if self._writer_store is not None:
            yield self._writer_store
            return
        self._on_disk(for_write=True)  # before the open: read-write over a damaged directory damages it more
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer_store = self._open(read_only=False)
        try:
            yield self._writer_store
            self._writer_store.flush()  # read-only openers (the query worker) see flushed files
        finally:
            self._writer_store = None  # dropping the last reference closes RocksDB

    def replace_graph(self, name: str, triples: Iterable | NTriples, *, source: str = "") -> GraphInfo:
        """Make `triples` the content of logical graph `name` (atomically, see the module docstring)."""
        return self.replace_graphs({name: (triples if isinstance(triples, NTriples) else list(triples), source)})[name]

    def replace_graphs(self, contents: dict[str, tuple[list | NTriples, str]]) -> dict[str, GraphInfo]:
        """Make each `name`'s content its (triples, source), all switched at once by one registry
        write: a build writing thousands of small page graphs opens the store, saves the registry and
        drops old versions once, not once per page."""
        graphs = self.graphs()
        out, pending, changed_source = plan_replacement(graphs, contents)
        if not pending:
            if changed_source:
                self._require_write()
                self._save_registry(graphs)
            return out
        with self.writer() as store:
            quads = [q for _, _, qs, _, _ in pending if not isinstance(qs, NTriples) for q in qs]
            if len(quads) >= _BULK_MIN:
                store.bulk_extend(quads)
            else:
                store.extend(quads)
            for name, graph, text, _, _ in pending:
                if not isinstance(text, NTriples) or not text.lines:
                    continue
                if text.has_blank_nodes:  # Oxigraph's loader renames blank nodes; these keep their labels
                    store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object, graph) for t in text.triples())
                else:  # parsed and written in Rust: ~1.2 s for LUBM(1)'s 154k triples. Lenient (IRIs not
                    # checked again, ~10% faster): the text was written by Oxigraph or from terms it parsed.
                    store.bulk_load(input=text.data(), format=ox.RdfFormat.N_TRIPLES, to_graph=graph, lenient=True)
                if name != INFERRED:  # the reasoner's input, read again by the next reason()
                    self._remember(graph.value, text)
            now = datetime.now(UTC).isoformat(timespec="seconds")
            for name, graph, qs, source, digest in pending:
                store.add_graph(graph)  # an empty graph is still a registered (empty) source
                out[name] = graphs[name] = GraphInfo(name, graph.value, len(qs), source, now, digest)
            self._save_registry(graphs)
            self._collect(store, graphs)
        return out

    def remove_graph(self, name: str) -> bool:
        graphs = self.graphs()
        if name not in graphs:
            return False
        with self.writer() as store:
            del graphs[name]
            self._save_registry(graphs)
            self._collect(store, graphs)
        return True

    def _collect(self, store: ox.Store, graphs: dict[str, GraphInfo]) -> None:
        """Drop physical graphs the registry no longer names (old versions, leftovers of crashes)."""
        live = {g.iri for g in graphs.values()}
        self._texts = {iri: text for iri, text in self._texts.items() if iri in live}
        for g in list(store.named_graphs()):
            if isinstance(g, ox.NamedNode) and g.value.startswith(GRAPH_PREFIX) and g.value not in live:
                store.remove_graph(g)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


