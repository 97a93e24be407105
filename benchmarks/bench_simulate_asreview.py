"""Simulation against ASReview LAB's ``asreview simulate`` (issue 14): same data, same
model family (TF-IDF + naive Bayes or logistic regression), same prior records.

ASReview (PyPI ``asreview`` 3.x) is never a project dependency: give the path of its
command from a virtual environment of its own (``--asreview``, or the ``ASREVIEW``
environment variable, which ``make bench ASREVIEW=…`` sets); without it the benchmark
is skipped with the line that says how (:data:`HOW_TO_ADD`).

Per seed: one relevant and one irrelevant prior record drawn with that seed (the same
rows for both tools); ASReview runs ``-e tfidf -c MODEL -q max -b balanced`` (it stops
after the last relevant record). Named so, ASReview 3 builds each part with its defaults
(the tuned ELAS settings come only with ``--ai``): TfidfVectorizer() (single words, no
stop words), MultinomialNB(alpha=1) or LogisticRegression() (C = 1, lbfgs), balanced
sample weights (ratio 1) and one record per query, retraining after every record. We
import the CSV into a project and run :func:`~litqeval_gui.core.screening.simulation.simulate.simulate`
(import + features + simulation timed, as ASReview's wall time covers reading the file
and its features). Printed per seed and as means: wall time of each and the ratio
(goal: ours at least 3× faster), and WSS@95 of each (goal: ours ≥ ASReview's − 0.02),
both computed with metrics/tar.py, and beside them in asreview-insights' convention (the
prior records left out, metrics/screening_effort.py).

Usage: ``python benchmarks/bench_simulate_asreview.py [--asreview PATH] [--dataset CSV]
[--model nb|logistic] [--ai elas_u4] [--seeds 5] [--asreview-seeds K]`` (``--ai``:
ASReview's tuned model of that name, e.g. its default ``elas_u4``, instead; ASReview
only for the first K seeds: its logistic regression retrains with lbfgs after every
record, ~15 min a seed);
without ``--dataset`` a generated labelled set of 2 000 records (5 % relevant) is used.
The CSV needs ``title``, ``abstract`` and ``label_included`` (1/0) columns (the shared
screening datasets have them).
"""

from __future__ import annotations

import argparse
import csv
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

import numpy as np  # noqa: E402
from support import figure, load_average, skip  # noqa: E402

from litqeval_gui.core.jobs import run_job  # noqa: E402
from litqeval_gui.core.projectfile.project import Project  # noqa: E402
from litqeval_gui.core.records import ingest  # noqa: E402
from litqeval_gui.core.records.queries import RecordFilter  # noqa: E402
from litqeval_gui.core.records.rows import SELECT_CONTENT, record_from_row  # noqa: E402
from litqeval_gui.core.screening.log import store  # noqa: E402
from litqeval_gui.core.screening.ranking.features import build_features  # noqa: E402
from litqeval_gui.core.screening.ranking.known import parse_label  # noqa: E402
from litqeval_gui.core.screening.simulation.simulate import simulate  # noqa: E402
from litqeval_gui.metrics.screening_effort import wss_insights  # noqa: E402
from litqeval_gui.metrics.tar import tar_at_recall  # noqa: E402
from tests.support.screening import labelled_records  # noqa: E402

ROW = "bench_row"  # the column added to our copy of the CSV: 0-based row number
HOW_TO_ADD = ("needs ASReview LAB in its own venv: python3 -m venv /tmp/asr && "
              "/tmp/asr/bin/pip install 'asreview>=3,<4'; then "
              "make bench ASREVIEW=/tmp/asr/bin/asreview")
SPEED_GOAL = 3.0  # ASReview's wall time / ours, at least
WSS_GOAL = -0.02  # our WSS@95 − ASReview's, at least


def generated(path: Path) -> Path:
    records, labels = labelled_records(2000, 0.05, seed=4, strength=3)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(["title", "abstract", "label_included"])
        for record, label in zip(records, labels, strict=True):
            writer.writerow([record.title, record.abstract, label])
    return path


