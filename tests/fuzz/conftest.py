"""Fuzz suite: a few hundred cases in ``make test``; ``make fuzz`` (``LITQEVAL_FUZZ=1``)
runs thousands and prints how many cases each part ran."""

import pytest

from tests.fuzz.support import COUNTS, FIGURES


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    if COUNTS:
        terminalreporter.section("fuzz counts")
        for key in sorted(COUNTS):
            terminalreporter.write_line(f"{key:<44} {COUNTS[key]:>7}")
        for key in sorted(FIGURES):
            terminalreporter.write_line(f"{key:<44} {FIGURES[key]:>7.2f}")
