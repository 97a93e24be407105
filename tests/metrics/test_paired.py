"""The ranking protocol's statistics on constructed figures: seed-matched differences by
hand, the bootstrap interval against its exact distribution and scipy's, the verdict."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from litqeval_gui.metrics.paired import (
    ahead,
    bootstrap_interval,
    compare,
    review_difference,
)


def test_one_review_by_hand():
    row = review_difference("A", [0.70, 0.80, 0.75], [0.68, 0.74, 0.77])
    # differences 0.02, 0.06, -0.02: mean 0.02, sd sqrt((0 + 0.0016 + 0.0016) / 2) = 0.04
    assert row.candidate == pytest.approx(0.75)
    assert row.baseline == pytest.approx(0.73)
    assert row.difference == pytest.approx(0.02)
    assert row.spread == pytest.approx(0.04)
    assert row.seeds == 3 and not row.worse_than_spread


def test_one_seed_has_no_spread_and_unpaired_seeds_refuse():
    assert review_difference("A", [0.5], [0.6]).spread == 0.0
    assert review_difference("A", [0.5], [0.6]).worse_than_spread
    with pytest.raises(ValueError, match="paired"):
        review_difference("A", [0.5, 0.6], [0.6])
    with pytest.raises(ValueError, match="without a figure"):
        review_difference("A", [0.5, float("nan")], [0.6, 0.6])


def test_reviews_weigh_the_same_whatever_their_seeds():
    result = compare({"A": [0.9, 0.9, 0.9, 0.9], "B": [0.5], "C": [0.3, 0.3]},
                     {"A": [0.8, 0.8, 0.8, 0.8], "B": [0.5], "C": [0.4, 0.4], "D": [0.1]})
    assert [r.review for r in result.reviews] == ["A", "B", "C"]  # D: baseline only
    assert result.mean == pytest.approx((0.1 + 0.0 - 0.1) / 3)
    assert result.ahead_count == 1


def test_the_interval_is_the_exact_bootstrap_distribution_s_percentiles():
    values = [0.0, 0.03, 0.09]
    exact = sorted(np.mean(pick) for pick in itertools.product(values, repeat=3))
    low, high = bootstrap_interval(values, resamples=200_000)
    # 27 equally likely means: the 2.5 % point falls in the first (0.0), the 97.5 % in
    # the last (0.09); the inner percentiles interpolate within the next atoms
    weights = np.full(27, 1 / 27)
    cdf = np.cumsum(weights)
    assert low == pytest.approx(exact[int(np.searchsorted(cdf, 0.025))], abs=1e-9)
    assert high == pytest.approx(exact[int(np.searchsorted(cdf, 0.975))], abs=1e-9)


def test_the_interval_agrees_with_scipy_s_percentile_bootstrap():
    rng = np.random.default_rng(3)
    values = rng.normal(0.02, 0.03, size=19)
    low, high = bootstrap_interval(values, resamples=50_000, seed=1)
    theirs = stats.bootstrap((values,), np.mean, n_resamples=50_000, method="percentile",
                             random_state=2).confidence_interval
    assert low == pytest.approx(theirs.low, abs=0.001)
    assert high == pytest.approx(theirs.high, abs=0.001)
    assert low < values.mean() < high


def _same(difference, recall_difference=0.0, n=19):
    base = {f"R{i}": [0.6, 0.7] for i in range(n)}
    return (compare({k: [v + difference for v in s] for k, s in base.items()}, base),
            compare({k: [v + recall_difference for v in s] for k, s in base.items()}, base))


def test_the_verdict():
    assert ahead(*_same(0.03))
    assert not ahead(*_same(0.015))  # under the margin
    assert not ahead(*_same(0.03, recall_difference=-0.01))  # recall at 10 % worse
    spread_out = compare({"A": [0.9, 0.9], "B": [0.9, 0.9], "C": [0.55, 0.55]},
                         {"A": [0.7, 0.7], "B": [0.7, 0.7], "C": [0.6, 0.6]})
    assert spread_out.mean > 0.02 and spread_out.low < 0  # one review behind: interval
    assert not ahead(spread_out, spread_out)
    behind = compare({f"R{i}": [0.8, 0.82] for i in range(10)} | {"Z": [0.60, 0.61]},
                     {f"R{i}": [0.7, 0.72] for i in range(10)} | {"Z": [0.65, 0.65]})
    assert behind.low > 0.02 and behind.reviews[-1].worse_than_spread
    assert not ahead(behind, behind)
