"""Tests for litqeval_gui.metrics.agreement."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau, spearmanr
from sklearn.metrics import cohen_kappa_score

from litqeval_gui.metrics.agreement import (
    coefficient_of_variation,
    cohen_kappa,
    concordance_counts,
    kendall_tau_b,
    rms_error,
    spearman_rho,
    tau_ap,
)


def test_kendall_tau_without_ties():
    # one discordant pair (2, 3) of six
    assert kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0


def test_kendall_tau_b_with_ties():
    x, y = [1, 1, 2, 3], [1, 2, 2, 3]
    c = concordance_counts(x, y)
    assert (c.concordant, c.discordant, c.tied_x_only, c.tied_y_only, c.tied_both) == (
        4,
        0,
        1,
        1,
        0,
    )
    assert kendall_tau_b(x, y) == pytest.approx(4 / math.sqrt(5 * 5))


def test_concordance_counts_batch_axis():
    x = np.array([[1, 2, 3], [1, 1, 1]])
    y = np.array([[3, 2, 1], [1, 2, 2]])
    c = concordance_counts(x, y)
    np.testing.assert_array_equal(c.discordant, [3, 0])
    np.testing.assert_array_equal(c.tied_x_only, [0, 2])
    np.testing.assert_array_equal(c.tied_both, [0, 1])


def test_degenerate_inputs_give_nan_or_raise():
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([], []))
    assert math.isnan(spearman_rho([2, 2], [1, 2]))
    assert math.isnan(spearman_rho([1], [1]))
    assert math.isnan(rms_error([], []))
    with pytest.raises(ValueError):
        kendall_tau_b([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        spearman_rho([1, np.nan], [1, 2])


def test_tau_ap_hand_computed():
    ref = [4, 3, 2, 1]
    assert tau_ap(ref, ref) == 1.0
    assert tau_ap(ref, [1, 2, 3, 4]) == -1.0
    # swap at the top: C(i)/(i-1) = 0/1, 2/2, 3/3 -> 2*(2/3) - 1
    assert tau_ap(ref, [3, 4, 2, 1]) == pytest.approx(1 / 3)
    # swap at the bottom: 1/1, 2/2, 2/3 -> 2*(8/9) - 1 ; Kendall's tau is 2/3 for both
    assert tau_ap(ref, [4, 3, 1, 2]) == pytest.approx(7 / 9)


def test_tau_ap_ties():
    # reference tie between a and b: that pair is uninformative and skipped
    assert tau_ap([2, 2, 1], [3, 2, 1]) == 1.0
    assert tau_ap([2, 2, 1], [2, 3, 1]) == 1.0
    # estimate tie: the pair counts half concordant, whatever the input order (SPEC §4)
    assert tau_ap([1, 2], [5, 5]) == tau_ap([2, 1], [5, 5]) == 0.0
    assert tau_ap([3, 2, 1], [1, 1, 1]) == 0.0
    assert tau_ap([2, 2, 1], [2, 2, 1]) == 1.0  # identical rankings with a tie
    assert math.isnan(tau_ap([1, 1, 1], [1, 2, 3]))


def _tau_ap_over_all_tie_orders(ref, est):
    """Ratio of the means of Σ C(i)/(i−1) and Σ A(i)/(i−1) over every order of the
    estimate's tied items (A = items above with a different reference score)."""
    groups = [[i for i in range(len(est)) if est[i] == v] for v in sorted(set(est), reverse=True)]
    sums = np.zeros(2)
    orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
    for parts in orders:
        x = [ref[i] for part in parts for i in part]
        for pos in range(1, len(x)):
            sums += [sum(a > x[pos] for a in x[:pos]) / pos,
                     sum(a != x[pos] for a in x[:pos]) / pos]
    return 2 * sums[0] / sums[1] - 1 if sums[1] else math.nan


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=6))
def test_tau_ap_equals_the_mean_over_all_orders_of_tied_items(pairs):
    ref, est = map(list, zip(*pairs, strict=True))
    assert tau_ap(ref, est) == pytest.approx(_tau_ap_over_all_tie_orders(ref, est), abs=1e-12,
                                             nan_ok=True)


