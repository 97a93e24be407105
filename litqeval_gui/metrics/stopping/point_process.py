"""Inhomogeneous Poisson process with a power-law rate, IP-P (Stevenson & Bin-Hezam, TOIS
2023): model-based (SPEC §5).

Checked at every ``step`` of N (checks c = round(N·i·step), i = 1 … 1/step, those below 10
records skipped). At a check with ``found`` relevant among the first c records, and at
least ``min_relevant`` of them: the c records are split into ``windows`` windows
(``numpy.array_split``); window j from record s_j has x_j = s_j (1-based) and rate
y_j = relevant among its records but its last / w, w = the first window's length − 1 (as
the authors' code counts). If the last half of the windows hold nothing relevant the
rule stops. Otherwise λ(x) = a·x^k is fitted by least squares (``scipy.optimize.curve_fit``
from a = 0.1, k = 0.001); a fit is kept when Σ(y − λ(x))² / (max y − min y) <
``max_fit_error``. The records left hold X ~ Poisson(μ) relevant, μ = ∫_c^N λ =
a/(k+1)·(N^{k+1} − c^{k+1}); R̂ = found + q, q the ``confidence`` quantile of X (at most
N − c); stop iff ``recall_target``·R̂ ≤ found. After every check (skipped ones aside)
``min_relevant`` becomes int(min_relevant·(1 − i·step)), so it is 0 by a third of N.
A negative or non-finite μ counts as a fit not kept, and nothing found as too little
(the authors' code would stop on both).

The rule stops at its first check that says stop; asked later, it still says stop. Its
estimate is read from the latest check with a kept fit: recall ≈ found/(found + μ_now)
with μ_now = ∫_s^N λ at s screened; the interval is one-sided, as the stop's claim is:
from found/(found + q), q the ``confidence`` quantile of Poisson(μ_now), to 100 %.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy.optimize import OptimizeWarning, curve_fit
from scipy.stats import poisson

from litqeval_gui.metrics.stopping.base import (
    MODEL_BASED,
    JSONScalar,
    RecallEstimate,
    StopDecision,
    StoppingRule,
    history_array,
)

MIN_CHECKED = 10  # records a check needs


def _power(x: np.ndarray, a: float, k: float) -> np.ndarray:
    return a * np.power(x, k)


@dataclass(frozen=True)
class Check:
    """One check at ``at`` records: whether it said stop, why, and its kept fit (a, k)."""

    at: int
    found: int
    stop: bool
    reason: str
    fit: tuple[float, float] | None = None
    expected_total: int | None = None


@dataclass(frozen=True)
class PointProcess(StoppingRule):
    """IP-P (module docstring); defaults as the authors ran it (0.025, 10, 0.1, 20)."""

    name: ClassVar[str] = "point_process"
    title: ClassVar[str] = "Point process (Stevenson & Bin-Hezam 2023, IP-P)"
    kind: ClassVar[str] = MODEL_BASED
    recall_target: float = 0.95
    confidence: float = 0.95
    step: float = 0.025
    windows: int = 10
    max_fit_error: float = 0.1
    min_relevant: int = 20

    def __post_init__(self) -> None:
        if not 0 < self.recall_target <= 1 or not 0 < self.confidence < 1:
            raise ValueError("recall_target must be in (0, 1] and confidence in (0, 1)")
        if not 0 < self.step <= 1 or self.windows < 2:
            raise ValueError("step must be in (0, 1] and windows at least 2")

    def checks(self, labels: np.ndarray, n_total: int) -> list[Check]:
        """The checks made on the history ``labels`` up to its length, ending at the first
        that says stop."""
        gain = np.concatenate([[0], np.cumsum(labels)])
        count = int(round(1 / self.step))
        proportions = np.arange(1, count + 1) * self.step
        needed = self.min_relevant
        made = []
        for proportion in np.round(proportions, 3):
            at = int(round(n_total * proportion))
            if at > labels.size:
                break
            if at < MIN_CHECKED:
                continue
            check = self._check(labels[:at], gain, at, n_total, needed)
            made.append(check)
            if check.stop:
                break
            if needed > 0:
                needed = int(needed - proportion * needed)
        return made

    def _check(self, labels: np.ndarray, gain: np.ndarray, at: int, n_total: int,
               needed: int) -> Check:
        found = int(gain[at])
        if found < needed or found == 0:
            return Check(at, found, False, f"{found} relevant found, the fit needs {needed}")
        bounds = [(int(part[0]), int(part[-1])) for part in
                  np.array_split(np.arange(at), self.windows) if part.size]
        width = bounds[0][1]
        if width < 1:
            return Check(at, found, False, "too few records for the windows")
        x = np.array([start + 1 for start, _ in bounds], dtype=float)
        y = np.array([gain[end] - gain[start] for start, end in bounds], dtype=float) / width
        if y[len(y) // 2:].sum() == 0:
            return Check(at, found, True, "nothing relevant in the last half of the windows")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptimizeWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                (a, k), _ = curve_fit(_power, x, y, p0=[0.1, 0.001])
            except (RuntimeError, ValueError):
                return Check(at, found, False, "the rate curve could not be fitted")
            spread = y.max() - y.min()
            error = float(((y - _power(x, a, k)) ** 2).sum() / spread) if spread else math.inf
        if not error < self.max_fit_error:
            return Check(at, found, False, f"the rate curve fits too loosely ({error:.2f})")
        mu = self.expected_after(a, k, at, n_total)
        if not math.isfinite(mu) or mu < 0:
            return Check(at, found, False, "the fitted rate is not a rate")
        total = found + min(int(poisson.ppf(self.confidence, mu)), n_total - at)
        stop = self.recall_target * total <= found
        return Check(at, found, stop, f"{self.recall_target:.0%} of at most {total:,} "
                     f"expected relevant {'is' if stop else 'is not yet'} found",
                     (float(a), float(k)), total)

    @staticmethod
    def expected_after(a: float, k: float, at: int, n_total: int) -> float:
        """μ = ∫_at^N a·x^k dx, the relevant records the fit expects after ``at``."""
        with np.errstate(all="ignore"):
            if k == -1:
                return float(a * (math.log(n_total) - math.log(at)))
            return float(a / (k + 1) * (n_total ** (k + 1) - at ** (k + 1)))

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        made = self.checks(labels, n_total)
        if not made:
            first = max(MIN_CHECKED, int(round(n_total * self.step)))
            return StopDecision(False, {"reason": f"first check at {first:,} screened"})
        last = made[-1]
        evidence: dict[str, JSONScalar] = {"checked_at": last.at, "reason": last.reason}
        if not last.stop:
            evidence["next_check"] = min(n_total, int(round(
                n_total * round((len(made) + 1) * self.step, 3))))
        if last.expected_total is not None:
            evidence["expected_relevant_at_most"] = last.expected_total
        estimate = self.estimate(made, labels, n_total)
        if estimate is not None:
            evidence["expected_remaining"] = round(float(estimate.remaining or 0.0), 1)
        return StopDecision(any(check.stop for check in made), evidence, estimate)

    def estimate(self, made: list[Check], labels: np.ndarray,
                 n_total: int) -> RecallEstimate | None:
        """Recall now by the latest kept fit (module docstring); None without one."""
        fitted = [check for check in made if check.fit is not None]
        found = int(labels.sum())
        if not fitted or not found:
            return None
        a, k = fitted[-1].fit
        mu = max(self.expected_after(a, k, labels.size, n_total), 0.0)
        left = n_total - labels.size
        most = min(float(poisson.ppf(self.confidence, mu)), left) if mu > 0 else 0.0
        return RecallEstimate(found / (found + min(mu, left)), found / (found + most),
                              1.0, self.confidence, found,
                              fitted[-1].at, fitted[-1].found,
                              method="point process (IP-P)", remaining=min(mu, left))

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        history = history_array(labels, n_total)
        made = self.checks(history, n_total)
        if made and made[-1].stop and made[-1].at < n_total:
            return made[-1].at
        return n_total if history.size == n_total else None
