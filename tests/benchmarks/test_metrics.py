"""Benchmark metrics on hand-worked cases."""

from __future__ import annotations

import math

import pytest

from benchmarks.metrics import dedupe, mrr_at, ndcg_at, percentiles, recall_at, set_prf


def test_retrieval_metrics_by_hand():
    ranked = ["a", "x", "b", "y"]
    gold = {"a", "b", "c"}
    assert recall_at(ranked, gold, 1) == pytest.approx(1 / 3)
    assert recall_at(ranked, gold, 3) == pytest.approx(2 / 3)
    assert mrr_at(["x", "b"], gold, 10) == 0.5 and mrr_at(["x"], gold, 10) == 0.0
    dcg = 1 + 1 / math.log2(4)
    idcg = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(ranked, gold, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at(["a"], {"a"}, 10) == 1.0


def test_dedupe_keeps_best_rank():
    assert dedupe(["d1", "d2", "d1", "d3"]) == ["d1", "d2", "d3"]


def test_set_prf_matches_acadchall_scoring():
    assert set_prf({0, 3}, {0, 3, 4}) == pytest.approx((1.0, 2 / 3, 0.8))
    assert set_prf(set(), {1}) == (0.0, 0.0, 0.0)
    assert set_prf({2}, {1}) == (0.0, 0.0, 0.0)


def test_percentiles():
    assert percentiles(list(range(1, 101)))["p50"] == pytest.approx(50.5)
