"""Incremental variable-depth pooling with a stop criterion (SPEC §4; thesis ch. 8).

Source: seed ``003_6cce0722108f84f7.txt``, chapter 8 (sections 8.4 and 8.7).

Conventions
-----------
* **Depths are 1-based.** Depth ``k`` means ranks ``1..k`` of every run. Any array
  indexed by depth (``nrels``, pool sizes, ``s``, ``rate``, ``ŕ``) holds the value for
  depth ``k`` at Python index ``k - 1``.
* A *run* is a ranked list of record ids (best first). ``P(k)`` is the set of ids at
  rank ``<= k`` in any run; runs may have different lengths and share ids.
* ``nrels(k)`` = number of relevant records in ``P(k)``; records never judged relevant
  count as not relevant.

The two-stage smoothing of the thesis, with a forward window ``w`` over nrels and a
window ``W`` over the rate (SPEC §4 defines the rate on the smoothed curve):

    s(i)  = mean(nrels(i .. i+w-1))
    rate(i) = s(i+1) - s(i)
    ŕ(i)  = mean(rate(i .. i+W-1)) = (s(i+W) - s(i)) / W        (telescoping sum)

``ŕ`` is evaluated from integer window sums with a single division, so values such as
0.4 compare exactly against the thresholds of the grid.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Literal

import numpy as np

from litqeval_gui.metrics.agreement import kendall_tau_b, rms_error, tau_ap
from litqeval_gui.metrics.ranking import mean_average_precision, mean_recall_at_k

DocId = Hashable
Run = Sequence[DocId]

DEFAULT_FULL_DEPTH = 100
Measure = Literal["map", "recall@1000"]
MEASURES: tuple[Measure, ...] = ("map", "recall@1000")
GRID_WINDOWS = (6, 8, 10, 12, 14)
GRID_RATE_WINDOWS = (2, 3, 4, 5, 6)
GRID_THRESHOLDS = (0.05, 0.1, 0.2, 0.4, 0.8)
GRID_RUN_LENGTHS = (3, 4, 5, 6)


@dataclass(frozen=True)
class StopParams:
    """Stop-criterion parameters (w, W, t, l) of thesis §8.4.

    ``window`` = w (moving-average window over nrels), ``rate_window`` = W (window over
    the rate), ``threshold`` = t (smoothed rate must stay below it), ``run_length`` = l
    (for that many consecutive depths).
    """

    window: int
    rate_window: int
    threshold: float
    run_length: int

    def __post_init__(self) -> None:
        for name in ("window", "rate_window", "run_length"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1")
        if not math.isfinite(self.threshold):
            raise ValueError("threshold must be finite")

    @property
    def span(self) -> int:
        """Extra depths needed beyond candidate i to decide it: i + l + w + W - 2."""
        return self.run_length + self.window + self.rate_window - 2

    def label(self) -> str:
        return f"w={self.window}, W={self.rate_window}, t={self.threshold:g}, l={self.run_length}"


AGGRESSIVE = StopParams(6, 2, 0.80, 3)
RELAXED = StopParams(14, 6, 0.05, 6)
PRESETS: Mapping[str, StopParams] = {"aggressive": AGGRESSIVE, "relaxed": RELAXED}


def parameter_grid(
    windows: Sequence[int] = GRID_WINDOWS,
    rate_windows: Sequence[int] = GRID_RATE_WINDOWS,
    thresholds: Sequence[float] = GRID_THRESHOLDS,
    run_lengths: Sequence[int] = GRID_RUN_LENGTHS,
) -> tuple[StopParams, ...]:
    """Cartesian grid of stop parameters; the defaults are the thesis' 5×5×5×4 = 500."""
    return tuple(
        StopParams(w, big_w, t, run)
        for w, big_w, t, run in product(windows, rate_windows, thresholds, run_lengths)
    )


# --------------------------------------------------------------------------- pools


def pool_at_depth(runs: Sequence[Run], k: int) -> set[DocId]:
    """P(k) = {doc at rank <= k in any run}; P(0) is empty."""
    if k < 0:
        raise ValueError("depth must be >= 0")
    return {doc for run in runs for doc in run[:k]}


