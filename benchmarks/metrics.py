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


def bleu(hypothesis: str, references: Sequence[str], order: int) -> float:
    """Sentence BLEU-`order` (sacrebleu, exp smoothing, 0–1) of one answer against its references."""
    from sacrebleu.metrics import BLEU

    scorer = BLEU(max_ngram_order=order, effective_order=True)
    return scorer.sentence_score(hypothesis, list(references)).score / 100.0


def abstention_rates(supports_answerable: Sequence[float], supports_removed: Sequence[float],
                     threshold: float) -> dict[str, float]:
    """At `threshold` (abstain below it): the share of questions whose gold passages were removed that
    abstain (want high) and the share of answerable questions that abstain (want low)."""
    a = np.asarray(supports_answerable, dtype=float)
    r = np.asarray(supports_removed, dtype=float)
    return {"threshold": float(threshold),
            "abstain_removed": float(np.mean(r < threshold)) if r.size else 0.0,
            "abstain_answerable": float(np.mean(a < threshold)) if a.size else 0.0}


def separation(supports_answerable: Sequence[float], supports_removed: Sequence[float],
               answerable_share: float = 0.10) -> dict[str, float]:
    """How well the support tells answerable questions from those whose gold passages were removed,
    whatever the threshold: ROC AUC (0.5 chance, 1.0 a perfect split), and the operating point where
    `answerable_share` of answerable questions abstain — the threshold and the share of removed ones
    that abstain there (the most any threshold gets at that cost)."""
    from sklearn.metrics import roc_auc_score

    a = np.asarray(supports_answerable, dtype=float)
    r = np.asarray(supports_removed, dtype=float)
    if not a.size or not r.size:
        return {}
    auc = roc_auc_score(np.r_[np.ones(a.size), np.zeros(r.size)], np.r_[a, r])
    # abstain below t: the largest t at which no more than the share of answerable supports fall below it
    below = np.sort(a)[min(int(np.floor(answerable_share * a.size)), a.size - 1)]
    return {"roc_auc": float(auc), "answerable_share": float(answerable_share), "threshold": float(below),
            "abstain_removed": float(np.mean(r < below)), "abstain_answerable": float(np.mean(a < below))}

