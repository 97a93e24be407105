"""Import of a 100 000-record RIS file into a new project vs rispy's bare parse.

Baseline: ``rispy.loads`` of the same text (read from disk, same run). Our figure:
the whole ``litqeval import`` path — read, detect, parse, normalise, store, link,
group — into a new project. Goal (issue #2): ratio ≤ 2.0.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import rispy

from litqeval_gui.core import exporting, ingest, synthetic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project

N = 100_000
REPEATS = 3


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        records, _ = synthetic.generate(N, dup_rate=0.0, seed=7)
        ris = tmp / "big.ris"
        exporting.export_records(records, ris, "ris")
        size_mb = ris.stat().st_size / 1e6

        bare, ours = [], []
        for i in range(REPEATS):
            start = time.perf_counter()
            parsed = rispy.loads(ris.read_text(encoding="utf-8"))
            bare.append(time.perf_counter() - start)
            assert len(parsed) == N
            del parsed

            path = tmp / f"p{i}.litq"
            start = time.perf_counter()
            with Project.create(path) as project:
                summary = run_job(ingest.import_file(project, ris, topic="t", role="results"))
            ours.append(time.perf_counter() - start)
            assert summary.read == N, summary.read

        b, o = statistics.median(bare), statistics.median(ours)
        print(f"RIS file: {N} records, {size_mb:.1f} MB; median of {REPEATS}")
        print(f"baseline rispy.loads (bare parse):      {b:7.2f} s")
        print(f"litqeval import into a new project:     {o:7.2f} s")
        print(f"ratio import / rispy parse:             {o / b:7.2f}  (goal <= 2.0)")
        print(f"project size on disk: {(tmp / 'p0.litq').stat().st_size / 1e6:.1f} MB")
        return 0 if o / b <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
