"""Recall so far, estimated with an interval from a random sample (issue 28 §3).

After ``before`` relevant records were found by ranked screening, ``n`` records are drawn
at random (without replacement) from the ``urn`` records not screened then, and ``k`` of
them are relevant. The urn held K relevant records, K unknown; recall now is
(before + k) / (before + K). K̂ = k·urn/n (the unbiased estimate of the sample's
proportion scaled to the urn), and the interval is the exact (Clopper–Pearson-style)
interval of K from the hypergeometric distribution: K_low = the smallest K with
P(X ≥ k | K) > α/2, K_high = the largest with P(X ≤ k | K) > α/2, X ~ Hypergeom(urn, K, n),
α = 1 − confidence. Each bound excludes the Ks under which seeing k would be rarer than
α/2, so the interval covers the truth in at least ``confidence`` of samples (exact
intervals of a discrete count cover more than nominal, not less).
"""

from __future__ import annotations

from collections.abc import Callable

from scipy.stats import hypergeom

from litqeval_gui.metrics.stopping.base import RecallEstimate, significance


def remaining_interval(k: int, n: int, urn: int, confidence: float) -> tuple[int, int]:
    """(K_low, K_high): the exact interval of the relevant records in the urn (module
    docstring) after ``k`` relevant among ``n`` drawn from ``urn``."""
    if not 0 <= k <= n <= urn:
        raise ValueError("need 0 <= k <= n <= urn")
    alpha = significance(confidence)
    most = urn - (n - k)  # the Ks that can give k of n: k … most
    # P(X >= k | K) rises with K and P(X <= k | K) falls: each bound is a bisection
    k_low = _first(k, most, lambda K: hypergeom.sf(k - 1, urn, K, n) > alpha / 2)
    k_high = _first(k, most + 1, lambda K: not hypergeom.cdf(k, urn, K, n) > alpha / 2) - 1
    return k_low, k_high


def _first(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The smallest K in [low, high] where the monotone ``holds`` is true (``high`` when
    none below it is)."""
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low


def recall_from_sample(before: int, k: int, n: int, urn: int,
                       confidence: float = 0.95) -> RecallEstimate | None:
    """The :class:`RecallEstimate` after a random sample (module docstring); None before
    any record is drawn or while nothing relevant has been found."""
    if n == 0 or before + k == 0:
        return None
    found = before + k
    k_low, k_high = remaining_interval(k, n, urn, confidence)
    estimate = found / (before + k * urn / n)
    return RecallEstimate(estimate, found / (before + k_high), found / (before + k_low),
                          confidence, found, n, k, remaining=k * urn / n - k)
