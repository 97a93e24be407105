"""Stopping rules on the broad pool of real reviews: which rule to recommend, by evidence.

Per review (``--dataset CSV``, repeatable, or ``--pool DIR``: every ``*.csv`` below it;
the CSV needs ``title``, ``abstract`` and ``label_included``) the default model screens
``--seeds`` times (10) with one relevant and one irrelevant prior record drawn as
``bench_simulate`` draws them; every registered rule is replayed on the same screening
orders (``simulate``'s own replay: the random-sample rule and the control-sample rules
draw their random records with the run's seed). ``--orders FILE`` keeps the orders
(JSON) so a second run replays the rules without screening again.

Printed per review and rule: runs reaching the target, the median and mean of the work
saved over the oracle's (the oracle: the first position reaching the target), and for a
rule that shows a recall estimate, how often its interval at its stop held the true
recall then (coverage). Over all runs, per rule the same with a 95 % bootstrap interval
of the median (resampling reviews), then the recommended rule chosen as the app chooses
it: the most median work saved among the rules reaching the target in >= 95 % of runs.
Figures: that choice is the app's (:data:`~litqeval_gui.core.screening.stopping.panel.RECOMMENDED`),
its runs reaching the target (>= 95 %), its median work saved over the oracle's (>= 0.6)
and, for every rule that shows a recall estimate, its interval's coverage (>= its
confidence). The baseline is the oracle's saving,
measured on the same orders. Without data a generated labelled set of 2 000 records is
used, so ``make bench`` runs anywhere.

Usage: ``python benchmarks/bench_stopping.py [--pool DIR] [--dataset CSV]… [--seeds 10]
[--orders FILE]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_simulate import prepared
from bench_simulate_asreview import LABELS, generated, numbered
from support import figure, load_average

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.simulation.simulate import simulate, stop_outcome
from litqeval_gui.core.screening.stopping.panel import RECOMMENDED, default_rules
from litqeval_gui.metrics.stopping import RandomSampleStop, StoppingRule

REACHED_GOAL = 0.95
SAVED_GOAL = 0.6


def orders_of(source: Path, seeds: int, folder: Path) -> list[list[int]]:
    """The relevance (1/0) of each seed's screening order of one review."""
    csv_path, labels = numbered(source, folder / "data.csv")
    LABELS[:] = labels
    features, truth, item_of, _ = prepared(csv_path, folder)
    truth_rows = np.array(labels)
    orders = []
    for seed in range(seeds):
        rng = np.random.default_rng(1000 + seed)
        prior = [int(rng.choice(np.flatnonzero(truth_rows))),
                 int(rng.choice(np.flatnonzero(~truth_rows)))]
        run = run_job(simulate(features, truth, seed=seed, rules=[],
                               prior=[item_of[row] for row in prior]))
        orders.append(run.labels(truth).astype(int).tolist())
    return orders


def covered(rule: StoppingRule, labels: np.ndarray, stopped: int | None) -> bool | None:
    """Whether the rule's recall estimate at its stop holds the true recall then (None:
    it shows none there)."""
    if stopped is None or stopped >= labels.size:
        return None
    estimate = rule.decide(labels[:stopped], labels.size).estimate
    if estimate is None:
        return None
    truth = labels[:stopped].sum() / labels.sum()
    return bool(estimate.low - 1e-12 <= truth <= estimate.high + 1e-12)


def outcomes(orders: list[list[int]], rules: list[StoppingRule]) -> dict[str, list[dict]]:
    """Per rule, per run: reached, saved over the oracle's, coverage."""
    found: dict[str, list[dict]] = {rule.name: [] for rule in rules}
    for seed, order in enumerate(orders):
        labels = np.array(order, dtype=np.int64)
        for rule in rules:
            stop = stop_outcome(rule, labels, np.random.default_rng([seed, 1]))
            oracle = stop["oracle_work_saved"] or 0.0
            found[rule.name].append({
                "reached": stop["reached"],
                "saved": stop["work_saved"] / oracle if oracle else 1.0,
                "covered": covered(rule, labels, stop["stopped_at"])})
    return found


def line(name: str, runs: list[dict]) -> str:
    saved = [r["saved"] for r in runs]
    cover = [r["covered"] for r in runs if r["covered"] is not None]
    coverage = f", interval held {sum(cover)}/{len(cover)}" if cover else ""
    return (f"  {name:24s} reached {sum(r['reached'] for r in runs)}/{len(runs)}, saved/oracle "
            f"median {np.median(saved):.2f} mean {np.mean(saved):.2f}{coverage}")


