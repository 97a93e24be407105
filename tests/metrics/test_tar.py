"""Tests for litqeval_gui.metrics.tar (SPEC §2; seed 001)."""

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.metrics.tar import (
    clef_true_positives,
    recall_curve,
    relevance_labels,
    tar_at_recall,
    tar_at_recall_ids,
    target_true_positives,
)


@pytest.mark.parametrize(
    ("recall", "n_includes", "tp"),
    [
        (0.95, 20, 19),
        (0.7, 10, 7),
        (0.95, 200, 190),
        (0.95, 1, 1),
        (0.95, 21, 20),
        (0.8, 5, 4),
        (1.0, 7, 7),
        (0.1, 30, 3),
        (Fraction(1, 3), 9, 3),
        (0.95, 0, 0),
    ],
)
def test_target_true_positives_is_exact(recall, n_includes, tp):
    assert target_true_positives(recall, n_includes) == tp


@pytest.mark.parametrize("recall", [0, -0.1, 1.01])
def test_recall_level_must_be_in_unit_interval(recall):
    with pytest.raises(ValueError):
        target_true_positives(recall, 10)


def test_small_hand_computed_case():
    # ranks:  1 2 3 4 5 6 7 8
    labels = [1, 0, 1, 0, 0, 1, 0, 0]
    res = tar_at_recall(labels, recall=0.5)
    # |I| = 3, |E| = 5, TP = ceil(1.5) = 2, 2nd relevant at rank 3.
    assert (res.n_records, res.n_includes, res.n_excludes) == (8, 3, 5)
    assert (res.tp, res.cutoff, res.fp, res.tn, res.fn) == (2, 3, 1, 4, 1)
    assert res.precision == pytest.approx(2 / 3)
    assert res.tnr == pytest.approx(4 / 5)
    assert res.nprecision == pytest.approx(8 / 15)
    assert res.snprecision == pytest.approx(math.sqrt(8 / 15))
    assert res.wss == pytest.approx((4 + 1) / 8 - 0.5)
    assert res.last_rel == pytest.approx(75.0)
    assert res.reason == ""


def _paper_ranking(fp: int) -> np.ndarray:
    """N = 2000, |I| = 200: fp excludes, then 190 includes, then the rest; last 10 includes at the end."""
    return np.array([0] * fp + [1] * 190 + [0] * (1800 - fp) + [1] * 10)


@pytest.mark.parametrize("fp", [0, 10, 100, 810, 1800])
def test_paper_example_2000_records(fp):
    res = tar_at_recall(_paper_ranking(fp), recall=0.95)
    assert (res.n_records, res.n_includes, res.n_excludes) == (2000, 200, 1800)
    assert (res.tp, res.fn) == (190, 10)  # seed 001 §3: 190 TP, 10 FN at 95 % recall
    assert (res.fp, res.tn, res.cutoff) == (fp, 1800 - fp, 190 + fp)
    p = 190 / (190 + fp)
    tnr = (1800 - fp) / 1800
    assert res.precision == pytest.approx(p)
    assert res.tnr == pytest.approx(tnr)
    assert res.nprecision == pytest.approx(p * tnr)
    assert res.snprecision == pytest.approx(math.sqrt(p * tnr))
    assert res.wss == pytest.approx((1800 - fp + 10) / 2000 - 0.05)
    assert res.last_rel == 100.0
    # eq. (8): nP is P min-max normalised between min P = TP/(TP+|E|) (eq. 5) and 1.
    p_min = 190 / (190 + 1800)
    assert res.nprecision == pytest.approx((p - p_min) / (1 - p_min))
    assert res.nprecision == pytest.approx(res.precision * res.tnr)
    assert res.snprecision**2 == pytest.approx(res.nprecision)


def test_paper_example_extremes():
    best = tar_at_recall(_paper_ranking(0))
    worst = tar_at_recall(_paper_ranking(1800))
    assert best.precision == best.tnr == best.nprecision == best.snprecision == 1.0
    assert worst.precision == pytest.approx(190 / 1990)  # eq. (5): minimum P@95%
    assert worst.nprecision == 0.0 and worst.snprecision == 0.0


def test_no_excludes_gives_nan_with_reason():
    res = tar_at_recall([1, 1, 1], recall=0.95)
    assert (res.tp, res.fp, res.tn, res.fn, res.cutoff) == (3, 0, 0, 0, 3)
    assert res.precision == 1.0
    assert math.isnan(res.tnr) and math.isnan(res.nprecision) and math.isnan(res.snprecision)
    assert "|E| = 0" in res.reason
    assert res.wss == pytest.approx(0 / 3 - 0.05)
    assert res.last_rel == 100.0


