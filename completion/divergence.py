"""Divergence priority of KG phrases against the ontology (PolyRAG §3.2, eq. 4–7).

Pipeline: unit phrase vectors of both layers → PCA to `d` dimensions → one Gaussian per layer with a
shrinkage covariance → log-densities of every phrase under both → normalised log-masses → the two
pointwise divergences → priority. The numerical choices and why:

* **Dimension.** 384-d MiniLM vectors of a few dozen ontology phrases give a covariance of rank
  < 384, and a Gaussian density in 384-d under- or overflows any float. PCA is fitted on the union
  of both layers' distinct phrases; `d` is the fewest components explaining `variance` of it, then
  clipped to [2, max_dim] and to n − 1 for the smaller layer's n distinct phrases (beyond that the
  smaller layer's covariance has no sample information at all, only shrinkage). So each layer
  needs at least MIN_PHRASES = 3 distinct phrases.
* **Covariance.** Ledoit-Wolf (default) or OAS shrink the sample covariance towards a scaled
  identity by a data-chosen amount, which keeps it positive definite for any n ≥ 2. A relative
  jitter of 1e-9·trace/d is added anyway so identical phrases (zero covariance) stay finite.
  Log-densities come from a Cholesky factor: log N(x) = −½‖L⁻¹(x−μ)‖² − Σ log L_ii − (d/2) log 2π,
  never from det() or inv() (det of a d×d matrix with small eigenvalues underflows to 0).
* **Masses, not densities.** A density's value depends on the units of the space (it can exceed
  1, making log F positive and −F·log F negative, which the divergence does not mean). F_L(X) is
  therefore the Gaussian's density turned into a probability mass over the finite set of phrases
  being compared, F_L(X) = p_L(X) / Σ_Y p_L(Y), computed as log F = log p − logsumexp(log p).
  Then log F ≤ 0, the terms −F·log F are the pointwise contributions of a discrete cross-entropy,
  and the result no longer depends on the PCA scale.
* **Log space throughout.** D_X(O‖K) = −F_O(X)·log F_K(X) is kept as its logarithm,
  log D_OK = log F_O + log(−log F_K), which is finite even where F_O = exp(log F_O) would underflow
  to 0 (a KG phrase far from every ontology phrase easily has log F_O < −745). The difference
  Pr = D_OK − D_KO is kept as a sign and log|Pr| (`log_diff_exp`), so phrases whose priorities
  both round to 0.0 in floats are still ranked correctly. Nothing is exponentiated except for
  display (`values()`), where underflow to ±0.0 is harmless.

**Orientation.** Read literally, Pr(X) = D_X(O‖K) − D_X(K‖O) is large where the ontology is
dense and the KG sparse (F_O·(−log F_K) dominates there). Completion looks for the opposite —
knowledge the KG has and the ontology lacks, where F_K ≫ F_O and Pr ≪ 0 — so the *priority* used
to rank phrases is −Pr = D_X(K‖O) − D_X(O‖K), high where K is dense and O is not. Both are kept
(`pr_sign`, `log_abs`) so the paper's number can be reported as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from scipy.special import logsumexp

from completion.errors import CompletionError

MIN_PHRASES = 3
Estimator = Literal["ledoit_wolf", "oas"]
_LOG_2PI = float(np.log(2 * np.pi))


# ------------------------------------------------------------------ log-space helpers

def log_diff_exp(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sign(e^a − e^b) and log|e^a − e^b|, elementwise, for a, b in [−inf, +inf).

    log|e^a − e^b| = max(a, b) + log1p(−exp(−|a − b|)); equal inputs (including −inf, −inf) give
    sign 0 and −inf, never NaN.
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    hi = np.maximum(a, b)
    with np.errstate(invalid="ignore", divide="ignore"):   # −inf − (−inf) is masked out below
        diff = np.where(a != b, a - b, 0.0)
        sign = np.sign(diff).astype(np.int8)
        # One side −inf: |diff| = inf, exp(−inf) = 0 and the result is the other side exactly.
        log_abs = np.where(sign != 0, hi + np.log1p(-np.exp(-np.abs(diff))), -np.inf)
    return sign, log_abs


def log_neg(log_f: np.ndarray) -> np.ndarray:
    """log(−log F) for log-masses log F ≤ 0; −inf where F = 1 (a layer with a single phrase)."""
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(-log_f, 0.0))


# ------------------------------------------------------------------ reduction and Gaussians

@dataclass
class Reduction:
    mean: np.ndarray          # (D,)
    components: np.ndarray    # (d, D)
    dim: int
    explained: float          # share of the pooled variance the d components explain
    reason: str               # how d was chosen, in words (recorded with the run)

    def transform(self, x: np.ndarray) -> np.ndarray:
        return (np.asarray(x, dtype=np.float64) - self.mean) @ self.components.T


def choose_dimension(ratios: np.ndarray, variance: float, max_dim: int, n_small: int) -> tuple[int, str]:
    cum = np.cumsum(ratios)
    want = int(np.searchsorted(cum, variance - 1e-12) + 1)
    cap = min(max_dim, n_small - 1, len(ratios))
    d = max(2, min(want, cap))
    why = f"{want} components explain ≥ {variance:.0%} of the variance"
    if want > cap:
        why += f"; capped at {cap} (max_dim={max_dim}, smaller layer has {n_small} phrases)"
    return d, why


def reduce(pooled: np.ndarray, variance: float, max_dim: int, n_small: int) -> Reduction:
    x = np.asarray(pooled, dtype=np.float64)
    mean = x.mean(axis=0)
    # Thin SVD of the centred pooled phrases = PCA; rows are few thousand, columns 384.
    _, s, vt = np.linalg.svd(x - mean, full_matrices=False)
    var = s ** 2
    total = var.sum()
    ratios = var / total if total > 0 else np.full_like(var, 1.0 / max(len(var), 1))
    d, why = choose_dimension(ratios, variance, max_dim, n_small)
    d = min(d, vt.shape[0])
    return Reduction(mean, vt[:d], d, float(ratios[:d].sum()), why)


@dataclass
class Gaussian:
    mean: np.ndarray
    chol: np.ndarray          # lower Cholesky factor of the (shrunk) covariance
    shrinkage: float

    def logpdf(self, z: np.ndarray) -> np.ndarray:
        d = self.mean.shape[0]
        y = solve_triangular(self.chol, (np.asarray(z) - self.mean).T, lower=True, check_finite=False)
        half_logdet = float(np.log(np.diag(self.chol)).sum())
        return -0.5 * (y * y).sum(axis=0) - half_logdet - 0.5 * d * _LOG_2PI


def fit_gaussian(z: np.ndarray, estimator: Estimator = "ledoit_wolf") -> Gaussian:
    from sklearn.covariance import OAS, LedoitWolf

    z = np.asarray(z, dtype=np.float64)
    d = z.shape[1]
    if z.shape[0] >= 2:
        est = (OAS() if estimator == "oas" else LedoitWolf()).fit(z)
        cov, shrink = est.covariance_, float(est.shrinkage_)
    else:
        cov, shrink = np.zeros((d, d)), 1.0
    scale = float(np.trace(cov)) / d
    if not np.isfinite(scale) or scale <= 0:
        scale = 1.0   # all points identical: any isotropic spread is as good as another
    cov = cov + (1e-9 * scale) * np.eye(d)
    return Gaussian(z.mean(axis=0), cholesky(cov, lower=True, check_finite=False), shrink)


# ------------------------------------------------------------------ priority

@dataclass
class Priority:
    """Per evaluated phrase: normalised log-masses, log divergences and the priority (log space)."""

    log_f_o: np.ndarray
    log_f_k: np.ndarray
    log_d_ok: np.ndarray      # log D_X(O‖K) = log F_O + log(−log F_K)
    log_d_ko: np.ndarray      # log D_X(K‖O)
    sign: np.ndarray          # sign of the priority −Pr = D_KO − D_OK (+1: K dense, O not)
    log_abs: np.ndarray       # log|Pr|
    reduction: Reduction
    estimator: str
    shrinkage: dict[str, float]

    @property
    def pr_sign(self) -> np.ndarray:
        """Sign of the paper's Pr(X) = D_X(O‖K) − D_X(K‖O)."""
        return -self.sign

    def values(self) -> np.ndarray:
        """The priority −Pr as floats (for display; tiny values underflow to ±0.0)."""
        with np.errstate(under="ignore"):
            return self.sign * np.exp(self.log_abs)

    def key(self) -> np.ndarray:
        """A float that orders phrases like their priority, finite for every phrase.

        log|Pr| is squashed monotonically into (0, 1) by arctan; positive priorities map to (1, 2),
        negative ones to (−2, −1) (larger magnitude lower), zero to 0. The order of the exact values
        is kept without exponentiating anything.
        """
        squash = np.arctan(np.where(np.isfinite(self.log_abs), self.log_abs, -1e300)) / np.pi + 0.5
        return np.where(self.sign > 0, 1.0 + squash, np.where(self.sign < 0, -1.0 - squash, 0.0))

    def order(self, subset: np.ndarray | None = None) -> np.ndarray:
        """Indices (of `subset`, or of all phrases) from the highest priority to the lowest."""
        idx = np.arange(len(self.sign)) if subset is None else np.asarray(subset)
        return idx[np.argsort(-self.key()[idx], kind="stable")]


