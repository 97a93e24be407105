"""Projection fidelity by least squares: hand-computed cases, rank-deficient maps, and
sklearn's PLS (the seed's estimator) and LinearRegression as independent implementations."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.cross_decomposition import PLSRegression
from sklearn.linear_model import LinearRegression
from sklearn.metrics import r2_score

from litqeval_gui.metrics.fidelity import projection_fidelity

# x = 0, 1, 2, 3 and y = 0, 1, 2, 4: centred x (−1.5, −0.5, 0.5, 1.5), Sxx = 5; centred y
# (−1.75, −0.75, 0.25, 2.25), Syy = 8.75; Sxy = 6.5; R² = Sxy² / (Sxx·Syy) = 42.25 / 43.75.
X1 = np.array([[0.0], [1.0], [2.0], [3.0]])
Y1 = np.array([[0.0], [1.0], [2.0], [4.0]])
HAND = 169 / 175


def test_one_column_map_is_the_squared_correlation_by_hand():
    assert projection_fidelity(X1, Y1) == pytest.approx(HAND, abs=1e-15)


@pytest.mark.parametrize("second", [2 * X1[:, 0], np.full(4, 5.0), -X1[:, 0] + 7])
def test_rank_deficient_map_keeps_what_its_one_direction_explains(second):
    """A column that repeats (a multiple of) the first, or is constant, adds no direction:
    same EV as the one-column map (sklearn's PLS diverges here: predictions ~1e13)."""
    assert projection_fidelity(np.column_stack([X1[:, 0], second]), Y1) == pytest.approx(
        HAND, abs=1e-14)


def test_rank_deficient_map_equals_sklearn_linear_regression_r2():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 1))
    x = np.column_stack([x, 2 * x, np.ones(200)])
    y = rng.normal(size=(200, 6)) + x[:, :1] * [1, 2, 0, 0, -1, 3]
    fitted = LinearRegression().fit(x, y).predict(x)
    expected = r2_score(y, fitted, multioutput="variance_weighted")
    assert projection_fidelity(x, y) == pytest.approx(expected, abs=1e-12)
    assert projection_fidelity(x, y) == pytest.approx(projection_fidelity(x[:, :1], y), abs=1e-12)


def test_constant_map_keeps_nothing():
    y = np.random.default_rng(1).normal(size=(10, 3))
    assert projection_fidelity(np.full((10, 2), 4.0), y) == 0.0


def _pls(x, y):
    """The seed's estimator, written out: PLS with as many components as map columns."""
    model = PLSRegression(n_components=x.shape[1], scale=False).fit(x, y)
    centred = y - y.mean(axis=0)
    return 1.0 - float(np.sum((y - model.predict(x)) ** 2)) / float(np.sum(centred**2))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(5, 120), st.integers(1, 3), st.integers(1, 12),
       st.floats(0.0, 5.0))
def test_full_rank_map_equals_sklearn_pls(seed, n, k, d, signal):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) * rng.uniform(0.1, 10.0, size=k) + rng.normal(size=k) * 5
    y = signal * x @ rng.normal(size=(k, d)) + rng.normal(size=(n, d)) + rng.normal(size=d)
    if n <= k or np.linalg.matrix_rank(x - x.mean(axis=0)) < k:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PLS warns when a Y residual is constant
        expected = min(max(_pls(x, y), 0.0), 1.0)
    assert projection_fidelity(x, y) == pytest.approx(expected, abs=1e-12)


def test_float32_umap_sized_map_equals_pls_to_1e12():
    rng = np.random.default_rng(7)
    y = (rng.normal(size=(5000, 40)) @ rng.normal(size=(40, 40))).astype(np.float32)
    x = (y[:, :2] + 3 * rng.normal(size=(5000, 2))).astype(np.float32)
    expected = _pls(x.astype(np.float64), y.astype(np.float64))
    assert projection_fidelity(x, y) == pytest.approx(expected, abs=1e-12)
