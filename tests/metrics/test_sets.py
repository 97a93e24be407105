"""Set metrics, the clamped decay λ and the semantic F-score (SPEC §1.4)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.metrics.sets import decay, f_beta, precision, recall, semantic_f_beta

# --------------------------------------------------------------- precision / recall


def test_precision_and_recall_hand_computed():
    retrieved = {"a", "b", "c", "d"}
    relevant = {"b", "d", "x"}
    assert precision(retrieved, relevant) == 2 / 4
    assert recall(retrieved, relevant) == 2 / 3


def test_duplicates_in_input_count_once():
    assert precision(["a", "a", "b"], ["a"]) == 1 / 2
    assert recall(["a"], ["a", "a", "b"]) == 1 / 2


def test_empty_sets_give_zero():
    assert precision([], {"a"}) == 0.0
    assert recall({"a"}, []) == 0.0
    assert precision([], []) == 0.0


def test_no_relevant_and_all_relevant():
    assert precision({"a", "b"}, {"x"}) == 0.0
    assert recall({"a", "b"}, {"x"}) == 0.0
    assert precision({"a", "b"}, {"a", "b"}) == 1.0
    assert recall({"a", "b"}, {"a", "b"}) == 1.0


# ------------------------------------------------------------------------- F_beta


def test_f_beta_hand_computed():
    # F2 = 5·P·R / (4·P + R) with P = 0.5, R = 0.8: 5·0.4 / 2.8
    assert f_beta(0.5, 0.8) == pytest.approx(2.0 / 2.8, abs=1e-15)
    # F1 = 2·P·R / (P + R)
    assert f_beta(0.5, 0.8, beta=1.0) == pytest.approx(0.8 / 1.3, abs=1e-15)
    assert f_beta(1.0, 1.0) == 1.0


def test_f_beta_zero_cases_and_validation():
    assert f_beta(0.0, 0.7) == 0.0
    assert f_beta(0.7, 0.0) == 0.0
    with pytest.raises(ValueError):
        f_beta(1.5, 0.5)
    with pytest.raises(ValueError):
        f_beta(0.5, 0.5, beta=0.0)


def test_semantic_f_beta_is_f_beta_of_sp_times_lambda():
    # SP = 0.4, λ = 0.5, Rec = 0.9: 5·0.2·0.9 / (4·0.2 + 0.9) = 0.9 / 1.7
    assert semantic_f_beta(0.4, 0.5, 0.9) == pytest.approx(0.9 / 1.7, abs=1e-15)
    assert semantic_f_beta(0.4, 0.0, 0.9) == 0.0
    assert semantic_f_beta(0.0, 1.0, 0.9) == 0.0
    assert semantic_f_beta(0.4, 1.0, 0.0) == 0.0


# -------------------------------------------------------------------------- decay


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, 1.0),
        (10_000, (1 - 0.2**1.5) ** 10),
        (25_000, (1 - 0.5**1.5) ** 10),
        (49_999, (1 - (49_999 / 50_000) ** 1.5) ** 10),
        (50_000, 0.0),
        (60_000, 0.0),
    ],
)
def test_decay_paper_parameters(n, expected):
    assert decay(n, p=1.5, q=10, alpha=50_000) == pytest.approx(expected, rel=1e-12, abs=0)


def test_decay_values_by_hand():
    # 0.2^1.5 = 0.089443, 0.910557^10 = 0.391807
    assert decay(10_000) == pytest.approx(0.391807, abs=1e-6)
    # 0.5^1.5 = 0.353553, 0.646447^10 = 0.012745
    assert decay(25_000) == pytest.approx(0.012745, abs=1e-6)
    # 0.99998^1.5 = 0.99997, (3.0e-5)^10 ≈ 5.9e-46: tiny but not yet 0
    assert decay(49_999) == pytest.approx(5.9046e-46, rel=1e-4)


def test_clamp_differs_from_the_authors_unclamped_formula():
    unclamped_60k = (1 - 1.2**1.5) ** 10  # even q: negative base → positive value
    assert unclamped_60k == pytest.approx(9.477e-6, rel=1e-3)
    assert unclamped_60k > 0.0
    assert decay(60_000) == 0.0
    unclamped_100k = (1 - 2.0**1.5) ** 10  # grows without bound above α
    assert unclamped_100k > 400.0
    assert decay(100_000) == 0.0


def test_decay_vectorised_matches_scalar():
    ns = np.array([0, 10_000, 25_000, 50_000, 60_000])
    lam = decay(ns)
    assert isinstance(lam, np.ndarray)
    assert lam.shape == (5,)
    for n, value in zip(ns, lam, strict=True):
        assert value == pytest.approx(decay(int(n)), rel=1e-14, abs=0)
    assert isinstance(decay(5), float)


def test_decay_rejects_bad_input():
    with pytest.raises(ValueError):
        decay(-1)
    with pytest.raises(ValueError):
        decay(float("nan"))
    with pytest.raises(ValueError):
        decay(10, alpha=0)


# --------------------------------------------------------------------- properties

unit = st.floats(0.0, 1.0, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(unit, unit, st.floats(0.1, 10.0))
def test_f_beta_in_unit_interval_and_between_p_and_r(p, r, beta):
    f = f_beta(p, r, beta)
    assert 0.0 <= f <= 1.0
    if min(p, r) > 1e-150:  # a weighted harmonic mean lies between its arguments
        assert min(p, r) * (1 - 1e-12) <= f <= max(p, r) * (1 + 1e-12)


@settings(max_examples=50, deadline=None)
@given(
    st.floats(0.0, 2e5), st.floats(0.0, 2e5),
    st.floats(0.1, 5.0), st.floats(0.1, 20.0), st.floats(1.0, 1e6),
)
def test_decay_bounded_and_non_increasing(n1, n2, p, q, alpha):
    lo, hi = sorted((n1, n2))
    lam_lo, lam_hi = decay(lo, p, q, alpha), decay(hi, p, q, alpha)
    assert 0.0 <= lam_hi <= lam_lo <= 1.0


@settings(max_examples=50, deadline=None)
@given(unit, unit, unit)
def test_semantic_f_beta_bounded(sp, lam, rec):
    assert 0.0 <= semantic_f_beta(sp, lam, rec) <= 1.0
    assert math.isfinite(semantic_f_beta(sp, lam, rec))


def test_jaccard_by_hand():
    from litqeval_gui.metrics.sets import jaccard

    assert jaccard({1, 2, 3}, {2, 3, 4, 5}) == 2 / 5
    assert jaccard([1, 1, 2], [2]) == 1 / 2  # sets: duplicates count once
    assert jaccard({1}, {1}) == 1.0
    assert jaccard(set(), set()) == 0.0
    assert jaccard({1}, set()) == 0.0
