"""Graded relevance 0–3 (SPEC §3; seed 002, RelevAI-Reviewer, §3.1, §3.2, §4.3, App. E).

* Thermometer code: grade g → bits [g ≥ 1, g ≥ 2, g ≥ 3]; a record's score is the sum of the
  three predicted bit probabilities; within a group (one prompt/review) the records are
  ranked by that sum: rank 0 = lowest sum … m − 1 = highest (the seed's Table 1: sums
  1.9, 1.34, 0.35, 2.75 → ranks 2, 1, 0, 3). With four records per group the rank is the
  predicted grade.
* Kendall's τ = (C − D)/(C + D) per group (pairs tied in either variable are left out), mean
  over groups, bootstrap standard error over groups; per-grade F1.
* Cosine baseline: three thresholds t1 < t2 < t3 on the similarity to the prompt map a record
  to grade #{k : s ≥ t_k}; they are grid-searched to maximise the mean per-group τ-b
  (decision: the seed's (C − D)/(C + D) is maximised by degenerate thresholds).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

import numpy as np
from scipy import sparse

from litqeval_gui.metrics.agreement import (
    ArrayLike,
    concordance_counts,
    row_blocks,
    tau_b_from_counts,
)

GRADES = (0, 1, 2, 3)
N_BITS = len(GRADES) - 1

TauVariant = Literal["a", "b"]


def thermometer_encode(grades: ArrayLike) -> np.ndarray:
    """Grades 0..3 → (n, 3) int8 bits ``[g ≥ 1, g ≥ 2, g ≥ 3]`` (3 → 111, 0 → 000)."""
    g = np.asarray(grades)
    if g.size and (not np.all(np.isin(g, GRADES))):
        raise ValueError("grades must be integers in 0..3")
    return (g[..., None] >= np.arange(1, N_BITS + 1)).astype(np.int8)


def thermometer_decode(bits: ArrayLike, threshold: float = 0.5) -> np.ndarray:
    """(n, 3) bits or bit probabilities → grades: the number of leading bits ≥ ``threshold``.

    For valid thermometer codes this is the bit sum; an inconsistent prediction such as
    [0.4, 0.9, 0.1] stops at the first bit below the threshold (grade 0).
    """
    b = np.asarray(bits, dtype=float)
    if b.shape[-1:] != (N_BITS,):
        raise ValueError(f"expected {N_BITS} bits per record, got shape {b.shape}")
    return np.cumprod(b >= threshold, axis=-1).sum(axis=-1).astype(np.int64)


def thermometer_scores(probabilities: ArrayLike) -> np.ndarray:
    """Per-record score = sum of the three predicted bit probabilities."""
    p = np.asarray(probabilities, dtype=float)
    if p.shape[-1:] != (N_BITS,):
        raise ValueError(f"expected {N_BITS} probabilities per record, got shape {p.shape}")
    return p.sum(axis=-1)


def _group_codes(groups: ArrayLike | None, n: int) -> np.ndarray:
    if groups is None:
        return np.zeros(n, dtype=np.int64)
    g = np.asarray(groups)
    if g.shape != (n,):
        raise ValueError("groups needs one entry per record")
    return np.unique(g, return_inverse=True)[1].reshape(n)


def ranks_within_groups(scores: ArrayLike, groups: ArrayLike | None = None) -> np.ndarray:
    """Rank of each record by score inside its group: 0 = lowest score, m − 1 = highest.

    Ties are broken by input order: of two tied records the earlier one gets the lower rank.
    """
    s = np.asarray(scores, dtype=float)
    codes = _group_codes(groups, s.size)
    order = np.lexsort((s, codes))  # stable: ties keep input order
    sorted_codes = codes[order]
    starts = np.searchsorted(sorted_codes, sorted_codes, side="left")
    ranks = np.empty(s.size, dtype=np.int64)
    ranks[order] = np.arange(s.size) - starts
    return ranks


def _groups_by_size(codes: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (group ids, index matrix with one row of record indices per group) per group size."""
    order = np.argsort(codes, kind="stable")
    ids, starts, sizes = np.unique(codes[order], return_index=True, return_counts=True)
    for m in np.unique(sizes):
        sel = sizes == m
        yield ids[sel], order[starts[sel][:, None] + np.arange(m)]


