"""Consecutive irrelevant records: a heuristic (SPEC §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from litqeval_gui.metrics.stopping.base import (
    HEURISTIC,
    StopDecision,
    StoppingRule,
    first_true,
    history_array,
    trailing_irrelevant,
    trailing_runs,
)


@dataclass(frozen=True)
class ConsecutiveIrrelevant(StoppingRule):
    """Stop once the last ``n`` screened records are all irrelevant."""

    name: ClassVar[str] = "consecutive_irrelevant"
    title: ClassVar[str] = "Consecutive irrelevant records"
    kind: ClassVar[str] = HEURISTIC
    n: int = 50

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        run = trailing_irrelevant(labels)
        return StopDecision(run >= self.n, {"consecutive_irrelevant": run, "n": self.n})

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        history = history_array(labels, n_total)
        return first_true(trailing_runs(history) >= self.n, history, n_total)
