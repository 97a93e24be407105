"""Stopping rules replayed on a published ranking: a TREC run and its qrels, by path.

``--run FILE`` is a TREC run (``topic Q0 doc rank score tag``; each topic's documents in
rank order, all of its candidate set), ``--qrels PATH`` a qrels file or a folder of
per-topic qrels files (``topic 0 doc rel``). Every registered rule is replayed on each
topic's ranking as ``simulate`` replays it (the certified rules, which draw random
records, over ``--seeds`` seeds: their figures are means over them). Printed per rule, as the papers report it: the share of topics reaching the
target recall (reliability), the mean share of the collection screened (cost) and its
median, and the same for the oracle (the first rank reaching the target) as the baseline;
for the point process, each topic's stop.

The published figures this replays (the anchors of the stopping issue) used the AutoTAR
rankings of CLEF 2017–19; those of CLEF 2017's training topics ship with Stevenson &
Bin-Hezam's code (``data/rankings/clef2017_training_autotar_ranking.txt``, qrels from
``dli1/auto-stop-tar``'s ``data/clef2017/qrels``). Without ``--run`` a generated ranking
of 20 topics is used, so ``make bench`` runs anywhere.

Usage: ``python benchmarks/bench_stopping_replay.py [--run FILE --qrels PATH]
[--target 0.95]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from support import figure

from litqeval_gui.core.screening.simulation.simulate import stop_outcome
from litqeval_gui.core.screening.stopping.panel import default_rules
from litqeval_gui.metrics.screening_effort import screened_to_reach


def rankings(run: Path, qrels: Path) -> dict[str, np.ndarray]:
    """Topic → relevance (1/0) of its ranked documents."""
    files = sorted(qrels.iterdir()) if qrels.is_dir() else [qrels]
    relevant: set[tuple[str, str]] = set()
    for path in files:
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[3] not in ("0", "-1"):
                relevant.add((parts[0], parts[2]))
    ranked: dict[str, list[tuple[int, str]]] = {}
    for line in run.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            ranked.setdefault(parts[0], []).append((int(parts[3]), parts[2]))
    return {topic: np.array([(topic, doc) in relevant for _, doc in sorted(docs)],
                            dtype=np.int64)
            for topic, docs in ranked.items()}


def generated(topics: int = 20) -> dict[str, np.ndarray]:
    """Rankings with relevant records ever rarer down the list (seeded)."""
    rng = np.random.default_rng(7)
    made = {}
    for index in range(topics):
        n = int(rng.integers(500, 4000))
        made[f"T{index}"] = (rng.random(n) < 0.5 * np.exp(-np.arange(n) / (0.05 * n))
                             ).astype(np.int64)
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path)
    parser.add_argument("--qrels", type=Path)
    parser.add_argument("--target", type=float, default=0.95)
    parser.add_argument("--seeds", type=int, default=10,
                        help="seeds for the rules that draw random records (mean over them)")
    args = parser.parse_args()
    topics = rankings(args.run, args.qrels) if args.run else generated()
    topics = {t: labels for t, labels in topics.items() if labels.sum()}
    rules = default_rules(recall_target=args.target)
    oracle = [screened_to_reach(labels, args.target) / labels.size for labels in topics.values()]
    print(f"{len(topics)} topics, {sum(t.size for t in topics.values()):,} documents, "
          f"{sum(int(t.sum()) for t in topics.values()):,} relevant; target {args.target:g}")
    print(f"  {'oracle (baseline)':24s} reliability 1.000, cost mean {np.mean(oracle):.3f} "
          f"median {np.median(oracle):.3f}")
    for rule in rules:
        seeds = range(args.seeds) if rule.kind == "certified" else range(1)
        outcomes = [[stop_outcome(rule, labels, np.random.default_rng(seed)) for seed in seeds]
                    for labels in topics.values()]
        cost = [np.mean([(o["stopped_at"] or labels.size) / labels.size for o in runs])
                for runs, labels in zip(outcomes, topics.values(), strict=True)]
        reliability = np.mean([o["reached"] for runs in outcomes for o in runs])
        print(f"  {rule.name:24s} reliability {reliability:.3f}, cost mean {np.mean(cost):.3f} "
              f"median {np.median(cost):.3f} ({rule.kind})", flush=True)
        if rule.name == "point_process":
            print("    stops: " + ", ".join(f"{t} {runs[0]['stopped_at'] or labels.size}"
                                             for (t, labels), runs in zip(topics.items(),
                                                                          outcomes, strict=True)))
        figure(f"{rule.name}: cost / oracle's cost (baseline)",
               f"{np.mean(cost) / np.mean(oracle):.2f}", "-", None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
