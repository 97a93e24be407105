"""Stopping rules for screening behind one interface (SPEC §5).

Every rule takes the screening history — ``labels`` (1 = relevant, 0 = not, in screening
order) and ``n_total`` = N, the number of records in the candidate set — and returns a
:class:`StopDecision`: ``stop`` ("safe to stop now") plus ``evidence``, a flat dict of
plain numbers/strings for display. Positions in the history are 1-based in the evidence
(record 1 = first screened). When every record has been screened, every rule says stop.

Rules are frozen dataclasses whose fields are their parameters; :data:`RULES` maps each
rule's ``name`` to its class so the GUI can list them (:func:`rule_parameters`) and build
them (:func:`make_rule`).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

import numpy as np
from scipy.stats import hypergeom

from litqeval_gui.metrics.pooling import LowYieldRule, StopParams, pooling_decision

IntArray = TypeVar("IntArray", int, np.ndarray)

JSONScalar = int | float | str | bool


@dataclass(frozen=True)
class StopDecision:
    """A rule's verdict and the numbers behind it (JSON-able scalars only)."""

    stop: bool
    evidence: dict[str, JSONScalar] = field(default_factory=dict)


def _history(labels: Sequence[int] | np.ndarray, n_total: int) -> np.ndarray:
    arr = np.asarray(labels)
    if arr.ndim != 1 or not np.isin(arr, (0, 1)).all():
        raise ValueError("labels must be a flat sequence of 0/1")
    if arr.size > n_total:
        raise ValueError("more records screened than N")
    return arr.astype(np.int64)


class StoppingRule(ABC):
    """Interface: ``decide(labels, n_total) -> StopDecision``."""

    name: ClassVar[str]
    title: ClassVar[str]

    def decide(self, labels: Sequence[int] | np.ndarray, n_total: int) -> StopDecision:
        history = _history(labels, n_total)
        evidence = {"rule": self.name, "screened": int(history.size), "N": n_total}
        if history.size == n_total:
            return StopDecision(True, evidence | {"reason": "all records screened"})
        decision = self._decide(history, n_total)
        return StopDecision(decision.stop, evidence | decision.evidence)

    @abstractmethod
    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        """Rule proper; ``labels`` is validated and fewer than ``n_total`` records."""


def _trailing_irrelevant(labels: np.ndarray) -> int:
    hits = np.flatnonzero(labels)
    return int(labels.size - (hits[-1] + 1)) if hits.size else int(labels.size)


@dataclass(frozen=True)
class ConsecutiveIrrelevant(StoppingRule):
    """Stop once the last ``n`` screened records are all irrelevant."""

    name: ClassVar[str] = "consecutive_irrelevant"
    title: ClassVar[str] = "Consecutive irrelevant records"
    n: int = 50

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        run = _trailing_irrelevant(labels)
        return StopDecision(run >= self.n, {"consecutive_irrelevant": run, "n": self.n})


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


@dataclass(frozen=True)
class HypergeometricTest(StoppingRule):
    """Callaghan & Müller-Hansen (2020) test of H0 "recall < recall_target".

    The last n screened records are taken as a sample drawn without replacement from the
    urn of N_urn = N − (records screened before the sample). With r_AL relevant before
    the sample, k in it and r_seen = r_AL + k, recall < τ needs at least
    K_tar = ⌊r_seen/τ⌋ + 1 − r_AL relevant in the urn; p = P(X <= k),
    X ~ Hypergeom(N_urn, K_tar, n) (``scipy.stats.hypergeom.cdf``; p = 0 when
    K_tar > N_urn). Stop iff p < 1 − confidence.

    Which records form the sample (our decision): the test is only valid for records
    drawn at random. ``random_from`` = number of records screened before random
    sampling began (declared by the user; sample = records random_from+1 … end). If it
    is not declared (None), the model-ranked history is not a random sample, and we use
    the trailing run of irrelevant records (everything after the last relevant one) as
    a quasi-sample, k = 0. This is a heuristic, reported as such in the evidence: a
    ranking that is better than random makes such records likelier to be relevant than
    random draws (conservative), but choosing the window after seeing the labels is not.
    """

    name: ClassVar[str] = "hypergeometric"
    title: ClassVar[str] = "Hypergeometric test (Callaghan & Müller-Hansen 2020)"
    recall_target: float = 0.95
    confidence: float = 0.95
    random_from: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.recall_target <= 1 or not 0 < self.confidence < 1:
            raise ValueError("recall_target must be in (0, 1] and confidence in (0, 1)")

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        if self.random_from is None:
            start = labels.size - _trailing_irrelevant(labels)
            mode = "trailing irrelevant run (heuristic)"
        elif 0 <= self.random_from <= labels.size:
            start, mode = self.random_from, "declared random sample"
        else:
            raise ValueError("random_from must be between 0 and the number screened")
        before, sample = int(labels[:start].sum()), labels[start:]
        k, n, urn = int(sample.sum()), int(sample.size), n_total - start
        k_tar, p = hypergeometric_p(before, k, n, urn, self.recall_target)
        alpha = significance(self.confidence)
        evidence: dict[str, JSONScalar] = {
            "mode": mode,
            "sample_from": start + 1,
            "sample_size": n,
            "relevant_in_sample": k,
            "relevant_before_sample": before,
            "urn_size": urn,
            "k_tar": k_tar,
            "p_value": p,
            "alpha": alpha,
        }
        return StopDecision(p < alpha, evidence)