def check_counts(n_onto: int, n_kg: int) -> None:
    for layer, n in (("ontology", n_onto), ("KG", n_kg)):
        if n < MIN_PHRASES:
            raise CompletionError(
                f"the {layer} gives {n} distinct 'subject relation' phrase{'s' if n != 1 else ''}; a Gaussian "
                f"per layer needs at least {MIN_PHRASES} (a 2-D covariance needs 3 points), so completion "
                f"cannot compare the layers yet")


def compute_priority(onto: np.ndarray, kg: np.ndarray, kg_weights: np.ndarray | None = None, *,
                     variance: float = 0.5, max_dim: int = 16,
                     estimator: Estimator = "ledoit_wolf") -> Priority:
    """Priority of every phrase in [onto; kg] (ontology rows first).

    `onto` (n_o, D) and `kg` (n_k, D) are distinct phrase vectors; `kg_weights` the number of KG
    triples behind each KG phrase: the KG Gaussian is fitted on triples (a phrase read by 400
    triples weighs 400 times), the ontology one on its distinct class-attribute phrases.
    """
    onto, kg = np.asarray(onto, dtype=np.float64), np.asarray(kg, dtype=np.float64)
    check_counts(len(onto), len(kg))
    weights = np.ones(len(kg), dtype=np.int64) if kg_weights is None else np.asarray(kg_weights, np.int64)
    pooled = np.vstack([onto, kg])
    red = reduce(pooled, variance, max_dim, min(len(onto), len(kg)))
    z = red.transform(pooled)
    z_o, z_k = z[:len(onto)], z[len(onto):]
    g_o = fit_gaussian(z_o, estimator)
    g_k = fit_gaussian(np.repeat(z_k, weights, axis=0), estimator)
    lp_o, lp_k = g_o.logpdf(z), g_k.logpdf(z)
    log_f_o = lp_o - logsumexp(lp_o)
    log_f_k = lp_k - logsumexp(lp_k)
    log_d_ok = log_f_o + log_neg(log_f_k)
    log_d_ko = log_f_k + log_neg(log_f_o)
    sign, log_abs = log_diff_exp(log_d_ko, log_d_ok)
    return Priority(log_f_o, log_f_k, log_d_ok, log_d_ko, sign, log_abs, red, estimator,
                    {"ontology": g_o.shrinkage, "kg": g_k.shrinkage})


