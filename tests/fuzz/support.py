"""Shared by the fuzz tests: case counts and the quick/full scale (``LITQEVAL_FUZZ=1``)."""

import os
from collections import Counter

from hypothesis import HealthCheck, settings

FULL = os.environ.get("LITQEVAL_FUZZ") == "1"
COUNTS: Counter[str] = Counter()

settings.register_profile(
    "fuzz", database=None, deadline=None, derandomize=not FULL, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
)


def examples(quick: int, full: int) -> settings:
    """Hypothesis settings with ``quick`` cases in ``make test``, ``full`` in ``make fuzz``."""
    return settings(settings.get_profile("fuzz"), max_examples=full if FULL else quick)


def scale(quick: int, full: int) -> int:
    return full if FULL else quick


FIGURES: dict[str, float] = {}  # measured values (largest seen), printed with the counts
