"""Incremental pooling simulated with complete judgements (SPEC §4; thesis §8.4–8.7).

Per topic the pool is built from all runs to the full depth D and nrels(k) is read off the
complete qrels; :func:`~litqeval_gui.metrics.pooling.pooling_decision` gives the stop depth
of every parameter setting. Reduced qrels = relevant records in P(stop); full qrels =
relevant records in P(D). Every run is scored by MAP (or mean recall@1000, Table 8.6) over
the topics with a relevant record in the full qrels, under both qrels.

The work splits by topic: :func:`topic_pool` keeps what a topic's pool is, whatever the
setting (pool sizes, nrels, and for each relevant record a run retrieved: the run, its
rank there and the depth at which it entered the pool); :func:`simulate_pools` scores a
group of topics under every setting, computing each run's score once per distinct stop
depth; :func:`combine` adds the groups up, in the order given, into one
:class:`SimulationResult` per setting. Runs are de-duplicated (first occurrence kept).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from litqeval_gui.metrics.agreement import kendall_tau_b, rms_error, tau_ap
from litqeval_gui.metrics.pooling import (
    DEFAULT_FULL_DEPTH,
    DocId,
    LowYieldRule,
    PoolingDecision,
    Run,
    StopParams,
    new_at_each_depth,
    nrels_curve,
    parameter_grid,
    pool_sizes,
    pooling_decision,
)
from litqeval_gui.metrics.ranking import average_precision_from_ranks, recall_from_ranks

DEFAULT_LOW_YIELD = LowYieldRule()  # nrels(20)/|P(20)| <= 0.1: pool to the full depth
Measure = Literal["map", "recall@1000"]
MEASURES: tuple[Measure, ...] = ("map", "recall@1000")
RunSet = Mapping[str, Mapping[str, Run]]
"""run name -> topic -> ranked record ids."""
CompleteQrels = Mapping[str, Collection[DocId]]
"""topic -> ids of its relevant records (complete judgements: everything else is not)."""


@dataclass(frozen=True)
class TopicOutcome:
    """One topic under one parameter setting: the decision and the pool sizes it implies."""

    topic: str
    decision: PoolingDecision
    stop_depth: int
    judged_reduced: int
    judged_full: int
    judged_interactive: int
    nrels_reduced: int
    nrels_full: int


@dataclass(frozen=True)
class SimulationResult:
    """Reduced vs full-depth pool for one parameter setting (thesis §8.5, Tables 8.2–8.5).

    ``effort`` E = Σ|P_t(stop_t)| / Σ|P_t(full)|; ``recall_ratio`` R = Σ nrels_t(stop_t) /
    Σ nrels_t(full) (sums over topics; NaN when the denominator is 0).
    ``effort_interactive`` replaces stop_t by the depth that had to be judged to reach the
    decision. ``tau``/``tau_ap`` compare the run rankings by ``measure`` (MAP or
    recall@1000; full qrels = reference), ``rms`` is the RMS error between those values;
    ``score_full``/``score_reduced`` hold them per run.
    """

    params: StopParams
    effort: float
    recall_ratio: float
    effort_interactive: float
    tau: float
    tau_ap: float
    rms: float
    score_full: Mapping[str, float]
    score_reduced: Mapping[str, float]
    topics: tuple[TopicOutcome, ...]
    measure: Measure = "map"

    @property
    def map_full(self) -> Mapping[str, float]:
        """Old name of ``score_full`` (MAP per run when ``measure`` is "map")."""
        return self.score_full

    @property
    def map_reduced(self) -> Mapping[str, float]:
        """Old name of ``score_reduced``."""
        return self.score_reduced


@dataclass(frozen=True)
class TopicPool:
    """A topic's full-depth pool, independent of the setting.

    ``sizes``/``nrels``: |P(k)| and nrels(k) for k = 1..D. ``hit_run``, ``hit_rank``,
    ``hit_depth``: for every relevant record of P(D) that a run retrieves, the run's index,
    the record's 1-based rank in that run and the depth at which it entered the pool;
    ordered by run, then rank.
    """

    topic: str
    sizes: np.ndarray
    nrels: np.ndarray
    hit_run: np.ndarray
    hit_rank: np.ndarray
    hit_depth: np.ndarray

    @property
    def scored(self) -> bool:
        """Whether the topic counts in the scores: a relevant record in the full qrels."""
        return bool(self.nrels.size and self.nrels[-1] > 0)


@dataclass(frozen=True)
class GridPartial:
    """:func:`simulate_pools` for a group of topics: ``outcomes[s]`` per setting s (topics in
    the order given), the sums over the group's scored topics of every run's score under
    the reduced qrels (``reduced_sums[s, run]``) and the full qrels (``full_sums[run]``),
    and how many topics were scored."""

    outcomes: tuple[tuple[TopicOutcome, ...], ...]
    reduced_sums: np.ndarray
    full_sums: np.ndarray
    n_scored: int


def topic_pool(
    topic: str, lists: Sequence[Run], relevant: Collection[DocId], full_depth: int
) -> TopicPool:
    """The pool of one topic to ``full_depth`` from ``lists`` (one per run, in run order; an
    empty list for a run without the topic)."""
    layers = new_at_each_depth(lists, full_depth)
    relevant = frozenset(relevant)
    entered = {doc: k for k, layer in enumerate(layers, 1) for doc in layer if doc in relevant}
    runs, ranks, depths = [], [], []
    for index, run in enumerate(lists):
        for rank, doc in enumerate(dict.fromkeys(run), 1):
            depth = entered.get(doc)
            if depth is not None:
                runs.append(index)
                ranks.append(rank)
                depths.append(depth)
    return TopicPool(topic, pool_sizes(layers), nrels_curve(layers, relevant),
                     np.array(runs, dtype=np.int64), np.array(ranks, dtype=np.int64),
                     np.array(depths, dtype=np.int64))


def topic_pools(runs: RunSet, qrels: CompleteQrels, full_depth: int) -> list[TopicPool]:
    """:func:`topic_pool` for every topic of ``runs`` or ``qrels``, sorted by topic."""
    topics = sorted({t for per_topic in runs.values() for t in per_topic} | set(qrels))
    return [topic_pool(t, [per_topic.get(t, ()) for per_topic in runs.values()],
                       qrels.get(t, ()), full_depth) for t in topics]


def scores_at_depths(pool: TopicPool, depths: np.ndarray, n_runs: int,
                     measure: Measure) -> np.ndarray:
    """Score of every run (columns) under the qrels of P(d) for each d of ``depths`` (rows)."""
    rows, cols = np.nonzero(pool.hit_depth[None, :] <= depths[:, None])
    groups = rows * n_runs + pool.hit_run[cols]  # ascending: row-major, hits by run then rank
    n_relevant = np.repeat(pool.nrels[depths - 1], n_runs)
    if measure == "map":
        scores = average_precision_from_ranks(pool.hit_rank[cols], groups, n_relevant)
    else:
        scores = recall_from_ranks(pool.hit_rank[cols], groups, n_relevant, 1000)
    return scores.reshape(depths.size, n_runs)


def simulate_pools(
    pools: Sequence[TopicPool],
    n_runs: int,
    grid: Sequence[StopParams],
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = DEFAULT_LOW_YIELD,
    measure: Measure = "map",
) -> GridPartial:
    """Decide every topic of ``pools`` under every setting of ``grid`` and sum the scores."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    outcomes = [[_topic_outcome(pool, params, full_depth, low_yield) for pool in pools]
                for params in grid]
    reduced = np.zeros((len(grid), n_runs))
    full = np.zeros(n_runs)
    n_scored = 0
    for t, pool in enumerate(pools):
        if not pool.scored:
            continue
        stops = np.array([per_setting[t].stop_depth for per_setting in outcomes], dtype=np.int64)
        depths, where = np.unique(np.append(stops, full_depth), return_inverse=True)
        table = scores_at_depths(pool, depths, n_runs, measure)
        reduced += table[where[:-1]]
        full += table[where[-1]]
        n_scored += 1
    return GridPartial(tuple(map(tuple, outcomes)), reduced, full, n_scored)


