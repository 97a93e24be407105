"""Tests for litqeval_gui.metrics.reliability: hand-computed tables, and the independent
implementations of `krippendorff` and `statsmodels` (test dependencies only)."""

import math

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa

from litqeval_gui.metrics.agreement import kappa_from_table
from litqeval_gui.metrics.reliability import clip_interval, krippendorff_alpha, pair_reliability

TABLE = [[40, 10], [5, 45]]  # 100 records: 40 both include, 45 both exclude


def test_pair_reliability_by_hand():
    r = pair_reliability(TABLE)
    assert (r.n, r.agreement) == (100, pytest.approx(0.85))
    # include: 2·40 / (50 + 45); exclude: 2·45 / (50 + 55)
    assert r.specific == pytest.approx((80 / 95, 90 / 105))
    assert r.pabak == pytest.approx(2 * 0.85 - 1)
    # π = (0.475, 0.525); p_e = 2·0.475·0.525 = 0.49875; AC1 = 0.35125 / 0.50125
    assert r.ac1 == pytest.approx(0.35125 / 0.50125)
    assert r.ac1_se == pytest.approx(0.07135, abs=5e-6)
    assert r.ac1_ci == pytest.approx((r.ac1 - 1.959964 * r.ac1_se, r.ac1 + 1.959964 * r.ac1_se))


def _ac1_linearised(table: np.ndarray) -> tuple[float, float]:
    """AC1 and its SE by Gwet's per-record linearisation (Handbook of Inter-Rater
    Reliability, ch. 5): written apart from the app's closed form, for two raters."""
    k = table.shape[0]
    a, b = np.nonzero(table)
    units = np.repeat(np.stack([a, b], axis=1), table[a, b], axis=0)
    n = len(units)
    counts = np.zeros((n, k))
    for i, (x, y) in enumerate(units):
        counts[i, x] += 1
        counts[i, y] += 1
    pi = counts.mean(axis=0) / 2
    p_e = float(np.sum(pi * (1 - pi)) / (k - 1))
    p_o_unit = np.sum(counts * (counts - 1), axis=1) / 2
    p_o = p_o_unit.mean()
    ac1 = (p_o - p_e) / (1 - p_e)
    p_e_unit = counts @ (1 - pi) / 2 / (k - 1)
    star = (p_o_unit - p_e) / (1 - p_e) - 2 * (1 - ac1) * (p_e_unit - p_e) / (1 - p_e)
    return ac1, float(np.sqrt(np.sum((star - ac1) ** 2) / (n * (n - 1))))


tables = st.integers(2, 4).flatmap(
    lambda k: st.lists(st.lists(st.integers(0, 30), min_size=k, max_size=k),
                       min_size=k, max_size=k)).filter(lambda t: sum(map(sum, t)) >= 2)


@given(tables)
@settings(max_examples=150, deadline=None)
def test_ac1_and_pabak_against_independent_forms(table):
    t = np.array(table)
    r = pair_reliability(t)
    ac1, se = _ac1_linearised(t)
    n = int(t.sum())
    assert r.ac1 == pytest.approx(ac1, abs=1e-12)
    # Gwet (2008) divides by n where the linearisation divides by n − 1
    assert r.ac1_se == pytest.approx(se * math.sqrt((n - 1) / n), abs=1e-9)
    # PABAK is Randolph's free-marginal κ of two raters (statsmodels)
    k = t.shape[0]
    a, b = np.nonzero(t)
    pairs = np.repeat(np.stack([a, b], axis=1), t[a, b], axis=0)
    counts, _ = aggregate_raters(pairs, n_cat=k)
    assert r.pabak == pytest.approx(fleiss_kappa(counts, method="randolph"), abs=1e-12)
    low, high = r.ac1_ci
    assert -1 <= low <= high <= 1


