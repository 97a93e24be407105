"""Screening at 100 000 records (issue 14): next record after a decision, and retraining.

1. Next record on screen after a decision, the commit included: ``ScreeningSession.decide`` (one
   event committed through the app's write path, a ``WritePath`` thread) and then
   ``ScreeningSession.shown``; p50 and p95 over 300 decisions on the idle project and over the
   decisions made while a 50 000-record import runs in the background (goal p95 < 20 ms).
   Baseline (same run): the same write path's smallest write (a ``meta`` row), p50 and
   p95, idle and interleaved with the decisions made during the import (what any write
   waits for behind the import's chunk commits on this machine, whatever it writes).
   Threads hand over the GIL every 0.5 ms, as in the app (``responsive_threads``).
2. Background retrain with 2 000 labels: ``retrain`` (logistic regression, with the
   5-fold cross-validated trust) run on a job thread; its wall time (goal < 2 s) and the
   main thread's longest stall meanwhile (overshoot of 5 ms sleeps; goal < 30 ms).
   Baselines (same run): one plain scikit-learn fit + predict of the same model; the
   longest overshoot of the same 5 ms sleeps over as long with no retrain running (what
   the machine's load alone costs).
   The TF-IDF features are built once per session (a job); their time is printed too.

Usage: ``python benchmarks/bench_screening.py [N]`` (default 100 000). Every figure is
printed with the load averages (``uptime``): the machine may be shared.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

import numpy as np  # noqa: E402
from support import figure, labelled_project, load_average, ms  # noqa: E402

from litqeval_gui.core.jobs import responsive_threads, run_job  # noqa: E402
from litqeval_gui.core.projectfile.changes import NOTHING  # noqa: E402
from litqeval_gui.core.projectfile.project import Project  # noqa: E402
from litqeval_gui.core.projectfile.writes import WritePath  # noqa: E402
from litqeval_gui.core.records import ingest  # noqa: E402
from litqeval_gui.core.screening.log import store  # noqa: E402
from litqeval_gui.core.screening.ranking.features import screening_features  # noqa: E402
from litqeval_gui.core.screening.ranking.models import classifier  # noqa: E402
from litqeval_gui.core.screening.ranking.queue import random_order  # noqa: E402
from litqeval_gui.core.screening.ranking.retrain import retrain  # noqa: E402
from litqeval_gui.core.screening.session import ScreeningSession  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
DECISIONS = 300
LABELS = int(sys.argv[2]) if len(sys.argv) > 2 else 2000


def sleeper_stalls(until: Callable[[], bool]) -> list[float]:
    """Overshoots of 5 ms sleeps until ``until()``: how long this thread waited to run."""
    stalls = [0.0]
    while not until():
        asleep = time.perf_counter()
        time.sleep(0.005)
        stalls.append(time.perf_counter() - asleep - 0.005)
    return stalls


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def timed_decisions(screener: ScreeningSession, count: int, truth: dict[int, bool],
                    keep_going: threading.Event | None = None,
                    probe: Callable[[], float] | None = None,
                    probed: list[float] | None = None) -> list[float]:
    """Decide ``count`` records (or until ``keep_going`` clears); seconds from the key
    press to the next record being known. ``probe``, when given, runs between decisions
    and its results are appended to ``probed``."""
    took = []
    for _ in range(count):
        if keep_going is not None and not keep_going.is_set():
            break
        record = screener.shown
        start = time.perf_counter()
        screener.decide("include" if truth[record] else "exclude")
        assert screener.shown is not None
        took.append(time.perf_counter() - start)
        time.sleep(0.02)  # a reviewer does not decide faster than this
        if probe is not None and probed is not None:
            probed.append(probe())
            time.sleep(0.01)
    return took


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        responsive_threads()  # as the app's start does
        path, labels, side, seconds = labelled_project(folder, N)
        print(f"{N:,} labelled records imported in {seconds:.1f} s")

        project = Project.open(path)
        project.writes = WritePath(project)
        start = time.perf_counter()
        screening = store.create_screening(project, "T", "s", ["L"])
        print(f"screening of {screening.size:,} items created in "
              f"{time.perf_counter() - start:.2f} s")
        items = store.items(project, screening.id)
        truth = dict(zip(items, map(bool, labels), strict=True))
        screener = ScreeningSession(project, screening, "bench", random_order(items, 0))

        def small_write() -> float:
            begin = time.perf_counter()
            project.write(lambda p: p.db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', 'x')") and NOTHING)
            return time.perf_counter() - begin

        baseline = [small_write() for _ in range(100)]
        idle = timed_decisions(screener, DECISIONS, truth)
        busy_baseline: list[float] = []

        running, outcome = threading.Event(), {}
        running.set()

        def job() -> None:
            sibling = project.sibling()
            try:
                outcome["summary"] = run_job(ingest.import_file(sibling, side, topic="B",
                                                                role="results"))
            except Exception as exc:  # noqa: BLE001 — reported below
                outcome["error"] = repr(exc)
            finally:
                sibling.close()
                running.clear()

        worker = threading.Thread(target=job)
        worker.start()
        busy = timed_decisions(screener, 10**6, truth, running, small_write, busy_baseline)
        worker.join()

        for name, took, base in (
                ("idle", idle, baseline),
                ("during a 50 000-record import", busy, busy_baseline)):
            p50, p95, base95 = percentile(took, 50), percentile(took, 95), percentile(base, 95)
            print(f"next record after a decision, {name} ({len(took)} decisions): "
                  f"p50 {ms(p50)}  p95 {ms(p95)}  max {ms(max(took))}  (goal p95 < 20 ms); "
                  f"baseline smallest write p50 {ms(percentile(base, 50))} p95 {ms(base95)}; "
                  f"p95 ratio {p95 / base95:4.1f} | {load_average()}")
            figure(f"next record after a decision, {name}, p95",
                   f"{ms(p95)} (ratio {p95 / base95:.1f} to the smallest write)",
                   "< 20 ms", p95 < 0.020)
        print(f"background import: {'ok' if 'summary' in outcome else outcome['error']}")

        # -- retrain ---------------------------------------------------------------
        start = time.perf_counter()
        features = run_job(screening_features(project, screening))
        print(f"TF-IDF features of {N:,} records (once per session): "
              f"{time.perf_counter() - start:.1f} s, {features.matrix.shape[1]:,} terms | "
              f"{load_average()}")
        more = LABELS - len(idle) - len(busy)
        timed_decisions(screener, more, truth)  # the rest of the 2 000 labels
        decided = store.current_decisions(project, screening.id)
        rows = features.item_rows([e.record_id for e in decided])
        targets = np.array([truth[e.record_id] for e in decided], dtype=int)
        begin = time.perf_counter()
        fitted = classifier("logistic", len(rows), features.matrix.shape[1]).fit(
            features.matrix[rows], targets)
        fitted.predict_proba(features.matrix[:len(items)])
        plain = time.perf_counter() - begin

        result = {}

        def retrain_job() -> None:
            sibling = project.sibling()
            try:
                begin = time.perf_counter()
                result["ranking"] = run_job(retrain(sibling, screening, features))
                result["seconds"] = time.perf_counter() - begin
            finally:
                sibling.close()

        worker = threading.Thread(target=retrain_job)
        worker.start()
        stalls = sleeper_stalls(lambda: not worker.is_alive())
        worker.join()
        quiet_until = time.perf_counter() + result["seconds"]
        quiet = sleeper_stalls(lambda: time.perf_counter() > quiet_until)
        ranking = result["ranking"]
        print(f"retrain with {ranking.labels} labels ({ranking.model}, trust "
              f"τ {ranking.trust.tau:.3f}): {result['seconds']:.2f} s  (goal < 2 s); "
              f"plain fit + predict {plain:.2f} s, ratio {result['seconds'] / plain:.1f} | "
              f"{load_average()}")
        figure(f"retrain with {ranking.labels} labels", f"{result['seconds']:.2f} s (ratio "
               f"{result['seconds'] / plain:.1f} to a plain fit + predict)", "< 2 s",
               result["seconds"] < 2)
        print(f"main thread's longest stall during the retrain: {ms(max(stalls))} "
              f"(goal < 30 ms), p99 {ms(percentile(stalls, 99))}; with no retrain: longest "
              f"{ms(max(quiet))}, p99 {ms(percentile(quiet, 99))}; ratio "
              f"{max(stalls) / max(quiet):.1f} | {load_average()}")
        figure("main thread's longest stall during the retrain", f"{ms(max(stalls))} "
               f"(ratio {max(stalls) / max(quiet):.1f} to no retrain)", "< 30 ms",
               max(stalls) < 0.030)
        screener.switch(ranking.ordering(), keep_shown=False)
        took = timed_decisions(screener, 50, truth)
        print(f"next record after switching to the ranking: p95 {ms(percentile(took, 95))} | "
              f"{load_average()}")
        project.writes.close()
        project.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
