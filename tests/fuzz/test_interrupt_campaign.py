"""Ctrl-C at random moments of a parallel RIS import (see tests/test_cli_interrupt.py):
every run must end with one line, exit 130, the project unchanged and no process left.
A moment is an event: once a random number of its records is stored (from none to all:
while this process and the workers parse, up to the linking). ``make fuzz`` prints the longest time from Ctrl-C to exit."""

import random
import shutil
import signal

import pytest

from litqeval_gui.core.projectfile.project import Project
from tests.fuzz.support import COUNTS, FIGURES, scale
from tests.test_cli_bad_input import dump
from tests.test_cli_interrupt import RECORDS, big_import, interrupt_import, rows_stored

__all__ = ["big_import"]  # the fixture


@pytest.mark.slow
def test_ctrl_c_at_random_moments(big_import):
    project, big = big_import
    base = project.with_name("base.litq")
    shutil.copy(project, base)
    before = dump(project)
    for run in range(scale(1, 18)):
        for leftover in project.parent.glob(f"{project.name}*"):
            leftover.unlink()  # with the -wal/-shm of the previous run
        shutil.copy(base, project)
        stored = random.Random(run).randrange(RECORDS)
        interrupted = interrupt_import(project, big, rows_stored(stored))
        done = interrupted.done
        COUNTS["ctrl-c: runs"] += 1
        assert not interrupted.left
        if done.stderr == "litqeval: interrupted; the project is unchanged\n":
            assert done.returncode == 130
            assert dump(project) == before
            COUNTS["ctrl-c: interrupted, project unchanged"] += 1
            FIGURES["ctrl-c: longest seconds to exit"] = max(
                interrupted.seconds, FIGURES.get("ctrl-c: longest seconds to exit", 0.0))
        else:  # the Ctrl-C came after the import was committed: it must be whole
            # (exit 0: too late to matter; -SIGINT: it hit the interpreter's shutdown)
            assert done.returncode in (0, 130, -signal.SIGINT), done.stderr
            assert done.stderr in ("", "litqeval: interrupted after the import had finished; "
                                       "it is kept\n"), done.stderr
            with Project.open(project, readonly=True) as opened:
                assert opened.db.execute("SELECT state FROM imports").fetchall() == [("done",)]
            COUNTS["ctrl-c: came after the commit, import kept whole"] += 1
