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
    kappa_agreement,
    kappa_from_table,
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


def test_tau_ap_ties_count_half_concordant():
    # SPEC §4/§6: a pair tied in either ranking is half concordant. These cases changed
    # with issue 25: reference ties used to drop out ([2, 2, 1] vs [3, 2, 1] gave 1.0,
    # an all-tied reference NaN).
    # order a, b, c: b has a (tied reference) above it -> 0.5/1; c has a, b higher -> 2/2
    assert tau_ap([1, 1, 0], [3, 2, 1]) == pytest.approx(0.5)  # the example
    assert tau_ap([2, 2, 1], [3, 2, 1]) == pytest.approx(0.5)
    assert tau_ap([2, 2, 1], [2, 3, 1]) == pytest.approx(0.5)
    assert tau_ap([2, 2, 1], [2, 2, 1]) == pytest.approx(0.5)  # tied in both: still half
    assert tau_ap([1, 1, 1], [1, 2, 3]) == 0.0  # every pair tied in the reference
    # estimate tie: the pair counts half concordant, whatever the input order
    assert tau_ap([1, 2], [5, 5]) == tau_ap([2, 1], [5, 5]) == 0.0
    assert tau_ap([3, 2, 1], [1, 1, 1]) == 0.0
    assert math.isnan(tau_ap([1], [1]))


def _tau_ap_over_all_tie_orders(ref, est):
    """Yilmaz's τ_AP averaged over every order of the estimate's tied items, with a pair
    tied in the reference counted ½ in C(i)."""
    groups = [[i for i in range(len(est)) if est[i] == v] for v in sorted(set(est), reverse=True)]
    orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
    total = 0.0
    for parts in orders:
        x = [ref[i] for part in parts for i in part]
        total += sum((sum(a > x[pos] for a in x[:pos]) + 0.5 * sum(a == x[pos] for a in x[:pos]))
                     / pos for pos in range(1, len(x)))
    return 2 * total / len(orders) / (len(ref) - 1) - 1


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
        cohen_kappa([0, 1], [0, 1], weights="cubic")  # type: ignore[arg-type]


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
    for weights in (None, "linear", "quadratic"):
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


def test_kappa_interval_hand_computed_2x2():
    # [[20, 5], [10, 15]], n = 50: p_o = 0.7, rows (.5, .5), columns (.6, .4), p_e = 0.5,
    # κ = 0.4. Fleiss–Cohen–Everitt variance: diagonal .4·(1−1.1·.6)² + .3·(1−.9·.6)²
    # = .04624 + .06348; off-diagonal (1−κ)²·(.1·(.6+.5)² + .2·(.4+.5)²) = .36·.283
    # = .10188; minus (κ − p_e(1−κ))² = .01 -> .2016 / (50·.25) = .016128
    k = kappa_from_table([[20, 5], [10, 15]], labels=["include", "exclude"])
    assert k.kappa == pytest.approx(0.4)
    assert k.agreement == pytest.approx(0.7)
    assert k.se == pytest.approx(math.sqrt(0.016128))
    assert k.ci == pytest.approx((0.4 - 1.959964 * 0.126996, 0.4 + 1.959964 * 0.126996), abs=1e-5)
    assert (k.n, k.weights, k.labels, k.table) == (50, "none", ("include", "exclude"),
                                                   ((20, 5), (10, 15)))
    assert "Fleiss, Cohen & Everitt 1969" in k.se_method


def _fleiss_unweighted_variance(table):
    """Fleiss (1981) unweighted large-sample variance, written out term by term."""
    t = np.asarray(table, float)
    n, k = t.sum(), len(t)
    p = t / n
    r, c = p.sum(1), p.sum(0)
    po, pe = np.trace(p), r @ c
    kap = (po - pe) / (1 - pe)
    a = sum(p[i, i] * (1 - (r[i] + c[i]) * (1 - kap)) ** 2 for i in range(k))
    b = (1 - kap) ** 2 * sum(p[i, j] * (c[i] + r[j]) ** 2
                             for i in range(k) for j in range(k) if i != j)
    return (a + b - (kap - pe * (1 - kap)) ** 2) / (n * (1 - pe) ** 2)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_kappa_agreement_against_sklearn_and_the_written_out_variance(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, 200)
    b = np.where(rng.random(200) < 0.6, a, rng.integers(0, 3, 200))
    k = kappa_agreement(a, b)
    assert k.kappa == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert k.se ** 2 == pytest.approx(_fleiss_unweighted_variance(k.table), rel=1e-12)
    assert k.agreement == pytest.approx(np.mean(a == b))
    for weights in ("linear", "quadratic"):
        kw = kappa_agreement(a, b, weights=weights)
        assert kw.kappa == pytest.approx(cohen_kappa_score(a, b, weights=weights), abs=1e-12)
        assert kw.weights == weights and kw.ci[0] < kw.kappa < kw.ci[1]


def test_weighted_kappa_hand_computed_grades():
    # grades 0..2, table [[2,1,0],[0,2,1],[0,0,1]] (a = rows), n = 7
    a = [0, 0, 0, 1, 1, 1, 2]
    b = [0, 0, 1, 1, 1, 2, 2]
    # linear agreement weights 1, .5, 0: p_o = (2+2+1 + .5·(1+1))/7 = 6/7;
    # rows (3,3,1)/7, cols (2,3,2)/7: p_e = Σ w r_i c_j = (6 + .5·9 + 0·2 + .5·6 + 9 + .5·6
    # + 0·2 + .5·3 + 2)/49 = 29/49 -> κ = (6/7 − 29/49)/(1 − 29/49) = 13/20
    assert kappa_agreement(a, b, weights="linear").kappa == pytest.approx(13 / 20)
    # quadratic weights 1, .75, 0: p_o = (5 + .75·2)/7 = 6.5/7; p_e = (6+9+2 + .75·(9+6+6+3))/49
    # = 35/49 -> κ = (45.5/49 − 35/49)/(14/49) = 0.75
    assert kappa_agreement(a, b, weights="quadratic").kappa == pytest.approx(0.75)


def test_kappa_undefined_cases():
    empty = kappa_from_table([[0, 0], [0, 0]])
    assert math.isnan(empty.kappa) and math.isnan(empty.ci[0]) and empty.n == 0
    one_label = kappa_agreement(["x", "x"], ["x", "x"])
    assert math.isnan(one_label.kappa) and one_label.agreement == 1.0
    with pytest.raises(ValueError):
        kappa_from_table([[1, 2, 3]])