@given(tables)
@settings(max_examples=100, deadline=None)
def test_kappa_and_its_se_equal_statsmodels(table):
    t = np.array(table)
    for weights, wt in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
        mine = kappa_from_table(t, weights=weights)
        if math.isnan(mine.kappa):
            continue
        theirs = cohens_kappa(t, wt=wt)
        assert mine.kappa == pytest.approx(theirs.kappa, abs=1e-9)
        assert mine.se == pytest.approx(theirs.std_kappa, abs=1e-9)
        assert mine.ci == pytest.approx((theirs.kappa_low, theirs.kappa_upp), abs=1e-9)


def test_a_kappa_interval_past_one_is_shown_clipped():
    k = kappa_from_table([[12, 0], [1, 7]])
    assert k.ci[1] > 1  # the large-sample interval runs past κ's range
    assert k.shown_ci == (pytest.approx(k.ci[0]), 1.0)
    assert clip_interval(-1.3, 0.2) == (-1.0, 0.2)
    low, high = clip_interval(float("nan"), float("nan"))
    assert math.isnan(low) and math.isnan(high)


def test_undefined_cases_are_nan_not_errors():
    empty = pair_reliability([[0, 0], [0, 0]])
    assert empty.n == 0 and math.isnan(empty.ac1) and math.isnan(empty.pabak)
    one_label = pair_reliability([[9, 0], [0, 0]])  # both always include: AC1 = 1
    assert one_label.ac1 == 1.0 and one_label.specific[0] == 1.0
    assert math.isnan(one_label.specific[1])
    with pytest.raises(ValueError, match="square"):
        pair_reliability([[1, 2, 3]])
    nobody = krippendorff_alpha([], categories=("include", "exclude"))
    assert math.isnan(nobody.alpha) and (nobody.raters, nobody.units) == (0, 0)


# Krippendorff (2011), section C: four raters, twelve units, missing values
KRIPPENDORFF_EXAMPLE = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def test_alpha_on_krippendorffs_own_example():
    # the values of Krippendorff's worked example: nominal 0.743, ordinal 0.815,
    # interval 0.849 (Krippendorff 2011, pp. 4–7)
    expected = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}
    for level, value in expected.items():
        a = krippendorff_alpha(KRIPPENDORFF_EXAMPLE, level=level)
        assert a.alpha == pytest.approx(value, abs=5e-4)
        assert (a.units, a.raters, a.pairable) == (11, 4, 40)


def test_alpha_of_two_raters_without_missing_by_hand():
    # coincidences [[4, 2], [2, 2]] from pairs (a,a), (a,b), (b,a), (a,a), (b,b):
    # n = (6, 4), α = 1 − 9·4 / (2·6·4) = 1 − 36/48 = 0.25
    a = krippendorff_alpha([["a", "a", "b", "a", "b"], ["a", "b", "a", "a", "b"]])
    assert a.alpha == pytest.approx(0.25)
    assert math.isnan(krippendorff_alpha([["a", "a"], ["a", "a"]]).alpha)
    assert math.isnan(krippendorff_alpha([["a", None], [None, "b"]]).alpha)  # nothing pairable
    with pytest.raises(ValueError, match="not in the categories"):
        krippendorff_alpha([["a"], ["z"]], categories=["a", "b"])


ratings = st.integers(2, 5).flatmap(lambda raters: st.integers(2, 12).flatmap(
    lambda units: st.lists(st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=units,
                                    max_size=units), min_size=raters, max_size=raters)))


@given(ratings)
@settings(max_examples=200, deadline=None)
def test_alpha_equals_the_krippendorff_package(data):
    matrix = np.array([[np.nan if v is None else v for v in row] for row in data], dtype=float)
    for level in ("nominal", "ordinal", "interval"):
        mine = krippendorff_alpha(data, level=level, categories=[0, 1, 2, 3])
        values = {v for row in data for v in row if v is not None}
        pairable = sum(np.count_nonzero(~np.isnan(matrix[:, u])) >= 2
                       for u in range(matrix.shape[1]))
        if len(values) < 2 or math.isnan(mine.alpha) or not pairable:
            continue
        theirs = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level,
                                    value_domain=[0, 1, 2, 3])
        assert mine.alpha == pytest.approx(theirs, abs=1e-9)
