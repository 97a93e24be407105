"""A candidate ranking against a baseline over many reviews, seed-matched (docs/tar.md).

Per review r with seeds s = 1…k_r run by both: the paired differences
d_rs = candidate_rs − baseline_rs, their mean d̄_r and their seed-to-seed spread σ_r
(sample standard deviation over the seeds; 0 with one seed). Over the reviews: the mean
D = (1/R) Σ d̄_r, each review weighing the same whatever its seeds, and a 95 % percentile
bootstrap interval of D: B resamples of R reviews drawn with replacement (the seeds of a
review stay together), the 2.5th and 97.5th percentiles of their means.

A candidate is **ahead** when D ≥ :data:`AHEAD_MARGIN` with the interval's lower end
above 0, the recall at 10 % screened is not worse (its D ≥ 0) and no review is worse by
more than its own spread (d̄_r ≥ −σ_r for every r).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

AHEAD_MARGIN = 0.02
RESAMPLES = 10_000
LEVEL = 0.95


@dataclass(frozen=True)
class ReviewDifference:
    """One review's seed-matched comparison: means of each side, of the differences, and
    the spread σ_r of the differences over its ``seeds``."""

    review: str
    candidate: float
    baseline: float
    difference: float
    spread: float
    seeds: int

    @property
    def worse_than_spread(self) -> bool:
        return self.difference < -self.spread


@dataclass(frozen=True)
class PairedComparison:
    """The per-review rows and, over the reviews, D with its bootstrap interval."""

    reviews: tuple[ReviewDifference, ...]
    mean: float
    low: float
    high: float

    @property
    def ahead_count(self) -> int:
        """Reviews where the candidate's mean is above the baseline's."""
        return sum(r.difference > 0 for r in self.reviews)


def review_difference(review: str, candidate: Sequence[float],
                      baseline: Sequence[float]) -> ReviewDifference:
    """The comparison of one review from per-seed figures in seed order (equal lengths,
    at least one seed; a NaN seed on either side refuses)."""
    a = np.asarray(candidate, dtype=float)
    b = np.asarray(baseline, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or not a.size:
        raise ValueError(f"{review}: {a.size} candidate and {b.size} baseline seeds; "
                         "they must be paired, one figure per seed")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError(f"{review}: a seed without a figure")
    d = a - b
    spread = float(np.std(d, ddof=1)) if d.size > 1 else 0.0
    return ReviewDifference(review, float(a.mean()), float(b.mean()), float(d.mean()),
                            spread, int(d.size))


def bootstrap_interval(values: Sequence[float], *, resamples: int = RESAMPLES,
                       level: float = LEVEL, seed: int = 0) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values`` (module docstring)."""
    x = np.asarray(values, dtype=float)
    if not x.size:
        raise ValueError("no reviews to compare")
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def compare(candidate: Mapping[str, Sequence[float]], baseline: Mapping[str, Sequence[float]],
            *, resamples: int = RESAMPLES, seed: int = 0) -> PairedComparison:
    """Candidate against baseline over the reviews both have, by name (sorted)."""
    names = sorted(set(candidate) & set(baseline))
    rows = tuple(review_difference(name, candidate[name], baseline[name]) for name in names)
    differences = [row.difference for row in rows]
    low, high = bootstrap_interval(differences, resamples=resamples, seed=seed)
    return PairedComparison(rows, float(np.mean(differences)), low, high)


def ahead(wss: PairedComparison, recall_at_10: PairedComparison,
          margin: float = AHEAD_MARGIN) -> bool:
    """The module docstring's verdict."""
    return (wss.mean >= margin and wss.low > 0 and recall_at_10.mean >= 0
            and not any(row.worse_than_spread for row in wss.reviews))