def numbered(source: Path, target: Path) -> tuple[Path, list[bool]]:
    """A copy of ``source`` with the :data:`ROW` column; and the rows' labels."""
    with open(source, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    labels = [bool(parse_label(row["label_included"])) for row in rows]
    with open(target, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*rows[0], ROW], quoting=csv.QUOTE_ALL)
        writer.writeheader()
        for number, row in enumerate(rows):
            writer.writerow(row | {ROW: number})
    return target, labels


def ours(csv_path: Path, folder: Path, model: str, seed: int,
         prior_rows: list[int]) -> tuple[float, float, int, float]:
    """(seconds, WSS@95, records, WSS@95 in asreview-insights' convention: the priors left
    out) of our simulation with the given prior rows."""
    start = time.perf_counter()
    path = folder / f"ours{seed}.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, csv_path, topic="T", role="results", name="L"))
        topic_id = project.topic_id("T")
        import_id = project.db.execute("SELECT id FROM imports").fetchone()[0]
        items = store.representatives(project, [import_id], RecordFilter())
        row_of = {}
        for record_id, *content in project.db.execute(
                f"SELECT id, {SELECT_CONTENT} FROM records"):
            row_of[record_id] = int(record_from_row(content).raw[ROW])
        features = run_job(build_features(project, topic_id, items))
    rows = [row_of[r] for r in items]
    index = {row: i for i, row in enumerate(rows)}
    truth = np.array([LABELS[row] for row in rows], dtype=bool)
    run = run_job(simulate(features, truth, model=model, seed=seed,
                           prior=[index[row] for row in prior_rows], rules=[]))
    return (time.perf_counter() - start, run.wss_at_95, len(items),
            wss_insights(run.labels(truth)[len(prior_rows):], 0.95))


def prior_rows(labels, seed: int) -> list[int]:
    """One relevant and one irrelevant CSV row drawn with ``seed``: the priors of both
    tools in every simulation benchmark."""
    labels = np.asarray(labels, dtype=bool)
    rng = np.random.default_rng(1000 + seed)
    return [int(rng.choice(np.flatnonzero(labels))), int(rng.choice(np.flatnonzero(~labels)))]


