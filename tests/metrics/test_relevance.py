"""Tests for litqeval_gui.metrics.relevance (SPEC §3; seed 002)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau
from sklearn.metrics import f1_score

from litqeval_gui.metrics.agreement import kendall_tau_b
from litqeval_gui.metrics.relevance import (
    evaluate_grades,
    fit_cosine_thresholds,
    grades_from_thresholds,
    group_kendall_tau,
    per_grade_f1,
    ranks_within_groups,
    thermometer_decode,
    thermometer_encode,
    thermometer_scores,
    threshold_grid,
)

# seed 002, Table 1 (right): thermometer outputs of four papers for one prompt.
TABLE1_PROBS = [[0.91, 0.82, 0.17], [0.94, 0.1, 0.3], [0.23, 0.02, 0.1], [0.90, 0.89, 0.96]]


def test_thermometer_encode_decode():
    bits = thermometer_encode([0, 1, 2, 3])
    np.testing.assert_array_equal(bits, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(thermometer_decode(bits), [0, 1, 2, 3])
    with pytest.raises(ValueError):
        thermometer_encode([4])
    with pytest.raises(ValueError):
        thermometer_decode([[1, 0]])


def test_thermometer_decode_of_probabilities_counts_leading_bits():
    np.testing.assert_array_equal(thermometer_decode(TABLE1_PROBS), [2, 1, 0, 3])
    np.testing.assert_array_equal(thermometer_decode([[0.4, 0.9, 0.9]]), [0])


def test_table1_sums_and_ranks():
    sums = thermometer_scores(TABLE1_PROBS)
    np.testing.assert_allclose(sums, [1.9, 1.34, 0.35, 2.75])
    np.testing.assert_array_equal(ranks_within_groups(sums), [2, 1, 0, 3])


def test_ranks_within_groups_and_ties():
    np.testing.assert_array_equal(ranks_within_groups([1.0, 1.0]), [0.5, 0.5])
    np.testing.assert_array_equal(
        ranks_within_groups([5, 1, 3, 0.5, 9], groups=["b", "a", "b", "a", "b"]), [1, 1, 0, 0, 2]
    )
    assert ranks_within_groups([]).size == 0


def test_group_kendall_tau_hand_computed():
    true = [0, 1, 2, 3]
    # table 1 prediction: pairs D D C D C C -> (3 - 3) / 6
    assert group_kendall_tau(true, [2, 1, 0, 3])[0] == 0.0
    # tied prediction: C = 4, two tied pairs
    assert group_kendall_tau(true, [0, 0, 1, 1])[0] == 1.0
    assert group_kendall_tau(true, [0, 0, 1, 1], variant="b")[0] == pytest.approx(
        4 / math.sqrt(6 * 4)
    )
    tau = group_kendall_tau([0, 1, 0, 1, 2, 2], [0, 1, 1, 0, 5, 5], groups=[7, 7, 3, 3, 9, 9])
    np.testing.assert_array_equal(tau, [-1.0, 1.0, np.nan])  # groups in sorted order 3, 7, 9


def test_per_grade_f1_hand_computed():
    true, pred = [0, 1, 2, 3, 3], [0, 2, 2, 3, 1]
    expected = [1.0, 0.0, 2 / 3, 2 / 3]
    np.testing.assert_allclose(per_grade_f1(true, pred), expected)
    np.testing.assert_allclose(
        per_grade_f1(true, pred), f1_score(true, pred, labels=[0, 1, 2, 3], average=None)
    )
    assert math.isnan(per_grade_f1([0, 1], [0, 1])[3])  # grade 3 never occurs


def test_evaluate_grades_matches_a_naive_bootstrap():
    rng = np.random.default_rng(3)
    n_groups = 30
    groups = np.repeat(np.arange(n_groups), 4)
    true = np.tile([0, 1, 2, 3], n_groups)
    pred = ranks_within_groups(true + rng.normal(0, 1.0, true.size), groups)
    ev = evaluate_grades(true, pred, groups, n_boot=200, seed=11, tau_mode="per_prompt")
    tau_g = group_kendall_tau(true, pred, groups)
    assert ev.tau == pytest.approx(np.mean(tau_g))
    np.testing.assert_allclose(ev.tau_per_group, tau_g)
    np.testing.assert_allclose(ev.f1, per_grade_f1(true, pred))
    draws = np.random.default_rng(11).integers(0, n_groups, size=(200, n_groups))
    assert ev.tau_se == pytest.approx(np.std(tau_g[draws].mean(axis=1), ddof=1))
    naive_f1 = [
        per_grade_f1(
            true[(4 * d[:, None] + np.arange(4)).ravel()],
            pred[(4 * d[:, None] + np.arange(4)).ravel()],
        )
        for d in draws
    ]
    np.testing.assert_allclose(ev.f1_se, np.std(naive_f1, axis=0, ddof=1))
    pooled = evaluate_grades(true, pred, groups, n_boot=200, seed=11)
    assert pooled.tau == pytest.approx(kendalltau(true, pred).statistic, abs=1e-12)
    naive_tau = [kendalltau(true[(4 * d[:, None] + np.arange(4)).ravel()],
                            pred[(4 * d[:, None] + np.arange(4)).ravel()]).statistic
                 for d in draws]
    assert pooled.tau_se == pytest.approx(np.std(naive_tau, ddof=1), abs=1e-12)


def test_evaluate_grades_perfect_prediction_has_zero_se():
    groups = np.repeat([0, 1, 2], 4)
    true = np.tile([0, 1, 2, 3], 3)
    ev = evaluate_grades(true, true, groups, n_boot=50)
    assert ev.tau == pytest.approx(1.0) and ev.tau_se == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_array_equal(ev.f1, [1, 1, 1, 1])
    with pytest.raises(ValueError):
        evaluate_grades(true, true, groups, n_boot=1)


def test_threshold_grid_and_grades():
    np.testing.assert_allclose(threshold_grid([0.35, 0.1, 0.2], step=0.1), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(threshold_grid([0.0, 0.05], step=0.025), [0.0, 0.025, 0.05])
    # the grid starts at round(min, 1): 0.13 → 0.1 (below the minimum), 0.16 → 0.2 (above)
    np.testing.assert_allclose(threshold_grid([0.13, 0.2]), [0.1, 0.125, 0.15, 0.175, 0.2])
    np.testing.assert_allclose(threshold_grid([0.16, 0.26]), [0.2, 0.225, 0.25])
    # grade = #{k: s > t_k}; a similarity equal to a threshold goes down
    np.testing.assert_array_equal(
        grades_from_thresholds([0.1, 0.275, 0.3, 0.575, 0.6, 0.625, 0.9], (0.275, 0.575, 0.625)),
        [0, 0, 1, 1, 2, 2, 3],
    )


def _brute_force(sim, true, groups, step, variant):
    grid = threshold_grid(sim, step)
    best, best_t = -np.inf, None
    for combo in itertools.combinations(range(grid.size), 3):
        t = grid[list(combo)]
        tau = group_kendall_tau(true, grades_from_thresholds(sim, t), groups, variant=variant)
        value = np.nanmean(tau) if not np.all(np.isnan(tau)) else -np.inf
        if value > best + 1e-12:
            best, best_t = value, tuple(t)
    return best, best_t


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.parametrize("seed", [0, 1])
def test_fit_cosine_thresholds_per_prompt_equals_brute_force(seed, variant):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(12), 4)
    true = rng.integers(0, 4, groups.size)  # grade ties inside groups too
    sim = np.round(0.15 * true + rng.normal(0, 0.12, true.size), 2)  # similarity ties too
    fit = fit_cosine_thresholds(sim, true, groups, step=0.05, tau_mode="per_prompt",
                                variant=variant)
    best, best_t = _brute_force(sim, true, groups, 0.05, variant)
    assert fit.tau == pytest.approx(best)
    np.testing.assert_allclose(fit.thresholds, best_t)


def test_fit_cosine_thresholds_separable_and_single_group():
    sim = np.array([0.1, 0.3, 0.5, 0.7, 0.12, 0.33, 0.52, 0.74])
    true = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    fit = fit_cosine_thresholds(sim, true, step=0.05)  # one pooled group
    assert fit.tau == 1.0
    np.testing.assert_array_equal(grades_from_thresholds(sim, fit.thresholds), true)
    t1, t2, t3 = fit.thresholds
    assert t1 < t2 < t3


def test_seed_tau_a_objective_is_degenerate_tau_b_is_not():
    rng = np.random.default_rng(4)
    groups = np.repeat(np.arange(40), 4)
    true = np.tile([0, 1, 2, 3], 40)
    sim = 0.2 * true + rng.normal(0, 0.15, true.size)
    fit_a = fit_cosine_thresholds(sim, true, groups, tau_mode="per_prompt", variant="a")
    fit_b = fit_cosine_thresholds(sim, true, groups, tau_mode="per_prompt")
    assert fit_a.tau == 1.0  # few split pairs, all concordant
    pred_a = grades_from_thresholds(sim, fit_a.thresholds)
    pred_b = grades_from_thresholds(sim, fit_b.thresholds)
    assert np.bincount(pred_a, minlength=4).max() > 0.5 * sim.size  # one dominant grade
    per_prompt = {"tau_mode": "per_prompt", "variant": "b", "n_boot": 2}
    assert evaluate_grades(true, pred_b, groups, **per_prompt).tau == pytest.approx(fit_b.tau)
    assert fit_b.tau > evaluate_grades(true, pred_a, groups, **per_prompt).tau


def test_fit_cosine_thresholds_errors():
    with pytest.raises(ValueError):
        fit_cosine_thresholds([0.1, 0.11], [0, 1])  # grid has < 3 values
    with pytest.raises(ValueError):
        fit_cosine_thresholds([0.0, 0.5, 1.0], [1, 1, 1])  # no pair with different grades


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=30))
def test_tau_and_f1_bounded(pairs):
    true, pred = np.array(pairs).T
    for variant in ("a", "b"):
        tau = group_kendall_tau(true, pred, variant=variant)[0]
        assert math.isnan(tau) or -1 - 1e-12 <= tau <= 1 + 1e-12
        assert tau == pytest.approx(group_kendall_tau(pred, true, variant=variant)[0], nan_ok=True)
    assert group_kendall_tau(true, pred, variant="b")[0] == pytest.approx(
        kendall_tau_b(true, pred), nan_ok=True
    )
    f1 = per_grade_f1(true, pred)
    assert np.all(np.isnan(f1) | ((f1 >= 0) & (f1 <= 1)))
