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
from litqeval_gui.core.tar.evaluate import json_number
from litqeval_gui.core.tar.files import Qrels, RunFile, Ties, read_qrels, read_run, run_paths
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
    pools = [topic_pool(topic, [run.tolist() for run in lists], relevant.tolist(), full_depth)
             for topic, lists, relevant in items]
    return simulate_pools(pools, n_runs, grid, full_depth, low_yield, measure)


def pool_simulate(run_args: Sequence[Path], qrels_file: Path, *, ties: Ties = "file",
                  depth: int = 100, grid: str = "thesis", measure: Measure = "map",
                  low_yield: bool = True, jobs: int = 1, dask_address: str | None = None,
                  progress: ProgressCallback | None = None) -> dict:
    """Read the run files (or folders) and qrels, then :func:`simulate_collection`: the
    ``pool-simulate --json`` document."""
    check_options(depth, measure, grid, low_yield)
    runs = [read_run(path, ties) for path in run_paths(list(run_args))]
    document = simulate_collection(runs, read_qrels(qrels_file), depth=depth, grid=grid,
                                   measure=measure, low_yield=low_yield, jobs=jobs,
                                   dask_address=dask_address, progress=progress)
    return {**document, "ties": ties}


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
    check_options(depth, measure, grid, low_yield)
    settings = grid_settings(grid)
    rule = DEFAULT_LOW_YIELD if low_yield else None
    topics = sorted({t for run in runs for t in run.topics} | set(qrels.relevant))
    items = [_encoded(t, [run.topics.get(t, []) for run in runs], qrels.relevant.get(t, ()))
             for t in topics]
    chunks = [items[i:i + CHUNK_TOPICS] for i in range(0, len(items), CHUNK_TOPICS)]
    task = partial(simulate_chunk, n_runs=len(runs), grid=settings, full_depth=depth,
                   low_yield=rule, measure=measure)
    partials = map_tasks(task, chunks, jobs=jobs, dask_address=dask_address, progress=progress)
    results = combine(partials, [run.name for run in runs], settings, measure)
    return {"settings": setting_rows(results), "topics": len(topics), "runs": len(runs),
            "depth": depth, "measure": measure, "low_yield": low_yield}


def setting_rows(results: Sequence[SimulationResult]) -> list[dict]:
    """The ``settings`` rows of the document: parameters, E, R, τ, τ_AP, RMS and the
    effort/τ and effort/RMS frontier flags."""
    effort = [r.effort for r in results]
    on_tau = pareto_frontier(effort, [r.tau for r in results])
    on_rms = pareto_frontier(effort, [-r.rms for r in results])
    rows = [{"w": r.params.window, "W": r.params.rate_window, "t": r.params.threshold,
             "l": r.params.run_length, "E": json_number(r.effort),
             "R": json_number(r.recall_ratio),
             "E_interactive": json_number(r.effort_interactive), "tau": json_number(r.tau),
             "tau_ap": json_number(r.tau_ap), "rms": json_number(r.rms),
             "frontier_tau": bool(on_tau[i]), "frontier_rms": bool(on_rms[i])}
            for i, r in enumerate(results)]
    return rows


def simulate_job(runs: Sequence[RunFile], qrels: Qrels, *, depth: int = 100,
                 grid: str = "thesis", measure: Measure = "map", low_yield: bool = True,
                 token: CancelToken = NEVER) -> Job[dict]:
    """:func:`simulate_collection` (serial) as a job: the settings in blocks of
    :data:`JOB_SETTINGS`, a progress report and a chance to cancel after each."""
    check_options(depth, measure, grid, low_yield)
    settings = grid_settings(grid)
    rule = DEFAULT_LOW_YIELD if low_yield else None
    topics = sorted({t for run in runs for t in run.topics} | set(qrels.relevant))
    yield Progress(0, len(settings), "building the pools")
    pools = [topic_pool(topic, [run.tolist() for run in lists], relevant.tolist(), depth)
             for topic, lists, relevant in (
                 _encoded(t, [run.topics.get(t, []) for run in runs], qrels.relevant.get(t, ()))
                 for t in topics)]
    blocks = []
    for start in range(0, len(settings), JOB_SETTINGS):
        token.raise_if_cancelled()
        block = settings[start:start + JOB_SETTINGS]
        blocks.append(simulate_pools(pools, len(runs), block, depth, rule, measure))
        yield Progress(start + len(block), len(settings),
                       f"{start + len(block)} of {len(settings)} settings")
    whole = GridPartial(tuple(o for b in blocks for o in b.outcomes),
                        np.vstack([b.reduced_sums for b in blocks]), blocks[0].full_sums,
                        blocks[0].n_scored)
    results = combine([whole], [run.name for run in runs], settings, measure)
    return {"settings": setting_rows(results), "topics": len(topics), "runs": len(runs),
            "depth": depth, "measure": measure, "low_yield": low_yield}


def _encoded(topic: str, lists: list[list[str]], relevant: Collection[str]) -> TopicItem:
    """The topic with docids replaced by integer codes (small and fast to send to workers);
    relevant records no run retrieved are left out (they never enter a pool)."""
    code: dict[str, int] = {}
    arrays = [np.fromiter((code.setdefault(doc, len(code)) for doc in run), dtype=np.int64,
                          count=len(run)) for run in lists]
    hits = [code[doc] for doc in relevant if doc in code]
    return topic, arrays, np.array(hits, dtype=np.int64)
