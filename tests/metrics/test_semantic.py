"""Semantic precision (SP_cos, SP_mvee, SP_hull, SP_cluster), threshold analysis and PLS
projection fidelity: hand-computed cases, undefined cases, cross-checks, properties."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import ConvexHull
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA

from litqeval_gui.metrics.fidelity import projection_fidelity
from litqeval_gui.metrics.semantic import (
    Scoring,
    centroid_similarity,
    sp_cos,
    sp_hull,
    sp_in_pca_space,
    sp_mvee,
    threshold_analysis,
)
from litqeval_gui.metrics.semantic_cluster import cluster_k_search, sp_cluster, sp_cluster_on_map


def f2(sp, lam, rec):
    """F2 = 5·(SP·λ)·Rec / (4·SP·λ + Rec), written out for the hand checks."""
    return 0.0 if sp * lam == 0 or rec == 0 else 5 * sp * lam * rec / (4 * sp * lam + rec)


def lam(n):
    return (1 - (n / 50_000) ** 1.5) ** 10


# --------------------------------------------------------------------------- SP_cos
# Core E_C = (1,0), (0,1): centroid direction (1,1)/√2, default θ = cos 45° = 1/√2.
E_C = np.array([[1.0, 0.0], [0.0, 1.0]])
# R rows:  core (1,0) | (1,1) | (−1,0) | (2,0) | core (0,1) | zero row
E_R = np.array([[1.0, 0.0], [1.0, 1.0], [-1.0, 0.0], [2.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
IS_CORE = np.array([True, False, False, False, True, False])
N_CORE = 3  # one core record was not retrieved


def test_sp_cos_default_threshold_hand_computed():
    res = sp_cos(E_C, E_R, IS_CORE, N_CORE)
    assert res.defined and res.reason is None
    assert res.params["theta"] == pytest.approx(1 / math.sqrt(2))
    assert res.params["theta_is_default"] is True
    # ties at θ count (≥); (2,0) is normalised; (−1,0) is opposite; the zero row never counts
    assert res.relevant.tolist() == [True, True, False, True, True, False]
    assert (res.n_relevant, res.n_retrieved) == (4, 6)
    assert res.precision == 4 / 6
    assert res.recall == 2 / 3  # both retrieved core records survive; |C| = 3
    assert res.decay == pytest.approx(lam(4), rel=1e-15)
    assert res.f_beta == pytest.approx(f2(4 / 6, lam(4), 2 / 3), rel=1e-15)


def test_sp_cos_user_theta_overrides_and_edge_thresholds():
    strict = sp_cos(E_C, E_R, IS_CORE, N_CORE, theta=0.9)
    assert strict.relevant.tolist() == [False, True, False, False, False, False]
    assert (strict.precision, strict.recall, strict.f_beta) == (1 / 6, 0.0, 0.0)
    assert strict.params["theta_is_default"] is False
    everything = sp_cos(E_C, E_R, IS_CORE, N_CORE, theta=-1.0)
    assert everything.n_relevant == 5  # all but the zero row
    nothing = sp_cos(E_C, E_R, IS_CORE, N_CORE, theta=1.01)
    assert (nothing.n_relevant, nothing.precision, nothing.f_beta) == (0, 0.0, 0.0)
    assert nothing.decay == 1.0 and nothing.defined


def test_sp_cos_float32_gives_the_same_relevant_set():
    rng = np.random.default_rng(0)
    e_c = rng.normal(size=(10, 16)) + 2.0
    e_r = rng.normal(size=(300, 16)) + 1.0
    core = np.zeros(300, bool)
    core[:5] = True
    r64 = sp_cos(e_c, e_r, core, 10)
    r32 = sp_cos(e_c.astype(np.float32), e_r.astype(np.float32), core, 10)
    assert 0 < r64.n_relevant < 300
    assert r32.params["theta"] == pytest.approx(r64.params["theta"], abs=1e-6)
    cosines = centroid_similarity(e_c, e_r).retrieved
    clear = np.abs(cosines - r64.params["theta"]) > 1e-5  # beyond float32 round-off
    np.testing.assert_array_equal(r32.relevant[clear], r64.relevant[clear])


def test_centroid_similarity_hand_computed():
    sims = centroid_similarity(E_C, E_R)
    s = 1 / math.sqrt(2)
    np.testing.assert_allclose(sims.retrieved[:5], [s, 1, -s, s, s])
    assert math.isnan(sims.retrieved[5])  # zero row
    np.testing.assert_allclose(sims.core, [s, s])
    assert sims.default_theta == pytest.approx(s) and sims.reason is None


@pytest.mark.parametrize(
    ("core_emb", "retrieved", "is_core", "n_core", "fragment"),
    [
        (E_C, np.zeros((0, 2)), np.zeros(0, bool), 3, "result list is empty"),
        (np.zeros((0, 2)), E_R, IS_CORE, 3, "no core record"),
        (E_C, E_R, np.zeros(6, bool), 0, "core set is empty"),
        ([[1.0, 0.0], [-1.0, 0.0]], E_R, IS_CORE, 3, "centroid is zero"),
        ([[1.0, 0.0], [0.0, 0.0]], E_R, IS_CORE, 3, "zero or not finite"),
    ],
)
def test_sp_cos_undefined_cases_report_a_reason(core_emb, retrieved, is_core, n_core, fragment):
    res = sp_cos(core_emb, retrieved, is_core, n_core)
    assert not res.defined
    assert fragment in res.reason
    assert res.n_relevant == 0 and res.precision == 0.0 and res.f_beta == 0.0


def test_misuse_raises_value_error():
    with pytest.raises(ValueError, match="one flag per retrieved row"):
        sp_cos(E_C, E_R, IS_CORE[:3], N_CORE)
    with pytest.raises(ValueError, match="smaller than"):
        sp_cos(E_C, E_R, IS_CORE, 1)
    with pytest.raises(ValueError, match="widths differ"):
        sp_cos(np.ones((2, 3)), E_R, IS_CORE, N_CORE)


def test_result_is_frozen_and_mask_read_only():
    res = sp_cos(E_C, E_R, IS_CORE, N_CORE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.precision = 1.0
    with pytest.raises(ValueError):
        res.relevant[0] = False
    with pytest.raises(TypeError):
        res.params["theta"] = 0.0


def test_custom_scoring_parameters_are_used_and_reported():
    scoring = Scoring(p=1.0, q=1.0, alpha=8.0, beta=1.0)
    res = sp_cos(E_C, E_R, IS_CORE, N_CORE, scoring=scoring)
    assert res.decay == pytest.approx(1 - 4 / 8)  # λ = (1 − 4/8)^1
    p_eff = 4 / 6 * 0.5
    assert res.f_beta == pytest.approx(2 * p_eff * (2 / 3) / (p_eff + 2 / 3))  # F1
    assert (res.params["alpha"], res.params["beta"]) == (8.0, 1.0)


# --------------------------------------------------------------- threshold analysis


def test_threshold_analysis_hand_computed_and_consistent_with_sp_cos():
    grid = [-1.0, 0.0, 0.7071, 0.8, 0.99]
    ta = threshold_analysis(E_C, E_R, IS_CORE, N_CORE, thetas=grid)
    # cosines of R: .7071, 1, −.7071, .7071, .7071, NaN
    assert ta.n_relevant.tolist() == [5, 4, 4, 1, 1]
    assert ta.core_kept.tolist() == [2, 2, 2, 0, 0]
    for theta, f in zip(grid, ta.f_beta, strict=True):
        assert f == pytest.approx(sp_cos(E_C, E_R, IS_CORE, N_CORE, theta=theta).f_beta)
    assert ta.f_beta[0] == pytest.approx(f2(5 / 6, lam(5), 2 / 3))
    assert ta.best_theta == -1.0  # largest SP with the same recall
    assert ta.default_theta == pytest.approx(1 / math.sqrt(2))


def test_threshold_analysis_ties_pick_the_smallest_theta_and_default_grid():
    tie = threshold_analysis(E_C, E_R, IS_CORE, N_CORE, thetas=[0.0, 0.5])
    assert tie.f_beta[0] == tie.f_beta[1]
    assert tie.best_theta == 0.0
    full = threshold_analysis(E_C, E_R, IS_CORE, N_CORE)
    assert full.thetas.size == 101 and full.thetas[0] == 0.0 and full.thetas[-1] == 1.0
    assert np.all(np.diff(full.n_relevant) <= 0) and np.all(np.diff(full.core_kept) <= 0)


def test_threshold_analysis_with_empty_result_list_is_all_zero():
    ta = threshold_analysis(E_C, np.zeros((0, 2)), np.zeros(0, bool), N_CORE, thetas=[0.0, 0.5])
    assert ta.n_relevant.tolist() == [0, 0] and ta.f_beta.tolist() == [0.0, 0.0]


# -------------------------------------------------------------- SP_mvee and SP_hull
# Retrieved core = square corners; MVEE = circle of radius √2; hull = the square.
COORDS = np.array([
    [1, 1], [1, -1], [-1, 1], [-1, -1],  # core
    [0, 0],       # inside both
    [1.2, 0],     # in the circle (0.72), outside the square
    [0, 1.41],    # in the circle (0.99405), outside the square
    [1.5, 1.5],   # outside both (2.25)
], dtype=float)
COORD_CORE = np.array([True] * 4 + [False] * 4)


def test_sp_mvee_hand_computed():
    res = sp_mvee(COORDS, COORD_CORE, 5)
    assert res.defined
    assert res.relevant.tolist() == [True] * 7 + [False]
    assert (res.precision, res.recall) == (7 / 8, 4 / 5)  # plain recall
    assert res.f_beta == pytest.approx(f2(7 / 8, lam(7), 4 / 5), rel=1e-15)
    np.testing.assert_allclose(res.shape.shape, np.eye(2) / 2)
    assert res.params["tol"] == 1e-4 and res.params["dim"] == 2


def test_sp_hull_hand_computed():
    res = sp_hull(COORDS, COORD_CORE, 5)
    assert res.relevant.tolist() == [True] * 5 + [False] * 3
    assert (res.precision, res.recall) == (5 / 8, 4 / 5)
    assert res.shape.volume == pytest.approx(4.0)


@pytest.mark.parametrize("sp", [sp_mvee, sp_hull])
@pytest.mark.parametrize(
    ("core", "fragment"),
    [
        ([True, True] + [False] * 6, "at least 3"),
        ([True, False, False, True, True, False, False, False], "collinear"),  # (1,1),(−1,−1),(0,0)
        ([False] * 8, "at least 3"),
    ],
)
def test_shapes_undefined_with_a_reason_never_an_exception(sp, core, fragment):
    res = sp(COORDS, np.array(core), 5)
    assert not res.defined
    assert fragment in res.reason
    assert res.n_relevant == 0 and res.precision == 0.0 and res.f_beta == 0.0
    assert res.recall == sum(core) / 5
    assert res.shape is None


def test_sp_hull_agrees_with_convex_hull_equations():
    rng = np.random.default_rng(4)
    coords = rng.normal(size=(400, 2))
    core = np.zeros(400, bool)
    core[:15] = True
    res = sp_hull(coords, core, 20)
    eq = ConvexHull(coords[core]).equations  # rows [normal, offset]; inside: n·p + b ≤ 0
    signed = coords @ eq[:, :-1].T + eq[:, -1]
    clear = np.all(np.abs(signed) > 1e-7, axis=1)  # Qhull's own tolerance decides on the edge
    inside = np.all(signed <= 0, axis=1)
    assert 0 < inside[clear].sum() < clear.sum()
    np.testing.assert_array_equal(res.relevant[clear], inside[clear])
    assert res.n_relevant == int(inside[clear].sum()) + int(res.relevant[~clear].sum())


def test_shapes_with_non_finite_core_coordinates_are_undefined():
    coords = COORDS.copy()
    coords[0, 0] = np.nan
    assert "NaN" in sp_mvee(coords, COORD_CORE, 5).reason
    assert "NaN" in sp_hull(coords, COORD_CORE, 5).reason


def test_pca_variant_equals_the_shape_on_pca_coordinates():
    rng = np.random.default_rng(1)
    emb = rng.normal(size=(60, 8)) * np.linspace(3, 0.5, 8)
    core = np.zeros(60, bool)
    core[:12] = True
    coords = PCA(n_components=3, random_state=0).fit_transform(emb)
    for sp in (sp_mvee, sp_hull):
        via_helper = sp_in_pca_space(sp, emb, core, 15, n_components=3)
        direct = sp(coords, core, 15)
        assert np.array_equal(via_helper.relevant, direct.relevant)
        assert via_helper.params["pca_components"] == 3 and via_helper.params["dim"] == 3
        assert via_helper.relevant[:12].all()  # every fitting point is inside
    few = sp_in_pca_space(sp_mvee, emb[:2], core[:2], 15, n_components=3)
    assert not few.defined and "at least 4" in few.reason


# ----------------------------------------------------------------------- SP_cluster


def three_blobs():
    """A at 10·e1, B at 10·e1 + 3·e2 (close to A), C at −10·e1 (far); 20 rows each."""
    rng = np.random.default_rng(0)
    centres = np.zeros((3, 5))
    centres[0, 0], centres[1, :2], centres[2, 0] = 10, (10, 3), -10
    rows = np.repeat(centres, 20, axis=0) + 0.1 * rng.normal(size=(60, 5))
    core = np.zeros(60, bool)
    core[[0, 1, 2]] = True  # 3 core in A
    core[[20, 21]] = True  # 2 core in B
    return rows, core


def test_sp_cluster_constructed_case():
    # m = 5, θ·m = 3.5. k = 2: {A∪B}, {C} → M = 5 > 3.5; k = 3: {A}, {B}, {C} → M = 3 ≤ 3.5.
    # Stop at k = 3, best k = 2; refit k = 2, best cluster A∪B = the first 40 rows.
    rows, core = three_blobs()
    res = sp_cluster(rows, core, n_core=6)
    assert res.defined
    assert res.params["k"] == 2 and res.params["k_reached"] is True
    assert dict(res.params["core_max"]) == {2: 5, 3: 3}
    assert res.relevant.tolist() == [True] * 40 + [False] * 20
    assert (res.precision, res.recall) == (40 / 60, 5 / 6)
    assert res.f_beta == pytest.approx(f2(40 / 60, lam(40), 5 / 6), rel=1e-15)


def test_k_search_keeps_the_fresh_fit_of_best_k():
    rows, core = three_blobs()
    search = cluster_k_search(rows, core)
    assert search.best_k == 2 and dict(search.core_max) == {2: 5, 3: 3}
    np.testing.assert_array_equal(
        search.labels, KMeans(n_clusters=2, random_state=0, n_init=1).fit(rows).labels_)


def test_sp_cluster_on_the_2d_map_is_the_same_rule_on_map_points():
    # map: A around (0, 0), B around (0, 3), C around (10, 0); core 3 in A, 2 in B, m = 5.
    # k = 2 joins A and B (M = 5 > 3.5), k = 3 separates them (M = 3): best k = 2, A ∪ B.
    rng = np.random.default_rng(1)
    coords = np.repeat([[0.0, 0.0], [0.0, 3.0], [10.0, 0.0]], 20, axis=0)
    coords += 0.2 * rng.normal(size=coords.shape)
    core = np.zeros(60, bool)
    core[[0, 1, 2, 20, 21]] = True
    res = sp_cluster_on_map(coords, core, n_core=6)
    assert res.method == "cluster_map" and res.params["k"] == 2
    assert res.relevant.tolist() == [True] * 40 + [False] * 20
    assert (res.precision, res.recall) == (40 / 60, 5 / 6)


def test_sp_cluster_best_k_one_makes_everything_relevant():
    rows, _ = three_blobs()
    core = np.zeros(60, bool)
    core[[0, 1, 40, 41]] = True  # half in A, half in C: k = 2 gives M = 2 ≤ 2.8
    res = sp_cluster(rows, core, n_core=4)
    assert res.params["k"] == 1
    assert res.relevant.all() and (res.precision, res.recall) == (1.0, 1.0)


def test_k_search_never_reached_returns_k_max():
    rows, core = three_blobs()
    search = cluster_k_search(rows, core, theta=0.1, k_max=5)  # M(k) ≥ 1 > 0.5 always
    assert (search.best_k, search.reached) == (5, False)
    assert list(search.core_max) == [2, 3, 4, 5]
    tiny = cluster_k_search(rows[:3], core[:3], k_max=99)  # k cannot exceed the row count
    assert tiny.best_k <= 3


def test_k_search_on_repeated_rows_does_not_fail():
    rows = np.repeat(np.eye(3), 4, axis=0)  # 3 distinct points, 12 rows
    core = np.zeros(12, bool)
    core[[0, 1, 4]] = True  # m = 3; two in the first point, one in the second
    fast = cluster_k_search(rows, core, theta=0.5, k_max=6)
    # k = 2 joins two of the points, k = 3 separates them: M = 2 > 1.5 stays, never reached
    assert (fast.best_k, fast.reached) == (6, False)
    assert all(m_k == 2 for k, m_k in fast.core_max.items() if k >= 3)


@pytest.mark.parametrize(
    ("core_rows", "n_core", "n_rows", "fragment"),
    [([0], 3, 60, "only 1 retrieved core"), ([], 3, 60, "only 0"), ([], 3, 0, "empty"),
     ([0, 1, 2], 3, 60, "NaN")],
)
def test_sp_cluster_undefined_cases(core_rows, n_core, n_rows, fragment):
    rows, _ = three_blobs()
    if fragment == "NaN":
        rows[5, 0] = np.nan
    core = np.zeros(n_rows, bool)
    core[core_rows] = True
    res = sp_cluster(rows[:n_rows], core, n_core)
    assert not res.defined and fragment in res.reason
    assert res.f_beta == 0.0 and res.recall == len(core_rows) / n_core


# -------------------------------------------------------------- projection fidelity


def test_projection_fidelity_of_pca_scores_equals_pca_explained_variance():
    rng = np.random.default_rng(2)
    y = rng.normal(size=(200, 12)) @ rng.normal(size=(12, 12))
    pca = PCA(n_components=2).fit(y)
    ev = projection_fidelity(pca.transform(y), y)
    assert ev == pytest.approx(pca.explained_variance_ratio_.sum(), abs=1e-10)


def test_projection_fidelity_hand_cases():
    rng = np.random.default_rng(3)
    coords = rng.normal(size=(100, 2))
    exact = coords @ rng.normal(size=(2, 6))  # the map determines the embedding linearly
    assert projection_fidelity(coords, exact) == pytest.approx(1.0, abs=1e-10)
    # Y = [x₁, z] with z independent of the map: EV = var(x₁) / (var(x₁) + var(z)) ≈ 1/2
    z = rng.normal(size=100)
    y = np.column_stack([coords[:, 0], z - z.mean()])
    resid_z = z - coords @ np.linalg.lstsq(
        np.column_stack([coords, np.ones(100)]), z, rcond=None)[0][:2]
    resid_z -= resid_z.mean()
    expected = 1 - np.sum(resid_z**2) / (np.sum((coords[:, 0] - coords[:, 0].mean()) ** 2)
                                         + np.sum((z - z.mean()) ** 2))
    assert projection_fidelity(coords, y) == pytest.approx(expected, abs=1e-9)
    assert math.isnan(projection_fidelity(coords, np.ones((100, 4))))
    assert math.isnan(projection_fidelity(coords[:2], exact[:2]))


# --------------------------------------------------------------------- properties


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 40), st.floats(-1.0, 1.0))
def test_semantic_metrics_stay_in_range(seed, n_rows, theta):
    rng = np.random.default_rng(seed)
    e_r = rng.normal(size=(n_rows, 4))
    core = rng.random(n_rows) < 0.3
    n_core = int(core.sum()) + int(rng.integers(0, 3))
    results = [sp_cos(rng.normal(size=(3, 4)), e_r, core, n_core, theta=theta),
               sp_mvee(e_r[:, :2], core, n_core),
               sp_hull(e_r[:, :2], core, n_core),
               sp_cluster(e_r, core, n_core, k_max=3)]
    sweep = threshold_analysis(rng.normal(size=(3, 4)), e_r, core, n_core, thetas=[theta, 0.5])
    assert np.all((sweep.f_beta >= 0.0) & (sweep.f_beta <= 1.0))
    for res in results:
        assert 0.0 <= res.precision <= 1.0 and 0.0 <= res.recall <= 1.0
        assert 0.0 <= res.decay <= 1.0 and 0.0 <= res.f_beta <= 1.0
        assert res.n_relevant == int(res.relevant.sum()) <= res.n_retrieved == n_rows
        assert res.defined == (res.reason is None)
