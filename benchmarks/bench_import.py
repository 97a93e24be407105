"""Import of a 100 000-record RIS file into a new project vs rispy's bare parse.

Baseline: ``rispy.loads`` of the same text (read from disk, same run).
Figure 1 (goal ≤ 2.0, issue #2): the import — hash, detect, decode, parse, validate,
normalise and store every record, committed — timed to the moment the import's first
transaction has committed. Figure 2 (goal ≤ 2.0, issue 23): the same plus linking
the 100 000 records (de-duplication, the second transaction), i.e. until ``litqeval
import`` returns.
The first import of a process also starts the parser's worker server (as the CLI
does on every run); later ones reuse it (as the app does): both are shown.
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

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest
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

        bare, stored, ours = [], [], []
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
                    marks.append(time.perf_counter())

            with Project.create(path) as project:
                start = time.perf_counter()
                summary = run_job(ingest.import_file(project, ris, topic="t", role="results"),
                                  mark)
                ours.append(time.perf_counter() - start)
            stored.append(marks[0] - start)
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
        print(f"project size on disk: {(tmp / 'p0.litq').stat().st_size / 1e6:.1f} MB")
        figure("import stored ÷ rispy.loads", f"{s / b:.2f} ({s:.2f} s / {b:.2f} s; "
               f"{load_average()})", "<= 2.0", s / b <= 2.0)
        figure("import + linking ÷ rispy.loads", f"{o / b:.2f} ({o:.2f} s / {b:.2f} s)", "<= 2.0",
               o / b <= 2.0)
        return 0

if __name__ == "__main__":
    sys.exit(main())
