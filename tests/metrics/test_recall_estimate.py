"""The recall estimate from a random sample: its interval by hand and its coverage."""

from math import comb

import numpy as np
import pytest

from litqeval_gui.metrics.recall_estimate import recall_from_sample, remaining_interval


def test_interval_by_hand():
    # urn 10, 5 drawn, none relevant: P(X = 0 | K) = C(10 − K, 5)/C(10, 5) = 1, 0.5, 0.222,
    # 0.083, 0.024 for K = 0…4, so K_high = 3 (0.024 < 0.025) and K_low = 0.
    assert [comb(10 - K, 5) / comb(10, 5) for K in range(5)] == pytest.approx(
        [1, 0.5, 56 / 252, 21 / 252, 6 / 252])
    assert remaining_interval(0, 5, 10, 0.95) == (0, 3)
    estimate = recall_from_sample(6, 0, 5, 10)
    assert (estimate.recall, estimate.low, estimate.high) == (1.0, pytest.approx(6 / 9), 1.0)
    # 2 relevant of 5: K̂ = 4; P(X >= 2 | K = 2) = C(2,2)·C(8,3)/C(10,5) = 56/252 > 0.025
    # and P(X >= 2 | K = 1) = 0, so K_low = 2.
    low, high = remaining_interval(2, 5, 10, 0.95)
    assert low == 2 and high >= 4
    estimate = recall_from_sample(6, 2, 5, 10)
    assert estimate.recall == pytest.approx(8 / 10)
    assert (estimate.low, estimate.high) == (pytest.approx(8 / (6 + high)), 1.0)
    assert estimate.text().startswith("about 80% found (")


def test_no_estimate_without_a_sample_or_a_relevant_record():
    assert recall_from_sample(5, 0, 0, 100) is None
    assert recall_from_sample(0, 0, 10, 100) is None
    with pytest.raises(ValueError):
        remaining_interval(3, 2, 100, 0.95)


@pytest.mark.parametrize("relevant_left, drawn, most", [(30, 300, 0.99), (4, 500, 0.999)])
def test_the_interval_covers_the_truth_at_about_its_nominal_rate(relevant_left, drawn, most):
    # 100 relevant found before the sample; the urn of 2 000 holds ``relevant_left``
    # more. Over 1 000 seeded samples the 95 % interval holds the true recall in at
    # least 95 % of them (an exact interval of a count is conservative: more so for a
    # small count, where k takes few values) but not in all, which a uselessly wide
    # interval would.
    rng = np.random.default_rng(7)
    urn = np.zeros(2000, dtype=np.int64)
    urn[:relevant_left] = 1
    covered = []
    for _ in range(1000):
        k = int(rng.choice(urn, drawn, replace=False).sum())
        estimate = recall_from_sample(100, k, drawn, urn.size)
        truth = (100 + k) / (100 + relevant_left)
        covered.append(estimate.low <= truth <= estimate.high)
    assert 0.95 <= np.mean(covered) <= most
