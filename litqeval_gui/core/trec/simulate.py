"""``pool-simulate``: incremental pooling over the thesis grid on TREC runs and qrels.

The topics are cut into groups of :data:`CHUNK_TOPICS` (sorted by name); each group is
one task for ``core.scaleout.map_tasks`` (here, on ``jobs`` processes or a Dask
cluster), and the groups' sums are added in group order, so every way of running gives
the same numbers. Formulas: ``metrics.pool_simulation`` (SPEC §4).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial
from pathlib import Path

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.scaleout import ProgressCallback, map_tasks
from litqeval_gui.core.trec.evaluate import json_number, rejected_lines
from litqeval_gui.core.trec.files import Qrels, RunFile, Ties, read_qrels, read_run, run_paths
from litqeval_gui.metrics.pool_simulation import (
    DEFAULT_LOW_YIELD,
    MEASURES,
    GridPartial,
    Measure,
    SimulationResult,
    combine,
    pareto_frontier,
    simulate_pools,
    topic_pool,
)
from litqeval_gui.metrics.pooling import PRESETS, LowYieldRule, StopParams, parameter_grid

CHUNK_TOPICS = 4
JOB_SETTINGS = 20
GRIDS = ("thesis", "aggressive", "relaxed", "presets")
TopicItem = tuple[str, list[np.ndarray], np.ndarray]
"""A task's topic: its name, each run's ranking and its relevant records as integer codes."""


def grid_settings(name: str) -> tuple[StopParams, ...]:
    """``thesis``: the 500 settings; ``aggressive``/``relaxed``: one preset; ``presets``: both."""
    if name == "thesis":
        return parameter_grid()
    if name == "presets":
        return tuple(PRESETS.values())
    if name in PRESETS:
        return (PRESETS[name],)
    raise LitqError(f"--grid must be one of {', '.join(GRIDS)}, got {name!r}")


def simulate_chunk(items: Sequence[TopicItem], n_runs: int, grid: Sequence[StopParams],
                   full_depth: int, low_yield: LowYieldRule | None,
                   measure: Measure) -> GridPartial:
    """One task: build the pools of a group of topics and simulate every setting on them."""
    return simulate_pools(_pools(items, full_depth), n_runs, grid, full_depth, low_yield,
                          measure)


def _pools(items: Sequence[TopicItem], full_depth: int) -> list:
    return [topic_pool(topic, [run.tolist() for run in lists], relevant.tolist(), full_depth)
            for topic, lists, relevant in items]


def pool_simulate(run_args: Sequence[Path], qrels_file: Path, *, ties: Ties = "file",
                  depth: int = 100, grid: str = "thesis", measure: Measure = "map",
                  low_yield: bool = True, jobs: int = 1, dask_address: str | None = None,
                  progress: ProgressCallback | None = None) -> dict:
    """Read the run files (or folders) and qrels, then :func:`simulate_collection`: the
    ``pool-simulate --json`` document."""
    check_options(depth, measure, grid, low_yield)
    runs = [read_run(path, ties) for path in run_paths(list(run_args))]
    qrels = read_qrels(qrels_file)
    document = simulate_collection(runs, qrels, depth=depth, grid=grid,
                                   measure=measure, low_yield=low_yield, jobs=jobs,
                                   dask_address=dask_address, progress=progress)
    rejected = {name: lines for name, read in [*((run.name, run) for run in runs),
                                               (qrels_file.name, qrels)]
                if (lines := rejected_lines(read))}
    return {**document, "ties": ties, **({"rejected": rejected} if rejected else {})}


def check_options(depth: int = 100, measure: Measure = "map", grid: str = "thesis",
                  low_yield: bool = True) -> None:
    """Refuse bad options before any file is read."""
    if measure not in MEASURES:
        raise LitqError(f"--measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    if depth < 1:
        raise LitqError(f"--depth must be at least 1, got {depth}")
    if low_yield and depth < DEFAULT_LOW_YIELD.depth:
        raise LitqError(f"--depth {depth} is below the low-yield rule's depth "
                        f"{DEFAULT_LOW_YIELD.depth}; give --no-low-yield to simulate so "
                        "shallow a pool")
    grid_settings(grid)


def simulate_collection(runs: Sequence[RunFile], qrels: Qrels, *, depth: int = 100,
                        grid: str = "thesis", measure: Measure = "map", low_yield: bool = True,
                        jobs: int = 1, dask_address: str | None = None,
                        progress: ProgressCallback | None = None) -> dict:
    """Simulate every setting of ``grid`` on runs and complete qrels already read."""
    settings, rule, items = _prepared(runs, qrels, depth, grid, measure, low_yield)
    chunks = [items[i:i + CHUNK_TOPICS] for i in range(0, len(items), CHUNK_TOPICS)]
    task = partial(simulate_chunk, n_runs=len(runs), grid=settings, full_depth=depth,
                   low_yield=rule, measure=measure)
    partials = map_tasks(task, chunks, jobs=jobs, dask_address=dask_address, progress=progress)
    results = combine(partials, [run.name for run in runs], settings, measure)
    return _document(results, len(items), len(runs), depth, measure, low_yield)


def _prepared(runs: Sequence[RunFile], qrels: Qrels, depth: int, grid: str, measure: Measure,
              low_yield: bool) -> tuple[list[StopParams], LowYieldRule | None, list[TopicItem]]:
    """The options checked; the grid's settings, the low-yield rule and every topic of the
    runs or qrels, encoded."""
    check_options(depth, measure, grid, low_yield)
    topics = sorted({t for run in runs for t in run.topics} | set(qrels.relevant))
    items = [_encoded(t, [run.topics.get(t, []) for run in runs], qrels.relevant.get(t, ()))
             for t in topics]
    return grid_settings(grid), DEFAULT_LOW_YIELD if low_yield else None, items


def _document(results: Sequence[SimulationResult], topics: int, runs: int, depth: int,
              measure: Measure, low_yield: bool) -> dict:
    return {"settings": setting_rows(results), "topics": topics, "runs": runs,
            "depth": depth, "measure": measure, "low_yield": low_yield}


SETTING_COLUMNS = ("w", "W", "t", "l", "E", "R", "E_interactive", "tau", "tau_ap", "rms",
                   "frontier_tau", "frontier_rms")


def setting_rows(results: Sequence[SimulationResult]) -> list[dict]:
    """The ``settings`` rows of the document: parameters, E, R, τ, τ_AP, RMS and the
    effort/τ and effort/RMS frontier flags."""
    effort = [r.effort for r in results]
    on_tau = pareto_frontier(effort, [r.tau for r in results])
    on_rms = pareto_frontier(effort, [-r.rms for r in results])
    return [dict(zip(SETTING_COLUMNS, (
        r.params.window, r.params.rate_window, r.params.threshold, r.params.run_length,
        json_number(r.effort), json_number(r.recall_ratio), json_number(r.effort_interactive),
        json_number(r.tau), json_number(r.tau_ap), json_number(r.rms),
        bool(on_tau[i]), bool(on_rms[i])), strict=True)) for i, r in enumerate(results)]


def simulate_job(runs: Sequence[RunFile], qrels: Qrels, *, depth: int = 100,
                 grid: str = "thesis", measure: Measure = "map", low_yield: bool = True,
                 token: CancelToken = NEVER) -> Job[dict]:
    """:func:`simulate_collection` (serial) as a job: the settings in blocks of
    :data:`JOB_SETTINGS`, a progress report and a chance to cancel after each."""
    settings, rule, items = _prepared(runs, qrels, depth, grid, measure, low_yield)
    yield Progress(0, len(settings), "building the pools")
    pools = _pools(items, depth)
    names = [run.name for run in runs]
    results: list[SimulationResult] = []
    for start in range(0, len(settings), JOB_SETTINGS):  # each setting is scored alone
        token.raise_if_cancelled()
        block = settings[start:start + JOB_SETTINGS]
        partial = simulate_pools(pools, len(runs), block, depth, rule, measure)
        results += combine([partial], names, block, measure)
        yield Progress(start + len(block), len(settings),
                       f"{start + len(block)} of {len(settings)} settings")
    return _document(results, len(items), len(runs), depth, measure, low_yield)


def _encoded(topic: str, lists: list[list[str]], relevant: Collection[str]) -> TopicItem:
    """The topic with docids replaced by integer codes (small and fast to send to workers);
    relevant records no run retrieved are left out (they never enter a pool)."""
    code: dict[str, int] = {}
    arrays = [np.fromiter((code.setdefault(doc, len(code)) for doc in run), dtype=np.int64,
                          count=len(run)) for run in lists]
    hits = [code[doc] for doc in relevant if doc in code]
    return topic, arrays, np.array(hits, dtype=np.int64)
