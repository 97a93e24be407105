"""Prioritisation and stopping on labelled reviews (issue 28 §1 and §3), ours alone.

Per review (``--dataset CSV``, repeatable; the CSV needs ``title``, ``abstract`` and
``label_included`` 1/0, as the shared screening datasets have) and per model
(``--models``, default: every model), over ``--seeds`` seeds (5) with one relevant and
one irrelevant prior record drawn as ``bench_simulate_asreview`` draws them: the mean
WSS@95 and WSS@100 in both conventions (``project``: SPEC §2 with the priors;
``insights``: asreview-insights', priors left out), recall at 10 % and 25 % screened,
records screened to reach 95 %, and the wall time of one simulation (the CSV's import and
features, as ASReview's wall time covers reading the file, plus the run). Then, per
review and stopping rule for the default model (when it is among the models): how often the rule reached its target
recall, the mean work it saved, the mean work the best possible stop saved (the
oracle: the ⌈target·|I|⌉-th relevant record of the model's order) and the mean
over-screening (records screened past the oracle's stop, as a share of N).

Figures: for a review with a published ASReview LAB 3.0.8 figure (:data:`ASREVIEW`, 5
seeds, same priors, asreview-insights' convention), the default model's mean WSS@95
against it and the wall time ratio (goal ≥ 5×); over all reviews, the recommended
rule's share of runs that reached the target (goal ≥ 95 %) and its work saved over the
oracle's (goal ≥ 0.5). Without ``--dataset`` a generated labelled set of 2 000 records
(5 % relevant) is used, so ``make bench`` runs anywhere. To run ASReview itself beside
ours, see ``bench_simulate_asreview.py`` (``make bench ASREVIEW=…``).

Usage: ``python benchmarks/bench_simulate.py [--dataset CSV]… [--models logistic,svm,nb]
[--seeds 5]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_simulate_asreview import LABELS, ROW, generated, numbered, prior_rows
from support import figure, load_average

from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.evaluation.vector_store import embed_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.records.rows import SELECT_CONTENT, record_from_row
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import TFIDF, build_features, parse_features
from litqeval_gui.core.screening.ranking.models import MODELS
from litqeval_gui.core.screening.simulation.simulate import simulate
from litqeval_gui.core.screening.stopping.panel import RECOMMENDED
from litqeval_gui.metrics.screening_effort import effort

DEFAULT_MODEL = "logistic"
# ASReview LAB 3.0.8's best model per shared review (issue 28): WSS@95 in
# asreview-insights' convention, mean of 5 seeds, and the wall time of one simulation.
ASREVIEW = {"Nagtegaal_2019": (0.728, 30.0), "Cohen_2006_ACEInhibitors": (0.793, 461.0),
            "Radjenovic_2013": (0.865, 47.0)}
SPEED_GOAL = 5.0
REACHED_GOAL = 0.95
SAVED_GOAL = 0.5
MEASURES = ("wss_at_95_insights", "wss_at_95_project", "wss_at_100_insights",
            "wss_at_100_project", "recall_at_10pct", "recall_at_25pct", "screened_to_95")


def prepared(csv_path: Path, folder: Path, question: str = "", spec: str = TFIDF):
    """(features, truth in item order, the item of each CSV row, seconds) of the CSV
    imported into a new project, as the app reads it; with the review ``question``
    as the screener's Question field gives it, and features ``spec`` (a backend's
    vectors computed first when it names one)."""
    start = time.perf_counter()
    with Project.create(folder / f"bench-{len(list(folder.glob('*.litq')))}.litq") as project:
        run_job(ingest.import_file(project, csv_path, topic="T", role="results", name="L"))
        backend = parse_features(spec)[1]
        if backend:
            run_job(embed_topic(project, "T", backend_by_name(backend)))
        import_id = project.db.execute("SELECT id FROM imports").fetchone()[0]
        items = store.representatives(project, [import_id], RecordFilter())
        row_of = {record_id: int(record_from_row(content).raw[ROW]) for record_id, *content
                  in project.db.execute(f"SELECT id, {SELECT_CONTENT} FROM records")}
        features = run_job(build_features(project, project.topic_id("T"), items, question,
                                          features=spec))
    rows = [row_of[r] for r in items]
    truth = np.array([LABELS[row] for row in rows], dtype=bool)
    return features, truth, {row: i for i, row in enumerate(rows)}, time.perf_counter() - start


def review(csv_path: Path, name: str, models: list[str], seeds: int, folder: Path) -> list[dict]:
    """Every run on one review: a dict per (model, seed) with the measures, seconds and
    (default model only) the stopping rules' outcomes."""
    features, truth, item_of, prep = prepared(csv_path, folder)
    labels = np.array(LABELS)
    print(f"\n{name}: {truth.size} records, {int(truth.sum())} relevant; import and "
          f"features {prep:.1f} s | {load_average()}", flush=True)
    runs = []
    for model in models:
        for seed in range(seeds):
            prior = prior_rows(labels, seed)
            run = run_job(simulate(features, truth, model=model, seed=seed,
                                   prior=[item_of[row] for row in prior],
                                   rules=None if model == DEFAULT_MODEL else []))
            runs.append({"model": model, "seed": seed, "seconds": prep + run.seconds,
                         "records": run.records, **effort(run.labels(truth), run.priors),
                         "stopping": run.stopping})
        mine = [r for r in runs if r["model"] == model]
        print(f"  {model:9s} " + "  ".join(
            f"{m} {np.mean([r[m] for r in mine]):.3f}" for m in MEASURES[:6]) +
            f"  to95 {np.mean([r['screened_to_95'] for r in mine]):.0f}"
            f"  {np.mean([r['seconds'] for r in mine]):.1f} s/run | {load_average()}",
            flush=True)
    return runs