def asreview_order(command: str, csv_path: Path, folder: Path, seed: int,
                   prior_rows: list[int], chosen: list[str] | None = None) -> np.ndarray:
    """The labels, in screening order, of ``asreview simulate`` with the given prior rows
    (its results hold them first) and model options ``chosen`` (default: ``--ai
    elas_u4``, its default tuned model); the rows it did not screen follow, irrelevant.
    It runs in ``folder`` (it leaves a ``synergy_cache.sqlite`` there)."""
    out = folder / f"asr{seed}.asreview"
    out.unlink(missing_ok=True)
    subprocess.run([command, "simulate", str(csv_path), *(chosen or ["--ai", "elas_u4"]),
                    "--seed", str(seed), "--prior-idx", *map(str, prior_rows), "-o", str(out)],
                   check=True, cwd=folder, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with zipfile.ZipFile(out) as archive:
        name = next(n for n in archive.namelist() if n.endswith("results.db"))
        archive.extract(name, folder / f"asr{seed}")
    db = sqlite3.connect(folder / f"asr{seed}" / name)
    order = [row[0] for row in db.execute("SELECT label FROM results ORDER BY rowid")]
    db.close()
    labels = np.zeros(len(LABELS), dtype=bool)  # unscreened rows come after: irrelevant
    labels[:len(order)] = np.array(order, dtype=bool)
    return labels


def asreview(command: str, csv_path: Path, folder: Path, model: str, seed: int,
             prior_rows: list[int], ai: str | None = None) -> tuple[float, float, float]:
    """(seconds, WSS@95, WSS@95 in asreview-insights' convention) of ``asreview simulate``
    (:func:`asreview_order`); with ``ai`` (e.g. ``elas_u4``) ASReview's tuned model of
    that name instead of ``model`` built from defaults."""
    start = time.perf_counter()
    chosen = ["--ai", ai] if ai else ["-e", "tfidf", "-c", model, "-q", "max", "-b",
                                      "balanced"]
    labels = asreview_order(command, csv_path, folder, seed, prior_rows, chosen)
    seconds = time.perf_counter() - start
    return seconds, tar_at_recall(labels).wss, wss_insights(labels[len(prior_rows):], 0.95)


LABELS: list[bool] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--asreview", default=os.environ.get("ASREVIEW") or None,
                        help="path of the asreview command (default: $ASREVIEW)")
    parser.add_argument("--dataset", type=Path, help="labelled CSV (title, abstract, "
                                                     "label_included)")
    parser.add_argument("--model", choices=("nb", "logistic"), default="nb")
    parser.add_argument("--ai", help="ASReview's tuned model instead (e.g. elas_u4, its "
                                     "default); ours stays --model")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--asreview-seeds", type=int, help="run ASReview for the first K "
                                                          "seeds only (default: all)")
    args = parser.parse_args()
    if not args.asreview:
        skip(HOW_TO_ADD)
        return 0
    theirs_seeds = args.seeds if args.asreview_seeds is None else args.asreview_seeds
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = args.dataset or generated(folder / "generated.csv")
        csv_path, labels = numbered(source, folder / "data.csv")
        LABELS[:] = labels
        print(f"{source.name}: {len(labels)} rows, {sum(labels)} relevant, model {args.model}"
              + (f", ASReview --ai {args.ai}" if args.ai else ""))
        print(load_average())
        mine_all, totals = [], []
        for seed in range(args.seeds):
            prior = prior_rows(labels, seed)
            mine = ours(csv_path, folder, args.model, seed, prior)
            mine_all.append(mine)
            line = (f"seed {seed}: ours {mine[0]:6.1f} s WSS@95 {mine[1]:.3f} (insights "
                    f"{mine[3]:.3f}; {mine[2]} records)")
            if seed < theirs_seeds:
                theirs = asreview(args.asreview, csv_path, folder, args.model, seed, prior,
                                  args.ai)
                totals.append((mine, theirs))
                line += (f" | ASReview {theirs[0]:6.1f} s WSS@95 {theirs[1]:.3f} (insights "
                         f"{theirs[2]:.3f})"
                         f" | {theirs[0] / mine[0]:4.1f}x faster")
            print(f"{line} | {load_average()}", flush=True)
        print(f"ours over {len(mine_all)} seeds: {np.mean([m[0] for m in mine_all]):.1f} s, "
              f"WSS@95 {np.mean([m[1] for m in mine_all]):.3f} (insights "
              f"{np.mean([m[3] for m in mine_all]):.3f})")
        if totals:
            ours_s = np.mean([m[0] for m, _ in totals])
            theirs_s = np.mean([t[0] for _, t in totals])
            ours_w = np.mean([m[1] for m, _ in totals])
            theirs_w = np.mean([t[1] for _, t in totals])
            print(f"both over {len(totals)} seeds: ours {ours_s:.1f} s, WSS@95 {ours_w:.3f} | "
                  f"ASReview {theirs_s:.1f} s, WSS@95 {theirs_w:.3f} | ratio "
                  f"{theirs_s / ours_s:.1f}x (goal >= 3x), WSS difference "
                  f"{ours_w - theirs_w:+.3f} (goal >= -0.02) | {load_average()}")
            figure(f"ASReview / ours wall time, {args.model}",
                   f"{theirs_s / ours_s:.1f}x ({theirs_s:.1f} s / {ours_s:.1f} s)",
                   f">= {SPEED_GOAL:g}x", theirs_s / ours_s >= SPEED_GOAL)
            figure(f"WSS@95 ours − ASReview's, {args.model}",
                   f"{ours_w - theirs_w:+.3f} ({ours_w:.3f} vs {theirs_w:.3f})",
                   f">= {WSS_GOAL:+.2f}", ours_w - theirs_w >= WSS_GOAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