def bootstrap_median(per_review: list[list[float]], rng: np.random.Generator) -> tuple[float, float]:
    """95 % interval of the pooled median, resampling whole reviews (1 000 draws)."""
    medians = [np.median(np.concatenate([per_review[i] for i in
                                         rng.integers(0, len(per_review), len(per_review))]))
               for _ in range(1000)]
    return float(np.percentile(medians, 2.5)), float(np.percentile(medians, 97.5))


def replay_speed(orders: list[list[int]], rules: list[StoppingRule]) -> None:
    """Figure: every rule replayed on one order in one pass each, against the baseline of
    asking the random-sample rule's switch alone at every prefix (as ``simulate`` did)."""
    labels = np.array(orders[0], dtype=np.int64)
    switch = RandomSampleStop().switch_rule()
    start = time.perf_counter()
    StoppingRule.first_stop(switch, labels, labels.size)  # the per-prefix loop
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    for rule in rules:
        stop_outcome(rule, labels, np.random.default_rng(0))
    every = time.perf_counter() - start
    figure(f"replay of all {len(rules)} rules on {labels.size:,} records / the switch "
           "asked at every prefix (baseline)", f"{every / baseline:.2f} ({every:.2f} s / "
           f"{baseline:.2f} s)", "< 1", every < baseline)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, action="append", default=[])
    parser.add_argument("--pool", type=Path, action="append", default=[])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--orders", type=Path, help="JSON file keeping the screening orders")
    args = parser.parse_args()
    sources = list(args.dataset) + sorted(p for pool in args.pool for p in pool.rglob("*.csv"))
    kept = json.loads(args.orders.read_text()) if args.orders and args.orders.exists() else {}
    rules = default_rules()
    pooled: dict[str, list[list[dict]]] = {rule.name: [] for rule in rules}
    with tempfile.TemporaryDirectory() as tmp:
        if not sources:
            sources = [generated(Path(tmp) / "generated.csv")]
        for index, source in enumerate(sources):
            name = source.stem
            if len(kept.get(name, [])) < args.seeds:
                folder = Path(tmp) / f"review{index}"
                folder.mkdir()
                kept[name] = orders_of(source, args.seeds, folder)
                if args.orders:
                    args.orders.write_text(json.dumps(kept))
            orders = kept[name][:args.seeds]
            print(f"\n{name}: {len(orders[0])} records, {sum(orders[0])} relevant, "
                  f"{len(orders)} seeds | {load_average()}", flush=True)
            for rule_name, runs in outcomes(orders, rules).items():
                print(line(rule_name, runs), flush=True)
                pooled[rule_name].append(runs)
    replay_speed(max(kept.values(), key=lambda o: len(o[0])), rules)
    print(f"\nall {len(sources)} reviews:")
    rng = np.random.default_rng(0)
    eligible = {}
    for rule in rules:
        runs = [r for review in pooled[rule.name] for r in review]
        low, high = bootstrap_median([[r["saved"] for r in review]
                                      for review in pooled[rule.name]], rng)
        reached = np.mean([r["reached"] for r in runs])
        print(f"{line(rule.name, runs)} (median 95 % interval {low:.2f}–{high:.2f}; "
              f"{rule.kind})")
        if reached >= REACHED_GOAL:
            eligible[rule.name] = float(np.median([r["saved"] for r in runs]))
    choice = max(eligible, key=eligible.get) if eligible else "none"
    figure("recommended by evidence = the app's", f"{choice} (app: {RECOMMENDED})",
           RECOMMENDED, choice == RECOMMENDED)
    runs = [r for review in pooled[RECOMMENDED] for r in review]
    reached = np.mean([r["reached"] for r in runs])
    saved = float(np.median([r["saved"] for r in runs]))
    figure(f"{RECOMMENDED}: runs reaching the target", f"{reached:.1%} of {len(runs)}",
           f">= {REACHED_GOAL:.0%}", reached >= REACHED_GOAL)
    figure(f"{RECOMMENDED}: median work saved / oracle's (baseline)", f"{saved:.2f}",
           f">= {SAVED_GOAL:g}", saved >= SAVED_GOAL)
    for rule in rules:  # every rule that shows a recall estimate
        cover = [r["covered"] for review in pooled[rule.name] for r in review
                 if r["covered"] is not None]
        if cover:
            confidence = getattr(rule, "confidence", 0.95)
            share = float(np.mean(cover))
            figure(f"{rule.name}: its interval holds the true recall at its stop",
                   f"{share:.1%} of {len(cover)}", f">= {confidence:.0%}", share >= confidence)
    return 0


if __name__ == "__main__":
    sys.exit(main())