def new_at_each_depth(runs: Sequence[Run], max_depth: int | None = None) -> list[list[DocId]]:
    """Records first pooled at each depth: element ``k-1`` is P(k) \\ P(k-1).

    Within a depth the order is run order (run 1 rank k, run 2 rank k, …), without
    duplicates. ``max_depth`` defaults to the length of the longest run.
    """
    depth = max((len(run) for run in runs), default=0) if max_depth is None else max_depth
    if depth < 0:
        raise ValueError("max_depth must be >= 0")
    seen: set[DocId] = set()
    layers: list[list[DocId]] = []
    for rank in range(depth):
        layer = []
        for run in runs:
            if rank < len(run) and run[rank] not in seen:
                seen.add(run[rank])
                layer.append(run[rank])
        layers.append(layer)
    return layers


def pool_sizes(layers: Sequence[Collection[DocId]]) -> np.ndarray:
    """|P(k)| for k = 1..len(layers), from :func:`new_at_each_depth` output."""
    return np.cumsum([len(layer) for layer in layers], dtype=np.int64)


def nrels_curve(layers: Sequence[Collection[DocId]], relevant: Collection[DocId]) -> np.ndarray:
    """nrels(k) = |P(k) ∩ relevant| for k = 1..len(layers) (non-decreasing)."""
    counts = [sum(1 for doc in layer if doc in relevant) for layer in layers]
    return np.cumsum(counts, dtype=np.int64)


# ----------------------------------------------------------------------- smoothing


def _as_counts(nrels: Sequence[int] | np.ndarray) -> np.ndarray:
    arr = np.asarray(nrels)
    if arr.ndim != 1:
        raise ValueError("nrels must be one-dimensional")
    if arr.size and not np.array_equal(arr, np.round(arr)):
        raise ValueError("nrels must be integer counts")
    return arr.astype(np.int64)


def _window_sums(nrels: np.ndarray, window: int) -> np.ndarray:
    """Integer sums nrels(i .. i+w-1) for i = 1..d-w+1 (empty when d < w)."""
    csum = np.concatenate(([0], np.cumsum(nrels, dtype=np.int64)))
    return csum[window:] - csum[:-window] if nrels.size >= window else csum[:0]


def smoothed_nrels(nrels: Sequence[int] | np.ndarray, window: int) -> np.ndarray:
    """s(i) = mean(nrels(i .. i+w-1)) for i = 1..d-w+1."""
    return _window_sums(_as_counts(nrels), window) / window


def smoothed_rate(nrels: Sequence[int] | np.ndarray, window: int, rate_window: int) -> np.ndarray:
    """ŕ(i) = mean(rate(i .. i+W-1)), rate(i) = s(i+1) - s(i), for i = 1..d-w-W+1.

    Needs nrels up to depth i + W + w - 1. Computed as (S(i+W) - S(i)) / (w·W) with
    S the integer window sums (equal to the two-stage mean by telescoping).
    """
    sums = _window_sums(_as_counts(nrels), window)
    if sums.size <= rate_window:
        return np.zeros(0)
    return (sums[rate_window:] - sums[:-rate_window]) / (window * rate_window)


@dataclass(frozen=True)
class CriticalDepth:
    """Result of :func:`critical_depth`.

    ``k_cr`` is None while undetermined. ``depth_needed`` is the judged depth at which
    ``k_cr`` became determined, or (if undetermined) the smallest depth that must be
    judged before it can possibly be determined. ``judged_depth`` = len(nrels).
    """

    k_cr: int | None
    depth_needed: int
    judged_depth: int


def critical_depth(nrels: Sequence[int] | np.ndarray, params: StopParams) -> CriticalDepth:
    """k_cr = first depth i with ŕ(j) < t for all j = i .. i+l-1 (1-based).

    ``nrels`` holds nrels(1..d) for the depths judged so far. ŕ(j) is only used when
    all the depths its windows need (up to j + W + w - 1) are judged, so deciding i
    needs depth i + l + w + W - 2.
    """
    counts = _as_counts(nrels)
    below = smoothed_rate(counts, params.window, params.rate_window) < params.threshold
    run = params.run_length
    if below.size >= run:
        full_runs = np.flatnonzero(np.convolve(below, np.ones(run, dtype=int), "valid") == run)
        if full_runs.size:
            k_cr = int(full_runs[0]) + 1
            return CriticalDepth(k_cr, k_cr + params.span, counts.size)
    above = np.flatnonzero(~below)  # next candidate: the depth after the last ŕ >= t
    candidate = int(above[-1]) + 2 if above.size else 1
    return CriticalDepth(None, candidate + params.span, counts.size)


