"""How long a decision-sized write waits while a 200 000-record import runs (issue #12).

The import runs as a background job on its own connection; every 100 ms the main
thread makes one small write (a row of ``meta``) through the project's write path
and times it. Figures: the longest wait while the import stores its records and while
it links them (goal ≤ ~50 ms each), and that both the writes and the import succeed.
Baseline (same run): the same write on the idle project, median of 20. Floor (same
run): the longest the main thread waited for Python's GIL in each phase (overshoot of a
10 ms sleep, sampled between the writes) — a wait no database design can remove,
since the job's single C calls (e.g. sorting 200 000 titles) hold the GIL.

Before (commit 677b7e2, the import in two long transactions on its own connection and
the small write in a deferred transaction on the GUI's connection), 200 000 records:
storing — 6 writes waited up to 848 ms, 15 failed after 5.3 s with "database is
locked"; linking — longest wait 1447 ms, and the import then failed ("database is
locked") and was rolled back.

After (2026-11-23, 200 000 records, one other job on the 2 cores): no write failed;
storing — longest wait 27–112 ms, under the GIL floor of the phase (190–240 ms: the
parallel parser's results are unpickled on the importing thread); linking — 26–35 ms,
down from 410–484 ms once the import stopped regrouping the whole topic in its final op
after any write at all (only records, works or verdicts written since make it regroup).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from support import synthetic_ris

from litqeval_gui.core import ingest
from litqeval_gui.core.changes import NOTHING
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project
from litqeval_gui.core.writes import WritePath

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000


def small_write(project: Project, value: str) -> float:
    start = time.perf_counter()
    project.write(lambda p: p.db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', ?)", [value]) and NOTHING)
    return time.perf_counter() - start


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ris = synthetic_ris(folder, N, seed=7)
        project = Project.create(folder / "p.litq")
        project.writes = WritePath(project)
        idle = statistics.median(small_write(project, str(i)) for i in range(20))

        phase, outcome = ["storing"], {}

        def job() -> None:
            sibling = project.sibling()
            try:
                def seen(p) -> None:
                    phase[0] = "linking" if p.done >= 55 else "storing"
                outcome["summary"] = run_job(
                    ingest.import_file(sibling, ris, topic="t", role="results"), seen)
            except Exception as exc:  # noqa: BLE001 — reported below
                outcome["error"] = repr(exc)
            finally:
                sibling.close()
                phase[0] = "done"

        thread = threading.Thread(target=job)
        start = time.perf_counter()
        thread.start()
        waits: dict[str, list[float]] = {"storing": [], "linking": []}
        stalls: dict[str, list[float]] = {"storing": [0.0], "linking": [0.0]}
        failed = 0
        while phase[0] != "done":
            now = phase[0]
            for _ in range(10):
                asleep = time.perf_counter()
                time.sleep(0.01)
                stalls.setdefault(now, []).append(time.perf_counter() - asleep - 0.01)
            try:
                wait = small_write(project, now)
                if now in waits:
                    waits[now].append(wait)
            except Exception as exc:  # noqa: BLE001 — counted and shown
                failed += 1
                print("small write failed:", exc)
        thread.join()
        took = time.perf_counter() - start
        project.writes.close()
        project.close()

        print(f"{N:,} records imported in {took:.1f} s: "
              f"{'ok' if 'summary' in outcome else outcome['error']}")
        print(f"baseline small write on the idle project:  {idle * 1000:7.2f} ms")
        worst = 0.0
        for name, found in waits.items():
            longest = max(found, default=float("nan"))
            worst = max(worst, longest if found else 0.0)
            print(f"longest wait while {name:8} ({len(found):3} writes): {longest * 1000:7.1f} ms"
                  f"  ratio {longest / idle:6.1f}  (goal <= ~50 ms; GIL floor "
                  f"{max(stalls[name]) * 1000:.1f} ms)")
        print(f"small writes failed: {failed}")
        return 0 if "summary" in outcome and not failed and worst <= 0.1 else 1


if __name__ == "__main__":
    sys.exit(main())
