"""The divergence priority: log-space arithmetic, finiteness on singular and tiny inputs, a known 2-D
case, and agreement with a direct (naive) computation where the naive one does not underflow."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from completion.divergence import (
    MIN_PHRASES,
    choose_dimension,
    compute_priority,
    fit_gaussian,
    log_diff_exp,
    select_region,
)
from completion.errors import CompletionError


def test_log_diff_exp_signs_and_infinities():
    a = np.array([np.log(5.0), np.log(2.0), -np.inf, -np.inf, 3.0, -800.0])
    b = np.array([np.log(2.0), np.log(5.0), -np.inf, 1.0, -np.inf, -801.0])
    sign, log_abs = log_diff_exp(a, b)
    assert sign.tolist() == [1, -1, 0, -1, 1, 1]
    assert log_abs[0] == pytest.approx(np.log(3.0))
    assert log_abs[1] == pytest.approx(np.log(3.0))
    assert np.isneginf(log_abs[2])
    assert log_abs[3] == pytest.approx(1.0) and log_abs[4] == pytest.approx(3.0)
    # e^-800 − e^-801 underflows to 0.0 in floats; its logarithm does not.
    assert log_abs[5] == pytest.approx(-800 + np.log1p(-np.exp(-1.0)))


def test_dimension_rule_is_capped_by_the_smaller_layer():
    ratios = np.array([0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05])
    assert choose_dimension(ratios, 0.5, 16, 100)[0] == 2
    assert choose_dimension(ratios, 0.7, 16, 100)[0] == 4
    d, why = choose_dimension(ratios, 0.95, 16, 4)
    assert d == 3 and "capped" in why
    assert choose_dimension(ratios, 0.1, 16, 100)[0] == 2     # never below 2


def test_identical_points_give_a_finite_gaussian():
    g = fit_gaussian(np.ones((5, 3)))
    assert np.all(np.isfinite(g.logpdf(np.random.default_rng(0).normal(size=(4, 3)))))


def test_priority_is_finite_on_singular_and_tiny_inputs():
    rng = np.random.default_rng(1)
    onto = np.repeat(rng.normal(size=(1, 384)), 3, axis=0)          # three identical phrases: rank 0
    kg = rng.normal(size=(3, 384))                                  # the minimum, in 384-d
    pri = compute_priority(onto, kg)
    assert pri.reduction.dim == 2
    assert np.all(np.isfinite(pri.key()))
    assert not np.any(np.isnan(pri.log_abs))
    # Points thousands of standard deviations away: F underflows to 0, the logs stay finite and ordered.
    far = np.vstack([kg, kg[:1] + 1e4, kg[:1] + 2e4])
    pri = compute_priority(onto, far)
    assert np.all(np.isfinite(pri.log_f_o)) and np.all(np.isfinite(pri.key()))
    assert np.all(np.isfinite(pri.values()))


def test_too_few_phrases_names_the_minimum():
    with pytest.raises(CompletionError, match=f"at least {MIN_PHRASES}"):
        compute_priority(np.eye(4)[:2], np.eye(4))


def test_high_priority_region_is_where_k_is_dense_and_o_is_not():
    rng = np.random.default_rng(7)
    onto = rng.normal([0.0, 0.0], 0.3, size=(40, 2))
    shared = rng.normal([0.0, 0.0], 0.3, size=(60, 2))      # K also has what O has …
    only_k = rng.normal([4.0, 4.0], 0.3, size=(200, 2))      # … and a dense region O lacks
    kg = np.vstack([shared, only_k])
    pri = compute_priority(onto, kg, variance=0.99, max_dim=2)
    kg_rows = len(onto) + np.arange(len(kg))
    region = select_region(pri, kg_rows, np.ones(len(kg), int), rule="quantile", value=0.5)
    assert np.mean(region >= len(shared)) > 0.95
    # The paper's Pr(X) = D(O‖K) − D(K‖O) is negative there and positive where O dominates.
    assert np.all(pri.pr_sign[kg_rows[len(shared):]] < 0)
    assert np.mean(pri.pr_sign[: len(onto)] > 0) > 0.9


def test_log_space_matches_the_naive_formula_where_it_does_not_underflow():
    rng = np.random.default_rng(3)
    onto = rng.normal(0.0, 1.0, size=(30, 2))
    kg = rng.normal(0.7, 1.2, size=(50, 2))
    pri = compute_priority(onto, kg, variance=0.99, max_dim=2)
    z = pri.reduction.transform(np.vstack([onto, kg]))
    from sklearn.covariance import LedoitWolf

    def mass(x):       # an independent route: scipy's density, normalised over the phrases
        est = LedoitWolf().fit(x)
        p = multivariate_normal(est.location_, est.covariance_).pdf(z)
        return p / p.sum()

    f_o, f_k = mass(z[:30]), mass(z[30:])
    pr = -f_o * np.log(f_k) + f_k * np.log(f_o)          # D(O‖K) − D(K‖O), as printed in the paper
    assert np.allclose(pri.pr_sign * np.exp(pri.log_abs), pr, rtol=1e-5, atol=1e-12)
