"""Retrieval, answer-set and latency metrics (pure functions, unit-tested)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def dedupe(ids: Sequence[str]) -> list[str]:
    """Order-preserving unique ids (chunks of one document count once, at their best rank)."""
    return list(dict.fromkeys(ids))


def recall_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    if not gold:
        return 0.0
    return len(set(ranked[:k]) & gold) / len(gold)


def mrr_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    for i, doc in enumerate(ranked[:k], start=1):
        if doc in gold:
            return 1.0 / i
    return 0.0


def ndcg_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Binary-relevance nDCG@k."""
    dcg = sum(1.0 / math.log2(i + 1) for i, doc in enumerate(ranked[:k], start=1) if doc in gold)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(gold), k) + 1))
    return dcg / ideal if ideal else 0.0


def set_prf(chosen: set[int], gold: set[int]) -> tuple[float, float, float]:
    """Precision, recall, F1 of a chosen option set (AcadChall scoring); empty choice scores 0."""
    if not chosen or not gold:
        return 0.0, 0.0, 0.0
    tp = len(chosen & gold)
    p, r = tp / len(chosen), tp / len(gold)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def percentiles(values: Sequence[float], qs: Sequence[float] = (50, 95)) -> dict[str, float]:
    if not len(values):
        return {f"p{int(q)}": float("nan") for q in qs}
    arr = np.asarray(values, dtype=float)
    return {f"p{int(q)}": float(np.percentile(arr, q)) for q in qs}