def significance(confidence: float) -> float:
    """α = 1 − confidence as the decimal it prints as (1 − 0.95 in floating point is
    0.05000000000000004, which would count p = 0.05 as below it)."""
    return float(1 - Fraction(str(float(confidence))))


def target_remaining(before: int, found: IntArray, recall_target: float) -> IntArray:
    """K_tar = ⌊(before + found)/τ⌋ + 1 − before in integers (``found`` an int or an int
    array): τ is read exactly as the decimal it prints as (0.95 → 19/20), so 19/0.95 is 20,
    never 19.999…, and 0.5000000001 is not rounded to 0.5."""
    tau = Fraction(str(float(recall_target)))
    return (before + found) * tau.denominator // tau.numerator + 1 - before


def hypergeometric_p(before: int, k: int, n: int, urn: int,
                     recall_target: float) -> tuple[int, float]:
    """(K_tar, p) of Callaghan & Müller-Hansen's test (see :class:`HypergeometricTest`):
    ``before`` relevant found before a random sample of ``n`` drawn from ``urn`` records
    holding ``k`` relevant; K_tar = ⌊(before + k)/τ⌋ + 1 − before, p = P(X <= k) with
    X ~ Hypergeom(urn, K_tar, n), 0 when K_tar > urn (K_tar by :func:`target_remaining`)."""
    k_tar = int(target_remaining(before, k, recall_target))
    return k_tar, 0.0 if k_tar > urn else float(hypergeom.cdf(k, urn, k_tar, n))


def random_records_needed(before: int, k: int, n: int, urn: int, recall_target: float,
                          confidence: float) -> int:
    """How many more random records, all irrelevant, make the test say stop after ``n``
    drawn with ``k`` relevant (0: it says stop now; ``urn − n`` at most: the whole urn,
    when every record is screened). p falls as the sample grows with k fixed, so the
    smallest sufficient size is found by bisection."""
    alpha = significance(confidence)
    if hypergeometric_p(before, k, n, urn, recall_target)[1] < alpha:
        return 0
    low, high = n, urn  # p(low) >= alpha; at high (all drawn) every record is screened
    while high - low > 1:
        middle = (low + high) // 2
        if hypergeometric_p(before, k, middle, urn, recall_target)[1] < alpha:
            high = middle
        else:
            low = middle
    return high - n


