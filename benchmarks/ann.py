"""ANN libraries for the text layer's dense index, measured side by side (issue 14, item 4): hnswlib,
usearch and faiss-cpu (HNSW), on the same synthetic vectors, against exact search.

Synthetic vectors: uniform random vectors on the 384-d sphere have no neighbours worth the name
(every pair is nearly orthogonal), which is not what sentence embeddings look like; these are drawn
around 2,000 random centres with a spread that gives MiniLM-like cosines (a query's 10th neighbour
at ~0.6–0.8), and the queries are held-out points of the same mixture. Every library gets the same
graph size (M = 16 links, 128 candidates while building) and is asked for the same recall.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

DIM = 384
CENTRES = 2_000
SPREAD = 0.9  # noise norm relative to the centre's: neighbours share a centre, not a copy of it


def synthetic(n: int, queries: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(n data vectors, `queries` query vectors), unit length, float32, from one mixture."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((CENTRES, DIM), dtype=np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)

    def draw(m: int) -> np.ndarray:
        out = np.empty((m, DIM), dtype=np.float32)
        for start in range(0, m, 100_000):
            k = min(100_000, m - start)
            noise = rng.standard_normal((k, DIM), dtype=np.float32) * (SPREAD / np.sqrt(DIM))
            block = centres[rng.integers(0, CENTRES, k)] + noise
            out[start:start + k] = block / np.linalg.norm(block, axis=1, keepdims=True)
        return out

    return draw(n), draw(queries)


def exact_top(data: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """The true top-k ids per query (blocked matrix products)."""
    out = np.empty((len(queries), k), dtype=np.int64)
    for i in range(0, len(queries), 64):
        sims = queries[i:i + 64] @ data.T
        part = np.argpartition(-sims, k, axis=1)[:, :k]
        order = np.take_along_axis(sims, part, axis=1).argsort(axis=1)[:, ::-1]
        out[i:i + 64] = np.take_along_axis(part, order, axis=1)
    return out


def _hnswlib(data: np.ndarray, ef: int) -> Callable[[np.ndarray, int], np.ndarray]:
    import hnswlib

    index = hnswlib.Index(space="ip", dim=DIM)
    index.init_index(max_elements=len(data), M=16, ef_construction=128)
    index.add_items(data, np.arange(len(data)))
    index.set_ef(ef)
    return lambda q, k: index.knn_query(q, k=k)[0]


def _usearch(data: np.ndarray, ef: int) -> Callable[[np.ndarray, int], np.ndarray]:
    from usearch.index import Index

    index = Index(ndim=DIM, metric="ip", dtype="f32", connectivity=16, expansion_add=128, expansion_search=ef)
    index.add(np.arange(len(data)), data)
    return lambda q, k: index.search(q, k).keys


def _faiss(data: np.ndarray, ef: int) -> Callable[[np.ndarray, int], np.ndarray]:
    import faiss

    index = faiss.IndexHNSWFlat(DIM, 16, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = 128
    index.add(data)
    index.hnsw.efSearch = ef
    return lambda q, k: index.search(q, k)[1]


LIBRARIES = {"hnswlib": _hnswlib, "usearch": _usearch, "faiss-cpu (HNSW)": _faiss}


def measure(name: str, data: np.ndarray, queries: np.ndarray, truth: np.ndarray, *, ef: int = 64,
            k: int = 10) -> dict[str, Any]:
    start = time.perf_counter()
    search = LIBRARIES[name](data, ef)
    build_s = time.perf_counter() - start
    found, times = [], []
    for q in queries:
        t0 = time.perf_counter()
        found.append(np.asarray(search(q[None, :], k)).reshape(-1)[:k])
        times.append((time.perf_counter() - t0) * 1000)
    recall = float(np.mean([len(set(f.tolist()) & set(t.tolist())) / k for f, t in zip(found, truth, strict=True)]))
    return {"library": name, "vectors": len(data), "ef": ef, "build_s": round(build_s, 1),
            "recall@10": round(recall, 4), "p50_ms": round(float(np.percentile(times, 50)), 3),
            "p95_ms": round(float(np.percentile(times, 95)), 3)}
