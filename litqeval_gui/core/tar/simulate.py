"""``pool-simulate``: incremental pooling over the thesis grid on TREC runs and qrels.

The topics are cut into groups of :data:`CHUNK_TOPICS` (sorted by name); each group is
one task for ``core.scaleout.map_tasks`` (here, on ``jobs`` processes or a Dask
cluster), and the groups' sums are added in group order, so every way of running gives
the same numbers. Formulas: ``metrics.pool_simulation`` (SPEC §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.scaleout import ProgressCallback, map_tasks
from litqeval_gui.core.tar.evaluate import json_number
from litqeval_gui.core.tar.files import Ties, read_qrels, read_run, run_paths
from litqeval_gui.metrics.pool_simulation import (
    DEFAULT_LOW_YIELD,
    MEASURES,
    GridPartial,
    Measure,
    combine,
    pareto_frontier,
    simulate_pools,
    topic_pool,
)
from litqeval_gui.metrics.pooling import PRESETS, LowYieldRule, StopParams, parameter_grid

CHUNK_TOPICS = 4
GRIDS = ("thesis", "aggressive", "relaxed", "presets")
TopicItem = tuple[str, list[list[str]], frozenset[str]]


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
    pools = [topic_pool(topic, lists, relevant, full_depth) for topic, lists, relevant in items]
    return simulate_pools(pools, n_runs, grid, full_depth, low_yield, measure)


def pool_simulate(run_args: Sequence[Path], qrels_file: Path, *, depth: int = 100,
                  grid: str = "thesis", measure: Measure = "map", low_yield: bool = True,
                  ties: Ties = "file", jobs: int = 1, dask_address: str | None = None,
                  progress: ProgressCallback | None = None) -> dict:
    """Simulate every setting of ``grid``: the ``pool-simulate --json`` document."""
    if measure not in MEASURES:
        raise LitqError(f"--measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    if depth < 1:
        raise LitqError(f"--depth must be at least 1, got {depth}")
    rule = DEFAULT_LOW_YIELD if low_yield else None
    if rule is not None and depth < rule.depth:
        raise LitqError(f"--depth {depth} is below the low-yield rule's depth {rule.depth}; "
                        "give --no-low-yield to simulate so shallow a pool")
    settings = grid_settings(grid)
    runs = [read_run(path, ties) for path in run_paths(list(run_args))]
    qrels = read_qrels(qrels_file)
    topics = sorted({t for run in runs for t in run.topics} | set(qrels.relevant))
    items = [(t, [run.topics.get(t, []) for run in runs], qrels.relevant.get(t, frozenset()))
             for t in topics]
    chunks = [items[i:i + CHUNK_TOPICS] for i in range(0, len(items), CHUNK_TOPICS)]
    task = partial(simulate_chunk, n_runs=len(runs), grid=settings, full_depth=depth,
                   low_yield=rule, measure=measure)
    partials = map_tasks(task, chunks, jobs=jobs, dask_address=dask_address, progress=progress)
    results = combine(partials, [run.name for run in runs], settings, measure)
    effort = [r.effort for r in results]
    on_tau = pareto_frontier(effort, [r.tau for r in results])
    on_rms = pareto_frontier(effort, [-r.rms for r in results])
    rows = [{"w": r.params.window, "W": r.params.rate_window, "t": r.params.threshold,
             "l": r.params.run_length, "E": json_number(r.effort), "R": json_number(r.recall_ratio),
             "E_interactive": json_number(r.effort_interactive), "tau": json_number(r.tau),
             "tau_ap": json_number(r.tau_ap), "rms": json_number(r.rms),
             "frontier_tau": bool(on_tau[i]), "frontier_rms": bool(on_rms[i])}
            for i, r in enumerate(results)]
    return {"settings": rows, "topics": len(topics), "runs": len(runs), "depth": depth,
            "measure": measure, "low_yield": low_yield, "ties": ties}
