"""Emb_kg: every triple embedded as text, searched by cosine (exact `np.dot` over unit rows).

State is one generation directory (`WS/kg/index/gen-N/`): `vectors.npy` (float32, unit rows),
`triples.jsonl` (the stored fields shown as evidence) and `meta.json`. The index is derived from
the graph store: `sync` compares the store's triples with the index by id and text, embeds only
what is new or changed (the embedder's disk cache makes a re-embed of known text free) and
commits a new generation. Search reads only this directory, never the store, so its latency is
one matrix-vector product and a partial sort (measured by `polyrag bench kg-search`).

`meta.json` names the graph store the index mirrors (`source`: backend, and for Neo4j the URI and
database); the KG layer refuses to answer from an index built from another store.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pyramid.embeddings import Embedder
from pyramid.errors import Hint, WorkspaceError
from pyramid.kg.model import Triple, triple_from_json, triple_to_json
from pyramid.workspace import Generations


@dataclass(frozen=True)
class TripleHit:
    triple: Triple
    score: float           # cosine to the question
    via: str = "search"    # "search" or "expansion" (a 1-hop neighbour of a hit's entity)


@dataclass
class SyncReport:
    added: int = 0
    removed: int = 0
    kept: int = 0
    total: int = 0


LEGACY_SOURCE = "kuzu"  # indexes written before `source` was recorded mirrored the workspace's Kùzu graph


class TripleIndex:
    def __init__(self, root: Path, embedder: Embedder, source: str = LEGACY_SOURCE) -> None:
        self.gens = Generations(root)
        self.embedder = embedder
        self.source = source            # the store this index is synced from (written by `sync`)
        self.built_from: str | None = None  # the store the loaded generation came from
        self.triples: list[Triple] = []
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self._row: dict[str, int] = {}
        self._loaded: Path | None = None

    def load(self) -> TripleIndex:
        gen = self.gens.current()
        if gen is None or gen == self._loaded:
            return self
        try:
            with open(gen / "triples.jsonl", encoding="utf-8") as fh:
                triples = [triple_from_json(line) for line in fh]
            matrix = np.load(gen / "vectors.npy")
            meta = json.loads((gen / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise WorkspaceError(f"KG index in {gen} is unreadable ({err})", hint=Hint(action="rebuild_kg")) from None
        if len(triples) != matrix.shape[0]:
            raise WorkspaceError(f"KG index in {gen}: {len(triples)} triples but {matrix.shape[0]} vectors")
        self.triples, self.matrix = triples, np.ascontiguousarray(matrix, dtype=np.float32)
        self._row = {t.id: i for i, t in enumerate(triples)}
        self.built_from = meta.get("source", LEGACY_SOURCE)
        self._loaded = gen
        return self

    def __len__(self) -> int:
        return len(self.triples)

    def row(self, triple_id: str) -> int | None:
        return self._row.get(triple_id)

    def sync(self, triples: Iterable[Triple], progress=None) -> SyncReport:
        """Make the index hold exactly `triples` (the store's); embeds only new or changed texts."""
        self.load()
        wanted = list({t.id: t for t in triples}.values())
        texts = [t.text() for t in wanted]
        old_text = {t.id: (i, t.text()) for i, t in enumerate(self.triples)}
        report = SyncReport(total=len(wanted))
        todo = [i for i, (t, text) in enumerate(zip(wanted, texts))
                if t.id not in old_text or old_text[t.id][1] != text]
        report.added = len(todo)
        report.kept = len(wanted) - len(todo)
        report.removed = len(set(old_text) - {t.id for t in wanted})
        if not todo and not report.removed and all(  # nothing to embed or drop: only fields may differ
                self.triples[old_text[t.id][0]] == t for t in wanted) and len(wanted) == len(self.triples) \
                and self.built_from in (None, self.source):
            return report
        dim = self.embedder.dim
        matrix = np.zeros((len(wanted), dim), dtype=np.float32)
        fresh = set(todo)
        keep = [i for i in range(len(wanted)) if i not in fresh]
        if keep and self.matrix.size:
            matrix[keep] = self.matrix[[old_text[wanted[i].id][0] for i in keep]]
        if todo:
            task = progress.task("embedding triples", len(todo)) if progress else None
            matrix[todo] = self.embedder.embed([texts[i] for i in todo], kind="document",
                                               progress=task.advance if task else None)
            if task:
                task.done()
        with self.gens.commit() as gen:
            with open(gen / "triples.jsonl", "w", encoding="utf-8") as fh:
                fh.writelines(triple_to_json(t) + "\n" for t in wanted)
            np.save(gen / "vectors.npy", matrix)
            (gen / "meta.json").write_text(json.dumps({"model": self.embedder.model_id, "dim": dim,
                                                       "triples": len(wanted), "source": self.source}),
                                           encoding="utf-8")
        self.load()
        return report

    def search(self, query_vector: np.ndarray, k: int) -> list[TripleHit]:
        """Top-k triples by cosine; `query_vector` is unit-length."""
        n = len(self.triples)
        if not n:
            return []
        k = min(k, n)
        # np.dot, not `@`: for a matrix-vector product it skips a slow threading path (DESIGN.md).
        scores = np.dot(self.matrix, query_vector)
        idx = np.argpartition(-scores, k - 1)[:k] if k < n else np.arange(n)
        idx = idx[np.argsort(-scores[idx], kind="stable")]
        return [TripleHit(self.triples[i], float(scores[i])) for i in idx]

    def score(self, triple_ids: Iterable[str], query_vector: np.ndarray) -> dict[str, float]:
        """Cosine of indexed triples (by id) to the query; ids not indexed are left out."""
        rows = [(tid, r) for tid in triple_ids if (r := self._row.get(tid)) is not None]
        if not rows:
            return {}
        sims = np.dot(self.matrix[[r for _, r in rows]], query_vector)
        return {tid: float(s) for (tid, _), s in zip(rows, sims)}
