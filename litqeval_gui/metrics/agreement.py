"""Agreement between two rankings or score vectors (SPEC §2 and §4; seeds 001 and 002).

Kendall's τ-b, τ_AP (Yilmaz, Aslam & Robertson 2008), Spearman's ρ, RMS error, coefficient of
variation, Cohen's κ (unweighted and linearly weighted). Pair-counting functions are
vectorised O(n²) in time and run in row blocks so memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

import numpy as np
from scipy.stats import rankdata

ArrayLike = Sequence[float] | np.ndarray
_BLOCK_ELEMENTS = 1 << 22


class PairCounts(NamedTuple):
    """Counts over unordered pairs i < j (arrays when the inputs carry leading batch axes)."""

    concordant: np.ndarray
    discordant: np.ndarray
    tied_x_only: np.ndarray
    tied_y_only: np.ndarray
    tied_both: np.ndarray


def row_blocks(n_rows: int, row_cost: int) -> Iterator[slice]:
    """Slices covering ``range(n_rows)`` so that rows × ``row_cost`` stays ≈ 4 M elements."""
    step = max(1, _BLOCK_ELEMENTS // max(row_cost, 1))
    for start in range(0, n_rows, step):
        yield slice(start, min(start + step, n_rows))


def _pair_arrays(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"shapes differ: {x.shape} vs {y.shape}")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("NaN values cannot be ranked")
    return x, y


def concordance_counts(x: ArrayLike, y: ArrayLike) -> PairCounts:
    """Count concordant/discordant/tied pairs i < j along the last axis.

    A pair is concordant when sign(x_i − x_j)·sign(y_i − y_j) > 0, discordant when < 0.
    Leading axes are batch axes (e.g. one row per group), counted independently.
    """
    x, y = _pair_arrays(x, y)
    m = x.shape[-1]
    batch = int(np.prod(x.shape[:-1], dtype=np.int64))
    x2, y2 = x.reshape(batch, m), y.reshape(batch, m)
    totals = np.zeros((5, batch), dtype=np.int64)
    cols = np.arange(m)
    for rows in row_blocks(m, batch * m):
        upper = cols[None, :] > cols[rows, None]  # only j > i
        dx = np.sign(x2[:, rows, None] - x2[:, None, :])
        dy = np.sign(y2[:, rows, None] - y2[:, None, :])
        prod = dx * dy
        for k, mask in enumerate(
            (
                prod > 0,
                prod < 0,
                (dx == 0) & (dy != 0),
                (dx != 0) & (dy == 0),
                (dx == 0) & (dy == 0),
            )
        ):
            totals[k] += np.count_nonzero(mask & upper, axis=(1, 2))
    shape = x.shape[:-1]
    return PairCounts(*(t.reshape(shape) for t in totals))


def tau_b_from_counts(c: PairCounts) -> np.ndarray:
    """τ-b = (C − D) / √((C + D + T_y)(C + D + T_x)) per batch entry; NaN where undefined."""
    both = c.concordant + c.discordant
    denom = np.sqrt((both + c.tied_y_only).astype(float) * (both + c.tied_x_only))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (c.concordant - c.discordant) / denom, np.nan)


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    """τ-b = (C − D) / √((C + D + T_y)(C + D + T_x)); T_x = pairs tied in x only, T_y likewise.

    Equals τ-a without ties. NaN when either vector is constant (or has < 2 entries).
    """
    return float(tau_b_from_counts(concordance_counts(x, y)))


def tau_ap(reference: ArrayLike, estimate: ArrayLike) -> float:
    """AP rank correlation τ_AP (Yilmaz, Aslam & Robertson, SIGIR 2008); higher score = better.

    Items are ordered by ``estimate`` descending. Yilmaz: for the item at position i ≥ 2,
    C(i) = #items above it with a higher ``reference`` score and
    τ_AP = 2/(n−1) Σ_i C(i)/(i−1) − 1.

    **Decisions (SPEC §4).** Ties in ``estimate`` are not broken by input order: every
    quantity is its mean over all orders of the tied items, so a pair tied in the estimate
    counts half concordant and the result never depends on the input order. Pairs tied in
    ``reference`` carry no information and drop out: with A(i) = #items above i whose
    reference score differs, τ_AP = 2·E[Σ_i C(i)/(i−1)] / E[Σ_i A(i)/(i−1)] − 1, which is
    Yilmaz's formula when nothing ties and 1 for an estimate that orders every
    informative pair correctly. Closed form: an item y in a tie group of g items below
    s items sits at position i + 1 with i uniform in s … s+g−1, and each other member of
    its group is above it with probability (i−s)/(g−1); so y adds
    (1/g)·Σ_{i=max(s,1)}^{s+g−1} (c_out + (i−s)/(g−1)·c_in)/i to the numerator, where
    c_out, c_in count the items above the group resp. in the group with a higher
    reference score (likewise with "different" for the denominator). NaN when no pair is
    informative. Asymmetric: top-heavy in the estimated ranking.
    """
    ref, est = _pair_arrays(reference, estimate)
    n = ref.size
    s = np.zeros(n, dtype=np.int64)  # items with a strictly higher estimate
    g = np.ones(n, dtype=np.int64)  # size of the item's tie group in the estimate
    counts = np.zeros((4, n))  # c_out, c_in (higher reference); d_out, d_in (different)
    for rows in row_blocks(n, n):
        d_est = est[None, :] - est[rows, None]  # est_x − est_y
        d_ref = ref[None, :] - ref[rows, None]
        above, tied = d_est > 0, d_est == 0  # an item's pair with itself has d_ref = 0
        s[rows] = np.count_nonzero(above, axis=1)
        g[rows] = np.count_nonzero(tied, axis=1)
        for k, (where, ref_rule) in enumerate(
            ((above, d_ref > 0), (tied, d_ref > 0), (above, d_ref != 0), (tied, d_ref != 0))
        ):
            counts[k, rows] = np.count_nonzero(where & ref_rule, axis=1)
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, n + 1))))
    first = np.maximum(s, 1)
    outside = harmonic[s + g - 1] - harmonic[first - 1]  # Σ 1/i over the group's positions
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = np.where(g > 1, (s + g - first - s * outside) / (g - 1), 0.0)  # Σ (i−s)/((g−1)i)
    concordant = np.sum((counts[0] * outside + counts[1] * inside) / g)
    informative = np.sum((counts[2] * outside + counts[3] * inside) / g)
    if informative <= 0:
        return float("nan")
    return float(2.0 * concordant / informative - 1.0)


def spearman_rho(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's ρ = Pearson correlation of the average ranks (ties get their mean rank).

    NaN when either vector is constant or has < 2 entries.
    """
    x, y = _pair_arrays(x, y)
    if x.size < 2:
        return float("nan")
    rx, ry = rankdata(x) - (x.size + 1) / 2, rankdata(y) - (y.size + 1) / 2
    denom = np.sqrt(np.sum(rx * rx) * np.sum(ry * ry))
    return float(np.sum(rx * ry) / denom) if denom > 0 else float("nan")


