"""Ctrl-C at random moments of a parallel RIS import (see tests/test_cli_interrupt.py):
every run must end with one line, exit 130, the project unchanged and no process left.
``make fuzz`` prints the longest time from Ctrl-C to exit."""

import random

import pytest

from tests.fuzz.support import COUNTS, FIGURES, scale
from tests.test_cli_bad_input import dump
from tests.test_cli_interrupt import big_import, interrupt_import, leftovers

__all__ = ["big_import"]  # the fixture


@pytest.mark.slow
def test_ctrl_c_at_random_moments(big_import):
    project, big = big_import
    before = dump(project)
    for run in range(scale(1, 18)):
        done, seconds, helpers = interrupt_import(project, big, random.Random(run).uniform(0, 2))
        COUNTS["ctrl-c: runs"] += 1
        assert done.returncode == 130, done.stderr
        assert done.stderr == "litqeval: interrupted; the project is unchanged\n"
        assert not leftovers(helpers)
        assert dump(project) == before
        COUNTS["ctrl-c: clean endings"] += 1
        FIGURES["ctrl-c: longest seconds to exit"] = max(
            seconds, FIGURES.get("ctrl-c: longest seconds to exit", 0.0))
