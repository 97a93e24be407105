"""Import of a 100 000-record RIS file into a new project vs rispy's bare parse.

Baseline: ``rispy.loads`` of the same text (read from disk, same run).
Figure 1 (goal ≤ 2.0, issue #2): the import — hash, detect, decode, parse, validate,
normalise and store every record, committed — timed to the moment the import's first
transaction has committed. Figure 2 (goal ≤ 2.0, issue 23): the same plus linking
the 100 000 records (de-duplication, the second transaction), i.e. until ``litqeval
import`` returns.
The first import of a process also starts the parser's worker server (as the CLI
does on every run); later ones reuse it (as the app does): both are shown.
Wall-clock ratios move with the machine's load, so CPU figures are printed beside them
(not goals): this process's CPU seconds for storing and for the whole import (the parse
workers' not included), and the parse workers' CPU per record — one piece after another
parsed into rows here, as a worker does — against ``rispy.loads`` of the same text.
"""

from __future__ import annotations

import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

import rispy
from support import figure, load_average  # noqa: E402

from litqeval_gui.core.jobs import gc_paused, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest
from litqeval_gui.core.records.importing import parallel
from tests.support import synthetic  # noqa: E402

N = 100_000
REPEATS = 5


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        records, _ = synthetic.generate(N, dup_rate=0.0, seed=7)
        ris = tmp / "big.ris"
        exporting.export_records(records, ris, "ris")
        del records  # the app holds no such list: keep the heap as it would be
        gc.collect()
        size_mb = ris.stat().st_size / 1e6

        bare, stored, ours, cpu_stored, cpu_ours = [], [], [], [], []
        for i in range(REPEATS):
            start = time.perf_counter()
            parsed = rispy.loads(ris.read_text(encoding="utf-8"))
            bare.append(time.perf_counter() - start)
            assert len(parsed) == N
            del parsed

            path = tmp / f"p{i}.litq"
            marks = []

            def mark(p, marks=marks):
                if p.message == "linking" and not marks:
                    marks.append((time.perf_counter(), time.process_time()))

            with Project.create(path) as project:
                start, cpu = time.perf_counter(), time.process_time()
                summary = run_job(ingest.import_file(project, ris, topic="t", role="results"),
                                  mark)
                ours.append(time.perf_counter() - start)
                cpu_ours.append(time.process_time() - cpu)
            stored.append(marks[0][0] - start)
            cpu_stored.append(marks[0][1] - cpu)
            assert summary.read == N, summary.read

        b, s, o = (statistics.median(x) for x in (bare, stored, ours))
        print(f"RIS file: {N} records, {size_mb:.1f} MB; median of {REPEATS}; {load_average()}")
        print("each run, stored / bare:", ", ".join(f"{x / y:.2f}" for x, y in zip(stored, bare,
                                                                                  strict=True)),
              "(the first one starts the worker server)")
        print("each run, + linking / bare:", ", ".join(f"{x / y:.2f}" for x, y in zip(ours, bare,
                                                                                     strict=True)))
        print(f"baseline rispy.loads (bare parse):          {b:7.2f} s")
        print(f"import, stored and committed:               {s:7.2f} s  ratio {s / b:5.2f}")
        print(f"import + linking 100k records (returns):    {o:7.2f} s  ratio {o / b:5.2f}")
        print(f"this process's CPU, stored / whole import: {statistics.median(cpu_stored):.2f}"
              f" / {statistics.median(cpu_ours):.2f} s")
        rispy_us, worker_us = worker_cost(ris)
        print(f"CPU per record, best of 3: rispy.loads {rispy_us:.1f} µs, a parse worker "
              f"{worker_us:.1f} µs ({worker_us / rispy_us:.2f}x)")
        print(f"project size on disk: {(tmp / 'p0.litq').stat().st_size / 1e6:.1f} MB")
        figure("import stored ÷ rispy.loads", f"{s / b:.2f} ({s:.2f} s / {b:.2f} s; "
               f"{load_average()})", "<= 2.0", s / b <= 2.0)
        figure("import + linking ÷ rispy.loads", f"{o / b:.2f} ({o:.2f} s / {b:.2f} s)", "<= 2.0",
               o / b <= 2.0)
        return 0


def worker_cost(ris: Path) -> tuple[float, float]:
    """CPU µs per record of ``rispy.loads`` of the file's text and of the parse workers'
    work (:func:`parallel._parse_piece` of each piece, here), best of 3 each."""
    pieces = parallel._ranges(parallel._pieces(ris.read_bytes()), 0)
    tasks = parallel.piece_tasks(str(ris), pieces, str(ris), "utf-8", None)

    def best(work) -> float:
        times = []
        for _ in range(3):
            cpu = time.process_time()
            work()
            times.append(time.process_time() - cpu)
        return min(times) / N * 1e6

    with gc_paused():  # as in a worker (parallel._worker_start)
        return (best(lambda: rispy.loads(ris.read_text(encoding="utf-8"))),
                best(lambda: [parallel._parse_piece(task) for task in tasks]))


if __name__ == "__main__":
    sys.exit(main())