def test_spearman_hand_computed():
    # sum d^2 = 2 -> 1 - 6*2 / (4*(16-1))
    assert spearman_rho([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)


def test_rms_and_cv():
    assert rms_error([1, 2, 3], [1, 2, 5]) == pytest.approx(math.sqrt(4 / 3))
    assert coefficient_of_variation([1, 2, 3]) == pytest.approx(math.sqrt(2 / 3) / 2)
    assert coefficient_of_variation([1, 2, 3], ddof=1) == pytest.approx(0.5)
    assert math.isnan(coefficient_of_variation([-1, 1]))
    assert math.isnan(coefficient_of_variation([], ddof=0))


def test_cohen_kappa_hand_computed_confusion_matrix():
    a = [0, 0, 1, 1, 1, 2]
    b = [0, 1, 1, 1, 2, 2]
    # O = [[1,1,0],[0,2,1],[0,0,1]], rows (2,3,1), cols (1,3,2), n = 6
    # p_o = 4/6, p_e = (2*1 + 3*3 + 1*2)/36 = 13/36 -> kappa = (24-13)/(36-13)
    assert cohen_kappa(a, b) == pytest.approx(11 / 23)
    # linear: observed sum|i-j| O / n = 2/6; expected sum|i-j| r_i c_j / n^2 = 28/36
    assert cohen_kappa(a, b, weights="linear") == pytest.approx(1 - (2 / 6) / (28 / 36))
    assert cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))
    assert cohen_kappa(a, b, weights="linear") == pytest.approx(
        cohen_kappa_score(a, b, weights="linear")
    )


def test_cohen_kappa_edges():
    assert cohen_kappa([0, 1, 2], [0, 1, 2]) == 1.0
    assert math.isnan(cohen_kappa([1, 1], [1, 1]))
    assert math.isnan(cohen_kappa([], []))
    # explicit labels fix the linear distances: grade 3 is 3 steps from 0 although 1, 2 unused
    assert cohen_kappa([0, 3], [0, 3], weights="linear", labels=[0, 1, 2, 3]) == 1.0
    with pytest.raises(ValueError):
        cohen_kappa([0, 5], [0, 1], labels=[0, 1])
    with pytest.raises(ValueError):
        cohen_kappa([0, 1], [0, 1], weights="quadratic")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cross_check_scipy_and_sklearn(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, 80)
    y = x + rng.integers(-2, 3, 80)
    assert kendall_tau_b(x, y) == pytest.approx(kendalltau(x, y).statistic, abs=1e-12)
    assert spearman_rho(x, y) == pytest.approx(spearmanr(x, y).statistic, abs=1e-12)
    u, v = rng.normal(size=50), rng.normal(size=50)
    assert kendall_tau_b(u, v) == pytest.approx(kendalltau(u, v).statistic, abs=1e-12)
    g1, g2 = rng.integers(0, 4, 100), rng.integers(0, 4, 100)
    for weights in (None, "linear"):
        assert cohen_kappa(g1, g2, weights=weights) == pytest.approx(
            cohen_kappa_score(g1, g2, weights=weights), abs=1e-12
        )


def test_large_input_uses_blocks():
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=3000), rng.normal(size=3000)
    assert kendall_tau_b(x, y) == pytest.approx(kendalltau(x, y).statistic, abs=1e-12)


pairs = st.integers(2, 20).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
    )
)


@settings(max_examples=80, deadline=None)
@given(pairs)
def test_properties(xy):
    x, y = xy
    tau = kendall_tau_b(x, y)
    assert tau == pytest.approx(kendall_tau_b(y, x), nan_ok=True)
    for value in (tau, spearman_rho(x, y), tau_ap(x, y)):
        assert math.isnan(value) or -1 - 1e-12 <= value <= 1 + 1e-12
    kappa = cohen_kappa(x, y)
    assert math.isnan(kappa) or kappa <= 1 + 1e-12
    assert cohen_kappa(x, y, weights="linear") == pytest.approx(
        cohen_kappa(y, x, weights="linear"), nan_ok=True
    )
    assert rms_error(x, y) >= 0
