"""Callaghan & Müller-Hansen's hypergeometric test and its helpers (SPEC §5): read on the
ranked records it is a heuristic; on a declared random sample see :mod:`.random_sample`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, TypeVar

import numpy as np
from scipy.special import gammaln
from scipy.stats import hypergeom

from litqeval_gui.metrics.stopping.base import (
    HEURISTIC,
    JSONScalar,
    StopDecision,
    StoppingRule,
    first_true,
    history_array,
    significance,
    trailing_irrelevant,
    trailing_runs,
)

IntArray = TypeVar("IntArray", int, np.ndarray)


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
    kind: ClassVar[str] = HEURISTIC
    recall_target: float = 0.95
    confidence: float = 0.95
    random_from: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.recall_target <= 1 or not 0 < self.confidence < 1:
            raise ValueError("recall_target must be in (0, 1] and confidence in (0, 1)")

    def _decide(self, labels: np.ndarray, n_total: int) -> StopDecision:
        if self.random_from is None:
            start = labels.size - trailing_irrelevant(labels)
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
            "reason": (f"{k} relevant in the {n:,} records read as a sample: p = {p:.2g} "
                       f"{'<' if p < alpha else '≥'} {alpha:g} for fewer than "
                       f"{self.recall_target:.0%} found"),
        }
        return StopDecision(p < alpha, evidence)

    def first_stop(self, labels: np.ndarray, n_total: int) -> int | None:
        """The ranked reading in one pass: at every prefix its trailing run, k = 0."""
        if self.random_from is not None:
            return super().first_stop(labels, n_total)
        history = history_array(labels, n_total)
        runs = trailing_runs(history)
        start = np.arange(1, history.size + 1) - runs
        before = np.concatenate([[0], np.cumsum(history)])[start]
        urn = n_total - start
        k_tar = target_remaining(before, 0, self.recall_target)
        p = np.where(k_tar > urn, 0.0, none_drawn(urn, np.minimum(k_tar, urn), runs))
        return first_true(p < significance(self.confidence), history, n_total)


def none_drawn(urn: np.ndarray, k_tar: np.ndarray, n: np.ndarray) -> np.ndarray:
    """P(X = 0), X ~ Hypergeom(urn, K_tar, n), elementwise: C(urn − K, n)/C(urn, n) by
    log-gamma (``hypergeom.cdf(0, …)``, many times faster); 0 when n > urn − K."""
    urn, k_tar, n = (np.asarray(v, dtype=float) for v in (urn, k_tar, n))
    possible = n <= urn - k_tar
    with np.errstate(invalid="ignore"):
        log_p = (gammaln(urn - k_tar + 1) + gammaln(urn - n + 1) - gammaln(urn + 1)
                 - gammaln(np.where(possible, urn - k_tar - n, 0) + 1))
    return np.where(possible, np.exp(log_p), 0.0)


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


