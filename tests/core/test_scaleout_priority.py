"""A child that computes for the app runs at a lower CPU priority than the app itself,
so the GUI thread and the write path get a core first on a busy machine."""

import os
import sys
from pathlib import Path

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.scaleout import CHILD_NICENESS, in_child


def _write_niceness(path: str, value: int) -> None:
    """The child: its niceness and what it was given, to ``path``."""
    Path(path).write_text(f"{os.nice(0)} {value}", encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities (Windows)")
def test_in_child_runs_the_target_at_a_lower_priority(tmp_path):
    out = tmp_path / "nice.txt"
    code = run_job(in_child(_write_niceness, (str(out), 7), "nice test", "testing"))
    assert code == 0
    child, value = map(int, out.read_text(encoding="utf-8").split())
    assert value == 7  # the arguments reach the target
    assert child == min(os.nice(0) + CHILD_NICENESS, 19) > os.nice(0)


def test_a_failing_target_gives_its_exit_code(tmp_path):
    code = run_job(in_child(sys.exit, (3,), "exit test", "testing"))
    assert code == 3
