"""Issue 9: six places where a number differed from the sources (SPEC §1.1–1.3, §3, §4).

Each example of the issue is a test that failed on the code before the fix; each fix also
has a property test over many inputs.
"""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import kendalltau

from litqeval_gui.metrics.agreement import tau_ap
from litqeval_gui.metrics.relevance import (
    evaluate_grades,
    fit_cosine_thresholds,
    grades_from_thresholds,
    ranks_within_groups,
    threshold_grid,
)
from litqeval_gui.metrics.semantic import sp_cos, sp_mvee
from litqeval_gui.metrics.semantic_cluster import cluster_k_search, sp_cluster
from tests.support.kmeans_reference import plain_loop

# ------------------------------------------------------------------ 1. SP_cluster


def blobs(seed, n_blobs=3, per_blob=20, dim=5, noise=0.5, n_core=8):
    """Unit rows around ``n_blobs`` random centres; ``n_core`` random rows are core."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((n_blobs, dim))
    rows = np.repeat(centres, per_blob, axis=0) + noise * rng.standard_normal(
        (n_blobs * per_blob, dim))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    core = np.zeros(len(rows), bool)
    core[rng.choice(len(rows), n_core, replace=False)] = True
    return rows, core


def test_sp_cluster_fits_every_k_afresh_issue_example():
    # 3 blobs of 20 unit rows in 5-D, 8 retrieved core rows, |C| = 10. Fresh fits give
    # M(2) = 6, M(3) = 6, M(4) = 4 ≤ 5.6 → k = 3; the warm-started search stopped at
    # k = 3 (its M(3) = 4) and chose k = 2.
    rows, core = blobs(seed=1)
    best_k, core_max, relevant = plain_loop(rows, core)
    assert (best_k, core_max) == (3, {2: 6, 3: 6, 4: 4})
    res = sp_cluster(rows, core, n_core=10)
    assert res.params["k"] == 3 and dict(res.params["core_max"]) == core_max
    np.testing.assert_array_equal(res.relevant, relevant)
    assert res.recall == int((relevant & core).sum()) / 10


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_blobs=st.integers(2, 5), noise=st.sampled_from([0.3, 0.6]))
def test_sp_cluster_equals_the_plain_fresh_fit_loop(seed, n_blobs, noise):
    rows, core = blobs(seed, n_blobs=n_blobs, per_blob=12, dim=4, noise=noise, n_core=6)
    best_k, core_max, relevant = plain_loop(rows, core, k_max=12)
    search = cluster_k_search(rows, core, k_max=12)
    assert (search.best_k, dict(search.core_max)) == (best_k, core_max)
    res = sp_cluster(rows, core, n_core=8, k_max=12)
    np.testing.assert_array_equal(res.relevant, relevant)


def test_parallel_k_search_equals_the_serial_one():
    rows, core = blobs(seed=3, n_blobs=6, per_blob=15, noise=0.6, n_core=10)
    serial = cluster_k_search(rows, core)
    parallel = cluster_k_search(rows, core, n_jobs=3)
    assert (parallel.best_k, dict(parallel.core_max)) == (serial.best_k, dict(serial.core_max))


# ---------------------------------------------------------------------- 2. SP_cos

ISSUE_ROWS = np.array([
    [0.8606046504443208, 0.4946292724581862, 0.11597015859581845, 0.03538984001594731],
    [0.34942310542361704, 0.7862523967518008, -0.006197631603561669, 0.5095804660312945],
    [0.33251336248349217, 0.609380336562586, 0.4803786909203238, 0.5360287142406339],
])


def test_sp_cos_keeps_the_core_record_that_defines_theta_issue_example():
    res = sp_cos(ISSUE_ROWS, ISSUE_ROWS, np.ones(3, bool), 3)
    assert res.n_relevant == 3 and res.recall == 1.0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_core=st.integers(1, 12), n_other=st.integers(0, 40),
       dim=st.integers(2, 400), dtype=st.sampled_from([np.float32, np.float64]))
def test_theta_defining_core_record_is_always_relevant(seed, n_core, n_other, dim, dtype):
    # R holds the core rows bit for bit, at random positions among other rows
    rng = np.random.default_rng(seed)
    e_c = rng.standard_normal((n_core, dim))
    e_c = (e_c / np.linalg.norm(e_c, axis=1, keepdims=True)).astype(dtype)
    e_r = np.vstack([e_c, rng.standard_normal((n_other, dim)).astype(dtype)])
    order = rng.permutation(len(e_r))
    is_core = order < n_core
    res = sp_cos(e_c, e_r[order], is_core, n_core)
    assert res.relevant[is_core].all() and res.recall == 1.0


# -------------------------------------------------------------------- 3. RelevAI


def test_pooled_tau_b_is_scipy_over_all_records():
    # two prompts graded 0..3; the prediction ranks each prompt well, but prompt 2's grades
    # are all high. Per prompt τ-b = 4/√24 and 3/√18 (mean 0.762); pooled over the eight
    # records the cross-prompt pairs count too: scipy's τ-b is 0.298.
    true = [0, 1, 2, 3, 0, 1, 2, 3]
    pred = [0, 0, 1, 1, 2, 3, 3, 3]
    groups = [1, 1, 1, 1, 2, 2, 2, 2]
    pooled = evaluate_grades(true, pred, groups, n_boot=2)
    assert pooled.tau == pytest.approx(kendalltau(true, pred).statistic, abs=1e-12)
    assert pooled.tau == pytest.approx(0.298, abs=5e-4)
    per_prompt = evaluate_grades(true, pred, groups, n_boot=2, tau_mode="per_prompt",
                                 variant="b")
    assert per_prompt.tau == pytest.approx((4 / math.sqrt(24) + 3 / math.sqrt(18)) / 2)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 4)),
                min_size=3, max_size=40))
def test_pooled_tau_b_equals_scipy_on_the_pooled_grades(triples):
    true, pred, groups = np.array(triples).T
    ev = evaluate_grades(true, pred, groups, n_boot=2)
    assert ev.tau == pytest.approx(kendalltau(true, pred).statistic, abs=1e-12, nan_ok=True)


def test_authors_threshold_grid_and_lower_grade_at_equality():
    # App. E: grid from round(min, 1) in steps of 0.025; "greater than the third threshold"
    np.testing.assert_allclose(threshold_grid([0.17, 0.21, 0.26]), [0.2, 0.225, 0.25])
    np.testing.assert_array_equal(
        grades_from_thresholds([0.1, 0.275, 0.3, 0.575, 0.6, 0.625, 0.9], (0.275, 0.575, 0.625)),
        [0, 0, 1, 1, 2, 2, 3],
    )


def test_fit_cosine_thresholds_pooled_equals_brute_force_with_scipy():
    rng = np.random.default_rng(7)
    groups = np.repeat(np.arange(15), 4)
    true = np.tile([0, 1, 2, 3], 15)
    sim = np.round(0.1 * true + 0.2 + rng.normal(0, 0.08, true.size), 3)
    fit = fit_cosine_thresholds(sim, true, groups)
    grid = threshold_grid(sim)
    best, best_t = -np.inf, None
    for i in range(grid.size):
        for j in range(i + 1, grid.size):
            for k in range(j + 1, grid.size):
                t = (grid[i], grid[j], grid[k])
                tau = kendalltau(true, grades_from_thresholds(sim, t)).statistic
                if not math.isnan(tau) and tau > best + 1e-12:
                    best, best_t = tau, t
    assert fit.tau == pytest.approx(best, abs=1e-12)
    np.testing.assert_allclose(fit.thresholds, best_t)


def test_tied_thermometer_sums_get_average_ranks():
    np.testing.assert_array_equal(ranks_within_groups([1.0, 1.0, 0.2, 3.0]), [1.5, 1.5, 0, 3])
    np.testing.assert_array_equal(
        ranks_within_groups([2, 2, 5, 1, 1], groups=["a", "a", "a", "b", "b"]), [0.5, 0.5, 2, 0.5, 0.5]
    )


# ------------------------------------------------------------------------ 4. MVEE


@pytest.mark.parametrize("eps", [1e-9, 1e-8, 1e-6])
def test_sp_mvee_on_nearly_collinear_points_is_undefined_issue_example(eps):
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0 + eps], [1.0, 0.5]])
    res = sp_mvee(coords, np.array([True, True, True, False]), 3)
    if res.defined:  # a fitted ellipse must hold every point it was fitted on
        assert res.relevant[:3].all()
    else:
        assert res.reason and res.n_relevant == 0


def test_sp_mvee_nearly_collinear_1e9_is_undefined_not_an_exception():
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0 + 1e-9]])
    res = sp_mvee(coords, np.ones(3, bool), 3)
    assert not res.defined and "MVEE undefined" in res.reason


@pytest.mark.parametrize("eps", [1e-4, 1e-3])
def test_sp_mvee_thin_but_measurable_triangle_holds_its_points(eps):
    # condition number of A ≈ 5e9 at ε = 1e-4: a 1e-12 margin left a core point outside
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0 + eps], [5.0, 0.0]])
    res = sp_mvee(coords, np.array([True, True, True, False]), 3)
    assert res.defined and res.relevant.tolist() == [True, True, True, False]


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(3, 8), st.just(2)), elements=finite),
       st.floats(0, 1e-6))
@example(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]), 1e-9)
@example(np.array([[0.0, 0.0], [1e6, 1e6], [-1e6, 1e6], [1e6, 1e6]]), 1e-7)
def test_sp_mvee_never_raises_on_finite_input(points, jitter):
    points = points.copy()
    points[-1] += jitter  # also nearly repeated / nearly collinear configurations
    res = sp_mvee(points, np.ones(len(points), bool), len(points))
    if res.defined:
        assert res.relevant.all()


# ----------------------------------------------------------------------- 5. τ_AP


def test_tau_ap_estimate_tie_counts_half_issue_example():
    forward = tau_ap([0.3, 0.2, 0.1], [0.25, 0.25, 0.1])
    backward = tau_ap([0.1, 0.2, 0.3], [0.1, 0.25, 0.25])
    assert forward == backward == pytest.approx(0.5)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=15),
       st.randoms(use_true_random=False))
def test_tau_ap_is_invariant_under_permuting_the_items(pairs, random):
    ref, est = map(list, zip(*pairs, strict=True))
    order = list(range(len(pairs)))
    random.shuffle(order)
    permuted = tau_ap([ref[i] for i in order], [est[i] for i in order])
    assert permuted == pytest.approx(tau_ap(ref, est), abs=1e-12, nan_ok=True)
