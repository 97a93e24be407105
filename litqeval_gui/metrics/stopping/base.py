"""The one interface of the stopping rules (SPEC §5).

Every rule takes the screening history — ``labels`` (1 = relevant, 0 = not, in screening
order) and ``n_total`` = N, the number of records in the candidate set — and returns a
:class:`StopDecision`: ``stop`` ("safe to stop now") plus ``evidence``, a flat dict of
plain numbers/strings for display, and, for a rule that estimates recall, its
:class:`RecallEstimate`. Positions in the history are 1-based in the evidence (record 1 =
first screened). When every record has been screened, every rule says stop.

Each rule declares its kind: :data:`CERTIFIED` (a guarantee at the stated confidence under
its sampling design), :data:`MODEL_BASED` (an estimate whose reliability is measured) or
:data:`HEURISTIC`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import numpy as np

JSONScalar = int | float | str | bool

CERTIFIED = "certified"
MODEL_BASED = "model-based"
HEURISTIC = "heuristic"
KINDS = (CERTIFIED, MODEL_BASED, HEURISTIC)


@dataclass(frozen=True)
class RecallEstimate:
    """Estimated recall with its interval at ``confidence``, the counts behind it and the
    ``method`` that made it; ``remaining``: the relevant records it expects unscreened."""

    recall: float
    low: float
    high: float
    confidence: float
    found: int
    sample_size: int
    relevant_in_sample: int
    method: str = "random sample"
    remaining: float | None = None

    def text(self) -> str:
        """``about 93% found (88–97%, 95% interval; random sample)``."""
        return (f"about {self.recall:.0%} found ({self.low * 100:.0f}–{self.high:.0%}, "
                f"{self.confidence:.0%} interval; {self.method})")


@dataclass(frozen=True)
class StopDecision:
    """A rule's verdict and the numbers behind it (JSON-able scalars only)."""

    stop: bool
    evidence: dict[str, JSONScalar] = field(default_factory=dict)
    estimate: RecallEstimate | None = None


def history_array(labels: Sequence[int] | np.ndarray, n_total: int) -> np.ndarray:
    """``labels`` as an int64 array, checked: flat 0/1, at most ``n_total`` long."""
    arr = np.asarray(labels)
    if arr.ndim != 1 or not np.isin(arr, (0, 1)).all():
        raise ValueError("labels must be a flat sequence of 0/1")
    if arr.size > n_total:
        raise ValueError("more records screened than N")
    return arr.astype(np.int64)


class StoppingRule(ABC):
    """Interface: ``decide(labels, n_total) -> StopDecision``; ``first_stop`` replays it."""

    name: ClassVar[str]
    title: ClassVar[str]
    kind: ClassVar[str]

    def decide(self, labels: Sequence[int] | np.ndarray, n_total: int) -> StopDecision:
        history = history_array(labels, n_total)
        evidence = {"rule": self.name, "screened": int(history.size), "N": n_total}
        if history.size == n_total:
            return StopDecision(True, evidence | {"reason": "all records screened"})
        decision = self._decide(history, n_total)
        return StopDecision(decision.stop, evidence | decision.evidence, decision.estimate)

    @abstractmethod
    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        """Rule proper; ``labels`` is validated and fewer than ``n_total`` records."""

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        """The first number of records screened after which the rule says stop on the
        history ``labels`` (``n_total`` once all are screened; None: never before the end of
        ``labels``). Rules
        override it with one pass where they can; this asks at every prefix."""
        history = history_array(labels, n_total)
        for screened in range(1, min(history.size, n_total - 1) + 1):
            if self._decide(history[:screened], n_total).stop:
                return screened
        return n_total if history.size == n_total else None


def first_true(stops: np.ndarray, history: np.ndarray, n_total: int) -> int | None:
    """``first_stop`` from ``stops[i]`` = "says stop after i + 1 records" over ``history``."""
    hits = np.flatnonzero(stops[: max(0, min(history.size, n_total - 1))])
    if hits.size:
        return int(hits[0]) + 1
    return n_total if history.size == n_total else None


def trailing_runs(labels: np.ndarray) -> np.ndarray:
    """At each prefix i + 1, the records screened after its last relevant one."""
    positions = np.arange(1, labels.size + 1)
    last = np.maximum.accumulate(np.where(labels > 0, positions, 0))
    return positions - last


def significance(confidence: float) -> float:
    """α = 1 − confidence as the decimal it prints as (1 − 0.95 in floating point is
    0.05000000000000004, which would count p = 0.05 as below it)."""
    return float(1 - Fraction(str(float(confidence))))


def trailing_irrelevant(labels: np.ndarray) -> int:
    """Records screened after the last relevant one (all of them when none is)."""
    hits = np.flatnonzero(labels)
    return int(labels.size - (hits[-1] + 1)) if hits.size else int(labels.size)
