"""The text layer (T): chunk store, dense matrix and BM25 index, searched by a hybrid score.

    score = λ · cos(query, chunk) + (1 − λ) · bm25(query, chunk) / max_chunks bm25(query, ·)

BM25 scores are not cosines and their scale varies per query (number and rarity of the query's
terms), so they are divided by the query's best BM25 score: the sparse term lies in [0, 1] with
the best keyword match at 1, comparable to the cosine term. λ=1 is semantic only, λ=0 keyword only.

State is one generation directory (see `Generations`): chunks.jsonl, docs.json, dense.npy, and from
`text.ann_above` chunks dense.faiss, an ANN graph (pyramid.ann) that proposes the dense candidates;
the hybrid score of every candidate (the graph's and BM25's best) is the exact one. Adding
documents embeds only the new chunks; old vectors are copied across (and added to the old graph). BM25 statistics (IDF, average
length) depend on the whole corpus, so the BM25 index is refitted over all chunk tokens on every
load — milliseconds per thousand chunks, nothing beside embedding.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pyramid.ann import DenseGraph
from pyramid.chunker import Chunk, Chunker
from pyramid.config import CorpusSettings, TextSettings
from pyramid.corpus import Document
from pyramid.corpus_store import CorpusStore
from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.layers import BuildRequest, StepReport, timed_step
from pyramid.progress import NullProgress, Progress
from pyramid.types import LayerName
from pyramid.workspace import Part, Workspace, crash_point

if TYPE_CHECKING:  # bm25s pulls in scipy (~0.6 s): imported when an index is fitted, not when a question
    import bm25s  # the ontology answers builds the text answerer

LAYER: LayerName = "text"
GRAPH = "dense.faiss"
_WORD = re.compile(r"\w+", re.UNICODE)


class Bm25Tokenizer:
    """Lower-case word tokens, stopwords removed, Snowball-stemmed. Same function for corpus and query."""

    def __init__(self, stemmer: str = "english", stopwords: str = "en") -> None:
        self.stopwords: frozenset[str] = frozenset()
        if stopwords:
            from bm25s.stopwords import STOPWORDS_EN
            if stopwords != "en":
                raise ValueError(f"text.stopwords: only 'en' or '' are supported, got {stopwords!r}")
            self.stopwords = frozenset(STOPWORDS_EN)
        self._stem = None
        if stemmer:
            import Stemmer
            self._stem = Stemmer.Stemmer(stemmer).stemWords

    def __call__(self, text: str) -> list[str]:
        words = [w for w in _WORD.findall(text.lower()) if w not in self.stopwords]
        return self._stem(words) if self._stem else words


@dataclass
class Hit:
    chunk: Chunk
    score: float     # hybrid
    dense: float     # cosine
    sparse: float    # raw BM25
    sparse_norm: float  # BM25 / the query's best BM25


@dataclass
class IndexReport:
    documents_added: int = 0
    documents_replaced: int = 0
    documents_unchanged: int = 0
    documents_removed: int = 0
    chunks_added: int = 0
    chunks_total: int = 0
    tokens_embedded: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    skipped_empty: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


class TextLayer:
    """Open with `TextLayer(ws, embedder)`; `add_documents` writes (under the lock), `search` reads."""

    name: LayerName = LAYER
    removal_unit = "text documents"

    def __init__(self, ws: Workspace, embedder: Embedder, text_cfg: TextSettings | None = None,
                 corpus_cfg: CorpusSettings | None = None) -> None:
        self.ws = ws
        self.embedder = embedder
        self.cfg = text_cfg or ws.settings.text
        self.corpus_cfg = corpus_cfg or ws.settings.corpus
        self._loaded_gen: Path | None = None
        self.chunks: list[Chunk] = []
        self.docs: dict[str, dict] = {}
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.graph: DenseGraph | None = None
        self._bm25: bm25s.BM25 | None = None

    # ------------------------------------------------------------ state
    @property
    def exists(self) -> bool:
        return self.ws.generations(LAYER).current() is not None

    def load(self) -> TextLayer:
        gen = self.ws.generations(LAYER).current()
        if gen is None and self._loaded_gen is not None:  # gone (a rolled-back first build): empty again
            self.chunks, self.docs, self._bm25, self._loaded_gen, self.graph = [], {}, None, None, None
            self.matrix = np.zeros((0, 0), dtype=np.float32)
        if gen is None or gen == self._loaded_gen:
            return self
        try:
            with open(gen / "chunks.jsonl", encoding="utf-8") as fh:
                self.chunks = [Chunk(**json.loads(line)) for line in fh]
            self.docs = json.loads((gen / "docs.json").read_text(encoding="utf-8"))
            graph = gen / GRAPH
            # with a graph, the vectors are read from disk as candidates need them, not held in memory
            self.matrix = np.load(gen / "dense.npy", mmap_mode="r" if graph.exists() else None)
            self.graph = DenseGraph.read(graph) if graph.exists() else None
        except (OSError, ValueError, TypeError, RuntimeError) as err:  # faiss: RuntimeError
            raise WorkspaceError(f"text layer in {gen} is unreadable ({err}); re-index the documents") from None
        if len(self.chunks) != self.matrix.shape[0] or (self.graph is not None and len(self.graph) != len(self.chunks)):
            raise WorkspaceError(f"text layer in {gen}: {len(self.chunks)} chunks but {self.matrix.shape[0]} vectors"
                                 + (f" and {len(self.graph)} in the ANN graph" if self.graph is not None else ""))
        self._fit_bm25()
        self._loaded_gen = gen
        return self

    def _fit_bm25(self) -> None:
        self._bm25 = None
        if self.chunks:
            import bm25s

            bm = bm25s.BM25()
            bm.index([self.tokenize(c.text) or [""] for c in self.chunks], show_progress=False)
            self._bm25 = bm

    @cached_property
    def tokenize(self) -> Bm25Tokenizer:
        """Made on first use: its stopwords come from bm25s, whose import pulls in scipy (~0.6 s) — a
        question the ontology answers builds the text answerer but never tokenizes."""
        return Bm25Tokenizer(self.cfg.stemmer, self.cfg.stopwords)

    @cached_property
    def chunker(self) -> Chunker:
        return Chunker(self.embedder.tokenizer, self.corpus_cfg.chunk_size, self.corpus_cfg.chunk_overlap)

    def stats(self) -> dict:
        self.load()
        return {"documents": len(self.docs), "chunks": len(self.chunks),
                "dim": int(self.matrix.shape[1]) if self.matrix.size else 0,
                "chunk_size": self.corpus_cfg.chunk_size, "chunk_overlap": self.corpus_cfg.chunk_overlap,
                "embedding_model": self.embedder.model_id}

    # ------------------------------------------------------------ the Layer protocol (pyramid.layers)
    def remove_documents(self, doc_ids: list[str], progress: Progress | None = None) -> int:
        return self.add_documents([], progress=progress, remove=doc_ids).documents_removed

    def check(self, request: BuildRequest) -> None:
        return None  # documents were validated when loaded

    def parts(self) -> list[Part]:
        return [Part(LAYER, "gens")]  # one generation directory holds the whole layer

    def update(self, request: BuildRequest) -> list[StepReport]:
        reports: list[StepReport] = []
        with timed_step(self.name, request.meter, reports) as rec:
            # every corpus document, not only this build's: unchanged ones cost a hash comparison, and
            # documents a failed earlier build left out are indexed now
            r = self.add_documents(CorpusStore(self.ws).documents(), progress=request.progress)
            rec.outcome = (f"{r.documents_added} new, {r.documents_replaced} changed documents; "
                           f"{r.chunks_added} chunks embedded, {r.chunks_total} in all")
        return reports

    # ------------------------------------------------------------ writing
    def add_documents(self, docs: list[Document], progress: Progress | None = None,
                      remove: list[str] | None = None) -> IndexReport:
        """Index new or changed documents (by content hash), drop `remove`; commit one new generation."""
        progress = progress or NullProgress()
        start = time.perf_counter()
        report = IndexReport()
        with self.ws.writing("index"):
            self.load()
            drop = set(remove or ())
            missing = drop - set(self.docs)
            if missing:
                raise WorkspaceError(f"cannot remove unknown document ids: {', '.join(sorted(missing)[:5])}")
            fresh: list[Document] = []
            for d in docs:
                old = self.docs.get(d.id)
                if old is not None and old["hash"] == d.content_hash:
                    report.documents_unchanged += 1
                    continue
                if old is not None:
                    drop.add(d.id)
                    report.documents_replaced += 1
                else:
                    report.documents_added += 1
                fresh.append(d)
            report.documents_removed = len(drop) - report.documents_replaced
            if not fresh and not drop:
                report.chunks_total = len(self.chunks)
                report.seconds = time.perf_counter() - start
                counts = {"documents": len(self.docs), "chunks": len(self.chunks)}
                if self.exists and self.ws.manifest()["layers"].get(LAYER) != counts:
                    # stopped between the generation's commit and the manifest's write: settle it
                    self.ws.record_step("index", seconds=0.0, layer=LAYER, counts=counts,
                                        versions={"embedding_model": self.embedder.model_id})
                return report

            new_chunks = self.chunker.chunk_many(fresh) if fresh else []
            report.chunks_added = len(new_chunks)
            report.tokens_embedded = sum(c.n_tokens for c in new_chunks)
            task = progress.task("embedding chunks", len(new_chunks))
            t0 = time.perf_counter()
            vecs = self.embedder.embed([c.text for c in new_chunks], kind="document", progress=task.advance)
            report.embed_seconds = time.perf_counter() - t0
            task.done()

            keep = [i for i, c in enumerate(self.chunks) if c.doc_id not in drop]
            chunks = [self.chunks[i] for i in keep] + new_chunks
            old = self.matrix[keep] if self.matrix.size else np.zeros((0, vecs.shape[1]), np.float32)
            matrix = np.ascontiguousarray(np.vstack([old, vecs]), dtype=np.float32)
            docs_meta = {k: v for k, v in self.docs.items() if k not in drop}
            counts: dict[str, int] = {}
            for c in new_chunks:
                counts[c.doc_id] = counts.get(c.doc_id, 0) + 1
            for d in fresh:
                docs_meta[d.id] = {"hash": d.content_hash, "chunks": counts.get(d.id, 0), "metadata": d.metadata}

            with self.ws.generations(LAYER).commit() as gen:
                with open(gen / "chunks.jsonl", "w", encoding="utf-8") as fh:
                    for c in chunks:
                        fh.write(json.dumps(asdict(c), ensure_ascii=False) + "\n")
                (gen / "docs.json").write_text(json.dumps(docs_meta, ensure_ascii=False), encoding="utf-8")
                np.save(gen / "dense.npy", matrix)
                if len(matrix) >= max(self.cfg.ann_above, 1):
                    # only added rows (no drop): the old graph takes the new vectors; else built anew
                    base = self.graph if not drop and self.graph is not None else None
                    DenseGraph.build(matrix, base=base).write(gen / GRAPH)
            crash_point("text.committed")
            self.load()
            report.chunks_total = len(self.chunks)
            report.seconds = time.perf_counter() - start
            self.ws.record_step("index", seconds=report.seconds, layer=LAYER,
                                counts={"documents": len(self.docs), "chunks": len(self.chunks)},
                                versions={"embedding_model": self.embedder.model_id})
        return report

    # ------------------------------------------------------------ reading
    def _hidden(self, exclude: Collection[str]) -> np.ndarray | None:
        """A mask of the chunks of the `exclude` documents (None when there are none)."""
        if not exclude:
            return None
        excluded = set(exclude)
        mask = np.fromiter((c.doc_id in excluded for c in self.chunks), dtype=bool, count=len(self.chunks))
        return mask if mask.any() else None

    def _require(self) -> None:
        # Readers load once; a long-lived reader calls `load()` to pick up a newer generation.
        if self._loaded_gen is None:
            self.load()
        if not self.chunks:
            raise WorkspaceError(f"workspace {self.ws.root} has no text layer yet",
                                 hint=Hint(action="add_documents", target=str(self.ws.root)))

    def sparse_scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for `query` (0 where no query term occurs)."""
        vocab = self._bm25.vocab_dict
        ids = [vocab[t] for t in self.tokenize(query) if t in vocab]
        n = len(self.chunks)
        if not ids:
            return np.zeros(n, dtype=np.float32)
        # bm25s keeps per-term scores column-wise (CSC: indptr/indices/data); summing the query terms'
        # columns with one bincount is ~5x faster than bm25s.get_scores on a small corpus.
        sc = self._bm25.scores
        indptr, indices, data = sc["indptr"], sc["indices"], sc["data"]
        cols = [slice(indptr[i], indptr[i + 1]) for i in ids]
        idx = np.concatenate([indices[c] for c in cols])
        w = np.concatenate([data[c] for c in cols])
        return np.bincount(idx, weights=w, minlength=n).astype(np.float32, copy=False)

    def _candidates(self, q: np.ndarray, sparse: np.ndarray, k: int) -> np.ndarray:
        """Rows worth an exact score: the graph's nearest and BM25's best, `text.ann_candidates` each."""
        n = max(self.cfg.ann_candidates, k)
        near = self.graph.candidates(q, n, ef=self.cfg.ann_ef)
        hits = np.flatnonzero(sparse)
        keyword = hits[np.argsort(-sparse[hits], kind="stable")[:n]] if len(hits) else hits
        return np.unique(np.concatenate([near, keyword]).astype(np.int64))

    def search(self, query: str, *, k: int | None = None, lam: float | None = None,
               query_vector: np.ndarray | None = None, exclude: Collection[str] = ()) -> list[Hit]:
        """Top-k chunks by the hybrid score. Pass `query_vector` to skip embedding the query.
        `exclude`: document ids whose chunks are left out as if they were not indexed — the keyword
        part is normalised by the best BM25 among the rest (BM25's corpus statistics still count them)."""
        self._require()
        hidden = self._hidden(exclude)
        k = min(k or self.cfg.k, len(self.chunks) - (int(hidden.sum()) if hidden is not None else 0))
        if k <= 0:
            return []
        lam = self.cfg.lam if lam is None else lam
        n = len(self.chunks)
        # Both components are always reported; only a keyword-only search skips embedding the query.
        dense = np.zeros(n, np.float32)
        sparse = self.sparse_scores(query)
        if hidden is not None:
            sparse[hidden] = 0.0
        top = float(sparse.max()) if n else 0.0
        sparse_norm = sparse / top if top > 0 else sparse
        pool = None  # every chunk; with an ANN graph, the candidates it and BM25 propose
        if lam > 0 or query_vector is not None:
            q = self.embedder.embed_one(query, kind="query") if query_vector is None else query_vector
            if self.graph is not None:
                pool = self._candidates(q, sparse, k + (int(hidden.sum()) if hidden is not None else 0))
                dense[pool] = self.matrix[pool] @ q
            else:
                dense = np.dot(self.matrix, q)
        score = lam * dense + (1.0 - lam) * sparse_norm
        if hidden is not None:
            score[hidden] = -np.inf
            if pool is not None:
                pool = pool[~hidden[pool]]
        if pool is not None:
            idx = pool[np.argsort(-score[pool], kind="stable")[:k]]
        else:
            idx = np.argpartition(-score, k - 1)[:k] if k < n else np.arange(n)
            idx = idx[np.argsort(-score[idx], kind="stable")]
        return [Hit(self.chunks[i], float(score[i]), float(dense[i]), float(sparse[i]), float(sparse_norm[i]))
                for i in idx]
