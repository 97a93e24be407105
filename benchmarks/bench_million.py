"""A living review at a million records, through the command line as a reviewer would
run it (each step a fresh ``litqeval`` process; its wall time and peak memory, the
largest resident set of the process and the workers it waited for).

Runs only when ``MILLION_RECORDS`` is set (e.g. ``MILLION_RECORDS=1000000 make bench``;
about 15 minutes at a million on 2 cores, most of it generating the files): the
generator's records (10 % near-duplicates, seed 0) as one RIS file, and an update of
``MILLION_RECORDS / 10`` records, 30 % of them records of the first file again, the
rest new works (seed 1, PMIDs moved out of the first file's range).

Steps and goals: import and link (≤ 60 s, ≤ 2 GB); ``screen-new``; two decisions, then
``screen-rank`` twice (the first time counts every record's words and keeps them; the
second is what opening the screener costs: ≤ 10 s, ≤ 3 GB); ten more decisions, and a
retrain with the features in memory as the screener keeps them (≤ 5 s); ``screen-status
--json``, ``prisma --json``, ``screen-export --format csv`` and ``screen-log`` (each
≤ 5 s); the update's import (≤ 10 s) and ``screen-update``. Baseline, same run, same
file: ``rispy.load`` of the first file in a process of its own (parsing alone, nothing
stored or linked); the import is printed as a ratio to it.

Usage: ``MILLION_RECORDS=N python benchmarks/bench_million.py [--keep DIR]`` (``--keep``:
the files and the project stay in DIR, for looking at them; files already there are used
again, the project is made anew).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from support import figure, load_average, skip  # noqa: E402

from litqeval_gui.core.records import exporting  # noqa: E402
from tests.support import synthetic  # noqa: E402

BIN = Path(sys.executable).parent
UPDATE_PRESENT = 0.3


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, peak MB) of ``command`` (its output discarded; its errors kept in a
    file, which never fills as a pipe would); a failure stops the benchmark with the
    command's last error line."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink, tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(command, stdout=sink, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        errors.seek(0)
        error = errors.read().decode(errors="replace").strip()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command[:2])} failed: {error.splitlines()[-1:]}")
    return seconds, usage.ru_maxrss / 1024


def make_files(folder: Path, n: int) -> tuple[Path, Path]:
    """The first file (``n`` records) and the update (module docstring)."""
    records, _ = synthetic.generate(n, dup_rate=0.1, seed=0)
    first = folder / "search.ris"
    exporting.export_records(records, first, "ris")
    size = n // 10
    again = random.Random(1).sample(records, round(size * UPDATE_PRESENT))
    del records
    fresh, _ = synthetic.generate(size - len(again), dup_rate=0.1, seed=1)
    fresh = [replace(r, pmid=str(int(r.pmid) + 40_000_000)) if r.pmid else r for r in fresh]
    update = folder / "update.ris"
    exporting.export_records(again + fresh, update, "ris")
    return first, update


def step(name: str, command: list[str], goal_seconds: float | None = None,
         goal_mb: float | None = None) -> float:
    """Run and print one step, with its figures where it has goals; its seconds."""
    seconds, peak = timed(command)
    print(f"{name}: {seconds:.1f} s, peak {peak:.0f} MB | {load_average()}", flush=True)
    if goal_seconds is not None:
        figure(f"{name}, time", f"{seconds:.1f} s", f"<= {goal_seconds:g} s",
               seconds <= goal_seconds)
    if goal_mb is not None:
        figure(f"{name}, peak memory", f"{peak:.0f} MB", f"<= {goal_mb:g} MB", peak <= goal_mb)
    return seconds


def items(project: str, count: int) -> list[int]:
    """The first ``count`` items of screening "s" (list order)."""
    with sqlite3.connect(f"file:{project}?mode=ro", uri=True) as db:
        return [r for r, in db.execute("SELECT record_id FROM screening_items "
                                       "ORDER BY position LIMIT ?", [count])]


def decide(cli: str, project: str, screening: list[str], folder: Path, records: list[int],
           label: str) -> None:
    """Decide ``records`` as one sheet: the first one included, the others ``label``."""
    sheet = folder / "decisions.csv"
    sheet.write_text("id,label\n" + "".join(
        f"{r},{'include' if i == 0 else label}\n" for i, r in enumerate(records)))
    timed([cli, "screen-decide", project, *screening, "--reviewer", "bench", "--csv",
           str(sheet)])


def retrain_seconds(project: str, out: Path) -> None:
    """The hidden ``--retrain`` step: screening "s"'s features built as the screener
    builds them, then one retrain timed, written to ``out`` as JSON."""
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.screening.log import store
    from litqeval_gui.core.screening.ranking.features_apart import features_apart
    from litqeval_gui.core.screening.ranking.retrain import retrain

    with Project.open(project) as opened:
        screening = store.find_screening(opened, "review", "s")
        features = run_job(features_apart(opened, screening))
        start = time.perf_counter()
        run_job(retrain(opened, screening, features))
        out.write_text(json.dumps({"retrain_seconds": time.perf_counter() - start}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--make-files", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--retrain", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.retrain:
        retrain_seconds(args.retrain[0], Path(args.retrain[1]))
        return 0
    n = int(os.environ.get("MILLION_RECORDS") or 0)
    if args.make_files:
        make_files(args.make_files, n)
        return 0
    if n <= 0:
        skip("set MILLION_RECORDS=1000000 (about 15 minutes) to run the million-record "
             "review")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        first, update = folder / "search.ris", folder / "update.ris"
        if not (first.exists() and update.exists()):  # --keep: made by an earlier run
            # in a process of its own: a child started from this one would begin with
            # this one's peak memory (ru_maxrss survives exec)
            subprocess.run([sys.executable, __file__, "--make-files", str(folder)],
                           check=True)
        print(f"files of {n:,} + {n // 10:,} records ({first.stat().st_size / 2**20:.0f} MiB)"
              f" ready in {time.perf_counter() - start:.0f} s", flush=True)
        cli, project = str(BIN / "litqeval"), str(folder / "review.litq")
        topic = ["--topic", "review"]
        screening = [*topic, "--screening", "s"]
        base = step("baseline: rispy.load of the first file",
                    [sys.executable, "-c", "import rispy, sys; rispy.load(open(sys.argv[1], "
                     "encoding='utf-8'))", str(first)])
        Path(project).unlink(missing_ok=True)
        timed([cli, "new", project])
        took = step(f"import and link {n:,} records",
                    [cli, "import", project, str(first), "--role", "results", *topic],
                    60, 2048)
        print(f"  import / rispy.load: {took / base:.2f}x")
        step("screen-new", [cli, "screen-new", project, *screening])
        first_items = items(project, 12)
        decide(cli, project, screening, folder, first_items[:2], "exclude")
        step("screen-rank, the first time (the words of 900 000 records counted and kept)",
             [cli, "screen-rank", project, *screening])
        ranked = step("screen-rank again (the first ranking of a screener opened now)",
                      [cli, "screen-rank", project, *screening], 10, 3072)
        print(f"  screen-rank / rispy.load: {ranked / base:.2f}x")
        decide(cli, project, screening, folder, first_items[2:], "exclude")
        retrained = folder / "retrain.json"
        step("features built once, then the retrain", [sys.executable, __file__, "--retrain",
                                                      project, str(retrained)])
        seconds = json.loads(retrained.read_text())["retrain_seconds"]
        figure("retrain and re-rank after 10 more decisions (features in memory, as the "
               "screener keeps them)", f"{seconds:.1f} s", "<= 5 s", seconds <= 5)
        for name, command in (
                ("screen-status --json", ["screen-status", project, *screening, "--json"]),
                ("prisma --json", ["prisma", project, "--topic", "review", "--json"]),
                ("screen-export --format csv", ["screen-export", project, *screening,
                                                "--format", "csv", str(folder / "all.csv")]),
                ("screen-audit (the decision log)", ["screen-audit", project, *screening,
                                                     str(folder / "log.csv")])):
            step(name, [cli, *command], 5)
        step(f"import of a {n // 10:,}-record update ({UPDATE_PRESENT:.0%} already there)",
             [cli, "import", project, str(update), "--role", "results", "--name", "update",
              *topic], 10)
        step("screen-update", [cli, "screen-update", project, *screening, "--list", "update",
                               "--reviewer", "bench"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