def combine(
    partials: Sequence[GridPartial],
    run_names: Sequence[str],
    grid: Sequence[StopParams],
    measure: Measure = "map",
) -> list[SimulationResult]:
    """One :class:`SimulationResult` per setting from the groups' partial results, added up
    in the order given (so the same grouping always gives the same floats)."""
    n_scored = sum(p.n_scored for p in partials)
    reduced = np.zeros((len(grid), len(run_names)))
    full = np.zeros(len(run_names))
    for partial in partials:
        reduced += partial.reduced_sums
        full += partial.full_sums
    with np.errstate(invalid="ignore", divide="ignore"):
        reduced, full = reduced / n_scored, full / n_scored
    score_full = dict(zip(run_names, full.tolist(), strict=True))
    results = []
    for s, params in enumerate(grid):
        topics = tuple(o for partial in partials for o in partial.outcomes[s])
        tau, tau_ap_value, rms = _compare(full.tolist(), reduced[s].tolist())
        results.append(
            SimulationResult(
                params=params,
                effort=_ratio(*_totals(topics, "judged_reduced", "judged_full")),
                recall_ratio=_ratio(*_totals(topics, "nrels_reduced", "nrels_full")),
                effort_interactive=_ratio(*_totals(topics, "judged_interactive", "judged_full")),
                tau=tau,
                tau_ap=tau_ap_value,
                rms=rms,
                score_full=score_full,
                score_reduced=dict(zip(run_names, reduced[s].tolist(), strict=True)),
                topics=topics,
                measure=measure,
            )
        )
    return results


