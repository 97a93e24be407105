"""The knee method of Cormack & Grossman (2016): a heuristic (SPEC §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from litqeval_gui.metrics.stopping.base import HEURISTIC, JSONScalar, StopDecision, StoppingRule


@dataclass(frozen=True)
class KneeMethod(StoppingRule):
    """Knee method of Cormack & Grossman (SIGIR 2016), evaluated at the current rank s.

    Gain curve g(i) = relevant among the first i screened. Knee i* = the point of the
    curve farthest above the line from (0, 0) to (s, g(s)), i.e. argmax over
    1 <= i < s of s·g(i) − i·g(s) (first on ties). Slope ratio
    ρ = (g(i*)/i*) / ((g(s) − g(i*) + 1) / (s − i*)). Stop iff s >= ``min_screened`` and
    ρ >= ``slope_ratio`` + ``adjustment`` − min(g(s), ``adjustment``); with the
    defaults that is their adjusted rule ρ >= 156 − min(relret, 150), s >= 150.
    Their batch schedule (checking only at BMI batch ends) is not reproduced: the rule
    is evaluated whenever it is asked. Before ``min_screened`` records (the rule cannot
    apply) and on a flat curve (nothing relevant) no knee is located.
    """

    name: ClassVar[str] = "knee"
    title: ClassVar[str] = "Knee method (Cormack & Grossman 2016)"
    kind: ClassVar[str] = HEURISTIC
    slope_ratio: float = 6.0
    adjustment: int = 150
    min_screened: int = 150

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        s = labels.size
        gain = np.cumsum(labels)
        found = int(gain[-1]) if s else 0
        required = self.slope_ratio + self.adjustment - min(found, self.adjustment)
        evidence: dict[str, JSONScalar] = {"relevant_found": found, "rho_required": required}
        if s < max(self.min_screened, 2):
            return StopDecision(False, evidence | {
                "knee": f"none yet (needs {max(self.min_screened, 2)} screened)"})
        if found == 0:  # a flat curve has no knee
            return StopDecision(False, evidence | {"knee": "none (nothing relevant)", "rho": 0.0})
        ranks = np.arange(1, s)
        knee = int(np.argmax(s * gain[:-1] - ranks * found)) + 1
        at_knee = int(gain[knee - 1])
        rho = (at_knee / knee) / ((found - at_knee + 1) / (s - knee))
        stop = s >= self.min_screened and rho >= required
        return StopDecision(stop, evidence | {"knee": knee, "rho": rho})


