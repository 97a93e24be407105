"""The thesis' critical depth (ch. 8) over screening batches: a heuristic (SPEC §5)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from litqeval_gui.metrics.pooling import LowYieldRule, StopParams, pooling_decision
from litqeval_gui.metrics.stopping.base import (
    HEURISTIC,
    JSONScalar,
    StopDecision,
    StoppingRule,
    history_array,
)


@dataclass(frozen=True)
class BatchCriticalDepth(StoppingRule):
    """Thesis ch. 8 stop criterion on screening batches (see ``pooling``).

    Depth k = the k-th complete batch of ``batch_size`` records; nrels(k) = relevant
    records among the first k·b screened, |P(k)| = k·b, full depth = ceil(N/b). Stop
    once k_cr is determined (including the low-yield check). A low-yield history means
    "screen everything", so the rule then never stops early. ``low_yield_depth=0``
    switches the low-yield rule off; its depth is capped at ceil(N/b).
    Defaults: the thesis' "relaxed" setting (14, 6, 0.05, 6).
    """

    name: ClassVar[str] = "batch_critical_depth"
    title: ClassVar[str] = "Critical depth over batches (thesis ch. 8)"
    kind: ClassVar[str] = HEURISTIC
    batch_size: int = 10
    window: int = 14
    rate_window: int = 6
    threshold: float = 0.05
    run_length: int = 6
    low_yield_depth: int = 20
    low_yield_ratio: float = 0.1

    def __post_init__(self) -> None:
        if self.batch_size < 1:
            raise ValueError("batch_size must be >= 1")

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        b = self.batch_size
        batches = labels.size // b
        nrels = np.cumsum(labels[: batches * b].reshape(batches, b).sum(axis=1))
        full_depth = math.ceil(n_total / b)
        low_yield = (
            LowYieldRule(min(self.low_yield_depth, full_depth), self.low_yield_ratio)
            if self.low_yield_depth > 0
            else None
        )
        params = StopParams(self.window, self.rate_window, self.threshold, self.run_length)
        sizes = b * np.arange(1, batches + 1)
        decision = pooling_decision(nrels, sizes, params, full_depth, low_yield)
        low = decision.low_yield
        evidence: dict[str, JSONScalar] = {
            "batches_screened": batches,
            "k_cr": "not yet determined" if decision.k_cr is None else decision.k_cr,
            "batches_needed": decision.depth_needed,
            "low_yield": "not yet known" if low is None else ("yes" if low else "no"),
            "reason": decision.reason,
        }
        return StopDecision(decision.reason == "critical depth", evidence)

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        """Asked only where a batch completes: between batch ends the verdict is the last
        end's."""
        history = history_array(labels, n_total)
        for end in range(self.batch_size, min(history.size, n_total - 1) + 1, self.batch_size):
            if self._decide(history[:end], n_total).stop:
                return end
        return n_total if history.size == n_total else None