# ------------------------------------------------------------------ high-priority region

RegionRule = Literal["positive", "quantile", "threshold"]


def select_region(pri: Priority, kg_rows: np.ndarray, counts: np.ndarray, *, rule: RegionRule = "positive",
                  value: float = 0.0, cap: int | None = None) -> np.ndarray:
    """KG phrase indices (positions in `kg_rows`) in the high-priority region, highest priority first.

    positive  — every KG phrase with priority > 0, i.e. D_X(K‖O) > D_X(O‖K): the KG's mass there
                outweighs the ontology's. No tuning; the default.
    quantile  — the highest-priority phrases holding the top `value` share of the KG's triples.
    threshold — priority > `value` (compared in log space).
    `cap` keeps at most that many phrases (the highest-priority ones).
    """
    kg_rows = np.asarray(kg_rows)
    order = np.argsort(-pri.key()[kg_rows], kind="stable")
    sign, log_abs = pri.sign[kg_rows][order], pri.log_abs[kg_rows][order]
    if rule == "positive" or (rule == "threshold" and value <= 0):
        keep = order[sign > 0]
    elif rule == "threshold":
        keep = order[(sign > 0) & (log_abs > np.log(value))]
    elif rule == "quantile":
        if not 0 < value <= 1:
            raise CompletionError(f"completion.region_value must be in (0, 1] for the quantile rule, not {value}")
        share = np.cumsum(np.asarray(counts)[order]) / max(int(np.sum(counts)), 1)
        keep = order[: int(np.searchsorted(share, value - 1e-12)) + 1]
    else:
        raise CompletionError(f"unknown region rule {rule!r} (positive, quantile or threshold)")
    return keep[:cap] if cap else keep
