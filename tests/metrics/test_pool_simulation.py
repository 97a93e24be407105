"""Tests for metrics.pool_simulation (SPEC §4, thesis §8.4–8.7). Depths are 1-based."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from litqeval_gui.metrics.pool_simulation import (
    combine,
    pareto_frontier,
    simulate,
    simulate_grid,
    simulate_pools,
    topic_pools,
)
from litqeval_gui.metrics.pooling import (
    AGGRESSIVE,
    RELAXED,
    LowYieldRule,
    StopParams,
)

# ------------------------------------------------------------------- simulation

RUNS = {
    "r1": {"A": ["a", "b", "c", "d"], "B": ["x", "y"]},
    "r2": {"A": ["b", "e", "f", "g"], "B": ["x", "z", "w"]},
}
QRELS = {"A": {"a", "e", "g"}, "B": {"y"}}
# w = W = l = 1, t = 0.5: ŕ(i) = nrels(i+1) - nrels(i); k_cr = first depth with no new
# relevant record at the next depth; span = 1, so deciding k_cr needs depth k_cr + 1.
STEP = StopParams(1, 1, 0.5, 1)


def test_simulation_hand_computed():
    # Topic A: |P(k)| = 2, 3, 5, 7 ; nrels = 1, 2, 2, 3 -> ŕ = 1, 0 -> k_cr = 2.
    # Topic B: P(1) = {x}, P(2) = {x, y, z}, P(3) = +{w}; |P| = 1, 3, 4, 4 ; nrels = 0, 1, 1, 1
    #          -> ŕ = 1, 0 -> k_cr = 2.
    # E = (3 + 3) / (7 + 4) = 6/11 ; R = (2 + 1) / (3 + 1) = 3/4 ;
    # judged interactively to depth 3: (5 + 4) / 11.
    result = simulate(RUNS, QRELS, STEP, full_depth=4, low_yield=None)
    assert [o.stop_depth for o in result.topics] == [2, 2]
    assert result.effort == pytest.approx(6 / 11)
    assert result.recall_ratio == pytest.approx(3 / 4)
    assert result.effort_interactive == pytest.approx(9 / 11)
    # MAP full:    r1 = (AP_A 1/3 + AP_B 1/2) / 2 = 5/12 ; r2 = (1/3 + 0) / 2 = 1/6
    # MAP reduced: qrels A = {a, e}: r1 = (1/2 + 1/2) / 2 = 1/2 ; r2 = (1/4 + 0) / 2 = 1/8
    assert result.map_full == pytest.approx({"r1": 5 / 12, "r2": 1 / 6})
    assert result.map_reduced == pytest.approx({"r1": 1 / 2, "r2": 1 / 8})
    assert result.tau == pytest.approx(1.0)
    assert result.tau_ap == pytest.approx(1.0)
    assert result.rms == pytest.approx(math.sqrt(((1 / 12) ** 2 + (1 / 24) ** 2) / 2))


def test_simulation_by_recall_at_1000_hand_computed():
    # thesis Table 8.6. Full qrels A = {a, e, g}, B = {y}; stop at depth 2 for both topics:
    # reduced qrels A = {a, e}, B = {y}.
    # full:    r1 = (1/3 + 1) / 2 = 2/3 ; r2 = (2/3 + 0) / 2 = 1/3
    # reduced: r1 = (1/2 + 1) / 2 = 3/4 ; r2 = (1/2 + 0) / 2 = 1/4
    result = simulate(RUNS, QRELS, STEP, full_depth=4, low_yield=None, measure="recall@1000")
    assert result.measure == "recall@1000"
    assert result.score_full == pytest.approx({"r1": 2 / 3, "r2": 1 / 3})
    assert result.score_reduced == pytest.approx({"r1": 3 / 4, "r2": 1 / 4})
    assert (result.tau, result.tau_ap) == pytest.approx((1.0, 1.0))
    assert result.rms == pytest.approx(1 / 12)
    assert result.effort == pytest.approx(6 / 11)  # the pools do not depend on the measure
    with pytest.raises(ValueError):
        simulate(RUNS, QRELS, STEP, full_depth=4, measure="P@10")


def test_simulation_full_depth_pool_gives_e_and_r_one():
    # t = 0 can never be undercut (ŕ >= 0), so every topic is pooled to full depth.
    result = simulate(RUNS, QRELS, StopParams(1, 1, 0.0, 1), full_depth=4, low_yield=None)
    assert (result.effort, result.recall_ratio) == (1.0, 1.0)
    assert result.rms == 0.0


def test_simulation_without_relevant_records_is_undefined():
    # nrels ≡ 0 -> ŕ(1) = 0 < 0.5 -> k_cr = 1 for both topics: E = (2 + 1) / (7 + 4).
    result = simulate(RUNS, {}, STEP, full_depth=4, low_yield=None)
    assert math.isnan(result.recall_ratio) and math.isnan(result.tau)
    assert result.effort == pytest.approx(3 / 11)


def test_simulation_grid_default_is_the_thesis_grid():
    results = simulate_grid(RUNS, QRELS, full_depth=20, low_yield=LowYieldRule(depth=4))
    assert len(results) == 500
    assert all(0 <= r.effort <= 1 and 0 <= r.recall_ratio <= 1 for r in results)


def test_simulation_ranking_agrees_with_scipy_kendall():
    rng = np.random.default_rng(7)
    docs = [f"d{i}" for i in range(40)]
    runs = {
        f"run{r}": {t: list(rng.permutation(docs)[:25]) for t in ("T1", "T2", "T3")}
        for r in range(6)
    }
    qrels = {t: set(rng.choice(docs, 8, replace=False)) for t in ("T1", "T2", "T3")}
    result = simulate(runs, qrels, AGGRESSIVE, full_depth=25, low_yield=None)
    full = [result.map_full[n] for n in runs]
    reduced = [result.map_reduced[n] for n in runs]
    assert result.tau == pytest.approx(kendalltau(full, reduced).statistic)
    assert result.rms == pytest.approx(np.sqrt(np.mean((np.array(full) - reduced) ** 2)))


doc_ids = st.sampled_from([f"d{i}" for i in range(30)])
run_lists = st.lists(st.lists(doc_ids, max_size=25), min_size=1, max_size=4)


@settings(max_examples=25, deadline=None)
@given(
    topics=st.lists(st.tuples(run_lists, st.sets(doc_ids)), min_size=1, max_size=3),
    params=st.sampled_from([AGGRESSIVE, RELAXED, STEP]),
)
def test_effort_and_recall_ratio_within_unit_interval(topics, params):
    runs = {
        f"r{i}": {
            f"t{t}": (lists[i] if i < len(lists) else []) for t, (lists, _) in enumerate(topics)
        }
        for i in range(4)
    }
    qrels = {f"t{t}": rel for t, (_, rel) in enumerate(topics)}
    result = simulate(runs, qrels, params, full_depth=25, low_yield=LowYieldRule(depth=5))
    judged = sum(o.judged_full for o in result.topics)
    found = sum(o.nrels_full for o in result.topics)
    assert (0 <= result.effort <= 1) if judged else math.isnan(result.effort)
    assert (0 <= result.recall_ratio <= 1) if found else math.isnan(result.recall_ratio)


# ------------------------------------------------------------------- grouping


def test_topic_groups_add_up_to_the_whole_collection():
    """simulate_pools over topic groups, combined, gives the single-group result."""
    rng = np.random.default_rng(3)
    docs = [f"d{i}" for i in range(60)]
    topics = [f"T{t}" for t in range(5)]
    runs = {f"run{r}": {t: list(rng.permutation(docs)[:40]) for t in topics} for r in range(5)}
    qrels = {t: set(rng.choice(docs, 9, replace=False)) for t in topics}
    grid = [AGGRESSIVE, RELAXED, StopParams(8, 3, 0.2, 4)]
    whole = simulate_grid(runs, qrels, grid, full_depth=30, low_yield=LowYieldRule(depth=5))
    pools = topic_pools(runs, qrels, 30)
    parts = [simulate_pools(pools[i:i + 2], 5, grid, 30, LowYieldRule(depth=5))
             for i in range(0, 5, 2)]
    grouped = combine(parts, list(runs), grid)
    for a, b in zip(whole, grouped, strict=True):
        assert [o.stop_depth for o in a.topics] == [o.stop_depth for o in b.topics]
        assert (a.effort, a.recall_ratio) == (b.effort, b.recall_ratio)
        assert a.score_reduced == pytest.approx(b.score_reduced, abs=1e-15)
        assert a.tau == pytest.approx(b.tau) and a.rms == pytest.approx(b.rms, abs=1e-15)


def test_pareto_frontier_hand_case():
    # effort:       0.2  0.5  0.5  0.8  0.9  nan
    # reliability:  0.7  0.9  0.8  0.9  1.0  1.0
    # 0.5/0.8 is beaten by 0.5/0.9; 0.8/0.9 by 0.5/0.9; NaN never counts.
    frontier = pareto_frontier([0.2, 0.5, 0.5, 0.8, 0.9, math.nan],
                               [0.7, 0.9, 0.8, 0.9, 1.0, 1.0])
    assert frontier.tolist() == [True, True, False, False, True, False]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_aggressive_preset_never_judges_more_than_relaxed(seed):
    """(6, 2, 0.80, 3) stops each topic no later than (14, 6, 0.05, 6) (thesis §8.5).

    It must: nrels never decreases, so nrels(j+2) − nrels(j) <= nrels(j+6) − nrels(j), and
    relaxed ŕ(i) < 0.05 (a 14-window sum grows by < 4.2 over 6 depths) gives aggressive
    ŕ(i) < 0.8 (a 6-window sum grows by < 9.6 over 2 depths) at the same i.
    """
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(200)]
    topics = [f"T{t}" for t in range(3)]
    runs = {f"r{r}": {t: list(rng.permutation(docs)[:60]) for t in topics} for r in range(4)}
    qrels = {t: set(rng.choice(docs, int(rng.integers(0, 80)), replace=False)) for t in topics}
    aggressive, relaxed = simulate_grid(runs, qrels, [AGGRESSIVE, RELAXED], full_depth=60)
    for a, r in zip(aggressive.topics, relaxed.topics, strict=True):
        assert a.judged_reduced <= r.judged_reduced
    assert aggressive.effort <= relaxed.effort
