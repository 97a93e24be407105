"""Graded relevance 0–3 (SPEC §3; seed 002, RelevAI-Reviewer, §3.1, §3.2, §4.3, App. E).

* Thermometer code: grade g → bits [g ≥ 1, g ≥ 2, g ≥ 3]; a record's score is the sum of the
  three predicted bit probabilities; within a group (one prompt/review) the records are
  ranked by that sum: rank 0 = lowest sum … m − 1 = highest (the seed's Table 1: sums
  1.9, 1.34, 0.35, 2.75 → ranks 2, 1, 0, 3). With four records per group the rank is the
  predicted grade.
* Kendall's τ-b over **all records pooled** (``scipy.stats.kendalltau``), as the authors'
  scoring code computes the paper's 0.774 and 0.928 (SPEC §3); the mean of per-prompt τ is
  the named option ``tau_mode="per_prompt"``. Bootstrap standard errors resample prompts;
  per-grade F1.
* Cosine baseline: three thresholds t1 < t2 < t3 on the similarity to the prompt map a record
  to grade #{k : s > t_k} (a similarity equal to a threshold goes to the lower grade); the
  grid starts at round(min s, 1) in steps of 0.025 (the authors' procedure) and the triple
  maximising the same τ is kept.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

import numpy as np
from scipy import sparse
from scipy.stats import kendalltau

from litqeval_gui.metrics.agreement import (
    ArrayLike,
    concordance_counts,
    row_blocks,
    tau_b_from_counts,
)

GRADES = (0, 1, 2, 3)
N_BITS = len(GRADES) - 1

TauVariant = Literal["a", "b"]
TauMode = Literal["pooled", "per_prompt"]


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

    Tied scores get the average of the ranks they span (``scipy.stats.rankdata``
    "average", minus 1; SPEC §3), so the result never depends on the input order.
    """
    s = np.asarray(scores, dtype=float)
    codes = _group_codes(groups, s.size)
    order = np.lexsort((s, codes))
    sc, ss = codes[order], s[order]
    new = np.r_[True, (sc[1:] != sc[:-1]) | (ss[1:] != ss[:-1])] if s.size else np.empty(0, bool)
    first = np.flatnonzero(new)
    last = np.r_[first[1:], s.size] - 1
    ranks = np.empty(s.size, dtype=float)
    ranks[order] = ((first + last) / 2)[np.cumsum(new) - 1] - np.searchsorted(sc, sc, "left")
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
    """τ (see ``tau_mode``) and per-grade F1 with bootstrap standard errors;
    ``tau_per_group`` holds the per-prompt τ in either mode."""

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
    tau_mode: TauMode = "pooled",
    variant: TauVariant = "a",
) -> GradedEvaluation:
    """τ and per-grade F1, with standard errors from ``n_boot`` bootstrap replicates that
    resample whole groups with replacement (``numpy.random.default_rng(seed)``).

    ``tau_mode="pooled"`` (default, SPEC §3): τ-b of all records pooled, i.e.
    ``scipy.stats.kendalltau(true, predicted)``, as the authors' scoring code computes it;
    a replicate's τ-b comes from its pooled contingency table. ``"per_prompt"``: nanmean of
    :func:`group_kendall_tau` (``variant`` "a" = the seed's K). SE = standard deviation
    (ddof = 1) of the replicate statistics. ``predicted`` are predicted grades or ranks.
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
    pooled = _group_tables(t, p, codes, n_groups) if tau_mode == "pooled" else None
    boot_tau, boot_f1 = [], []
    for counts in _bootstrap_counts(n_groups, n_boot, np.random.default_rng(seed)):
        if pooled is not None:
            boot_tau.append(tau_b_from_tables((counts @ pooled[0]).reshape(-1, *pooled[1])))
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                boot_tau.append(counts @ tau_sum / (counts @ valid))
        boot_f1.append(_f1_from_counts(*(counts @ c for c in conf)))
    if pooled is not None:
        tau = float(kendalltau(t, p).statistic) if t.size > 1 else float("nan")
    else:
        tau = float(np.mean(tau_g[valid])) if valid.any() else float("nan")
    f1 = _f1_from_counts(*(c.sum(axis=0) for c in conf))
    return GradedEvaluation(
        tau=tau,
        tau_se=float(np.nanstd(np.concatenate(boot_tau), ddof=1)),
        f1=f1,
        f1_se=np.nanstd(np.concatenate(boot_f1), axis=0, ddof=1),
        tau_per_group=tau_g,
    )


def _group_tables(
    t: np.ndarray, p: np.ndarray, codes: np.ndarray, n_groups: int
) -> tuple[sparse.csr_matrix, tuple[int, int]]:
    """Per-group contingency tables of (true, predicted) values, flattened: a sparse
    (groups × cells) matrix and the table shape (distinct true × distinct predicted)."""
    t_codes = np.unique(t, return_inverse=True)[1].reshape(t.size)
    p_vals, p_codes = np.unique(p, return_inverse=True)
    shape = (int(t_codes.max(initial=-1)) + 1, p_vals.size)
    cells = t_codes * shape[1] + p_codes.reshape(p.size)
    table = sparse.csr_matrix((np.ones(t.size), (codes, cells)),
                              shape=(n_groups, shape[0] * shape[1]))
    return table, shape


def tau_b_from_tables(tables: np.ndarray) -> np.ndarray:
    """Kendall's τ-b of contingency tables (..., a, b) whose rows and columns are in
    ascending order of the two variables: (C − D)/√((n₀ − n₁)(n₀ − n₂)) with n₀ = N(N−1)/2
    and n₁, n₂ the pairs tied in rows resp. columns (scipy's τ-b); NaN where undefined."""
    tab = np.asarray(tables, dtype=float)
    padded = np.zeros((*tab.shape[:-2], tab.shape[-2] + 1, tab.shape[-1] + 2))
    padded[..., :-1, 1:-1] = tab
    # Σ over rows i' ≥ i, then over columns j' ≥ j (right) resp. j' ≤ j (left)
    down = np.flip(np.cumsum(np.flip(padded, -2), axis=-2), -2)
    right = np.flip(np.cumsum(np.flip(down, -1), axis=-1), -1)
    left = np.cumsum(down, axis=-1)
    concordant = np.sum(tab * right[..., 1:, 2:], axis=(-2, -1))
    discordant = np.sum(tab * left[..., 1:, :-2], axis=(-2, -1))
    n = tab.sum(axis=(-2, -1))
    rows, cols = tab.sum(axis=-1), tab.sum(axis=-2)
    n0 = n * (n - 1) / 2
    n1 = np.sum(rows * (rows - 1) / 2, axis=-1)
    n2 = np.sum(cols * (cols - 1) / 2, axis=-1)
    denom = np.sqrt((n0 - n1) * (n0 - n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (concordant - discordant) / denom, np.nan)


def threshold_grid(similarity: ArrayLike, step: float = 0.025) -> np.ndarray:
    """Candidate thresholds round(min s, 1) + step·q for q = 0, 1, … while ≤ max(s).

    The authors' grid (SPEC §3; seed 002 App. E says "from the minimum similarity value
    to the maximum one, with a step of 0.025"; their code starts at the minimum rounded
    to one decimal). Each value is rounded to 12 decimals so 0.2 + 0.025·3 prints as 0.275.
    """
    s = np.asarray(similarity, dtype=float)
    if s.size == 0 or step <= 0:
        raise ValueError("need similarities and a positive step")
    lo, hi = round(float(s.min()), 1), float(s.max())
    if lo > hi:
        return np.empty(0)
    return np.round(lo + step * np.arange(int(np.floor((hi - lo) / step + 1e-9)) + 1), 12)


def grades_from_thresholds(similarity: ArrayLike, thresholds: Sequence[float]) -> np.ndarray:
    """Grade = #{k : s > t_k}: ≤ t1 → 0, (t1, t2] → 1, (t2, t3] → 2, > t3 → 3.

    A similarity equal to a threshold goes to the lower grade, as in the authors' code
    ("greater than the third threshold" is the most relevant grade; SPEC §3)."""
    s = np.asarray(similarity, dtype=float)
    return np.count_nonzero(s[..., None] > np.asarray(thresholds, dtype=float), axis=-1)


class CosineBaseline(NamedTuple):
    """Best thresholds t1 < t2 < t3 and the τ they reach on the fitting data."""

    thresholds: tuple[float, float, float]
    tau: float


def fit_cosine_thresholds(
    similarity: ArrayLike,
    true_grades: ArrayLike,
    groups: ArrayLike | None = None,
    *,
    step: float = 0.025,
    tau_mode: TauMode = "pooled",
    variant: TauVariant = "b",
) -> CosineBaseline:
    """Exhaustive search over all t1 < t2 < t3 from :func:`threshold_grid` maximising τ of
    :func:`grades_from_thresholds` against ``true_grades`` (seed 002 App. E, SPEC §3).

    ``tau_mode="pooled"`` (default): scipy's τ-b over all records, the authors' objective;
    ``groups`` is then not used. ``"per_prompt"``: the mean per-group τ
    (:func:`group_kendall_tau`, ``variant`` "b" by default). **Decision:** per prompt, the
    seed's (C − D)/(C + D) ignores ties in the prediction, so it is maximised by degenerate
    thresholds that put nearly every record in one grade and split only a few concordant
    pairs (τ = 1); τ-b penalises those ties. Ties in τ go to the lexicographically smallest
    (t1, t2, t3), the first the authors' nested loops meet.
    """
    s = np.asarray(similarity, dtype=float)
    t = np.asarray(true_grades, dtype=float)
    if s.shape != t.shape or s.ndim != 1:
        raise ValueError("similarity and true_grades must be 1-D of equal length")
    grid = threshold_grid(s, step)
    if grid.size < 3:
        raise ValueError("similarity range too small for three thresholds at this step")
    if tau_mode == "pooled":
        objective = _pooled_objective(s, t, grid)
    else:
        objective = _per_prompt_objective(s, t, _group_codes(groups, s.size), grid, variant)
    best = int(np.argmax(objective))  # first maximum in C order = lexicographic (i, j, k)
    if not np.isfinite(objective.flat[best]):
        raise ValueError("no threshold triple gives a defined τ (no informative record pair)")
    i, j, k = np.unravel_index(best, objective.shape)
    return CosineBaseline(
        (float(grid[i]), float(grid[j]), float(grid[k])), float(objective.flat[best])
    )


def _pooled_objective(s: np.ndarray, t: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Pooled τ-b for every triple i < j < k of grid indices (−inf elsewhere / undefined).

    below[q, g] = #records of true value g with s ≤ grid[q]; the four predicted grades of a
    triple are differences of those counts, so each triple's contingency table is O(1)
    and :func:`tau_b_from_tables` scores all triples at once.
    """
    values, t_codes = np.unique(t, return_inverse=True)
    by_grade = [np.sort(s[t_codes.reshape(t.size) == g]) for g in range(values.size)]
    below = np.stack([np.searchsorted(v, grid, side="right") for v in by_grade], axis=1)
    total = np.array([v.size for v in by_grade])
    k_grid = grid.size
    triples = np.array(list(itertools.combinations(range(k_grid), 3)))
    objective = np.full((k_grid,) * 3, -np.inf)
    for rows in row_blocks(len(triples), 4 * values.size):
        i, j, k = triples[rows].T
        tables = np.stack([below[i], below[j] - below[i], below[k] - below[j], total - below[k]],
                          axis=-1)  # triples × true values × 4 predicted grades
        tau = tau_b_from_tables(tables)
        objective[i, j, k] = np.where(np.isnan(tau), -np.inf, tau)
    return objective


def _threshold_pairs(
    s: np.ndarray, t: np.ndarray, codes: np.ndarray, grid: np.ndarray
) -> tuple[np.ndarray, ...]:
    """Within-group pairs that some grid threshold can split: (group, sign c, a, b).

    c = sign(Δs)·sign(Δgrade) (0 when the grades tie); the pair is split by grid[q] iff
    a ≤ q < b (s_low ≤ grid[q] < s_high: equality goes to the lower grade). Also returns,
    per group, the number of pairs with distinct true grades (P_t of τ-b).
    """
    parts = []
    for ids, idx in _groups_by_size(codes):
        i, j = np.triu_indices(idx.shape[1], k=1)
        parts.append((np.repeat(ids, i.size), idx[:, i].ravel(), idx[:, j].ravel()))
    grp, lo, hi = (np.concatenate(x) for x in zip(*parts, strict=True))
    c = np.sign(s[hi] - s[lo]) * np.sign(t[hi] - t[lo])
    a = np.searchsorted(grid, np.minimum(s[lo], s[hi]), side="left")
    b = np.searchsorted(grid, np.maximum(s[lo], s[hi]), side="left")
    true_pairs = np.bincount(grp, weights=t[hi] != t[lo], minlength=codes.max() + 1)
    keep = a < b
    return grp[keep], c[keep], a[keep], b[keep], true_pairs


def _per_prompt_objective(
    s: np.ndarray, t: np.ndarray, codes: np.ndarray, grid: np.ndarray, variant: TauVariant
) -> np.ndarray:
    """Mean per-group τ for every triple i < j < k of grid indices (−inf elsewhere).

    Exact and vectorised: a pair is split when any threshold lies in its grid interval
    [a, b); for t_i < t_j < t_k, split = hit(i) ∨ hit(j) + [a > j]·hit(k), so the per-group
    C − D and split counts are sums of two tables. Cost O(pairs·K² + groups·K³).
    """
    k_grid = grid.size
    grp, c, a, b, true_pairs = _threshold_pairs(s, t, codes, grid)
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
    return objective
