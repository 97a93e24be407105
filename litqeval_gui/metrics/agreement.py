"""Agreement between two rankings or score vectors (SPEC §2 and §4; seeds 001 and 002).

Kendall's τ-b, τ_AP (Yilmaz, Aslam & Robertson 2008), Spearman's ρ, RMS error, coefficient of
variation, Cohen's κ (unweighted, linearly or quadratically weighted) with its 95 % interval
(SPEC §6). Pair-counting functions are
vectorised O(n²) in time and run in row blocks so memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
from scipy.stats import norm, rankdata

from litqeval_gui.metrics.reliability import clip_interval

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

    **Ties (SPEC §4, §6): a pair tied in either ranking counts half concordant.** A pair
    tied in ``reference`` adds ½ to C(i); ties in ``estimate`` are not broken by input
    order: the result is the mean over all orders of the tied items, so it never depends
    on the input order (reference [1, 1, 0], estimate [3, 2, 1] gives 0.5). Closed form:
    an item y in a tie group of g items below s items sits at position i + 1 with i
    uniform in s … s+g−1, and each other member of its group is above it with probability
    (i−s)/(g−1); so y adds (1/g)·Σ_{i=max(s,1)}^{s+g−1} (c_out + (i−s)/(g−1)·c_in)/i to
    Σ C(i)/(i−1), where c_out, c_in count the items above the group resp. in the group
    with a higher reference score (½ for an equal one). NaN for fewer than two items.
    Asymmetric: top-heavy in the estimated ranking.
    """
    ref, est = _pair_arrays(reference, estimate)
    n = ref.size
    if n < 2:
        return float("nan")
    s = np.zeros(n, dtype=np.int64)  # items with a strictly higher estimate
    g = np.ones(n, dtype=np.int64)  # size of the item's tie group in the estimate
    c_out, c_in = np.zeros(n), np.zeros(n)  # concordance with the items above / in the group
    for rows in row_blocks(n, n):
        d_est = est[None, :] - est[rows, None]  # est_x − est_y
        d_ref = ref[None, :] - ref[rows, None]
        above, tied = d_est > 0, d_est == 0
        s[rows] = np.count_nonzero(above, axis=1)
        g[rows] = np.count_nonzero(tied, axis=1)
        worth = (d_ref > 0) + 0.5 * (d_ref == 0)
        c_out[rows] = np.sum(worth * above, axis=1)
        c_in[rows] = np.sum(worth * tied, axis=1) - 0.5  # an item's pair with itself
    harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, n + 1))))
    first = np.maximum(s, 1)
    outside = harmonic[s + g - 1] - harmonic[first - 1]  # Σ 1/i over the group's positions
    with np.errstate(invalid="ignore", divide="ignore"):
        inside = np.where(g > 1, (s + g - first - s * outside) / (g - 1), 0.0)  # Σ (i−s)/((g−1)i)
    concordant = np.sum((c_out * outside + c_in * inside) / g)
    return float(2.0 * concordant / (n - 1) - 1.0)


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


Weights = Literal["linear", "quadratic"] | None
_Z95 = float(norm.ppf(0.975))


@dataclass(frozen=True)
class Kappa:
    """Cohen's κ of two raters over the items both rated, with its 95 % interval.

    ``table[i][j]`` counts items rater a put in ``labels[i]`` and rater b in ``labels[j]``;
    ``agreement`` is the raw share of identical labels (unweighted, whatever ``weights``);
    ``se`` the large-sample standard error of Fleiss, Cohen & Everitt (1969), named in
    ``se_method``; ``ci`` = κ ± z₀.₉₇₅·se (not clipped; :attr:`shown_ci` is, to κ's
    range [−1, 1], as the app shows it). NaN where undefined.
    """

    kappa: float
    se: float
    ci: tuple[float, float]
    agreement: float
    n: int
    labels: tuple[object, ...]
    table: tuple[tuple[int, ...], ...]
    weights: str  # "none" | "linear" | "quadratic"
    se_method: str = "large-sample SE (Fleiss, Cohen & Everitt 1969)"

    @property
    def shown_ci(self) -> tuple[float, float]:
        """The interval clipped to [−1, 1], the form every view and export shows."""
        return clip_interval(*self.ci)


