"""The ranking protocol (docs/tar.md): our default against ASReview LAB's ``elas_u4`` over
a pool of labelled reviews, seed-matched, with the bootstrap interval over reviews.

Per review (``--pool``, or ``$PROTOCOL_POOL`` with paths split as ``PATH`` is: CSV
files or folders holding them, the shared screening pool's layout; without it a
generated set of 2 000 records) and seed 0…k−1 (``--seeds``, 10):
one relevant and one irrelevant prior record drawn by the seed
(:func:`bench_simulate_asreview.prior_rows`), the same rows for both tools; WSS@95 and
recall at 10 % screened, both in asreview-insights' convention (priors left out). Then
:func:`litqeval_gui.metrics.paired.compare` on each measure: per review ours,
elas_u4's, the paired difference with its seed spread, and over the reviews the mean
difference with its 95 % interval and the verdict (:func:`~litqeval_gui.metrics.paired.ahead`).

``--question`` adds our zero-label run: no prior record, the review's question (from
``--questions JSON``, name → question, default ``benchmarks/data/questions.json``) as
the only pseudo-relevant document; printed per review as recall at 10 % screened and the
goal's mean over the reviews (≥ 0.5).

ASReview (its own venv, ``--asreview`` or ``$ASREVIEW``; never a dependency) runs
``asreview simulate --ai elas_u4`` with the same priors; without it the comparison is
skipped with the line that says how. Each of its runs' figures are kept in ``--cache
DIR`` (``$PROTOCOL_CACHE``; default: none) by file digest and seed, so a pool measured
once is not measured again; ours are kept there too, by a digest of the code that makes
them (:func:`ours_key`). ``--only asreview`` (or ``ours``) fills the
cache with that side's runs alone.

``--features SPEC`` runs ours on other features; ``--candidate SPEC`` runs a candidate
beside ours (e.g. ``tfidf+embedding:minilm``; the vectors are computed once per review
first), compared with elas_u4 and with ours by the same protocol.

Usage: ``python benchmarks/bench_protocol.py [--pool PATH]… [--seeds 10] [--asreview
CMD] [--cache DIR] [--features SPEC] [--candidate SPEC] [--question] [--only asreview|ours]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from bench_simulate import prepared
from bench_simulate_asreview import (
    HOW_TO_ADD,
    LABELS,
    asreview_order,
    generated,
    numbered,
    prior_rows,
)
from support import figure, load_average, skip

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.ranking.features import TFIDF
from litqeval_gui.core.screening.simulation.simulate import simulate
from litqeval_gui.metrics.paired import PairedComparison, ahead, compare
from litqeval_gui.metrics.screening_effort import recall_after, wss_insights

QUESTIONS = Path(__file__).with_name("data") / "questions.json"
ZERO_LABEL_GOAL = 0.5
MARGIN = 0.02


def datasets(paths: list[Path]) -> list[Path]:
    """The CSV files of ``paths`` (a folder: every CSV under it), sorted by name."""
    found = []
    for path in paths:
        found += sorted(path.rglob("*.csv")) if path.is_dir() else [path]
    return sorted(found, key=lambda p: p.stem)


def measures(labels: np.ndarray, priors: int) -> dict[str, float]:
    """WSS@95 and recall at 10 % screened of a screening order, priors left out."""
    rest = np.asarray(labels, dtype=bool)[priors:]
    return {"wss": wss_insights(rest, 0.95), "recall10": recall_after(rest, 0.10)}


class Cache:
    """A run's figures as ``DIR/TOOL/DIGEST-SEED.json`` (no folder: nothing kept)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def get(self, tool: str, digest: str, seed: int,
            run: Callable[[], dict[str, float]]) -> dict[str, float]:
        path = self.folder / tool / f"{digest}-{seed}.json" if self.folder else None
        if path and path.exists():
            return json.loads(path.read_text())
        result = run()
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(result))
        return result


RANKING_CODE = ("core/screening/ranking", "core/screening/simulation", "core/records",
                "core/embedding", "metrics")


