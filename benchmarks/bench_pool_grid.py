"""The thesis grid (500 settings) for 50 topics × 100 runs × depth 100 vs a naive baseline.

Generated collection (outside the timed regions): per topic 3 000 documents, 5–300 of them
relevant; each run ranks its top 1 000 by a run-specific quality times relevance plus
noise. Ours: ``core.trec.simulate.simulate_collection`` (pools, decisions, MAP under reduced
and full qrels, τ, τ_AP, RMS per setting), serially and with ``jobs=2``; wall time (goal
< 60 s on the 2-core machine) and peak memory (ru_maxrss of this process; the workers
of ``jobs=2`` are forkserver children, outside its accounting) are printed.

Baseline, as a user would script it: per setting, depth-k pooling of every topic at its
stop depth, then ir-measures MAP of every run under the reduced qrels. Pooling uses
trectools (``TrecRun.get_top_documents(topic, n)`` for every run and topic) when it is
importable, else a naive pure-Python pool (the union of every run's top n as sets) —
the output names which. trectools is not a project extra: it pulls in lxml, which
changes how openpyxl parses XLSX files, so install it only in a separate environment.
The stop depths come from the same ``pooling_decision``. The baseline is timed on SAMPLE
settings spread over the grid and extrapolated to 500 (printed as such).
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable

import ir_measures
import numpy as np
from support import figure

from litqeval_gui.core.trec.files import Qrels, RunFile
from litqeval_gui.core.trec.simulate import simulate_collection
from litqeval_gui.metrics.pool_simulation import DEFAULT_LOW_YIELD, topic_pools
from litqeval_gui.metrics.pooling import parameter_grid, pooling_decision

N_TOPICS, N_RUNS, DEPTH, RUN_LENGTH, N_DOCS = 50, 100, 100, 1_000, 3_000
SAMPLE = 3
SEED = 8


def generate() -> tuple[list[RunFile], Qrels]:
    rng = np.random.default_rng(SEED)
    quality = rng.uniform(0.2, 3.0, N_RUNS)
    per_run: list[dict[str, list[str]]] = [{} for _ in range(N_RUNS)]
    grades = {}
    for t in range(N_TOPICS):
        topic = f"{400 + t}"
        docs = np.array([f"FT{t:03d}-{i:05d}" for i in range(N_DOCS)], dtype=object)
        relevant = np.zeros(N_DOCS, dtype=bool)
        relevant[rng.choice(N_DOCS, int(rng.integers(5, 300)), replace=False)] = True
        grades[topic] = {d: int(r) for d, r in zip(docs.tolist(), relevant, strict=True)}
        scores = quality[:, None] * relevant[None, :] + rng.normal(size=(N_RUNS, N_DOCS))
        top = np.argsort(-scores, axis=1)[:, :RUN_LENGTH]
        for r in range(N_RUNS):
            per_run[r][topic] = docs[top[r]].tolist()
    return [RunFile(f"run{r:03d}", per_run[r]) for r in range(N_RUNS)], Qrels(grades)


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ours(runs: list[RunFile], qrels: Qrels, jobs: int) -> tuple[dict, float]:
    start = time.perf_counter()
    document = simulate_collection(runs, qrels, depth=DEPTH, jobs=jobs)
    return document, time.perf_counter() - start


def pooler(runs: list[RunFile]) -> tuple[str, Callable[[str, int], set[str]]]:
    """(name, pool(topic, depth)): trectools' depth-k pooling, or naive Python sets."""
    try:
        import pandas as pd
        from trectools import TrecRun
    except ImportError:
        return "naive Python sets", lambda topic, depth: set().union(
            *(run.topics.get(topic, [])[:depth] for run in runs))
    trec_runs = []
    for run in runs:
        rows = [(t, "Q0", d, k, RUN_LENGTH - k, run.name)
                for t, docs in run.topics.items() for k, d in enumerate(docs, 1)]
        trec_runs.append(TrecRun())
        trec_runs[-1].run_data = pd.DataFrame(
            rows, columns=["query", "q0", "docid", "rank", "score", "system"])
    return "trectools", lambda topic, depth: set().union(
        *(r.get_top_documents(topic, n=depth) for r in trec_runs))


def baseline(runs: list[RunFile], qrels: Qrels) -> tuple[str, float, int]:
    """Seconds per setting of depth-k pooling + ir-measures MAP, over SAMPLE settings."""
    name, pool = pooler(runs)
    measure_runs = [{t: {d: float(RUN_LENGTH - k) for k, d in enumerate(docs, 1)}
                     for t, docs in run.topics.items()} for run in runs]
    pools = {p.topic: p for p in topic_pools({r.name: r.topics for r in runs}, qrels.relevant,
                                              DEPTH)}
    grid = parameter_grid()
    sample = [grid[i] for i in np.linspace(0, len(grid) - 1, SAMPLE).astype(int)]
    start = time.perf_counter()
    for params in sample:
        stops = {t: pooling_decision(p.nrels, p.sizes, params, DEPTH, DEFAULT_LOW_YIELD).stop_depth
                 for t, p in pools.items()}
        reduced = {t: {d: 1 for d in pool(t, stop) if d in qrels.relevant[t]}
                   for t, stop in stops.items()}
        evaluator = ir_measures.evaluator([ir_measures.AP], reduced)
        [evaluator.calc_aggregate(run)[ir_measures.AP] for run in measure_runs]
    return name, (time.perf_counter() - start) / SAMPLE, len(sample)


def main() -> int:
    runs, qrels = generate()
    print(f"{N_TOPICS} topics × {N_RUNS} runs × depth {DEPTH} (runs {RUN_LENGTH} deep), "
          f"{len(parameter_grid())} settings")
    serial, t_serial = ours(runs, qrels, jobs=1)
    print(f"  ours, serial (s)                      {t_serial:8.2f}   (goal < 60)")
    print(f"  peak memory, this process (MiB)       {peak_mib():8.0f}")
    parallel, t_parallel = ours(runs, qrels, jobs=2)
    assert parallel == serial, "jobs=2 must give the serial numbers"
    print(f"  ours, --jobs 2 (s)                    {t_parallel:8.2f}   (identical results)")
    name, per_setting, n = baseline(runs, qrels)
    t_naive = per_setting * len(parameter_grid())
    print(f"  baseline: {name} pooling + ir-measures MAP")
    print(f"  baseline per setting (s)              {per_setting:8.2f}   (mean of {n} settings)")
    print(f"  ... extrapolated to 500 settings (s)  {t_naive:8.0f}")
    print(f"  ratio naive / ours (serial)           {t_naive / t_serial:8.0f}")
    figure("thesis grid, 500 settings, serial", f"{t_serial:.2f} s (baseline, {name}, / ours "
           f"{t_naive / t_serial:.0f}x)", "< 60 s", t_serial < 60)
    taus = [s["tau"] for s in serial["settings"]]
    print(f"  (τ over the grid: {min(taus):.3f} … {max(taus):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
