"""Tests for metrics.pooling (SPEC §4, thesis ch. 8). Depths are 1-based throughout."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.metrics.pooling import (
    AGGRESSIVE,
    PRESETS,
    RELAXED,
    LowYieldRule,
    StopParams,
    critical_depth,
    is_low_yield,
    new_at_each_depth,
    nrels_curve,
    parameter_grid,
    pool_at_depth,
    pool_sizes,
    pooling_decision,
    smoothed_nrels,
    smoothed_rate,
)

# Constructed curve: fast growth, then a plateau at 14 from depth 10 on.
#   k      1  2  3  4   5   6   7   8   9  10  11 …
#   nrels  2  4  6  8  10  11  12  13  13  14  14 …
CURVE = [2, 4, 6, 8, 10, 11, 12, 13, 13, 14] + [14] * 30


# ------------------------------------------------------------------------ pools


def test_pool_at_depth_with_duplicates_and_different_lengths():
    runs = [["a", "b", "c"], ["b", "d"], []]
    assert pool_at_depth(runs, 0) == set()
    assert pool_at_depth(runs, 1) == {"a", "b"}
    assert pool_at_depth(runs, 2) == {"a", "b", "d"}
    assert pool_at_depth(runs, 3) == {"a", "b", "c", "d"}
    assert pool_at_depth(runs, 10) == {"a", "b", "c", "d"}


def test_pool_at_negative_depth_is_rejected():
    with pytest.raises(ValueError):
        pool_at_depth([["a"]], -1)


def test_new_at_each_depth_lists_only_new_records_in_run_order():
    runs = [["a", "b", "c"], ["b", "a", "e"], ["d"]]
    # depth 1: a, b, d; depth 2: b and a already pooled; depth 3: c, e
    assert new_at_each_depth(runs) == [["a", "b", "d"], [], ["c", "e"]]
    assert new_at_each_depth(runs, 1) == [["a", "b", "d"]]
    assert new_at_each_depth(runs, 4)[3] == []


def test_empty_runs():
    assert new_at_each_depth([]) == []
    assert new_at_each_depth([[], []]) == []
    layers = new_at_each_depth([[], []], 3)
    assert layers == [[], [], []]
    assert pool_sizes(layers).tolist() == [0, 0, 0]
    assert nrels_curve(layers, {"a"}).tolist() == [0, 0, 0]


def test_pool_sizes_and_nrels():
    runs = [["a", "b", "c", "d"], ["b", "e", "f", "g"]]
    layers = new_at_each_depth(runs)
    # P(1)={a,b}, P(2)={a,b,e}, P(3)=+{c,f}, P(4)=+{d,g}
    assert pool_sizes(layers).tolist() == [2, 3, 5, 7]
    assert nrels_curve(layers, {"a", "e", "g"}).tolist() == [1, 2, 2, 3]
    assert nrels_curve(layers, set()).tolist() == [0, 0, 0, 0]  # no relevant
    everything = {"a", "b", "c", "d", "e", "f", "g"}
    assert nrels_curve(layers, everything).tolist() == [2, 3, 5, 7]  # all relevant


# -------------------------------------------------------------------- smoothing


def test_smoothed_nrels_hand_computed():
    # s(i) = mean(nrels(i..i+2)) for w = 3 over nrels = 1, 2, 4, 4, 7
    assert smoothed_nrels([1, 2, 4, 4, 7], 3).tolist() == pytest.approx([7 / 3, 10 / 3, 5])
    assert smoothed_nrels([1, 2], 3).size == 0


def test_smoothed_rate_hand_computed():
    # w = 2: s = 1.5, 3, 4, 5.5 ; rate = 1.5, 1, 1.5 ; W = 2: ŕ = 1.25, 1.25
    assert smoothed_rate([1, 2, 4, 4, 7], 2, 2).tolist() == pytest.approx([1.25, 1.25])
    assert smoothed_rate([1, 2, 4], 2, 2).size == 0


def test_smoothed_rate_rejects_fractional_counts():
    with pytest.raises(ValueError):
        smoothed_rate([1.5, 2, 3], 1, 1)


def test_smoothing_of_the_constructed_curve_aggressive_windows():
    # w = 6: S(i) = Σ nrels(i..i+5): S(4)=67, S(5)=73, S(6)=77, S(7)=80, S(8)=82, S(9)=83
    s = smoothed_nrels(CURVE, 6)
    assert s[3:9].tolist() == pytest.approx([67 / 6, 73 / 6, 77 / 6, 80 / 6, 82 / 6, 83 / 6])
    # rate(4..8) = 1, 2/3, 1/2, 1/3, 1/6 ; W = 2: ŕ(4)=5/6, ŕ(5)=7/12, ŕ(6)=5/12, ŕ(7)=1/4
    r = smoothed_rate(CURVE, 6, 2)
    assert r[:7].tolist() == pytest.approx(
        [19 / 12, 16 / 12, 13 / 12, 10 / 12, 7 / 12, 5 / 12, 3 / 12]
    )


# --------------------------------------------------------------- critical depth


def test_aggressive_preset_on_constructed_curve():
    # (w, W, t, l) = (6, 2, 0.80, 3).  ŕ(4) = 10/12 = 0.833 >= 0.8 ;
    # ŕ(5) = 7/12 = 0.583, ŕ(6) = 5/12 = 0.417, ŕ(7) = 3/12 = 0.25, all < 0.8  -> k_cr = 5.
    # ŕ(7) needs nrels up to 7 + W + w - 1 = 14, so k_cr is known once depth 14 is judged.
    result = critical_depth(CURVE, AGGRESSIVE)
    assert (result.k_cr, result.depth_needed) == (5, 14)
    assert critical_depth(CURVE[:14], AGGRESSIVE).k_cr == 5


def test_aggressive_preset_not_yet_determined():
    # 13 depths: ŕ(1..6) known; ŕ(5), ŕ(6) < 0.8 is a run of 2 < l = 3 -> undetermined,
    # the candidate i = 5 can be decided at depth 5 + l + w + W - 2 = 14.
    result = critical_depth(CURVE[:13], AGGRESSIVE)
    assert (result.k_cr, result.depth_needed, result.judged_depth) == (None, 14, 13)


def test_relaxed_preset_on_constructed_curve():
    # (w, W, t, l) = (14, 6, 0.05, 6).  ŕ(i) = (s(i+6) - s(i)) / 6 with s over 14 depths:
    #   s(6) = 189/14, s(12) = 196/14 -> ŕ(6) = (7/14) / 6 = 7/84 = 0.083 >= 0.05
    #   s(7) = 192/14, s(13) = 196/14 -> ŕ(7) = (4/14) / 6 = 4/84 = 0.048 < 0.05
    #   ŕ(8) = 2/84, ŕ(9) = 1/84, ŕ(10..12) = 0            -> six in a row from 7: k_cr = 7.
    # Deciding it needs depth 7 + 6 + 14 + 6 - 2 = 31.
    assert smoothed_nrels(CURVE, 14)[[5, 6, 11, 12]].tolist() == pytest.approx(
        [189 / 14, 192 / 14, 196 / 14, 196 / 14]
    )
    assert smoothed_rate(CURVE, 14, 6)[5:9].tolist() == pytest.approx(
        [7 / 84, 4 / 84, 2 / 84, 1 / 84]
    )
    result = critical_depth(CURVE, RELAXED)
    assert (result.k_cr, result.depth_needed) == (7, 31)


def test_relaxed_preset_not_yet_determined():
    # 30 depths: ŕ(1..11) known; ŕ(7..11) < 0.05 is a run of 5 < 6.
    result = critical_depth(CURVE[:30], RELAXED)
    assert (result.k_cr, result.depth_needed) == (None, 31)


def test_critical_depth_with_nothing_judged():
    result = critical_depth([], AGGRESSIVE)
    # first candidate i = 1 needs depth 1 + 3 + 6 + 2 - 2 = 10
    assert (result.k_cr, result.depth_needed, result.judged_depth) == (None, 10, 0)


def test_critical_depth_no_relevant_stops_at_depth_one():
    # All-zero nrels: ŕ ≡ 0 < t, so k_cr = 1 (this is what the low-yield rule guards).
    assert critical_depth([0] * 10, AGGRESSIVE).k_cr == 1


def test_critical_depth_all_relevant_never_stops():
    # Two fresh relevant records per depth: ŕ ≡ 2 >= 0.8 -> never determined; the
    # trailing run is empty, so the next candidate is the first unknown ŕ: i = 33 + 1 = 34.
    result = critical_depth([2 * k for k in range(1, 41)], AGGRESSIVE)
    assert result.k_cr is None
    assert result.depth_needed == 34 + AGGRESSIVE.span


def test_presets_and_grid():
    assert PRESETS == {
        "aggressive": StopParams(6, 2, 0.80, 3),
        "relaxed": StopParams(14, 6, 0.05, 6),
    }
    grid = parameter_grid()
    assert len(grid) == len(set(grid)) == 500
    assert AGGRESSIVE in grid and RELAXED in grid
    assert AGGRESSIVE.label() == "w=6, W=2, t=0.8, l=3"


def test_invalid_parameters():
    with pytest.raises(ValueError):
        StopParams(0, 2, 0.8, 3)
    with pytest.raises(ValueError):
        StopParams(6, 2, math.nan, 3)


# -------------------------------------------------------------------- low yield

# Two disjoint runs: |P(k)| = 2k, so |P(20)| = 40.
SIZES = [2 * k for k in range(1, 101)]


def _plateau(at_20: int) -> list[int]:
    """nrels = 1, 2, … rising by one per depth up to ``at_20``, flat afterwards."""
    return [min(k, at_20) for k in range(1, 101)]


def test_is_low_yield_boundary():
    assert is_low_yield(_plateau(4), SIZES) is True  # 4 / 40 = 0.1 <= 0.1
    assert is_low_yield(_plateau(5), SIZES) is False  # 5 / 40 = 0.125
    assert is_low_yield(_plateau(4)[:19], SIZES) is None  # depth 20 not judged yet
    assert is_low_yield([0] * 20, [0] * 20) is True  # empty pool


def test_low_yield_topic_is_pooled_to_full_depth():
    # nrels = 1,2,3,4,4,4,…: S(1..5) = 18, 21, 23, 24, 24, so ŕ(1) = (23-18)/12 = 0.417,
    # ŕ(2) = (24-21)/12 = 0.25, ŕ(3) = (24-23)/12 = 0.083: aggressive k_cr = 1,
    # but nrels(20)/|P(20)| = 4/40 <= 0.1 -> pool to depth 100.
    assert smoothed_rate(_plateau(4), 6, 2)[:3].tolist() == pytest.approx([5 / 12, 3 / 12, 1 / 12])
    assert critical_depth(_plateau(4), AGGRESSIVE).k_cr == 1
    decision = pooling_decision(_plateau(4)[:20], SIZES[:20], AGGRESSIVE)
    assert (decision.stop_depth, decision.reason, decision.low_yield) == (100, "low yield", True)
    assert decision.depth_needed == 100


def test_high_yield_topic_stops_at_k_cr_once_depth_20_is_judged():
    # nrels = 1..5 then flat: ŕ(1..3) = 7/12, 5/12, 3/12 < 0.8 -> k_cr = 1, known at depth 10.
    nrels = _plateau(5)
    early = pooling_decision(nrels[:12], SIZES[:12], AGGRESSIVE)
    # k_cr = 1 is known at depth 10, the low-yield check needs depth 20
    assert (early.stop_depth, early.k_cr, early.low_yield) == (None, 1, None)
    assert (early.reason, early.depth_needed) == ("undetermined", 20)
    final = pooling_decision(nrels[:20], SIZES[:20], AGGRESSIVE)
    assert (final.stop_depth, final.reason, final.low_yield) == (1, "critical depth", False)
    assert final.depth_needed == 20
    no_rule = pooling_decision(nrels[:12], SIZES[:12], AGGRESSIVE, low_yield=None)
    assert (no_rule.stop_depth, no_rule.depth_needed) == (1, 10)


def test_without_k_cr_pooling_ends_at_full_depth():
    # ŕ ≡ 2: no k_cr. After 25 depths ŕ(1..18) are known; next candidate 19 needs 19 + 9 = 28.
    steep = [2 * k for k in range(1, 31)]
    sizes = [2 * k for k in range(1, 31)]
    decision = pooling_decision(steep, sizes, AGGRESSIVE, full_depth=30)
    assert (decision.stop_depth, decision.reason) == (30, "full depth")
    pending = pooling_decision(steep[:25], sizes[:25], AGGRESSIVE, full_depth=30)
    assert (pending.stop_depth, pending.reason, pending.depth_needed) == (None, "undetermined", 28)


def test_low_yield_depth_beyond_full_depth_is_rejected():
    with pytest.raises(ValueError):
        pooling_decision([1], [1], AGGRESSIVE, full_depth=10, low_yield=LowYieldRule(20))


# ------------------------------------------------------------------- properties

STEP = StopParams(1, 1, 0.5, 1)  # w = W = l = 1, t = 0.5
doc_ids = st.sampled_from([f"d{i}" for i in range(30)])
run_lists = st.lists(st.lists(doc_ids, max_size=25), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(runs=run_lists, relevant=st.sets(doc_ids), k=st.integers(0, 25))
def test_pools_nest_and_nrels_never_decreases(runs, relevant, k):
    assert pool_at_depth(runs, k) <= pool_at_depth(runs, k + 1)
    layers = new_at_each_depth(runs, 26)
    assert set().union(*layers[:k]) == pool_at_depth(runs, k)
    assert np.all(np.diff(nrels_curve(layers, relevant)) >= 0)


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(st.integers(0, 3), min_size=0, max_size=45),
    params=st.sampled_from([AGGRESSIVE, RELAXED, STEP, StopParams(3, 2, 0.4, 2)]),
)
def test_k_cr_is_only_given_once_its_windows_are_judged(steps, params):
    """Judging more depths never changes a k_cr already given, and none comes early."""
    nrels = np.cumsum(steps, dtype=np.int64)
    final = critical_depth(nrels, params)
    for d in range(nrels.size + 1):
        prefix = critical_depth(nrels[:d], params)
        if prefix.k_cr is None:
            assert prefix.depth_needed > d  # it cannot be decided with what is judged
            assert final.k_cr is None or final.depth_needed > d
        else:
            assert prefix.k_cr == final.k_cr and prefix.depth_needed <= d
            assert prefix.depth_needed == final.depth_needed == prefix.k_cr + params.span