def simulate_grid(
    runs: RunSet,
    qrels: CompleteQrels,
    grid: Sequence[StopParams] | None = None,
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = DEFAULT_LOW_YIELD,
    measure: Measure = "map",
) -> list[SimulationResult]:
    """Simulate incremental pooling with complete judgements for every setting of ``grid``.

    Scores use ``ranking``'s MAP (or recall@1000) with the same topic set under both qrels:
    the topics with a relevant record in the full qrels; a run without a topic scores 0
    there. ``grid`` defaults to :func:`~litqeval_gui.metrics.pooling.parameter_grid`
    (the thesis' 500 settings).
    """
    settings = parameter_grid() if grid is None else tuple(grid)
    pools = topic_pools(runs, qrels, full_depth)
    partial = simulate_pools(pools, len(runs), settings, full_depth, low_yield, measure)
    return combine([partial], list(runs), settings, measure)


def simulate(
    runs: RunSet,
    qrels: CompleteQrels,
    params: StopParams,
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = DEFAULT_LOW_YIELD,
    measure: Measure = "map",
) -> SimulationResult:
    """:func:`simulate_grid` for a single parameter setting."""
    return simulate_grid(runs, qrels, (params,), full_depth, low_yield, measure)[0]


def pareto_frontier(effort: Sequence[float], reliability: Sequence[float]) -> np.ndarray:
    """Settings no other setting beats: none has effort <= and reliability >= with one of
    them strict (lower effort, higher τ or lower −RMS is better). NaN is never on it."""
    e = np.asarray(effort, dtype=float)
    r = np.asarray(reliability, dtype=float)
    valid = ~(np.isnan(e) | np.isnan(r))
    no_worse = (e[:, None] <= e[None, :]) & (r[:, None] >= r[None, :])  # [other, this]
    better = no_worse & ((e[:, None] < e[None, :]) | (r[:, None] > r[None, :]))
    return valid & ~np.any(better & valid[:, None], axis=0)


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def _compare(reference: Sequence[float], estimate: Sequence[float]) -> tuple[float, float, float]:
    """(Kendall τ-b, τ_AP, RMS error) of the run scores; NaN when no topic could be scored."""
    if not reference or math.isnan(reference[0]):
        return math.nan, math.nan, math.nan
    return (
        kendall_tau_b(reference, estimate),
        tau_ap(reference, estimate),
        rms_error(reference, estimate),
    )


def _totals(outcomes: Sequence[TopicOutcome], num: str, den: str) -> tuple[int, int]:
    return sum(getattr(o, num) for o in outcomes), sum(getattr(o, den) for o in outcomes)


def _topic_outcome(
    pool: TopicPool, params: StopParams, full_depth: int, low_yield: LowYieldRule | None
) -> TopicOutcome:
    decision = pooling_decision(pool.nrels, pool.sizes, params, full_depth, low_yield)
    stop = decision.stop_depth
    assert stop is not None  # all full_depth depths are judged, so the decision is final
    return TopicOutcome(
        topic=pool.topic,
        decision=decision,
        stop_depth=stop,
        judged_reduced=int(pool.sizes[stop - 1]),
        judged_full=int(pool.sizes[full_depth - 1]),
        judged_interactive=int(pool.sizes[decision.depth_needed - 1]),
        nrels_reduced=int(pool.nrels[stop - 1]),
        nrels_full=int(pool.nrels[full_depth - 1]),
    )
