"""Quantile binomial confidence bound, QBCB (Lewis, Yang & Frieder, CIKM 2021): the
certified one-phase stop (SPEC §5).

Before ranking, a control sample is drawn uniformly at random from all N records until it
holds ``positives`` = r relevant ones; the ranking never learns which records it holds.
Screening follows the ranking; it may stop once the ranking has reached j of the r
control positives, j = 1 + the smallest i with P(Binomial(r, τ) ≤ i) ≥ confidence
(τ = ``recall_target``). Then recall ≥ τ holds with probability ≥ confidence. When j > r
(too few control positives for τ and the confidence) the rule never stops early.
``control_ranks``: the 1-based positions in the screening order at which the ranking
reaches the control sample's relevant records (empty: no control sample was drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy.stats import binom

from litqeval_gui.metrics.stopping.base import CERTIFIED, StopDecision, StoppingRule, history_array

NO_SAMPLE = "needs a control sample drawn at random from all records before ranking"


@dataclass(frozen=True)
class QuantileBinomialBound(StoppingRule):
    """QBCB (module docstring)."""

    name: ClassVar[str] = "qbcb"
    title: ClassVar[str] = "Quantile binomial bound (Lewis, Yang & Frieder 2021, QBCB)"
    kind: ClassVar[str] = CERTIFIED
    recall_target: float = 0.95
    confidence: float = 0.95
    positives: int = 100
    control_ranks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 < self.recall_target < 1 or not 0 < self.confidence < 1:
            raise ValueError("recall_target and confidence must be in (0, 1)")
        if self.positives < 1:
            raise ValueError("positives must be at least 1")

    def required(self, r: int) -> int:
        """j: the control positives the ranking must reach (> r: it cannot certify)."""
        quantiles = binom.cdf(np.arange(r + 1), r, self.recall_target)
        return int(np.argmax(quantiles >= self.confidence)) + 1

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        r = len(self.control_ranks)
        if not r:
            return StopDecision(False, {"reason": NO_SAMPLE})
        needed = self.required(r)
        reached = sum(1 for rank in self.control_ranks if rank <= labels.size)
        reason = (f"{reached} of the {r} control positives reached, {needed} needed"
                  if needed <= r else f"{r} control positives cannot certify "
                  f"{self.recall_target:.0%} at {self.confidence:.0%}")
        return StopDecision(needed <= r and reached >= needed,
                            {"control_positives": r, "reached": reached, "needed": needed,
                             "reason": reason})

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        history = history_array(labels, n_total)
        r = len(self.control_ranks)
        needed = self.required(r) if r else 1
        if r and needed <= r:
            at = sorted(self.control_ranks)[needed - 1]
            if at <= min(history.size, n_total - 1):
                return at
        return n_total if history.size == n_total else None
