"""k-medoids (FasterPAM, `kmedoids` package) over phrase vectors with cosine distances.

k is given, or chosen by the silhouette: FasterPAM runs for k on an evenly spaced grid of at most
GRID values in [lo, hi] (each run costs O(n²) per pass, so every k in a wide range would dominate the
run time), and the k with the highest mean silhouette (Rousseeuw 1987, computed on the same distance
matrix) wins; ties go to the smaller k. Medoids are actual phrases, which is why k-medoids and not
k-means: a medoid can be read as the cluster's suggested name.

The range adapts to the number n of phrases, so clusters hold on average between 2 and 20 phrases
when n is small: lo = min(k_min, max(2, n // 20)), hi = min(k_max, n // 2, n − 1) (hi ≥ 2).
With the defaults (16, 120) and PolyU's 3,000 region phrases this is [16, 120]; with 10 phrases it is
[2, 5] — not k = 9 alone, which would split every group of paraphrases into near-singletons.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GRID = 6


@dataclass
class Clustering:
    labels: np.ndarray        # (n,) cluster of each point, 0..k-1
    medoids: np.ndarray       # (k,) point index of each cluster's medoid
    k: int
    silhouette: float
    tried: dict[int, float]   # k → mean silhouette (empty when k was given)


def cosine_distances(vectors: np.ndarray) -> np.ndarray:
    """1 − cos for unit rows, as float64 (what kmedoids expects), clipped to [0, 2], zero diagonal."""
    v = np.asarray(vectors, dtype=np.float32)
    d = 1.0 - np.dot(v, v.T)
    np.clip(d, 0.0, 2.0, out=d)
    np.fill_diagonal(d, 0.0)
    return d.astype(np.float64)


def k_grid(k_min: int, k_max: int, n: int) -> list[int]:
    """The k values tried for n phrases (the rule is in the module docstring)."""
    hi = min(k_max, max(2, n // 2), n - 1)
    lo = min(k_min, max(2, n // 20), hi)
    if hi < 2:
        return []
    return sorted({round(x) for x in np.linspace(lo, hi, num=GRID)})


def _run(dist: np.ndarray, k: int, seed: int):
    import kmedoids

    return kmedoids.fasterpam(dist, k, init="random", random_state=seed, max_iter=100)


def _silhouette(dist: np.ndarray, labels: np.ndarray) -> float:
    import kmedoids

    if len(np.unique(labels)) < 2:
        return -1.0
    return float(kmedoids.silhouette(dist, labels.astype(np.uint64))[0])


def cluster(vectors: np.ndarray, *, k: int = 0, k_min: int = 8, k_max: int = 48, seed: int = 0,
            dist: np.ndarray | None = None) -> Clustering:
    """Cluster unit vectors; k = 0 chooses k by the silhouette over the grid."""
    n = len(vectors)
    if n == 0:
        return Clustering(np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 0.0, {})
    dist = cosine_distances(vectors) if dist is None else dist
    if n == 1:
        return Clustering(np.zeros(1, np.int64), np.zeros(1, np.int64), 1, 0.0, {})
    if k:
        res = _run(dist, min(k, n), seed)
        labels = np.asarray(res.labels, dtype=np.int64)
        return Clustering(labels, np.asarray(res.medoids, np.int64), min(k, n), _silhouette(dist, labels), {})
    tried: dict[int, float] = {}
    best = None
    for kk in k_grid(k_min, k_max, n):
        res = _run(dist, kk, seed)
        labels = np.asarray(res.labels, dtype=np.int64)
        score = _silhouette(dist, labels)
        tried[kk] = round(score, 4)
        if best is None or score > best[0] + 1e-12:
            best = (score, kk, labels, np.asarray(res.medoids, np.int64))
    if best is None:   # n == 2: one cluster each
        return Clustering(np.arange(n), np.arange(n), n, 0.0, {})
    score, kk, labels, medoids = best
    return Clustering(labels, medoids, kk, float(score), tried)