def kappa_from_table(table: np.ndarray | Sequence[Sequence[int]], *, weights: Weights = None,
                     labels: Sequence[object] | None = None) -> Kappa:
    """κ of a k×k count table (rows rater a, columns rater b), SPEC §6.

    Agreement weights w_ij: 1 on the diagonal, 0 elsewhere (unweighted); linear
    1 − |i−j|/(k−1); quadratic 1 − (i−j)²/(k−1)². κ_w = (p_o − p_e)/(1 − p_e) with
    p_o = Σ w_ij p_ij, p_e = Σ w_ij p_i· p_·j (equal to scikit-learn's disagreement form).
    Variance (Fleiss, Cohen & Everitt 1969, Psychol. Bull. 72:323; Fleiss, Levin & Paik
    2003 eq. 18.14): [Σ p_ij (w_ij − (w̄_i· + w̄_·j)(1−κ))² − (κ − p_e(1−κ))²] / (n (1−p_e)²),
    w̄_i· = Σ_j p_·j w_ij, w̄_·j = Σ_i p_i· w_ij.
    """
    counts = np.asarray(table, dtype=np.int64)
    k = counts.shape[0]
    if counts.ndim != 2 or counts.shape != (k, k):
        raise ValueError("a κ table must be square")
    names = tuple(labels) if labels is not None else tuple(range(k))
    if len(names) != k:
        raise ValueError("one label per row of the table")
    grid = np.arange(k)
    if weights is None:
        w = np.eye(k)
    elif weights in ("linear", "quadratic"):
        distance = np.abs(grid[:, None] - grid[None, :]).astype(float) ** (
            1 if weights == "linear" else 2)
        w = 1.0 - distance / distance.max() if k > 1 else np.ones((1, 1))
    else:
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    n = int(counts.sum())
    nan = float("nan")
    result = dict(n=n, labels=names, table=tuple(tuple(int(v) for v in row) for row in counts),
                  weights=weights or "none")
    if n == 0:
        return Kappa(kappa=nan, se=nan, ci=(nan, nan), agreement=nan, **result)
    p = counts / n
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    p_o, p_e = float(np.sum(w * p)), float(np.sum(w * np.outer(rows, cols)))
    agreement = float(np.trace(p))
    if p_e >= 1.0:
        return Kappa(kappa=nan, se=nan, ci=(nan, nan), agreement=agreement, **result)
    kappa = (p_o - p_e) / (1.0 - p_e)
    w_row, w_col = w @ cols, rows @ w
    spread = np.sum(p * (w - (w_row[:, None] + w_col[None, :]) * (1 - kappa)) ** 2)
    variance = (spread - (kappa - p_e * (1 - kappa)) ** 2) / (n * (1 - p_e) ** 2)
    se = float(np.sqrt(max(variance, 0.0)))
    return Kappa(kappa=float(kappa), se=se, ci=(kappa - _Z95 * se, kappa + _Z95 * se),
                 agreement=agreement, **result)


def kappa_agreement(a: Sequence[object] | np.ndarray, b: Sequence[object] | np.ndarray, *,
                    weights: Weights = None, labels: Sequence[object] | None = None) -> Kappa:
    """κ of two label sequences (item i rated ``a[i]`` and ``b[i]``); ``labels`` fixes the
    categories and their order (default: sorted union of both), which the weighted forms
    read as a scale (grades 0..3 are weighted by their distance)."""
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    if a_arr.shape != b_arr.shape or a_arr.ndim != 1:
        raise ValueError("κ needs two 1-D label sequences of equal length")
    cats = list(labels) if labels is not None else np.union1d(a_arr, b_arr).tolist()
    k = len(cats)
    index = {c: i for i, c in enumerate(cats)}
    try:
        ia = np.fromiter((index[v] for v in a_arr.tolist()), dtype=np.int64, count=a_arr.size)
        ib = np.fromiter((index[v] for v in b_arr.tolist()), dtype=np.int64, count=b_arr.size)
    except KeyError as err:
        raise ValueError(f"label {err.args[0]!r} is not in labels") from None
    table = np.bincount(ia * k + ib, minlength=k * k).reshape(k, k)
    return kappa_from_table(table, weights=weights, labels=cats)


def cohen_kappa(a: Sequence[object] | np.ndarray, b: Sequence[object] | np.ndarray, *,
                weights: Weights = None, labels: Sequence[object] | None = None) -> float:
    """Cohen's κ of two label sequences (see :func:`kappa_agreement`); NaN when the
    expected agreement is 1 (e.g. both raters use one identical label throughout)."""
    return kappa_agreement(a, b, weights=weights, labels=labels).kappa