# ------------------------------------------------------------------ the decision


@dataclass(frozen=True)
class LowYieldRule:
    """Thesis §8.7: if nrels(depth)/|P(depth)| <= max_ratio, pool to the full depth."""

    depth: int = 20
    max_ratio: float = 0.1

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError("low-yield depth must be >= 1")


def is_low_yield(
    nrels: Sequence[int] | np.ndarray,
    sizes: Sequence[int] | np.ndarray,
    rule: LowYieldRule = LowYieldRule(),
) -> bool | None:
    """nrels(d)/|P(d)| <= max_ratio at d = rule.depth; None if depth d is not judged yet.

    An empty pool at depth d counts as low-yield.
    """
    d = rule.depth
    if len(nrels) < d:
        return None
    size = int(sizes[d - 1])
    return size == 0 or int(nrels[d - 1]) / size <= rule.max_ratio


@dataclass(frozen=True)
class PoolingDecision:
    """Where pooling of one topic stops.

    ``stop_depth``: depth of the final pool, None while undetermined. ``reason``: one of
    "critical depth", "low yield", "full depth", "undetermined". ``depth_needed``: depth
    that must be (or had to be) judged for the decision; ``judged_depth`` = len(nrels).
    """

    stop_depth: int | None
    k_cr: int | None
    low_yield: bool | None
    depth_needed: int
    judged_depth: int
    reason: str


def pooling_decision(
    nrels: Sequence[int] | np.ndarray,
    sizes: Sequence[int] | np.ndarray,
    params: StopParams,
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = LowYieldRule(),
) -> PoolingDecision:
    """Combine k_cr with the low-yield rule and the full depth (SPEC §4).

    Stop at k_cr once it is determined and the topic is known not to be low-yield;
    a low-yield topic is pooled to ``full_depth``; without k_cr, pooling ends at
    ``full_depth``. ``low_yield=None`` disables the low-yield rule. Only
    nrels(1..full_depth) is used for k_cr.
    """
    if full_depth < 1:
        raise ValueError("full_depth must be >= 1")
    if low_yield is not None and low_yield.depth > full_depth:
        raise ValueError("low-yield depth must not exceed full_depth")
    judged = len(nrels)
    crit = critical_depth(np.asarray(nrels)[:full_depth], params)
    yield_depth = 0 if low_yield is None else low_yield.depth
    low = False if low_yield is None else is_low_yield(nrels, sizes, low_yield)
    if low:
        return PoolingDecision(full_depth, crit.k_cr, True, full_depth, judged, "low yield")
    if crit.k_cr is not None and low is False:
        needed = max(crit.depth_needed, yield_depth)
        return PoolingDecision(crit.k_cr, crit.k_cr, False, needed, judged, "critical depth")
    if judged >= full_depth:
        return PoolingDecision(full_depth, crit.k_cr, low, full_depth, judged, "full depth")
    needed = min(max(crit.depth_needed, yield_depth if low is None else 0), full_depth)
    return PoolingDecision(None, crit.k_cr, low, needed, judged, "undetermined")


# ------------------------------------------------------------------ simulation

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
class _TopicCurve:
    topic: str
    layers: list[list[DocId]]
    relevant: frozenset[DocId]
    nrels: np.ndarray
    sizes: np.ndarray


def _topic_curves(runs: RunSet, qrels: CompleteQrels, full_depth: int) -> list[_TopicCurve]:
    topics = sorted({t for per_topic in runs.values() for t in per_topic} | set(qrels))
    curves = []
    for topic in topics:
        lists = [per_topic[topic] for per_topic in runs.values() if topic in per_topic]
        layers = new_at_each_depth(lists, full_depth)
        relevant = frozenset(qrels.get(topic, ()))
        curves.append(
            _TopicCurve(topic, layers, relevant, nrels_curve(layers, relevant), pool_sizes(layers))
        )
    return curves


def _reduced_qrels(curve: _TopicCurve, depth: int) -> dict[DocId, int]:
    return {doc: 1 for layer in curve.layers[:depth] for doc in layer if doc in curve.relevant}


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else float("nan")


def _dedupe(run: Run) -> list[DocId]:
    return list(dict.fromkeys(run))


