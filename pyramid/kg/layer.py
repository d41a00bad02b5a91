"""The knowledge-graph layer (K): build by extraction or import, search triples, report stats.

    KGLayer(ws, embedder)
      .build(llm, mode=<kg.mode>, progress=)             documents → the mode's extractor
                                                        (pyramid.kg.extractors) → entity resolution
                                                        → graph store → index
      .import_file(path, on_error="abort"|"skip")       JSON / JSONL / CSV triples → same path
      .search(question, k=, expand=)                    Emb_kg top-k (+ 1-hop expansion)
      .stats() / .store() / .sync_index() / .resync()

On disk (`WS/kg/`): the LadybugDB database `graph.lbug` (Kùzu's `graph.kuzu` in workspaces built
with it; or a Neo4j server), the triple index generations `index/`, the extraction journals
`extract-<mode>.jsonl`, and `state.json` (the documents and files loaded, by content hash). Build
order makes a stop at any point safe: the journal is written per chunk; a document's triples are
replaced (delete by document, then upsert, both idempotent) and only then recorded in `state.json`,
so a rerun redoes exactly what is missing.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from pyramid.chunker import Chunker
from pyramid.config import KGSettings
from pyramid.corpus_store import CorpusStore
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.kg.backends import make_store
from pyramid.kg.extractors import TRIPLE_EXTRACTORS
from pyramid.kg.extractors import check as check_mode
from pyramid.kg.extractors import choose as choose_mode
from pyramid.kg.extractors.base import Resolve, TripleJob
from pyramid.kg.importer import OnError, check_errors, read_triples
from pyramid.kg.index import SyncReport, TripleHit, TripleIndex
from pyramid.kg.model import Entity, Sourced, Triple, triple_from_json, triple_to_json
from pyramid.kg.resolve import EntityResolver, compatible, similar_pairs
from pyramid.kg.store import GraphStore
from pyramid.layers import BuildRequest, StepReport, timed_step
from pyramid.llm import LLM
from pyramid.progress import NullProgress, Progress
from pyramid.types import LayerName
from pyramid.usage import Usage
from pyramid.workspace import BuildJournal, Part, Workspace, atomic_write_json, crash_point

LAYER: LayerName = "kg"
SERVER_UNDO = "kg-server.json"  # the build journal's undo file for a graph on a server
STATE = "state.json"
DUPLICATE_HINT = 0.85  # stats: entity pairs at least this similar (and unmerged) are shown as likely duplicates


@dataclass
class Loaded:
    """Triples placed in the store by one build or import."""

    triples: int = 0
    entities: int = 0
    resolution: dict[str, Any] = field(default_factory=dict)
    index: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # resolution, writes, index: where the time went


@dataclass
class BuildReport:
    mode: str
    unit: str = "chunks extracted"     # what the mode's extractor counts ("pages read")
    documents: int = 0                 # documents (re)loaded
    documents_removed: int = 0
    documents_pending: int = 0         # held back because one of their chunks failed
    chunks: int = 0
    chunks_extracted: int = 0          # by the LLM in this run
    chunks_resumed: int = 0            # done by an earlier run (journal)
    failed_chunks: list[str] = field(default_factory=list)
    triples_extracted: int = 0
    dropped_ungrounded: int = 0
    duplicates_dropped: int = 0
    loaded: Loaded = field(default_factory=Loaded)
    totals: dict[str, int] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        d = asdict(self)
        d["usage"] = self.usage.to_dict()
        return d


@dataclass
class TripleImportReport:
    file: str
    rows: int = 0
    skipped: list[str] = field(default_factory=list)   # "line N: reason"
    loaded: Loaded = field(default_factory=Loaded)
    totals: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


class KGLayer:
    name: LayerName = LAYER
    removal_unit = "KG triples"

    def __init__(self, ws: Workspace, embedder: Embedder, cfg: KGSettings | None = None) -> None:
        self.ws = ws
        self.embedder = embedder
        self.cfg = cfg or ws.settings.kg
        self.dir = ws.layer_dir(LAYER)
        self._store: GraphStore | None = None

    # ------------------------------------------------------------------ parts
    @cached_property
    def index(self) -> TripleIndex:
        return TripleIndex(self.dir / "index", self.embedder, self.source).load()

    @property
    def source(self) -> str:
        """The configured graph store as the triple index records it (never the user or password)."""
        if self.cfg.backend == "neo4j":
            return f"neo4j at {self.cfg.neo4j_uri or '(no URI)'}, database {self.cfg.neo4j_database or '(default)'}"
        return self.cfg.backend  # an embedded graph is always WS/kg/<engine's file>

    @cached_property
    def chunker(self) -> Chunker:
        return Chunker(self.embedder.tokenizer, self.cfg.chunk_size, self.cfg.chunk_overlap)

    def store(self, *, write: bool = False) -> GraphStore:
        """The graph store; read-only unless `write` (an open writer also serves reads)."""
        if self._store is not None and (self._store.read_only and write):
            self.close()
        if self._store is None:
            self._store = make_store(self.cfg, self.dir, read_only=not write)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    @property
    def exists(self) -> bool:
        return self.index.gens.current() is not None

    def _state(self) -> dict[str, Any]:
        path = self.dir / STATE
        if not path.exists():
            return {"docs": {}, "imports": {}}
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise WorkspaceError(f"{path}: not valid JSON ({err})") from None

    def resolver(self, resolve: Resolve = "embedding") -> EntityResolver:
        return EntityResolver(self.embedder if resolve == "embedding" else None, self.cfg.resolve_threshold)

    # ------------------------------------------------------------------ loading (build and import)
    def _load(self, store: GraphStore, items: list[Sourced], resolve: Resolve, progress: Progress) -> Loaded:
        """Resolve the entities of `items` against the store's, upsert the triples."""
        mentions = [(s.triple.head, s.triple.head_type) for s in items] + \
                   [(s.triple.tail, s.triple.tail_type) for s in items]
        t0 = time.perf_counter()
        entity_of, rep = self.resolver(resolve).resolve(mentions, store.entities(), progress=progress)
        t1 = time.perf_counter()
        triples: dict[str, Triple] = {}
        for s in items:
            r = s.triple
            subj = entity_of[(" ".join(r.head.split()), r.head_type)]
            obj = entity_of[(" ".join(r.tail.split()), r.tail_type)]
            if subj.id == obj.id:
                continue  # resolution made it a self-loop: the two ends were one thing
            # One triple per fact and document: the same fact read in two overlapping chunks is one edge.
            t = Triple.make(subj, r.relation, obj, source=s.doc_id, properties=r.properties,
                            chunk_id=s.chunk_id, doc_id=s.doc_id, confidence=r.confidence, canonical=r.canonical)
            triples.setdefault(t.id, t)
        store.upsert(entity_of.values(), triples.values())
        return Loaded(triples=len(triples), entities=len({e.id for e in entity_of.values()}),
                      resolution=rep.to_dict(),
                      seconds={"resolution": round(t1 - t0, 2), "writes": round(time.perf_counter() - t1, 2)})

    def _finish(self, store: GraphStore, step: str, seconds: float, usage: Usage | None,
                progress: Progress) -> tuple[dict[str, int], SyncReport]:
        sync = self.index.sync(store.iter_triples(), progress=progress)
        st = store.stats()
        totals = {"triples": st.triples, "entities": st.entities, "relations": st.relations,
                  "canonical_relations": st.canonical_relations, "documents": st.documents}
        self.ws.record_step(step, seconds=seconds, usage=usage, layer=LAYER, counts=totals,
                            versions={"kg_backend": self.cfg.backend, "embedding_model": self.embedder.model_id})
        return totals, sync

    # ------------------------------------------------------------------ build
    def build(self, llm: LLM, *, mode: str = "cascade", progress: Progress | None = None,
              limit: int | None = None, readings=None) -> BuildReport:
        """Extract triples from the workspace's documents (only new or changed ones) with the
        extractor `mode` names (pyramid.kg.extractors); resumable.

        `limit` takes the first N documents (benchmarks). Failed chunks are journalled and retried by
        the next build; their documents are not loaded until every chunk has succeeded. `readings`
        (a callable giving doc id -> PageReading, pyramid.reading.corpus) is the pages' reading, for
        the extractors that take their triples from it.
        """
        progress = progress or NullProgress()
        start = time.perf_counter()
        report = BuildReport(mode=mode)
        extractor = TRIPLE_EXTRACTORS.get(mode).build(llm, self.cfg)
        report.unit = extractor.unit
        with self.ws.writing("kg.build"), llm.meter.scope() as usage:
            docs = CorpusStore(self.ws).documents()
            if not docs:
                raise WorkspaceError(f"workspace {self.ws.root} has no documents",
                                     hint=Hint(action="add_documents", target=str(self.ws.root)))
            docs = docs[:limit] if limit else docs
            state = self._state()
            got = extractor.extract(docs, TripleJob(llm, self.dir, self.chunker, state["docs"], progress, readings))
            removed = [] if limit else [d for d in state["docs"] if d not in {x.id for x in docs}]
            report.chunks, report.chunks_extracted, report.chunks_resumed = \
                got.chunks, got.chunks_extracted, got.chunks_resumed
            report.failed_chunks, report.documents_pending = got.failed_chunks, got.documents_pending
            report.dropped_ungrounded, report.duplicates_dropped = got.dropped_ungrounded, got.duplicates_dropped
            report.triples_extracted = len(got.items)
            self._commit(report, state, got.ready, removed, got.keys, got.items, got.resolve, start, usage, progress)
        report.usage = usage.model_copy()
        report.seconds = time.perf_counter() - start
        return report

    def _commit(self, report: BuildReport, state: dict[str, Any], ready: list, removed: list[str],
                key: dict[str, str], items: list[Sourced], resolve: Resolve, start: float, usage: Usage,
                progress: Progress) -> None:
        """Replace the triples of the `ready` documents (drop those of `removed`), then record them
        in the state: a stop before the state is written redoes them."""
        loaded = state["docs"]
        store = self.store(write=True)
        self._prepare_undo(store, [d.id for d in ready] + removed)
        store.delete_documents([d.id for d in ready if d.id in loaded] + removed)
        crash_point("kg.deleted")
        report.loaded = self._load(store, items, resolve, progress) if items else Loaded()
        crash_point("kg.loaded")
        for d in ready:
            loaded[d.id] = key[d.id]
        for d in removed:
            loaded.pop(d, None)
        report.documents, report.documents_removed = len(ready), len(removed)
        report.totals, sync = self._finish(store, "kg.build", time.perf_counter() - start, usage, progress)
        report.loaded.index = asdict(sync)
        crash_point("kg.synced")
        atomic_write_json(self.dir / STATE, state)
        crash_point("kg.state")

    def _prepare_undo(self, store: GraphStore, docs: list[str]) -> None:
        """On a server (Neo4j), before the build changes `docs` there: their triples as they are, in
        the build journal, so a rollback can put them back (pyramid.workspace.Part "undo"). The first
        record of a document wins: it is the one from before the build."""
        if self.cfg.embedded or not docs:
            return
        path = BuildJournal(self.ws).undo_file(SERVER_UNDO)
        if path is None:
            return
        undo = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"docs": [], "triples": []}
        new = set(docs) - set(undo["docs"])
        undo["docs"] += sorted(new)
        undo["triples"] += [triple_to_json(t) for t in store.iter_triples() if t.doc_id in new]
        atomic_write_json(path, undo)  # on disk before the server changes
        crash_point("kg.undo")

    # ------------------------------------------------------------------ import
    def import_file(self, path: Path, *, fmt: str = "auto", on_error: OnError = "abort",
                    resolve: Resolve = "embedding", progress: Progress | None = None) -> TripleImportReport:
        """Load a triple file; a re-import of the same file replaces its triples."""
        progress = progress or NullProgress()
        start = time.perf_counter()
        path = Path(path)
        read = read_triples(path, fmt)
        check_errors(read, path, on_error)
        report = TripleImportReport(file=str(path), rows=len(read.rows), skipped=[str(e) for e in read.errors])
        default_doc = f"import:{path.name}"
        items = [Sourced(r.triple, r.doc_id or default_doc, r.chunk_id) for r in read.rows]
        with self.ws.writing("kg.import"):
            state = self._state()
            store = self.store(write=True)
            docs = sorted({s.doc_id for s in items})
            store.delete_documents(docs)
            report.loaded = self._load(store, items, resolve, progress)
            t0 = time.perf_counter()
            report.totals, sync = self._finish(store, "kg.import", time.perf_counter() - start, None, progress)
            report.loaded.index = asdict(sync)
            report.loaded.seconds["index"] = round(time.perf_counter() - t0, 2)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            state["imports"][path.name] = {"hash": digest, "documents": docs[:20], "rows": len(read.rows)}
            atomic_write_json(self.dir / STATE, state)
        report.seconds = time.perf_counter() - start
        return report

    # ------------------------------------------------------------------ the Layer protocol (pyramid.layers)
    def check(self, request: BuildRequest) -> None:
        check_mode(request.kg_mode or self.cfg.mode)

    def parts(self) -> list[Part]:
        """The state file, the index generations and the embedded database with its write-ahead log (closed
        first: its file is copied whole). A Neo4j server's graph cannot be copied: a rollback puts the
        state back, so the next build reloads those documents (delete by document, then upsert)."""
        rel = f"{LAYER}/"
        parts = [Part(rel + STATE, "file"), Part(rel + "index", "gens")]
        if self.cfg.embedded:
            from pyramid.kg.embedded_store import ENGINES

            self.close()
            file = ENGINES[self.cfg.backend].file
            parts += [Part(rel + file, "file"), Part(rel + file + ".wal", "file")]
        else:  # the server's graph: what the build changes there is written down first, and put back
            parts.append(Part(SERVER_UNDO, "undo", restore="pyramid.kg.layer:restore_server"))
        return parts

    def update(self, request: BuildRequest) -> list[StepReport]:
        reports: list[StepReport] = []
        with timed_step(self.name, request.meter, reports) as rec:
            assert request.llm is not None, "a KG build needs a model"
            # build_pyramid chose the mode once (auto settled); a request made elsewhere may leave it to here
            mode = choose_mode(request.kg_mode or self.cfg.mode, request.llm, can_read=request.readings is not None)
            r = self.build(request.llm, mode=mode, progress=request.progress, readings=request.readings)
            rec.outcome = (f"{mode} mode: {r.chunks_extracted} {r.unit}, {r.chunks_resumed} resumed; "
                           f"graph {r.totals.get('triples', 0)} triples, {r.totals.get('entities', 0)} entities")
            if r.failed_chunks:
                rec.pending.append(f"kg: {len(r.failed_chunks)} chunks failed ({', '.join(r.failed_chunks[:3])})")
        return reports

    def remove_documents(self, doc_ids: list[str], progress: Progress | None = None) -> int:
        """Drop what these documents contributed (their triples, orphaned entities, their vectors);
        no model is needed. Returns how many triples were dropped."""
        if not self.exists:
            return 0
        start = time.perf_counter()
        with self.ws.writing("kg.remove"):
            state = self._state()
            store = self.store(write=True)
            dropped = store.delete_documents(list(doc_ids))
            if dropped or any(d in state["docs"] for d in doc_ids):
                for d in doc_ids:
                    state["docs"].pop(d, None)
                self._finish(store, "kg.remove", time.perf_counter() - start, None, progress or NullProgress())
                atomic_write_json(self.dir / STATE, state)
        return dropped

    def sync_index(self, progress: Progress | None = None) -> SyncReport:
        """Bring the triple index up to the store (after renames or merges made on the store)."""
        with self.ws.writing("kg.index"):
            return self.index.sync(self.store(write=True).iter_triples(), progress=progress)

    def resync(self, progress: Progress | None = None) -> tuple[dict[str, int], SyncReport]:
        """`polyrag kg sync`: rebuild the index from the configured store (after switching
        `kg.backend`, or after the graph changed on the server) and record the store's counts."""
        start = time.perf_counter()
        with self.ws.writing("kg.sync"):
            return self._finish(self.store(write=True), "kg.sync", time.perf_counter() - start, None,
                                progress or NullProgress())

    # ------------------------------------------------------------------ reading
    def _require(self) -> None:
        built = self.index.load().built_from  # None: no generation yet
        if built is None:
            raise WorkspaceError(f"workspace {self.ws.root} has no knowledge graph yet",
                                 hint=Hint(action="build_kg", target=str(self.ws.root)))
        if built == "kuzu" and self.source == "ladybug":
            raise WorkspaceError(f"the knowledge graph of {self.ws.root} was built with Kùzu, which is archived "
                                 'upstream; it can be converted to LadybugDB, or read as it is with kg.backend = "kuzu"',
                                 hint=Hint(action="migrate_kg", target=str(self.ws.root)))
        if built != self.source:
            # Answering from triples of another store would be a silent stale answer.
            raise WorkspaceError(f"the KG index of {self.ws.root} was built from {built}, but the configured "
                                 f"graph store is {self.source} (or set kg.backend back)",
                                 hint=Hint(action="sync_kg", target=str(self.ws.root)))

    def search(self, query: str, *, k: int | None = None, expand: bool = False,
               query_vector: np.ndarray | None = None, expand_limit: int = 50) -> list[TripleHit]:
        """Top-k triples by cosine to `query`; with `expand`, the 1-hop relations of the hits'
        entities are scored the same way and added as candidates (marked via="expansion")."""
        self._require()
        k = k or self.cfg.k
        q = self.embedder.embed_one(query, kind="query") if query_vector is None else query_vector
        hits = self.index.search(q, k)
        if hits and not self.cfg.embedded:
            # A server's graph can change or go away behind this workspace's back (an embedded one lives in the
            # workspace and is written under its lock): the hits are read back from it by id, which
            # drops triples it no longer holds and fails with the URI when it cannot be reached.
            held = {t.id for t in self.store().triples([h.triple.id for h in hits])}
            hits = [h for h in hits if h.triple.id in held]
        if not expand or not hits:
            return hits
        ids = list(dict.fromkeys(e for h in hits for e in (h.triple.subject.id, h.triple.object.id)))
        have = {h.triple.id for h in hits}
        extra = [t for t in self.store().neighbours(ids, hops=1, limit=expand_limit) if t.id not in have]
        scores = self.index.score([t.id for t in extra], q)
        more = sorted((TripleHit(t, scores[t.id], "expansion") for t in extra if t.id in scores),
                      key=lambda h: -h.score)
        return hits + more

    def stats(self, top: int = 10, duplicates: int = 10) -> dict[str, Any]:
        """Counts, most frequent relations, and likely duplicate entities (similar names left apart)."""
        store = self.store()
        st = store.stats()
        relations: dict[str, int] = {}
        for r in store.relations():
            relations[r.relation] = relations.get(r.relation, 0) + r.count
        top_rel = sorted(relations.items(), key=lambda kv: -kv[1])[:top]
        return {"backend": self.cfg.backend, **asdict(st), "indexed_triples": len(self.index),
                "top_relations": top_rel, "likely_duplicates": self.likely_duplicates(store.entities(), duplicates)}

    def likely_duplicates(self, entities: list[Entity], n: int) -> list[tuple[str, str, float]]:
        """The `n` most similar pairs of distinct, compatible entities above DUPLICATE_HINT."""
        if len(entities) < 2 or n <= 0:
            return []
        vecs = self.embedder.embed([e.norm or e.name for e in entities], kind="document")
        best = [(s, a, b) for s, a, b in similar_pairs(vecs, DUPLICATE_HINT) if compatible(entities[a], entities[b])]
        return [(entities[a].name, entities[b].name, round(s, 3)) for s, a, b in best[:n]]


def restore_server(ws: Workspace, undo: Path) -> None:
    """A rollback's part for a server graph (see `KGLayer._prepare_undo`): the documents a stopped or
    failed build touched are deleted there and their earlier triples written back. Idempotent."""
    data = json.loads(undo.read_text(encoding="utf-8"))
    triples = [triple_from_json(line) for line in data["triples"]]
    store = make_store(ws.settings.kg, ws.layer_dir(LAYER), read_only=False)
    try:
        store.delete_documents(data["docs"])
        if triples:
            entities = {e.id: e for t in triples for e in (t.subject, t.object)}
            store.upsert(entities.values(), triples)
    finally:
        store.close()