def stopping_table(runs: list[dict]) -> None:
    """Per rule over the default model's runs: reached, work saved, oracle, over-screening."""
    default = [r for r in runs if r["model"] == DEFAULT_MODEL]
    for rule in default[0]["stopping"]:
        outcomes = [r["stopping"][rule] for r in default]
        stopped = [o["stopped_at"] or r["records"] for o, r in zip(outcomes, default, strict=True)]
        over = [(s - r["records"] * (1 - o["oracle_work_saved"])) / r["records"]
                for s, o, r in zip(stopped, outcomes, default, strict=True)]
        mark = " (recommended)" if outcomes[0].get("recommended") else ""
        print(f"  {rule:24s} target {outcomes[0]['target']:.2f}: reached "
              f"{sum(o['reached'] for o in outcomes)}/{len(outcomes)}, work saved "
              f"{np.mean([o['work_saved'] for o in outcomes]):.3f} (oracle "
              f"{np.mean([o['oracle_work_saved'] for o in outcomes]):.3f}), over-screening "
              f"{np.mean(over):.3f} of N, stopped at {np.mean(stopped):.0f}{mark}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, action="append", default=[],
                        help="labelled CSV (title, abstract, label_included); repeatable")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    every = []
    with tempfile.TemporaryDirectory() as tmp:
        sources = args.dataset or [generated(Path(tmp) / "generated.csv")]
        for index, source in enumerate(sources):
            folder = Path(tmp) / f"review{index}"
            folder.mkdir()
            csv_path, labels = numbered(source, folder / "data.csv")
            LABELS[:] = labels
            name = source.stem
            runs = review(csv_path, name, models, args.seeds, folder)
            if DEFAULT_MODEL not in models:
                continue
            print(f"  stopping ({DEFAULT_MODEL}, {args.seeds} seeds):")
            stopping_table(runs)
            every += [r["stopping"][RECOMMENDED] for r in runs if r["model"] == DEFAULT_MODEL]
            if name in ASREVIEW:
                wss, seconds = ASREVIEW[name]
                default = [r for r in runs if r["model"] == DEFAULT_MODEL]
                ours = np.mean([r["wss_at_95_insights"] for r in default])
                ours_s = np.mean([r["seconds"] for r in default])
                figure(f"{name}: WSS@95 (insights) default − ASReview's best",
                       f"{ours - wss:+.3f} ({ours:.3f} vs {wss:.3f})", ">= 0", ours >= wss)
                figure(f"{name}: ASReview wall time / ours", f"{seconds / ours_s:.1f}x "
                       f"({seconds:.0f} s / {ours_s:.1f} s)", f">= {SPEED_GOAL:g}x",
                       seconds / ours_s >= SPEED_GOAL)
    if not every:
        return 0
    reached = np.mean([o["reached"] for o in every])
    saved = np.mean([o["work_saved"] for o in every]) / np.mean(
        [o["oracle_work_saved"] for o in every])
    figure(f"{RECOMMENDED} (recommended): runs reaching the target", f"{reached:.0%} of "
           f"{len(every)}", f">= {REACHED_GOAL:.0%}", reached >= REACHED_GOAL)
    figure(f"{RECOMMENDED} (recommended): work saved / oracle's", f"{saved:.2f}",
           f">= {SAVED_GOAL:g}", saved >= SAVED_GOAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