def rms_error(a: ArrayLike, b: ArrayLike) -> float:
    """RMSE = √(mean((a_i − b_i)²)); NaN for empty input."""
    a, b = _pair_arrays(a, b)
    return float(np.sqrt(np.mean((a - b) ** 2))) if a.size else float("nan")


def coefficient_of_variation(values: ArrayLike, ddof: int = 0) -> float:
    """CV = std(values, ddof) / mean(values); NaN when the mean is 0 or too few values."""
    v = np.asarray(values, dtype=float)
    if v.size <= ddof:
        return float("nan")
    mean = v.mean()
    return float(v.std(ddof=ddof) / mean) if mean != 0 else float("nan")


def cohen_kappa(
    a: Sequence[object] | np.ndarray,
    b: Sequence[object] | np.ndarray,
    *,
    weights: Literal["linear"] | None = None,
    labels: Sequence[object] | None = None,
) -> float:
    """Cohen's κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij (O observed, E = outer product of marginals).

    Unweighted: w_ij = [i ≠ j], i.e. κ = (p_o − p_e)/(1 − p_e). ``weights="linear"``:
    w_ij = |i − j| with i, j the positions of the labels in ``labels`` (default: sorted union
    of both label sets), so grades 0..3 are weighted by their distance. NaN when the
    expected disagreement is 0 (e.g. both raters use one identical label throughout).
    """
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    if a_arr.shape != b_arr.shape or a_arr.ndim != 1:
        raise ValueError("cohen_kappa needs two 1-D label sequences of equal length")
    cats = np.asarray(labels) if labels is not None else np.union1d(a_arr, b_arr)
    k = cats.size
    index = {c: i for i, c in enumerate(cats.tolist())}
    try:
        ia = np.fromiter((index[v] for v in a_arr.tolist()), dtype=np.int64, count=a_arr.size)
        ib = np.fromiter((index[v] for v in b_arr.tolist()), dtype=np.int64, count=b_arr.size)
    except KeyError as err:
        raise ValueError(f"label {err.args[0]!r} is not in labels") from None
    observed = np.bincount(ia * k + ib, minlength=k * k).reshape(k, k).astype(float)
    if observed.sum() == 0:
        return float("nan")
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    grid = np.arange(k)
    if weights is None:
        w = (grid[:, None] != grid[None, :]).astype(float)
    elif weights == "linear":
        w = np.abs(grid[:, None] - grid[None, :]).astype(float)
    else:
        raise ValueError(f"weights must be None or 'linear', got {weights!r}")
    expected_disagreement = float(np.sum(w * expected))
    if expected_disagreement == 0:
        return float("nan")
    return 1.0 - float(np.sum(w * observed)) / expected_disagreement
