"""Uncertainty of a recall over a small core set: the 95 % Wilson score interval."""

from __future__ import annotations

from scipy.stats import binomtest


def wilson_interval(found: int, total: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of ``found`` successes in ``total`` trials (scipy's
    ``binomtest(...).proportion_ci(method="wilson")``); (0, 0) when ``total`` is 0.
    45 of 47 gives 0.86–0.99."""
    if total == 0:
        return 0.0, 0.0
    ci = binomtest(found, total).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)
