"""The target method (Cormack & Grossman 2016, "Engineering quality and reliability in
technology-assisted review"): certified (SPEC §5).

A target set is drawn at random from all N records until it holds T relevant ones,
T = ⌈−ln(1 − confidence) / (1 − τ)⌉ (60 for τ = 0.95 at 95 %, as Stevenson & Bin-Hezam
size it); screening follows the ranking until every target is reached. It is QBCB with
j = r: the chance that all T targets fall in a part holding less than τ of the relevant
records is below τ^T ≤ e^{−T(1−τ)} ≤ 1 − confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from litqeval_gui.metrics.stopping.base import significance
from litqeval_gui.metrics.stopping.qbcb import QuantileBinomialBound


def target_size(recall_target: float, confidence: float) -> int:
    """T = ⌈−ln(1 − confidence) / (1 − τ)⌉."""
    return math.ceil(-math.log(significance(confidence)) / (1 - recall_target) - 1e-9)


@dataclass(frozen=True)
class TargetMethod(QuantileBinomialBound):
    """The target method (module docstring); ``positives`` 0 = T by the formula."""

    name: ClassVar[str] = "target"
    title: ClassVar[str] = "Target method (Cormack & Grossman 2016)"
    positives: int = 0

    def __post_init__(self) -> None:
        if self.positives == 0 and 0 < self.recall_target < 1 and 0 < self.confidence < 1:
            object.__setattr__(self, "positives", target_size(self.recall_target,
                                                              self.confidence))
        super().__post_init__()

    def required(self, r: int) -> int:
        """Every target: r once the target set holds its T (never before)."""
        return r if r >= self.positives else r + 1
