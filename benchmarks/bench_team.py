"""Team screening at 10 000 decisions (issue 25): merging a colleague's decisions file,
and what the conflicts screen reads.

Two copies of one project (list L of N records, screening S): Ada decides every record in
one, Bob in the other, disagreeing on every 7th record (include vs exclude).

1. Bob's decisions file (``export_decisions``) merged into Ada's copy: into a screening
   already holding her N decisions (conflicts counted before and after), again
   (idempotent: nothing added), and into a fresh copy (an empty screening). Baseline
   (same run): reading the file's JSON lines alone.
2. The conflicts screen's reads after the merge: ``team.conflicts``, ``team.agreement``
   (κ before and after resolution) and ``team.final_events``; and κ with its 95 %
   interval on this constructed case (disagreeing on every 7th record), before and after
   100 conflicts are resolved.

Usage: ``python benchmarks/bench_team.py [N]`` (default 10 000). Figures are printed with
the load averages: the machine may be shared.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from support import figure, load_average  # noqa: E402

from litqeval_gui.core.jobs import run_job  # noqa: E402
from litqeval_gui.core.projectfile.project import Project  # noqa: E402
from litqeval_gui.core.screening.log import store  # noqa: E402
from litqeval_gui.core.screening.reviewers import team  # noqa: E402
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions  # noqa: E402
from tests.support.screening import screening_project  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
EVERY = 7


def decide_all(path: Path, reviewer: str, label_of) -> None:
    """``reviewer`` decides every record of S (``label_of(index)``) in one write."""
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "S")
        ops = [store.decide_op(screening, record, label_of(i), store.Context(reviewer))
               for i, record in enumerate(store.items(project, screening.id))]

        def op(p: Project):
            for one in ops:
                one(p)
            return store.DECISIONS
        project.write(op)


def timed(call):
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def merge(path: Path, source: Path):
    with Project.open(path) as project:
        return timed(lambda: run_job(merge_decisions(project, source)))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"building a {N:,}-record project… ({load_average()})", flush=True)
        path, _ = screening_project(folder, N, 0.05, seed=1)
        with Project.open(path) as project:
            store.create_screening(project, "T", "S", ["L"])
        copies = {name: folder / f"{name}.litq" for name in ("ada", "bob", "empty")}
        for copy in copies.values():
            shutil.copy(path, copy)
        decide_all(copies["ada"], "Ada", lambda i: "include" if i % 2 else "exclude")
        decide_all(copies["bob"], "Bob", lambda i: ("exclude" if i % 2 else "include")
                   if i % EVERY == 0 else ("include" if i % 2 else "exclude"))
        bob_file = folder / "bob.jsonl"
        with Project.open(copies["bob"]) as project:
            screening = store.find_screening(project, "T", "S")
            _, export_time = timed(lambda: export_decisions(project, screening, "Bob", bob_file))
        _, read_time = timed(lambda: [json.loads(line) for line in
                                      bob_file.read_text(encoding="utf-8").splitlines()])
        print(f"export of Bob's {N:,} decisions: {export_time:.2f} s; reading its JSON "
              f"lines alone (baseline): {read_time:.3f} s")

        report, first = merge(copies["ada"], bob_file)
        _, again = merge(copies["ada"], bob_file)
        empty_report, empty = merge(copies["empty"], bob_file)
        print(f"merge into Ada's {N:,}: {first:.2f} s ({report.added:,} added, conflicts "
              f"{report.conflicts_before} -> {report.conflicts_after}); again: {again:.2f} s; "
              f"into an empty screening: {empty:.2f} s ({empty_report.added:,} added)  "
              f"({load_average()})")
        figure(f"merge {N:,} decisions into {N:,} (conflicts counted)", f"{first:.2f} s",
               "-", None)
        figure(f"merge {N:,} decisions again (idempotent)", f"{again:.2f} s", "-", None)
        figure(f"merge {N:,} decisions into an empty screening", f"{empty:.2f} s", "-", None)

        with Project.open(copies["ada"]) as project:
            screening = store.find_screening(project, "T", "S")
            found, conflict_time = timed(lambda: team.conflicts(project, screening.id))
            summary, agreement_time = timed(lambda: team.agreement(project, screening))
            _, final_time = timed(lambda: team.final_events(project, screening.id))
            (pair,) = summary.pairs
            print(f"conflicts: {len(found):,} in {conflict_time:.2f} s; agreement "
                  f"{agreement_time:.2f} s; final decisions {final_time:.2f} s")
            print(f"κ (disagreeing on every {EVERY}th of {N:,}): {pair.kappa.kappa:.4f}, 95 % CI "
                  f"[{pair.kappa.ci[0]:.4f}, {pair.kappa.ci[1]:.4f}], raw agreement "
                  f"{pair.kappa.agreement:.4f}, table {pair.kappa.table}")
            for conflict in found[:100]:
                project.write(store.resolve_op(screening, conflict.record_id, "include",
                                               team.CONSENSUS))
            (pair,) = team.agreement(project, screening).pairs
            print(f"after 100 resolutions: κ {pair.after.kappa:.4f}, 95 % CI "
                  f"[{pair.after.ci[0]:.4f}, {pair.after.ci[1]:.4f}] (before: "
                  f"{pair.kappa.kappa:.4f})")
            figure(f"κ, every {EVERY}th of {N:,} disagreeing", f"{pair.kappa.kappa:.3f}", "-",
                   None)


if __name__ == "__main__":
    main()
