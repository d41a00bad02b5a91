"""An approximate nearest-neighbour graph over the text layer's vectors, for corpora where the exact
matrix product stops being fast (`text.ann_above` chunks and more).

faiss-cpu's HNSW (inner product on unit vectors = cosine), chosen by `benchmarks/ann.py`: hnswlib,
usearch and faiss gave the same recall; faiss and hnswlib built fastest and answered fastest, and
faiss is the one still actively released. The graph only proposes candidates: the text layer
scores them with the exact vectors and the same hybrid fusion as without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

LINKS = 16              # M: links per node (memory ~ 2·M ints per vector, on top of the vectors)
BUILD_CANDIDATES = 128  # efConstruction


class DenseGraph:
    def __init__(self, index) -> None:
        self.index = index

    @classmethod
    def build(cls, vectors: np.ndarray, *, base: DenseGraph | None = None) -> DenseGraph:
        """The graph of `vectors`; with `base` (a graph of the first rows of `vectors`), only the
        rows after those are added to a copy of it."""
        import faiss

        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if base is not None and base.index.ntotal <= len(vectors):
            index = faiss.clone_index(base.index)
            start = index.ntotal
        else:
            index = faiss.IndexHNSWFlat(vectors.shape[1], LINKS, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = BUILD_CANDIDATES
            start = 0
        if start < len(vectors):
            index.add(vectors[start:])
        return cls(index)

    @classmethod
    def read(cls, path: Path) -> DenseGraph:
        import faiss

        return cls(faiss.read_index(str(path)))

    def write(self, path: Path) -> None:
        import faiss

        faiss.write_index(self.index, str(path))

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def candidates(self, query: np.ndarray, n: int, *, ef: int) -> np.ndarray:
        """Row ids of (about) the `n` vectors nearest `query`; `ef` ≥ n trades time for recall."""
        self.index.hnsw.efSearch = max(ef, n)
        _, ids = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), n)
        return ids[0][ids[0] >= 0]