def ours_key(spec: str) -> str:
    """The cache folder of our runs on features ``spec``: by a digest of the code that
    makes them (:data:`RANKING_CODE`, under ``litqeval_gui``), so a change there runs them
    again."""
    package = Path(__file__).resolve().parents[1] / "litqeval_gui"
    digest = hashlib.sha256()
    for part in RANKING_CODE:
        for path in sorted((package / part).rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode() + path.read_bytes())
    return f"ours-{re.sub(r'[^a-z0-9]+', '_', spec)}-{digest.hexdigest()[:12]}"


class Review:
    """One review's CSV, imported into a project only when a run is not in the cache."""

    def __init__(self, csv_path: Path, folder: Path) -> None:
        self.csv_path, self.folder = csv_path, folder
        self.asked: dict[tuple[str, str], tuple] = {}

    def prepared(self, question: str = "", spec: str = TFIDF) -> tuple:
        """(features, truth in item order, the item of each CSV row)."""
        if (question, spec) not in self.asked:
            self.asked[question, spec] = prepared(self.csv_path, self.folder, question,
                                                  spec)[:3]
        return self.asked[question, spec]

    def ours(self, seed: int, prior: list[int], spec: str = TFIDF) -> dict[str, float]:
        features, truth, item_of = self.prepared(spec=spec)
        run = run_job(simulate(features, truth, seed=seed, rules=[],
                               prior=[item_of[row] for row in prior]))
        return measures(run.labels(truth), len(prior)) | {"seconds": run.seconds}

    def from_question(self, seed: int, question: str) -> dict[str, float]:
        features, truth, _ = self.prepared(question)
        run = run_job(simulate(features, truth, seed=seed, rules=[], prior=[]))
        return measures(run.labels(truth), 0) | {"seconds": run.seconds}


def review_runs(source: Path, folder: Path, args, cache: Cache, questions: dict[str, str]
                ) -> dict[str, list[dict[str, float]]]:
    """Per tool (ours, elas_u4, ours from the question): one figures dict per seed."""
    csv_path, labels = numbered(source, folder / "data.csv")
    LABELS[:] = labels
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    review = Review(csv_path, folder)
    runs: dict[str, list[dict[str, float]]] = {"ours": [], "candidate": [], "elas_u4": [],
                                               "question": []}
    for seed in range(args.seeds):
        prior = prior_rows(labels, seed)
        if args.asreview:
            def theirs(prior=prior, seed=seed):
                start = time.perf_counter()
                order = asreview_order(args.asreview, csv_path, folder, seed, prior)
                return measures(order, len(prior)) | {"seconds": time.perf_counter() - start}
            runs["elas_u4"].append(cache.get("elas_u4", digest, seed, theirs))
        if args.only != "asreview":
            for tool, spec in (("ours", args.features), ("candidate", args.candidate)):
                if spec:
                    runs[tool].append(cache.get(ours_key(spec), digest, seed,
                                                lambda p=prior, s=seed, f=spec:
                                                review.ours(s, p, f)))
    question = questions.get(source.stem, "")
    if args.question and args.only != "asreview" and question:
        runs["question"] = [review.from_question(seed, question)
                            for seed in range(args.seeds)]
    return runs