def group_kendall_tau(
    true_grades: ArrayLike,
    predicted: ArrayLike,
    groups: ArrayLike | None = None,
    *,
    variant: TauVariant = "a",
) -> np.ndarray:
    """Per-group Kendall's τ over the group's record pairs; NaN when undefined.

    ``variant="a"`` (the seed's K): τ = (C − D)/(C + D), pairs tied in either variable are
    left out. ``variant="b"``: τ-b = (C − D)/√(P_t·P_p) with P_t, P_p = pairs not tied in the
    true resp. predicted grades, so ties in the prediction lower τ. Groups are returned in
    sorted order of their labels (a single group when ``groups`` is None).
    """
    t, p = np.asarray(true_grades, dtype=float), np.asarray(predicted, dtype=float)
    codes = _group_codes(groups, t.size)
    tau = np.full(codes.max() + 1 if codes.size else 0, np.nan)
    for ids, idx in _groups_by_size(codes):
        c = concordance_counts(t[idx], p[idx])
        if variant == "b":
            tau[ids] = tau_b_from_counts(c)
            continue
        both = c.concordant + c.discordant
        with np.errstate(invalid="ignore", divide="ignore"):
            tau[ids] = np.where(both > 0, (c.concordant - c.discordant) / both, np.nan)
    return tau


def _f1_from_counts(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    denom = 2 * tp + fp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, 2 * tp / denom, np.nan)


def _confusion_by_grade(
    t: np.ndarray, p: np.ndarray, grades: Sequence[int]
) -> tuple[np.ndarray, ...]:
    """Per-record indicators (n, n_grades) of TP, FP and FN for each grade."""
    g = np.asarray(grades)
    is_t, is_p = t[:, None] == g, p[:, None] == g
    return is_t & is_p, ~is_t & is_p, is_t & ~is_p


def per_grade_f1(
    true_grades: ArrayLike, predicted: ArrayLike, grades: Sequence[int] = GRADES
) -> np.ndarray:
    """F1 per grade = 2·TP/(2·TP + FP + FN), one-vs-rest; NaN when the grade never occurs."""
    t, p = np.asarray(true_grades), np.asarray(predicted)
    return _f1_from_counts(*(m.sum(axis=0) for m in _confusion_by_grade(t, p, grades)))


class GradedEvaluation(NamedTuple):
    """Mean per-group τ and per-grade F1 with bootstrap standard errors."""

    tau: float
    tau_se: float
    f1: np.ndarray
    f1_se: np.ndarray
    tau_per_group: np.ndarray


