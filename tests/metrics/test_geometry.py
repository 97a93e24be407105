"""MVEE (Khachiyan) and convex hull: hand cases, degenerate input, cross-checks, properties."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial import ConvexHull

from litqeval_gui.metrics.geometry import (
    DegenerateGeometry,
    Ellipsoid,
    convex_hull,
    mvee,
    unit_ball_volume,
    validate_points,
)


def naive_khachiyan(points, tol=1e-4, max_iter=50_000):
    """The published form (Moshtagh's MATLAB code) with diag(u) of size N×N.

    Returns (centre, A, iterations); benchmarks/bench_mvee.py times it as the baseline.
    """
    p = np.asarray(points, dtype=float).T  # d × N
    d, n = p.shape
    q = np.vstack([p, np.ones(n)])
    u = np.ones(n) / n
    err, count = 1.0, 0
    while err > tol and count < max_iter:
        x = q @ np.diag(u) @ q.T
        m = np.diag(q.T @ np.linalg.inv(x) @ q)
        j = np.argmax(m)
        step = (m[j] - d - 1) / ((d + 1) * (m[j] - 1))
        new_u = (1 - step) * u
        new_u[j] += step
        err = np.linalg.norm(new_u - u)
        u = new_u
        count += 1
    c = p @ u
    a = np.linalg.inv(p @ np.diag(u) @ p.T - np.outer(c, c)) / d
    return c, a, count


def containment_slack(d, tol=1e-4):
    """Khachiyan stops when a step is ≤ tol; the worst point then exceeds 1 by about
    tol·(d+1)²/d. Twice that covers the last update."""
    return 2 * tol * (d + 1) ** 2 / d


# ----------------------------------------------------------------------- hand cases


def test_mvee_of_square_corners_is_the_circumcircle():
    square = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=float)
    ell = mvee(square)
    # symmetric: every M_i = d+1 = 3 at u = 1/4, so the first step is 0
    assert ell.converged and ell.iterations == 1
    np.testing.assert_allclose(ell.centre, [0, 0], atol=1e-15)
    np.testing.assert_allclose(ell.shape, np.eye(2) / 2, atol=1e-15)  # radius √2
    assert ell.volume() == pytest.approx(2 * math.pi)


def test_mvee_of_triangle_is_steiner_circumellipse():
    tri = np.array([[0, 0], [1, 0], [0, 1]], dtype=float)
    ell = mvee(tri)
    # u = 1/3: centre (1/3, 1/3); Σ = [[2/9, −1/9], [−1/9, 2/9]]; A = Σ⁻¹/2 = [[3, 1.5], [1.5, 3]]
    np.testing.assert_allclose(ell.centre, [1 / 3, 1 / 3], atol=1e-14)
    np.testing.assert_allclose(ell.shape, [[3, 1.5], [1.5, 3]], atol=1e-12)
    np.testing.assert_allclose(ell.mahalanobis(tri), [1, 1, 1], atol=1e-12)
    # Steiner circumellipse area = 4π/(3√3) · triangle area (0.5) = π/√6.75
    assert ell.volume() == pytest.approx(math.pi / math.sqrt(6.75), rel=1e-11)


def test_contains_is_vectorised_and_inclusive_at_the_boundary():
    ell = Ellipsoid(centre=np.array([1.0, 2.0]), shape=np.diag([1 / 4, 1.0]))  # semi-axes 2, 1
    pts = np.array([[1, 2], [3, 2], [3.01, 2], [1, 3], [1, 3.01], [2.5, 2.5]])
    # values: 0, 2²/4, 2.01²/4, 1², 1.01², 1.5²/4 + 0.5²
    np.testing.assert_allclose(ell.mahalanobis(pts), [0, 1, 1.010025, 1, 1.0201, 0.8125])
    assert ell.contains(pts).tolist() == [True, True, False, True, False, True]
    assert ell.contains(pts, slack=0.05).tolist() == [True] * 6
    assert ell.volume() == pytest.approx(2 * math.pi)  # π·2·1


def test_boundary_points_lie_on_the_ellipse():
    ell = Ellipsoid(centre=np.array([0.5, -1.0]), shape=np.array([[2.0, 0.5], [0.5, 1.0]]))
    outline = ell.boundary(64)
    assert outline.shape == (64, 2)
    np.testing.assert_allclose(ell.mahalanobis(outline), 1.0, atol=1e-12)
    with pytest.raises(ValueError):
        Ellipsoid(centre=np.zeros(3), shape=np.eye(3)).boundary()


def test_unit_ball_volume():
    assert unit_ball_volume(1) == pytest.approx(2.0)
    assert unit_ball_volume(2) == pytest.approx(math.pi)
    assert unit_ball_volume(3) == pytest.approx(4 / 3 * math.pi)


def test_iteration_cap_reports_not_converged():
    rng = np.random.default_rng(3)
    ell = mvee(rng.normal(size=(30, 2)), max_iter=5)
    assert ell.iterations == 5 and not ell.converged


# ------------------------------------------------------------------ degenerate input


@pytest.mark.parametrize(
    ("points", "fragment"),
    [
        ([[0, 0], [1, 1], [2, 2], [3, 3]], "collinear"),
        ([[0, 0], [0, 0], [1, 1]], "distinct"),
        ([[0, 0], [1, 0]], "at least 3"),
        ([[0, 0], [1, 0], [0, np.nan]], "NaN"),
        ([[0, 0], [1, 0], [np.inf, 1]], "infinite"),
        (np.zeros((0, 2)), "at least 3"),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 3, 0]], "subspace"),
        ([1.0, 2.0, 3.0], "(N, d)"),
    ],
)
def test_degenerate_input_raises_with_a_reason(points, fragment):
    for fit in (validate_points, mvee, convex_hull):
        with pytest.raises(DegenerateGeometry, match=fragment.replace("(", r"\(").replace(")", r"\)")):
            fit(points)


# ------------------------------------------------------------------- cross-checks


@pytest.mark.parametrize(("n", "d", "seed"), [(8, 2, 0), (25, 2, 1), (40, 3, 2), (12, 4, 3)])
def test_mvee_matches_the_naive_published_form(n, d, seed):
    pts = np.random.default_rng(seed).normal(size=(n, d)) * np.arange(1, d + 1)
    ell = mvee(pts, enclose=False)
    c, a, _ = naive_khachiyan(pts)
    np.testing.assert_allclose(ell.centre, c, atol=1e-9)
    np.testing.assert_allclose(ell.shape, a, rtol=1e-7, atol=1e-9)
    assert ell.mahalanobis(pts).max() > 1.0  # the published form leaves support points out
    # the default rescales A by at most the containment slack so that all points are in
    enclosing = mvee(pts)
    np.testing.assert_allclose(enclosing.centre, c, atol=1e-9)
    np.testing.assert_allclose(enclosing.shape, a, rtol=containment_slack(d))
    assert enclosing.mahalanobis(pts).max() == pytest.approx(1.0, abs=1e-11)
    assert enclosing.contains(pts).all()


def test_hull_hand_case_unit_square():
    hull = convex_hull([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]])
    assert hull.volume == pytest.approx(1.0)
    assert sorted(hull.vertices.tolist()) == [0, 1, 2, 3]  # the centre is no vertex
    pts = [[0.5, 0.5], [1.5, 0.5], [0.0, 0.0], [1.0, 0.5], [-1e-3, 0.5]]
    assert hull.contains(pts).tolist() == [True, False, True, True, False]


def inside_by_equations(fit_points, query, eps=1e-12):
    eq = ConvexHull(fit_points).equations  # rows [normal, offset]; inside: n·p + b ≤ 0
    return np.all(query @ eq[:, :-1].T + eq[:, -1] <= eps, axis=1)


def far_from_hull_boundary(fit_points, query, margin=1e-7):
    eq = ConvexHull(fit_points).equations
    return np.all(np.abs(query @ eq[:, :-1].T + eq[:, -1]) > margin, axis=1)


grid_points = arrays(np.int64, st.tuples(st.integers(3, 15), st.just(2)),
                     elements=st.integers(-20, 20)).map(lambda a: a.astype(float))


def test_hull_contains_a_vertex_qhulls_walk_misses():
    """scipy's find_simplex walk returns -1 for the vertex (14, −18) of this triangulation
    (found by the property below); every fitting point lies in its own hull."""
    fit = np.array([[-7, -1], [-1, -1], [3, -9], [14, -18]], dtype=float)
    assert convex_hull(fit).contains(fit).tolist() == [True, True, True, True]
    assert not convex_hull(fit).contains([[14.5, -18.5], [0.0, 0.0]]).any()


@settings(max_examples=50, deadline=None)
@given(grid_points, st.integers(0, 2**31 - 1))
def test_hull_containment_matches_convex_hull_equations(fit, seed):
    try:
        hull = convex_hull(fit)
    except DegenerateGeometry:
        assume(False)
    query = np.random.default_rng(seed).uniform(-25, 25, size=(300, 2))
    clear = far_from_hull_boundary(fit, query)  # Qhull's own tolerance decides on the edge
    np.testing.assert_array_equal(hull.contains(query)[clear],
                                  inside_by_equations(fit, query)[clear])
    assert hull.contains(fit).all()


# --------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(grid_points)
def test_mvee_encloses_its_points_and_is_no_bigger_than_simple_ellipsoids(pts):
    try:
        ell = mvee(pts)
    except DegenerateGeometry:
        assume(False)
    d = pts.shape[1]
    assert ell.converged
    assert ell.contains(pts).all()
    published = mvee(pts, enclose=False)
    assert published.mahalanobis(pts).max() <= 1 + containment_slack(d)
    # Khachiyan's ellipsoid is never larger than the true MVEE (weak duality); enclosing
    # rescales it by at most 1 + slack, i.e. the volume by at most (1 + slack)^(d/2).
    allowance = (1 + containment_slack(d)) ** (d / 2) * (1 + 1e-9)
    assert ell.volume() <= published.volume() * allowance
    # ball around the centroid through the farthest point
    radius = np.linalg.norm(pts - pts.mean(axis=0), axis=1).max()
    assert published.volume() <= unit_ball_volume(d) * radius**d * (1 + 1e-9)
    assert ell.volume() <= unit_ball_volume(d) * radius**d * allowance
    # axis-aligned bounding box: the ellipsoid with semi-axes √d·half-widths contains it
    half = (pts.max(axis=0) - pts.min(axis=0)) / 2
    assert ell.volume() <= unit_ball_volume(d) * np.prod(math.sqrt(d) * half) * allowance


@settings(max_examples=6, deadline=None)
@given(st.integers(4, 30), st.integers(0, 2**31 - 1))
def test_mvee_in_3d_encloses_its_points(n, seed):
    pts = np.random.default_rng(seed).normal(size=(n, 3))
    assert mvee(pts, enclose=False).mahalanobis(pts).max() <= 1 + containment_slack(3)
    assert mvee(pts).contains(pts).all()
