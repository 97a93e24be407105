"""How long the command line takes to start: ``litqeval --help`` and ``litqeval info``.

Each command runs ``--runs`` times (default 7) as its own process, as a user types it;
the figure is the median wall time. Goals: ``--help`` < 0.5 s, ``info`` on a small
project < 1 s (2 cores). Baseline (same run): the interpreter alone (``python -c pass``),
so each figure is also shown as a ratio to the floor no import order can remove.

``--help`` reads the command table (:mod:`litqeval_gui.cli.commands`) alone; a command
imports its own module only. Before (main at 51fb8b4, every module imported for any
command): ``--help`` 2.1–3.7 s, ``info`` about 2.5 s.

Usage: ``python benchmarks/bench_cli_startup.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from support import figure, load_average

HELP_GOAL, INFO_GOAL = 0.5, 1.0


def median_seconds(argv: list[str], runs: int) -> float:
    """The median wall time of ``argv`` over ``runs`` runs (each must exit 0)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    cli = [sys.executable, "-m", "litqeval_gui.cli"]
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "small.litq"
        subprocess.run([*cli, "new", str(project)], check=True, stdout=subprocess.DEVNULL)
        floor = median_seconds([sys.executable, "-c", "pass"], runs)
        shown = median_seconds([*cli, "--help"], runs)
        info = median_seconds([*cli, "info", str(project)], runs)
    print(f"{load_average()}; median of {runs}; interpreter alone {floor:.3f} s")
    figure("litqeval --help", f"{shown:.2f} s ({shown / floor:.1f}x the interpreter)",
           f"< {HELP_GOAL} s", shown < HELP_GOAL)
    figure("litqeval info (small project)", f"{info:.2f} s ({info / floor:.1f}x the "
           "interpreter)", f"< {INFO_GOAL} s", info < INFO_GOAL)


if __name__ == "__main__":
    main()
