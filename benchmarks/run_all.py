"""Run every ``benchmarks/bench_*.py`` in turn (``make bench``), streaming each one's output
and keeping it; then print one summary table of the figures they reported.

A benchmark reports through ``support.figure`` and ``support.skip``, which print the tab-
separated lines read here: ``figure<TAB>NAME<TAB>SHOWN<TAB>GOAL<TAB>met|not met|-`` and
``skipped<TAB>HOW TO ADD WHAT IS MISSING``. A missed goal is a row saying "not met"; only a
benchmark that exits non-zero (a crash) makes the run exit 1.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from dataclasses import dataclass, field

HERE = pathlib.Path(__file__).resolve().parent
FIGURE_PREFIX = "figure\t"
SKIP_PREFIX = "skipped\t"
HEADER = ("benchmark", "figure", "measured", "goal", "result")


@dataclass
class Outcome:
    """What one benchmark reported: its figures as (name, shown, goal, verdict), the
    reasons it (or a part of it) was skipped, and its exit status."""

    name: str
    returncode: int
    figures: list[tuple[str, str, str, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def parse_output(name: str, text: str, returncode: int) -> Outcome:
    """The :class:`Outcome` of benchmark ``name`` from its captured standard output."""
    outcome = Outcome(name, returncode)
    for line in text.splitlines():
        if line.startswith(FIGURE_PREFIX):
            figure, shown, goal, verdict = line[len(FIGURE_PREFIX):].split("\t", 3)
            outcome.figures.append((figure, shown.strip(), goal.strip(), verdict))
        elif line.startswith(SKIP_PREFIX):
            outcome.skipped.append(line[len(SKIP_PREFIX):])
    return outcome


def summary_rows(outcomes: list[Outcome]) -> list[tuple[str, str, str, str, str]]:
    """One row a figure, a skip and a crash; a benchmark that reported nothing has a row
    saying so. (The reasons for the skips follow the table: see :func:`summary_table`.)"""
    rows = []
    for outcome in outcomes:
        rows += [(outcome.name, *figure) for figure in outcome.figures]
        rows += [(outcome.name, "-", "-", "-", "skipped") for _ in outcome.skipped]
        if outcome.returncode != 0:
            rows.append((outcome.name, "-", f"exit status {outcome.returncode}", "-", "FAILED"))
        elif not outcome.figures and not outcome.skipped:
            rows.append((outcome.name, "-", "no figures reported", "-", "-"))
    return rows


def summary_table(outcomes: list[Outcome]) -> str:
    """The rows of :func:`summary_rows` under :data:`HEADER`, in aligned columns; a count
    of met, not met, skipped and failed; then each skip's reason (how to add what is
    missing), one a line."""
    rows = [HEADER, *summary_rows(outcomes)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
             .rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    verdicts = [figure[3] for outcome in outcomes for figure in outcome.figures]
    skipped = [o.name for o in outcomes if o.skipped]
    failed = [o.name for o in outcomes if o.returncode != 0]
    lines.append(f"\n{verdicts.count('met')} met, {verdicts.count('not met')} not met; "
                 f"skipped: {', '.join(skipped) or 'none'}; failed: {', '.join(failed) or 'none'}")
    lines += [f"{o.name} skipped: {reason}" for o in outcomes for reason in o.skipped]
    return "\n".join(lines)


def exit_status(outcomes: list[Outcome]) -> int:
    """1 when a benchmark exited non-zero (crashed), else 0 — a missed goal is not a failure."""
    return 1 if any(outcome.returncode != 0 for outcome in outcomes) else 0


def run(script: pathlib.Path) -> Outcome:
    """Run ``script``, streaming its standard output as it comes (unbuffered, as on a
    terminal) and keeping it."""
    with subprocess.Popen([sys.executable, str(script)], cwd=HERE.parent, text=True,
                          stdout=subprocess.PIPE, bufsize=1,
                          env=os.environ | {"PYTHONUNBUFFERED": "1"}) as process:
        captured = []
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            captured.append(line)
    return parse_output(script.stem, "".join(captured), process.returncode)


def main() -> int:
    outcomes = []
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n=== {script.name} ===", flush=True)
        outcomes.append(run(script))
    print(f"\n=== summary ===\n{summary_table(outcomes)}", flush=True)
    return exit_status(outcomes)


if __name__ == "__main__":
    sys.exit(main())
