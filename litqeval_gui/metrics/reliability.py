"""Inter-rater reliability beside Cohen's κ (SPEC §6): raw and per-category agreement,
PABAK, Gwet's AC1 with its interval, and Krippendorff's α for any number of raters with
missing ratings. Formulas and sources: docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.stats import norm

_Z95 = float(norm.ppf(0.975))
Level = Literal["nominal", "ordinal", "interval"]


def clip_interval(low: float, high: float) -> tuple[float, float]:
    """An interval of a coefficient whose range is [−1, 1], clipped to it (NaN kept)."""
    return (float(np.clip(low, -1.0, 1.0)) if low == low else low,
            float(np.clip(high, -1.0, 1.0)) if high == high else high)


@dataclass(frozen=True)
class PairReliability:
    """Two raters' agreement over the items both rated (a k×k table, rows rater a).

    ``specific[j]`` = 2·n_jj / (n_j· + n_·j), the agreement on category j (Fleiss 1975;
    positive/negative agreement for two categories, Cicchetti & Feinstein 1990), NaN for a
    category neither used; ``pabak`` = (k·p_o − 1)/(k − 1) (Byrt, Bishop & Carlin 1993);
    ``ac1`` Gwet's AC1 with ``ac1_se`` (Gwet 2008) and ``ac1_ci`` = AC1 ± z₀.₉₇₅·SE
    clipped to [−1, 1].
    """

    n: int
    agreement: float
    specific: tuple[float, ...]
    pabak: float
    ac1: float
    ac1_se: float
    ac1_ci: tuple[float, float]
    ac1_method: str = "Gwet (2008) variance, infinite population"


def pair_reliability(table: np.ndarray | Sequence[Sequence[int]]) -> PairReliability:
    """The statistics of :class:`PairReliability` from a k×k count table (k ≥ 2).

    AC1 = (p_o − p_e)/(1 − p_e), p_e = Σ_q π_q(1 − π_q)/(k − 1), π_q = (p_q· + p_·q)/2.
    Var = [p_o(1−p_o) − 4(1−γ)(Σ_q p_qq(1−π_q)/(k−1) − p_o p_e)
    + 4(1−γ)²(Σ_ql p_ql(1 − (π_q+π_l)/2)²/(k−1)² − p_e²)] / (n(1−p_e)²) (Gwet 2008,
    Br. J. Math. Stat. Psychol. 61:29, for two raters and an infinite population).
    """
    counts = np.asarray(table, dtype=np.int64)
    k = counts.shape[0]
    if counts.ndim != 2 or counts.shape != (k, k) or k < 2:
        raise ValueError("reliability needs a square table of two or more categories")
    n = int(counts.sum())
    nan = float("nan")
    margins = counts.sum(axis=1) + counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        specific = tuple(float(v) for v in np.where(margins > 0, 2 * np.diag(counts) / margins,
                                                    nan))
    if n == 0:
        return PairReliability(0, nan, specific, nan, nan, nan, (nan, nan))
    p = counts / n
    p_o = float(np.trace(p))
    pabak = (k * p_o - 1) / (k - 1)
    pi = (p.sum(axis=1) + p.sum(axis=0)) / 2
    p_e = float(np.sum(pi * (1 - pi)) / (k - 1))
    ac1 = (p_o - p_e) / (1 - p_e)  # p_e ≤ 1/k, so never 1
    mean_pi = 1 - (pi[:, None] + pi[None, :]) / 2
    variance = (p_o * (1 - p_o)
                - 4 * (1 - ac1) * (np.sum(np.diag(p) * (1 - pi)) / (k - 1) - p_o * p_e)
                + 4 * (1 - ac1) ** 2 * (np.sum(p * mean_pi ** 2) / (k - 1) ** 2 - p_e ** 2)
                ) / (n * (1 - p_e) ** 2)
    se = float(np.sqrt(max(variance, 0.0)))
    return PairReliability(n, p_o, specific, float(pabak), float(ac1), se,
                           clip_interval(ac1 - _Z95 * se, ac1 + _Z95 * se))


@dataclass(frozen=True)
class Alpha:
    """Krippendorff's α over ``units`` items rated by at least two of ``raters`` raters,
    from ``pairable`` ratings; NaN where undefined (fewer than two values, or one)."""

    alpha: float
    level: str
    units: int
    raters: int
    pairable: int
    source: str = "Krippendorff (2011), Computing Krippendorff's alpha-reliability"


def krippendorff_alpha(ratings: Sequence[Sequence[object]], *, level: Level = "nominal",
                       categories: Sequence[object] | None = None) -> Alpha:
    """α = 1 − D_o/D_e from the coincidence matrix of ``ratings[r][u]`` (rater r, unit u;
    None or NaN = missing). Units with fewer than two ratings are left out.

    o_ck = Σ_u (pairs c,k in unit u)/(m_u − 1); n_c = Σ_k o_ck; n = Σ n_c;
    α = 1 − (n − 1)·Σ o_ck δ²_ck / Σ n_c n_k δ²_ck. δ²: nominal [c ≠ k]; ordinal
    (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over ``categories`` in order (default sorted);
    interval (c − k)² on the values.
    """
    rows = [list(r) for r in ratings]
    width = len(rows[0]) if rows else 0
    if any(len(r) != width for r in rows):
        raise ValueError("every rater needs one entry per unit (None where missing)")

    def missing(v: object) -> bool:
        return v is None or (isinstance(v, float) and v != v)

    present = {v for r in rows for v in r if not missing(v)}
    cats = list(categories) if categories is not None else sorted(present)  # type: ignore[type-var]
    index = {c: i for i, c in enumerate(cats)}
    if not present <= index.keys():
        raise ValueError(f"values {sorted(map(repr, present - index.keys()))} are not in "
                         "the categories")
    k = len(cats)
    nan = float("nan")
    coincidence = np.zeros((k, k))
    units = pairable = 0
    for u in range(width):
        values = np.bincount([index[r[u]] for r in rows if not missing(r[u])], minlength=k)
        m = int(values.sum())
        if m < 2:
            continue
        units += 1
        pairable += m
        coincidence += (np.outer(values, values) - np.diag(values)) / (m - 1)
    result = dict(level=level, units=units, raters=len(rows), pairable=pairable)
    totals = coincidence.sum(axis=1)
    n = totals.sum()
    if k < 2 or n < 2 or np.count_nonzero(totals) < 2:
        return Alpha(alpha=nan, **result)
    grid = np.arange(k)
    if level == "nominal":
        delta = (grid[:, None] != grid[None, :]).astype(float)
    elif level == "ordinal":
        cum = np.concatenate(([0.0], np.cumsum(totals)))
        low, high = np.minimum.outer(grid, grid), np.maximum.outer(grid, grid)
        delta = (cum[high + 1] - cum[low] - (totals[:, None] + totals[None, :]) / 2) ** 2
    elif level == "interval":
        values = np.asarray(cats, dtype=float)
        delta = (values[:, None] - values[None, :]) ** 2
    else:
        raise ValueError(f"level must be nominal, ordinal or interval, got {level!r}")
    expected = float(np.sum(np.outer(totals, totals) * delta))
    if expected == 0:
        return Alpha(alpha=nan, **result)
    alpha = 1.0 - (n - 1) * float(np.sum(coincidence * delta)) / expected
    return Alpha(alpha=alpha, **result)