def table(title: str, comparison: PairedComparison) -> None:
    print(f"\n{title}: review, the one, the other, paired difference (seed spread, seeds)")
    for row in comparison.reviews:
        print(f"  {row.review:36s} {row.candidate:.3f}  {row.baseline:.3f}  "
              f"{row.difference:+.3f} (±{row.spread:.3f}, {row.seeds})"
              + ("  worse than its spread" if row.worse_than_spread else ""))
    print(f"  mean over {len(comparison.reviews)} reviews {comparison.mean:+.4f}, 95 % "
          f"interval {comparison.low:+.4f} to {comparison.high:+.4f}; ahead on "
          f"{comparison.ahead_count} of {len(comparison.reviews)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pool", type=Path, action="append",
                        default=[Path(p) for p in os.environ.get("PROTOCOL_POOL", "").split(
                            os.pathsep) if p])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--asreview", default=os.environ.get("ASREVIEW") or None)
    parser.add_argument("--cache", type=Path, default=os.environ.get("PROTOCOL_CACHE") or None)
    parser.add_argument("--features", default=TFIDF, help="our features (a candidate: "
                        "tfidf+embedding:minilm needs the neural extra)")
    parser.add_argument("--candidate", help="features of a candidate run beside ours, "
                        "compared with elas_u4 and with ours")
    parser.add_argument("--question", action="store_true")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--only", choices=("asreview", "ours"))
    args = parser.parse_args()
    if args.only == "ours":
        args.asreview = None
    elif not args.asreview:
        skip(HOW_TO_ADD)
        if args.only == "asreview" or not args.question:
            return 0
    questions = {name: text for name, text in
                 json.loads(args.questions.read_text(encoding="utf-8")).items()
                 if not name.startswith("_")} if args.question else {}
    cache = Cache(args.cache)
    every: dict[str, dict[str, list[dict[str, float]]]] = {}
    print(load_average())
    with tempfile.TemporaryDirectory() as tmp:
        sources = datasets(args.pool) or [generated(Path(tmp) / "generated.csv")]
        for index, source in enumerate(sources):
            folder = Path(tmp) / f"review{index}"
            folder.mkdir()
            every[source.stem] = runs = review_runs(source, folder, args, cache, questions)
            print(f"{source.stem}: " + " | ".join(
                f"{tool} WSS@95 {np.mean([r['wss'] for r in got]):.3f} recall@10% "
                f"{np.mean([r['recall10'] for r in got]):.3f} "
                f"{np.mean([r['seconds'] for r in got]):.1f} s/run"
                for tool, got in runs.items() if got) + f" | {load_average()}", flush=True)
    if args.only == "asreview":
        return 0
    if args.asreview:
        pairs = [("ours", "elas_u4")]
        if args.candidate:
            pairs += [("candidate", "elas_u4"), ("candidate", "ours")]
        for mine, theirs in pairs:
            label = {"ours": f"ours ({args.features})",
                     "candidate": f"candidate ({args.candidate})"}[mine]
            wss, recall = (compare({n: [r[m] for r in runs[mine]] for n, runs in every.items()},
                                   {n: [r[m] for r in runs[theirs]] for n, runs in every.items()})
                           for m in ("wss", "recall10"))
            table(f"WSS@95 (insights), {label} against {theirs}", wss)
            table(f"recall at 10 % screened, {label} against {theirs}", recall)
            figure(f"ranking protocol: WSS@95 {label} − {theirs} (mean over reviews, 95 % "
                   "interval)", f"{wss.mean:+.3f} [{wss.low:+.3f}, {wss.high:+.3f}] over "
                   f"{len(wss.reviews)} reviews", f"ahead: >= {MARGIN:+.2f}, interval > 0, "
                   "recall@10% not worse, no review behind by more than its spread",
                   ahead(wss, recall))
        ours_s = np.mean([r["seconds"] for runs in every.values() for r in runs["ours"]])
        theirs_s = np.mean([r["seconds"] for runs in every.values() for r in runs["elas_u4"]])
        figure("ranking protocol: wall time per run, elas_u4 (the command) / ours (the simulation)",
               f"{theirs_s / ours_s:.1f}x ({theirs_s:.1f} s / {ours_s:.1f} s)", "-", None)
    cold = [np.mean([r["recall10"] for r in runs["question"]])
            for runs in every.values() if runs["question"]]
    if cold:
        figure("zero labels, the question only: recall at 10 % screened (mean over reviews)",
               f"{np.mean(cold):.3f} over {len(cold)} reviews", f">= {ZERO_LABEL_GOAL:g}",
               np.mean(cold) >= ZERO_LABEL_GOAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