@pytest.mark.parametrize(("labels", "text"), [([], "N = 0"), ([0, 0, 0], "|I| = 0")])
def test_no_relevant_or_empty_gives_nan_with_reason(labels, text):
    res = tar_at_recall(labels)
    assert text in res.reason
    for value in (res.precision, res.tnr, res.nprecision, res.snprecision, res.wss, res.last_rel):
        assert math.isnan(value)


def test_result_is_frozen():
    res = tar_at_recall([1, 0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.tp = 5  # type: ignore[misc]


def test_id_api_list_and_score_ties():
    relevant = {"b", "d"}
    res = tar_at_recall_ids(["a", "b", "c", "d"], relevant, recall=1.0)
    assert (res.tp, res.cutoff, res.fp) == (2, 4, 2)
    # score ties broken by the mapping's own order: b (listed first) ranks above a.
    labels = relevance_labels({"b": 1.0, "a": 1.0, "d": 0.5, "c": 0.1}, relevant)
    np.testing.assert_array_equal(labels, [True, False, True, False])
    assert tar_at_recall_ids({"b": 1.0, "a": 1.0, "d": 0.5}, relevant, 1.0).fp == 1


def test_id_api_rejects_relevant_outside_the_ranking_and_duplicates():
    with pytest.raises(ValueError, match="not in the ranking"):
        tar_at_recall_ids(["a", "b"], {"a", "zz"})
    with pytest.raises(ValueError):
        tar_at_recall_ids(["a", "a"], {"a"})


def test_recall_curve():
    screened, found = recall_curve([0, 1, 1, 0, 1])
    np.testing.assert_array_equal(screened, [0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(found, [0, 0, 1, 2, 2, 3])
    screened, found = recall_curve([])
    np.testing.assert_array_equal(screened, [0])
    np.testing.assert_array_equal(found, [0])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=60), st.sampled_from([0.5, 0.8, 0.95, 1.0]))
def test_properties(labels, recall):
    res = tar_at_recall(labels, recall)
    if res.n_includes == 0:
        assert res.reason
        return
    assert res.tp + res.fn == res.n_includes and res.tn + res.fp == res.n_excludes
    assert res.tp / res.n_includes >= recall - 1e-12
    assert 0 < res.precision <= 1
    assert 0 < res.last_rel <= 100
    assert -1 <= res.wss <= 1
    if res.n_excludes:
        for value in (res.tnr, res.nprecision, res.snprecision):
            assert 0 <= value <= 1
        assert res.nprecision == pytest.approx(res.precision * res.tnr)
        assert res.snprecision**2 == pytest.approx(res.nprecision)


# --------------------------------------------------------------- CLEF convention

FIVE = [1, 0, 1, 0, 0, 1, 1, 0, 0, 1]  # |I| = 5 at ranks 1, 3, 6, 7, 10; N = 10


@pytest.mark.parametrize(("recall", "n_includes", "tp"), [
    (0.95, 11, 10),  # 10.45 -> 10 (paper: 11)
    (0.95, 30, 28),  # 0.95·30 = 28.499999999999996 in floating point (paper: 29)
    (0.5, 5, 2),     # 2.5 -> 2: half to even (paper: 3)
    (0.95, 10, 10),  # 9.5 -> 10: half to even
])
def test_clef_true_positives_round_as_the_script(recall, n_includes, tp):
    assert clef_true_positives(recall, n_includes) == tp


def test_clef_convention_hand_computed():
    paper = tar_at_recall(FIVE, 0.5)
    clef = tar_at_recall(FIVE, 0.5, convention="clef")
    assert (paper.tp, paper.cutoff, clef.tp, clef.cutoff) == (3, 6, 2, 3)
    assert clef.precision == pytest.approx(2 / 3) and clef.tnr == pytest.approx(4 / 5)
    assert clef.wss == pytest.approx((4 + 3) / 10 - 0.5)
    assert (clef.last_rel, paper.last_rel) == (10.0, 100.0)
    # only the first 2 ranks were returned: 1 relevant < TP = 2 -> WSS 0, last_rel rank 1
    short = tar_at_recall(FIVE, 0.5, convention="clef", retrieved=2)
    assert (short.wss, short.last_rel) == (0.0, 1.0)
    assert tar_at_recall(FIVE, 0.5, retrieved=2).wss == paper.wss  # paper ignores it


def test_clef_rounding_to_zero_true_positives():
    # r·|I| = 0.2 -> TP = 0: no cutoff; P@r undefined; WSS = (|E| + |I|)/N − (1 − r) = r
    result = tar_at_recall([0, 1, 0, 0], 0.2, convention="clef")
    assert (result.tp, result.cutoff) == (0, 0)
    assert math.isnan(result.precision) and math.isnan(result.nprecision)
    assert result.wss == pytest.approx(0.2) and "TP = round" in result.reason
    with pytest.raises(ValueError):
        tar_at_recall(FIVE, 0.5, convention="trec")