def _bootstrap_counts(n: int, n_boot: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Yield (chunk, n) matrices: how often each group is drawn in each bootstrap replicate."""
    for block in row_blocks(n_boot, n):
        b = block.stop - block.start
        draws = rng.integers(0, n, size=(b, n)) + n * np.arange(b)[:, None]
        yield np.bincount(draws.ravel(), minlength=b * n).reshape(b, n)


def evaluate_grades(
    true_grades: ArrayLike,
    predicted: ArrayLike,
    groups: ArrayLike | None = None,
    *,
    grades: Sequence[int] = GRADES,
    n_boot: int = 1000,
    seed: int = 0,
    variant: TauVariant = "a",
) -> GradedEvaluation:
    """Mean per-group τ and per-grade F1, with standard errors from ``n_boot`` bootstrap
    replicates that resample whole groups with replacement (``numpy.random.default_rng(seed)``).

    τ = nanmean of :func:`group_kendall_tau` (``variant`` "a" = the seed's K); SE = standard deviation (ddof = 1) of the
    replicate statistics. ``predicted`` are predicted grades (e.g. thermometer ranks).
    """
    t, p = np.asarray(true_grades), np.asarray(predicted)
    if t.shape != p.shape:
        raise ValueError("true_grades and predicted must have the same length")
    if n_boot < 2:
        raise ValueError("n_boot must be at least 2 for a standard error")
    codes = _group_codes(groups, t.size)
    tau_g = group_kendall_tau(t, p, codes, variant=variant)
    n_groups = tau_g.size
    valid = ~np.isnan(tau_g)
    tau_sum = np.where(valid, tau_g, 0.0)
    conf = [  # per group × grade counts of TP, FP, FN
        np.stack([np.bincount(codes, weights=col, minlength=n_groups) for col in m.T], axis=1)
        for m in _confusion_by_grade(t, p, grades)
    ]
    boot_tau, boot_f1 = [], []
    for counts in _bootstrap_counts(n_groups, n_boot, np.random.default_rng(seed)):
        with np.errstate(invalid="ignore", divide="ignore"):
            boot_tau.append(counts @ tau_sum / (counts @ valid))
        boot_f1.append(_f1_from_counts(*(counts @ c for c in conf)))
    tau = float(np.mean(tau_g[valid])) if valid.any() else float("nan")
    f1 = _f1_from_counts(*(c.sum(axis=0) for c in conf))
    return GradedEvaluation(
        tau=tau,
        tau_se=float(np.nanstd(np.concatenate(boot_tau), ddof=1)),
        f1=f1,
        f1_se=np.nanstd(np.concatenate(boot_f1), axis=0, ddof=1),
        tau_per_group=tau_g,
    )


def threshold_grid(similarity: ArrayLike, step: float = 0.025) -> np.ndarray:
    """Candidate thresholds ``min(s) + step·q`` for q = 0, 1, … while ≤ max(s) (seed 002, App. E)."""
    s = np.asarray(similarity, dtype=float)
    if s.size == 0 or step <= 0:
        raise ValueError("need similarities and a positive step")
    lo, hi = float(s.min()), float(s.max())
    return lo + step * np.arange(int(np.floor((hi - lo) / step + 1e-9)) + 1)


def grades_from_thresholds(similarity: ArrayLike, thresholds: Sequence[float]) -> np.ndarray:
    """Grade = #{k : s ≥ t_k}: below t1 → 0, [t1, t2) → 1, [t2, t3) → 2, ≥ t3 → 3."""
    s = np.asarray(similarity, dtype=float)
    return np.count_nonzero(s[..., None] >= np.asarray(thresholds, dtype=float), axis=-1)


class CosineBaseline(NamedTuple):
    """Best thresholds t1 < t2 < t3 and the mean per-group τ they reach on the fitting data."""

    thresholds: tuple[float, float, float]
    tau: float


def _threshold_pairs(
    s: np.ndarray, t: np.ndarray, codes: np.ndarray, grid: np.ndarray
) -> tuple[np.ndarray, ...]:
    """Within-group pairs that some grid threshold can split: (group, sign c, a, b).

    c = sign(Δs)·sign(Δgrade) (0 when the grades tie); the pair is split by grid[q] iff
    a ≤ q < b (s_low < grid[q] ≤ s_high). Also returns, per group, the number of pairs with
    distinct true grades (P_t of τ-b).
    """
    parts = []
    for ids, idx in _groups_by_size(codes):
        i, j = np.triu_indices(idx.shape[1], k=1)
        parts.append((np.repeat(ids, i.size), idx[:, i].ravel(), idx[:, j].ravel()))
    grp, lo, hi = (np.concatenate(x) for x in zip(*parts, strict=True))
    c = np.sign(s[hi] - s[lo]) * np.sign(t[hi] - t[lo])
    a = np.searchsorted(grid, np.minimum(s[lo], s[hi]), side="right")
    b = np.searchsorted(grid, np.maximum(s[lo], s[hi]), side="right")
    true_pairs = np.bincount(grp, weights=t[hi] != t[lo], minlength=codes.max() + 1)
    keep = a < b
    return grp[keep], c[keep], a[keep], b[keep], true_pairs


def fit_cosine_thresholds(
    similarity: ArrayLike,
    true_grades: ArrayLike,
    groups: ArrayLike | None = None,
    *,
    step: float = 0.025,
    variant: TauVariant = "b",
) -> CosineBaseline:
    """Exhaustive search over all t1 < t2 < t3 from :func:`threshold_grid` maximising the mean
    per-group τ (:func:`group_kendall_tau`, same ``variant``) of :func:`grades_from_thresholds`.

    **Decision:** the default objective is τ-b. The seed's (C − D)/(C + D) ignores ties in the
    prediction, so it is maximised by degenerate thresholds that put nearly every record in
    one grade and split only a few concordant pairs (τ = 1); τ-b penalises those ties.
    Exact and vectorised: a pair is split when any threshold lies in its grid interval
    [a, b); for t_i < t_j < t_k, split = hit(i) ∨ hit(j) + [a > j]·hit(k), so the per-group
    C − D and split counts are sums of two tables. Cost O(pairs·K² + groups·K³) for K grid
    values. Ties in τ go to the lexicographically smallest (t1, t2, t3).
    """
    s = np.asarray(similarity, dtype=float)
    t = np.asarray(true_grades, dtype=float)
    if s.shape != t.shape or s.ndim != 1:
        raise ValueError("similarity and true_grades must be 1-D of equal length")
    grid = threshold_grid(s, step)
    k_grid = grid.size
    if k_grid < 3:
        raise ValueError("similarity range too small for three thresholds at this step")
    grp, c, a, b, true_pairs = _threshold_pairs(s, t, _group_codes(groups, s.size), grid)
    if variant == "a":
        grp, a, b, c = grp[c != 0], a[c != 0], b[c != 0], c[c != 0]
    used, grp = np.unique(grp, return_inverse=True)
    n_groups, n_pairs = used.size, grp.size
    cols = np.arange(n_pairs)
    s_sign = sparse.csr_matrix((c, (grp, cols)), shape=(n_groups, n_pairs))
    s_one = sparse.csr_matrix((np.ones(n_pairs), (grp, cols)), shape=(n_groups, n_pairs))
    true_pairs = true_pairs[used]
    q = np.arange(k_grid)
    hit = ((a[:, None] <= q) & (q < b[:, None])).astype(float)  # pairs × K
    objective = np.full((k_grid,) * 3, -np.inf)
    for j in range(1, k_grid - 1):
        early = np.maximum(hit[:, :j], hit[:, [j]])  # hit(i) ∨ hit(j) for i < j
        late = hit[:, j + 1 :] * (a > j)[:, None]  # hit(k) for pairs untouched by i, j
        a_num, a_split = s_sign @ early, s_one @ early  # groups × j
        f_num, f_split = s_sign @ late, s_one @ late  # groups × (K − j − 1)
        tau_sum = np.zeros((j, k_grid - j - 1))
        n_valid = np.zeros_like(tau_sum)
        for rows in row_blocks(n_groups, tau_sum.size):
            split = a_split[rows, :, None] + f_split[rows, None, :]
            num = a_num[rows, :, None] + f_num[rows, None, :]
            den = split if variant == "a" else np.sqrt(split * true_pairs[rows, None, None])
            ok = den > 0
            tau_sum += np.sum(np.divide(num, den, out=np.zeros_like(num), where=ok), axis=0)
            n_valid += ok.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            objective[:j, j, j + 1 :] = np.where(n_valid > 0, tau_sum / n_valid, -np.inf)
    best = int(np.argmax(objective))  # first maximum in C order = lexicographic (i, j, k)
    if not np.isfinite(objective.flat[best]):
        raise ValueError("no threshold triple gives a defined τ (no informative record pair)")
    i, j, k = np.unravel_index(best, objective.shape)
    return CosineBaseline(
        (float(grid[i]), float(grid[j]), float(grid[k])), float(objective.flat[best])
    )
