"""In the app (a process that keeps a window responsive) a child that computes for it
runs at a lower CPU priority, so the GUI thread and the write path get a core first on
a busy machine; the command line's children keep its own priority."""

import os
import sys
from pathlib import Path

import pytest

from litqeval_gui.core.jobs import SWITCH_INTERVAL, responsive_threads, run_job
from litqeval_gui.core.scaleout import CHILD_NICENESS, in_child, serves_a_window


def _write_niceness(path: str, value: int) -> None:
    """The child: its niceness and what it was given, to ``path``."""
    Path(path).write_text(f"{os.nice(0)} {value}", encoding="utf-8")


@pytest.fixture
def window():
    """This process as the app: responsive_threads() called (undone after)."""
    before = sys.getswitchinterval()
    responsive_threads()
    yield
    sys.setswitchinterval(before)


def _child_niceness(tmp_path) -> int:
    out = tmp_path / "nice.txt"
    assert run_job(in_child(_write_niceness, (str(out), 7), "nice test", "testing")) == 0
    child, value = map(int, out.read_text(encoding="utf-8").split())
    assert value == 7  # the arguments reach the target
    return child


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities (Windows)")
def test_in_the_app_a_child_runs_at_a_lower_priority(tmp_path, window):
    assert serves_a_window() and sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    assert _child_niceness(tmp_path) == min(os.nice(0) + CHILD_NICENESS, 19) > os.nice(0)


def test_on_the_command_line_a_child_keeps_the_priority(tmp_path):
    assert not serves_a_window()  # Python's default switch interval (5 ms)
    assert _child_niceness(tmp_path) == os.nice(0)


def test_a_failing_target_gives_its_exit_code():
    assert run_job(in_child(sys.exit, (3,), "exit test", "testing")) == 3
