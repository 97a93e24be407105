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

Simulation with complete judgements over the parameter grid: ``pool_simulation``.

``ŕ`` is evaluated from integer window sums with a single division, so values such as
0.4 compare exactly against the thresholds of the grid.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

DocId = Hashable
Run = Sequence[DocId]

DEFAULT_FULL_DEPTH = 100
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


# ------------------------------------------------------------------ static pools


def depth_k_pool(runs: Sequence[Run], k: int) -> list[DocId]:
    """The depth-k pool P(k) in pooling order (run order within a depth)."""
    return [doc for layer in new_at_each_depth(runs, k) for doc in layer]


def _take_n(scores: Mapping[DocId, float], n: int) -> list[DocId]:
    """The ``n`` best-scored documents; ties keep first-seen order."""
    if n < 0:
        raise ValueError("N must be >= 0")
    order = sorted(enumerate(scores.items()), key=lambda item: (-item[1][1], item[0]))
    return [doc for _, (doc, _) in order[:n]]


def _rank_weights(runs: Sequence[Run], weight) -> dict[DocId, float]:
    scores: dict[DocId, float] = {}
    for run in runs:
        seen: set[DocId] = set()
        for rank, doc in enumerate(run, 1):
            if doc not in seen:
                seen.add(doc)
                scores[doc] = scores.get(doc, 0.0) + weight(rank)
    return scores


def rbp_take_n(runs: Sequence[Run], n: int, p: float = 0.8) -> list[DocId]:
    """RBP-take-N (Moffat et al. 2007): score(d) = Σ_runs (1-p)·p^(rank-1); the N best."""
    if not 0 < p < 1:
        raise ValueError("p must be in (0, 1)")
    return _take_n(_rank_weights(runs, lambda rank: (1 - p) * p ** (rank - 1)), n)


def rrf_take_n(runs: Sequence[Run], n: int, k: int = 60) -> list[DocId]:
    """RRF-take-N (Cormack et al. 2009): score(d) = Σ_runs 1/(k + rank); the N best."""
    if k < 0:
        raise ValueError("k must be >= 0")
    return _take_n(_rank_weights(runs, lambda rank: 1 / (k + rank)), n)
