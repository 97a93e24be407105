"""The certified rules: QBCB and the target method worked by hand, and each certified
rule's failure rate over random orders at most 1 − confidence."""

import numpy as np
import pytest

from litqeval_gui.core.screening.simulation.simulate import control_sample_stop, random_sample_stop
from litqeval_gui.metrics.stopping import (
    CERTIFIED,
    QuantileBinomialBound,
    RandomSampleStop,
    TargetMethod,
)
from litqeval_gui.metrics.stopping.target_method import target_size


def test_qbcb_needs_the_binomial_quantile_plus_one():
    # Binomial(10, 0.8): P(X <= 9) = 1 − 0.8^10 = 0.893 < 0.95, P(X <= 10) = 1: j = 11 > 10
    assert QuantileBinomialBound(recall_target=0.8).required(10) == 11
    # Binomial(20, 0.5): P(X <= 13) = 0.9423, P(X <= 14) = 0.9793: j = 15
    assert QuantileBinomialBound(recall_target=0.5).required(20) == 15
    rule = QuantileBinomialBound(recall_target=0.5, control_ranks=tuple(range(5, 105, 5)))
    assert rule.kind == CERTIFIED
    early = rule.decide([0] * 74, 500)  # ranks 5 … 70 reached: 14 of 20
    assert not early.stop and early.evidence["reached"] == 14
    assert rule.decide([0] * 75, 500).stop  # the 15th control positive, at 75
    assert rule.first_stop(np.zeros(500, dtype=np.int64), 500) == 75


def test_without_a_control_sample_qbcb_never_stops():
    decision = QuantileBinomialBound().decide([1, 0] * 100, 1000)
    assert not decision.stop and "control sample" in decision.evidence["reason"]
    assert QuantileBinomialBound().first_stop(np.zeros(900, dtype=np.int64), 1000) is None


def test_the_target_method_needs_every_target():
    # T = ⌈−ln 0.05 / 0.05⌉ = ⌈59.9⌉ = 60; at 70 % recall ⌈2.996 / 0.3⌉ = 10 (their 10)
    assert target_size(0.95, 0.95) == 60 and target_size(0.7, 0.95) == 10
    rule = TargetMethod(recall_target=0.7, control_ranks=(3, 9, 20, 21, 30, 41, 50, 52, 60, 99))
    assert rule.positives == 10 and rule.required(10) == 10
    assert not rule.decide([0] * 98, 200).stop and rule.decide([0] * 99, 200).stop
    short = TargetMethod(recall_target=0.7, control_ranks=(3, 9))  # fewer than T targets
    assert short.first_stop(np.zeros(200, dtype=np.int64), 200) == 200  # only at the end


def test_the_control_sample_counts_its_records_beyond_the_stop():
    # every 10th record relevant (100 of 1000) in the ranked order; QBCB at τ = 0.5 with
    # r = 20 draws records at random until it holds 20 relevant, j = 15: it stops where
    # the ranking reaches the 15th of them, plus the control records not reached then
    labels = np.zeros(1000, dtype=np.int64)
    labels[::10] = 1
    rule = QuantileBinomialBound(recall_target=0.5, positives=20)
    stopped, found = control_sample_stop(rule, labels, np.random.default_rng(0))
    order = np.random.default_rng(0).permutation(1000)
    control = order[: int(np.searchsorted(np.cumsum(labels[order]), 20)) + 1]
    reached = sorted(int(i) + 1 for i in control if labels[i])[14]  # the 15th, 1-based
    beyond = control[control >= reached]
    assert stopped == reached + beyond.size
    assert found == labels[:reached].sum() + labels[beyond].sum()


@pytest.mark.parametrize("rule", [QuantileBinomialBound(positives=60, recall_target=0.9),
                                  TargetMethod(recall_target=0.9),
                                  RandomSampleStop(recall_target=0.9)])
def test_a_certified_rule_fails_at_most_one_minus_its_confidence(rule):
    """1 000 random orders of 600 records, 80 of them relevant: the screening order is
    no better than chance, the worst case the guarantee must hold in."""
    failures = 0
    base = np.zeros(600, dtype=np.int64)
    base[:80] = 1
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        labels = rng.permutation(base)
        if isinstance(rule, RandomSampleStop):
            stopped, found = random_sample_stop(rule, labels, rng)
        else:
            stopped, found = control_sample_stop(rule, labels, rng)
        failures += stopped is not None and found < 0.9 * 80
    assert failures / 1000 <= 0.05 + 0.01  # 1 − confidence, with its sampling error