def _score_per_run(
    runs: RunSet, qrels: Mapping[str, Mapping[DocId, int]], measure: Measure
) -> dict[str, float]:
    """MAP or mean recall@1000 of every run over the topics of ``qrels``."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
    scores = {}
    for name, per_topic in runs.items():
        ranked = {topic: _dedupe(per_topic.get(topic, ())) for topic in qrels}
        scores[name] = (mean_average_precision(ranked, qrels) if measure == "map"
                        else mean_recall_at_k(ranked, qrels, 1000))
    return scores


def simulate_grid(
    runs: RunSet,
    qrels: CompleteQrels,
    grid: Sequence[StopParams] | None = None,
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = LowYieldRule(),
    measure: Measure = "map",
) -> list[SimulationResult]:
    """Simulate incremental pooling with complete judgements for every setting of ``grid``.

    Per topic the pool is built from all runs to ``full_depth`` and nrels(k) is read off
    ``qrels``; :func:`pooling_decision` gives the stop depth. Reduced qrels = relevant
    records in P(stop); full qrels = relevant records in P(full_depth). Every run is
    scored by MAP (``ranking.mean_average_precision``) over the topics with at least one
    relevant record in the full qrels, using the same topic set for both qrels; runs are
    de-duplicated (first occurrence kept) before scoring. ``measure="recall@1000"`` scores
    them by mean recall@1000 instead (thesis Table 8.6). ``grid`` defaults to
    :func:`parameter_grid` (500 settings).
    """
    settings = parameter_grid() if grid is None else grid
    curves = _topic_curves(runs, qrels, full_depth)
    full = {c.topic: _reduced_qrels(c, full_depth) for c in curves}
    scored = [c for c in curves if full[c.topic]]
    score_full = _score_per_run(runs, {c.topic: full[c.topic] for c in scored}, measure)
    reference = [score_full[name] for name in runs]
    cache: dict[tuple[int, ...], dict[str, float]] = {}
    results = []
    for params in settings:
        outcomes = tuple(_topic_outcome(c, params, full_depth, low_yield) for c in curves)
        stops = {o.topic: o.stop_depth for o in outcomes}
        key = tuple(stops[c.topic] for c in scored)
        if key not in cache:
            reduced = {c.topic: _reduced_qrels(c, stops[c.topic]) for c in scored}
            cache[key] = _score_per_run(runs, reduced, measure)
        score_reduced = cache[key]
        tau, tau_ap_value, rms = _compare(reference, [score_reduced[name] for name in runs])
        results.append(
            SimulationResult(
                params=params,
                effort=_ratio(*_totals(outcomes, "judged_reduced", "judged_full")),
                recall_ratio=_ratio(*_totals(outcomes, "nrels_reduced", "nrels_full")),
                effort_interactive=_ratio(*_totals(outcomes, "judged_interactive", "judged_full")),
                tau=tau,
                tau_ap=tau_ap_value,
                rms=rms,
                score_full=score_full,
                score_reduced=score_reduced,
                topics=outcomes,
                measure=measure,
            )
        )
    return results


def simulate(
    runs: RunSet,
    qrels: CompleteQrels,
    params: StopParams,
    full_depth: int = DEFAULT_FULL_DEPTH,
    low_yield: LowYieldRule | None = LowYieldRule(),
    measure: Measure = "map",
) -> SimulationResult:
    """:func:`simulate_grid` for a single parameter setting."""
    return simulate_grid(runs, qrels, (params,), full_depth, low_yield, measure)[0]


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
    curve: _TopicCurve, params: StopParams, full_depth: int, low_yield: LowYieldRule | None
) -> TopicOutcome:
    decision = pooling_decision(curve.nrels, curve.sizes, params, full_depth, low_yield)
    stop = decision.stop_depth
    assert stop is not None  # all full_depth depths are judged, so the decision is final
    return TopicOutcome(
        topic=curve.topic,
        decision=decision,
        stop_depth=stop,
        judged_reduced=int(curve.sizes[stop - 1]),
        judged_full=int(curve.sizes[full_depth - 1]),
        judged_interactive=int(curve.sizes[decision.depth_needed - 1]),
        nrels_reduced=int(curve.nrels[stop - 1]),
        nrels_full=int(curve.nrels[full_depth - 1]),
    )