@dataclass(frozen=True)
class RandomSampleStop(StoppingRule):
    """The hypergeometric test on a random sample, as Callaghan & Müller-Hansen (2020,
    "buscar") define it: screen in the model's order, then switch to records drawn at
    random from those not yet screened, and stop once the test of
    :class:`HypergeometricTest` over that sample rejects "recall < ``recall_target``" at
    ``confidence``. Valid whatever the ranking did before the switch.

    Before the switch (``random_from`` None: the reviewer has not switched) the rule
    never says stop; it advises switching once the test's ranked reading (the trailing
    run of irrelevant records as a quasi-sample, :class:`HypergeometricTest` without
    ``random_from``) gives p < 1 − ``switch_confidence``: with the default 0.5, once the
    ranked records make the target more likely reached than not. It says how many random
    records, all irrelevant, would then suffice. The heuristic only times the switch (it
    reads the records before the sample, so the test stays valid); the stop is the test's.
    After the switch (``random_from`` = records screened before the first random one) it
    gives the test's p-value and how many random records remain if none of them is
    relevant (:func:`random_records_needed`; a relevant one raises the count, which is
    asked again after every decision).

    Measured over 19 real reviews (the three shared ones, 13 Cohen 2006 drug reviews,
    Bannach-Brown 2019, Kitchenham 2010, part of Wahono 2015; 10 seeds each, the default
    model; ``benchmarks/bench_simulate.py``): reached 95 % recall in 189 of 190 runs and
    saved 0.24 of the work the oracle stop saves, against 0.14 when the critical depth
    over batches of 10 timed the switch (in 88 of the 190 runs it never advised one before
    the end: a low-yield history, or too few batches to settle k_cr, on 10 of the 19
    reviews). Even the best switch in hindsight, chosen per run, saves 0.38
    of it: a random sample certifies little when few relevant records are known. With r
    found, K_tar = ⌊r/τ⌋ + 1 − r (3 for r = 40 at τ = 0.95) and the sample must hold
    about 1 − α^(1/K_tar) of the unscreened records (63 % for K_tar = 3).
    """

    name: ClassVar[str] = "random_sample"
    title: ClassVar[str] = "Random-sample stop (Callaghan & Müller-Hansen 2020, buscar)"
    recall_target: float = 0.95
    confidence: float = 0.95
    switch_confidence: float = 0.5
    random_from: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.recall_target <= 1 or not 0 < self.confidence < 1:
            raise ValueError("recall_target must be in (0, 1] and confidence in (0, 1)")
        if not 0 < self.switch_confidence < 1:
            raise ValueError("switch_confidence must be in (0, 1)")

    def switch_rule(self) -> HypergeometricTest:
        """The heuristic that times the switch to random screening: the test's ranked
        reading at ``switch_confidence``."""
        return HypergeometricTest(recall_target=self.recall_target,
                                  confidence=self.switch_confidence)

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        found = int(labels.sum())
        if self.random_from is None:
            ranked = self.switch_rule().decide(labels, n_total)
            needed = random_records_needed(found, 0, 0, n_total - labels.size,
                                           self.recall_target, self.confidence)
            return StopDecision(False, {
                "phase": "ranked",
                "switch_to_random": "now" if ranked.stop else
                f"not yet (ranked records: p = {ranked.evidence['p_value']:.2f}, "
                f"switch below {ranked.evidence['alpha']:g})",
                "random_needed_if_none_relevant": needed,
            })
        if not 0 <= self.random_from <= labels.size:
            raise ValueError("random_from must be between 0 and the number screened")
        before, sample = int(labels[:self.random_from].sum()), labels[self.random_from:]
        k, n, urn = int(sample.sum()), int(sample.size), n_total - self.random_from
        k_tar, p = hypergeometric_p(before, k, n, urn, self.recall_target)
        remaining = random_records_needed(before, k, n, urn, self.recall_target,
                                          self.confidence)
        return StopDecision(p < significance(self.confidence), {
            "phase": "random",
            "random_remaining": remaining,
            "p_value": p,
            "sample_size": n,
            "relevant_in_sample": k,
            "relevant_before_sample": before,
            "urn_size": urn,
            "k_tar": k_tar,
            "alpha": significance(self.confidence),
        })


RULES: Mapping[str, type[StoppingRule]] = {
    rule.name: rule
    for rule in (ConsecutiveIrrelevant, BatchCriticalDepth, KneeMethod, HypergeometricTest,
                 RandomSampleStop)
}


def rule_parameters(name: str) -> dict[str, Any]:
    """Parameter names and defaults of the rule registered as ``name``."""
    return {f.name: f.default for f in fields(RULES[name])}


def make_rule(name: str, **params: Any) -> StoppingRule:
    """Build the rule registered as ``name`` with the given parameters."""
    return RULES[name](**params)


def describe(rule: StoppingRule) -> dict[str, Any]:
    """Name, title and parameter values of a rule (for display and saving settings)."""
    return {"name": rule.name, "title": rule.title, "params": asdict(rule)}
