"""Buckley–Voorhees error rate (thesis §6.5.2, Algorithm 1)."""

import itertools

import numpy as np
import pytest

from litqeval_gui.metrics.error_rate import error_rate, error_rate_curve


def algorithm_1(scores, z, trials, p, seed):
    """Algorithm 1 of the thesis with plain loops (d reset to 0 where the set calls a tie)."""
    rng = np.random.default_rng(seed)
    n_runs, n_topics = scores.shape
    swaps = counter = 0
    for _ in range(trials):
        order = rng.permutation(n_topics)
        a, b = order[:z], order[z:2 * z]
        for x, y in itertools.combinations(range(n_runs), 2):
            d = []
            for topics in (a, b):
                mx, my = scores[x, topics].mean(), scores[y, topics].mean()
                d.append(mx - my if abs(mx - my) >= p * max(mx, my) else 0.0)
            swaps += d[0] * d[1] < 0
            counter += 1
    return swaps / counter


def test_hand_case_alternating_runs():
    # X wins topics 0 and 2, Y wins 1 and 3. With z = 2 the two sets split the topics;
    # a swap happens iff A is {0, 2} or {1, 3} (then B is the other), else both sets tie.
    scores = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])
    result = error_rate(scores, 2, trials=30, fuzziness=0.0, seed=5)
    rng = np.random.default_rng(5)
    expected = sum(set(rng.permutation(4)[:2].tolist()) in ({0, 2}, {1, 3}) for _ in range(30))
    assert (result.swaps, result.comparisons) == (expected, 30)
    assert result.rate == expected / 30 and 0 < expected < 30
    assert result.tie_ratio == (30 - expected) / 30
    assert result.pair_rates[0, 1] == result.pair_rates[1, 0] == expected / 30


def test_a_run_better_on_every_topic_never_swaps():
    scores = np.array([[0.5, 0.6, 0.7, 0.8], [0.1, 0.2, 0.3, 0.4], [0.05, 0.1, 0.15, 0.05]])
    assert error_rate(scores, 2, trials=20).rate == 0.0


def test_fuzziness_is_relative_to_the_larger_score():
    # means on any set: X = 0.50, Y = 0.48 or 0.52 → |d| = 0.02 = 4 % of the larger score
    scores = np.array([[0.5, 0.5, 0.5, 0.5], [0.48, 0.52, 0.48, 0.52]])
    strict = error_rate(scores, 1, trials=40, fuzziness=0.0, seed=1)
    fuzzy = error_rate(scores, 1, trials=40, fuzziness=0.05, seed=1)
    assert strict.rate > 0 and fuzzy.rate == 0.0 and fuzzy.tie_ratio == 1.0


@pytest.mark.parametrize("p", [0.0, 0.05, 0.3])
def test_equals_algorithm_1(p):
    rng = np.random.default_rng(3)
    scores = rng.beta(2, 5, size=(6, 20)) + np.linspace(0, 0.1, 6)[:, None]
    assert error_rate(scores, 5, trials=50, fuzziness=p, seed=9).rate == pytest.approx(
        algorithm_1(scores, 5, 50, p, 9))


def test_curve_sizes_and_errors():
    scores = np.random.default_rng(0).random((3, 12))
    assert [r.set_size for r in error_rate_curve(scores, trials=3)] == [5, 6]
    with pytest.raises(ValueError):
        error_rate(scores, 7)  # more than half the topics
    with pytest.raises(ValueError):
        error_rate(scores[:1], 2)  # one run
