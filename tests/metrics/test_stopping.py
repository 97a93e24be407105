"""Tests for metrics.stopping (SPEC §5): each rule on a must-not-stop and a must-stop history."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest
from scipy.stats import hypergeom

from litqeval_gui.metrics.stopping import (
    RULES,
    BatchCriticalDepth,
    ConsecutiveIrrelevant,
    HypergeometricTest,
    KneeMethod,
    RandomSampleStop,
    StopDecision,
    describe,
    hypergeometric_p,
    make_rule,
    random_records_needed,
    rule_parameters,
)


def _batches(counts: list[int], size: int = 2) -> list[int]:
    """Labels with ``c`` relevant records at the start of each batch of ``size``."""
    return [label for c in counts for label in [1] * c + [0] * (size - c)]


# ------------------------------------------------------------ common interface


def test_all_records_screened_always_stops():
    for rule in (ConsecutiveIrrelevant(), BatchCriticalDepth(), KneeMethod(), HypergeometricTest()):
        decision = rule.decide([1, 0, 1], 3)
        assert decision == StopDecision(
            True, {"rule": rule.name, "screened": 3, "N": 3, "reason": "all records screened"}
        )


@pytest.mark.parametrize("labels, n_total", [([0, 2], 10), ([[1, 0]], 10), ([1, 0, 1], 2)])
def test_invalid_history_is_rejected(labels, n_total):
    with pytest.raises(ValueError):
        ConsecutiveIrrelevant().decide(labels, n_total)


def test_registry_lists_rules_with_parameters():
    assert set(RULES) == {
        "consecutive_irrelevant",
        "batch_critical_depth",
        "knee",
        "hypergeometric",
        "random_sample",
        "point_process",
        "qbcb",
        "target",
    }
    assert {name: rule.kind for name, rule in RULES.items()} == {
        "consecutive_irrelevant": "heuristic", "batch_critical_depth": "heuristic",
        "knee": "heuristic", "hypergeometric": "heuristic", "random_sample": "certified",
        "point_process": "model-based", "qbcb": "certified", "target": "certified"}
    assert rule_parameters("knee") == {"slope_ratio": 6.0, "adjustment": 150, "min_screened": 150}
    assert rule_parameters("hypergeometric") == {
        "recall_target": 0.95,
        "confidence": 0.95,
        "random_from": None,
    }
    rule = make_rule("consecutive_irrelevant", n=3)
    assert rule == ConsecutiveIrrelevant(n=3)
    assert describe(rule) == {
        "name": "consecutive_irrelevant",
        "title": "Consecutive irrelevant records",
        "kind": "heuristic",
        "params": {"n": 3},
    }


def test_evidence_is_json_serialisable():
    history = [1] * 20 + [0] * 200
    for name in RULES:
        decision = make_rule(name).decide(history, 1000)
        json.dumps(decision.evidence)
        assert decision.evidence["rule"] == name


# -------------------------------------------------------- consecutive irrelevant


def test_consecutive_irrelevant():
    rule = ConsecutiveIrrelevant(n=3)
    assert not rule.decide([], 10).stop
    no = rule.decide([1, 0, 0], 10)
    assert (no.stop, no.evidence["consecutive_irrelevant"]) == (False, 2)
    yes = rule.decide([0, 1, 0, 0, 0], 10)
    assert (yes.stop, yes.evidence["consecutive_irrelevant"]) == (True, 3)
    assert not rule.decide([0, 0, 0, 1], 10).stop


# ---------------------------------------------------------- thesis rule, batches

# Per-batch relevant counts giving nrels = 2,4,6,8,10,11,12,13,13,14,14,14,14,14 (the
# curve of test_pooling): with (6, 2, 0.8, 3), ŕ(4) = 10/12, ŕ(5) = 7/12, ŕ(6) = 5/12,
# ŕ(7) = 3/12 -> k_cr = 5, known once batch 14 is complete.
COUNTS = [2, 2, 2, 2, 2, 1, 1, 1, 0, 1, 0, 0, 0, 0]
AGGRESSIVE_BATCHES = {"window": 6, "rate_window": 2, "threshold": 0.8, "run_length": 3}


def test_batch_rule_stops_at_batch_14():
    rule = BatchCriticalDepth(batch_size=2, low_yield_depth=0, **AGGRESSIVE_BATCHES)
    decision = rule.decide(_batches(COUNTS), 100)
    assert decision.stop
    assert decision.evidence["k_cr"] == 5
    assert decision.evidence["batches_needed"] == 14


def test_batch_rule_waits_for_the_14th_batch():
    rule = BatchCriticalDepth(batch_size=2, low_yield_depth=0, **AGGRESSIVE_BATCHES)
    history = _batches(COUNTS[:13]) + [0]  # 13 complete batches and half of the 14th
    decision = rule.decide(history, 100)
    assert not decision.stop
    assert decision.evidence["batches_screened"] == 13
    assert decision.evidence["k_cr"] == "not yet determined"
    assert decision.evidence["batches_needed"] == 14


def test_batch_rule_with_low_yield_check():
    rule = BatchCriticalDepth(batch_size=2, **AGGRESSIVE_BATCHES)  # low-yield at batch 20
    pending = rule.decide(_batches(COUNTS), 100)
    assert not pending.stop
    assert (pending.evidence["low_yield"], pending.evidence["batches_needed"]) == (
        "not yet known",
        20,
    )
    # nrels(20) = 14 relevant in 40 records: 0.35 > 0.1 -> stop at k_cr = 5
    done = rule.decide(_batches(COUNTS + [0] * 6), 100)
    assert done.stop and done.evidence["low_yield"] == "no"
    # 4 relevant in the first 40 records: 4/40 <= 0.1 -> low yield, screen everything
    low = rule.decide(_batches([1, 1, 1, 1] + [0] * 16), 100)
    assert not low.stop
    assert (low.evidence["low_yield"], low.evidence["reason"]) == ("yes", "low yield")
    with pytest.raises(ValueError):
        BatchCriticalDepth(batch_size=0)


# ------------------------------------------------------------------------- knee


def test_knee_method_must_stop():
    # 20 relevant, then 180 irrelevant: s = 200, knee at 20 (200·g(i) − 20·i peaks there),
    # ρ = (20/20) / ((20 − 20 + 1)/(200 − 20)) = 180 >= 156 − min(20, 150) = 136.
    decision = KneeMethod().decide([1] * 20 + [0] * 180, 1000)
    assert decision.stop
    assert decision.evidence["knee"] == 20
    assert decision.evidence["rho"] == pytest.approx(180.0)
    assert decision.evidence["rho_required"] == 136


def test_knee_method_must_not_stop():
    # s = 150: ρ = 1 / (1/130) = 130 < 136.
    decision = KneeMethod().decide([1] * 20 + [0] * 130, 1000)
    assert not decision.stop
    assert decision.evidence["rho"] == pytest.approx(130.0)
    # s = 156: ρ = 136 reaches the threshold exactly.
    assert KneeMethod().decide([1] * 20 + [0] * 136, 1000).stop


def test_knee_method_minimum_screened_and_no_relevant():
    # ρ = 180 would stop, but fewer than 300 records are screened.
    assert not KneeMethod(min_screened=300).decide([1] * 20 + [0] * 180, 1000).stop
    # No relevant record: ρ = 0 (the +1 keeps the denominator positive).
    nothing = KneeMethod().decide([0] * 400, 1000)
    assert not nothing.stop and nothing.evidence["rho"] == 0.0
    assert KneeMethod().decide([1], 10).evidence["knee"] == "none yet (needs 150 screened)"
    assert nothing.evidence["knee"] == "none (nothing relevant)"  # a flat curve: no knee


def test_no_knee_is_located_before_the_rule_can_apply():
    # 12 screened (4 relevant, the first one at 1): the old code reported "knee 1".
    early = KneeMethod().decide([1, 0, 0] * 4, 320)
    assert early.evidence["knee"] == "none yet (needs 150 screened)" and not early.stop
    assert "rho" not in early.evidence
    # The same start screened on to s = 160: g = 1, 2, 2, 3, 3, … (g(s) = 3).
    # 160·g(i) − 3·i = 157, 314, 314, 468, 465, … -> knee i* = 4;
    # ρ = (3/4) / ((3 − 3 + 1)/(160 − 4)) = 117 < 156 − 3 = 153.
    later = KneeMethod().decide([1, 1, 0, 1] + [0] * 156, 320)
    assert later.evidence["knee"] == 4 and later.evidence["rho"] == pytest.approx(117.0)
    assert not later.stop


def test_knee_location_on_a_bent_curve():
    # g = 1,2,3,3,4,4,4,4 (s = 8, g(s) = 4): 8·g(i) − 4·i = 4, 8, 12, 8, 12, 8, 4 -> first max i = 3
    # ρ = (3/3) / ((4 − 3 + 1)/(8 − 3)) = 2.5
    decision = KneeMethod(min_screened=1).decide([1, 1, 1, 0, 1, 0, 0, 0], 100)
    assert decision.evidence["knee"] == 3
    assert decision.evidence["rho"] == pytest.approx(2.5)
    assert not decision.stop


# ------------------------------------------------------------------ hypergeometric


def _trailing_history(zeros: int) -> list[int]:
    """19 relevant in the first 300 records (the 300th is relevant), then ``zeros`` zeros."""
    return [1] * 18 + [0] * 281 + [1] + [0] * zeros


def test_hypergeometric_trailing_run_must_not_stop():
    # Sample = 200 trailing zeros: r_AL = 19, k = 0, K_tar = ⌊19/0.95⌋ + 1 − 19 = 2,
    # urn = 1000 − 300 = 700, p = P(X = 0) = C(500, 2) / C(700, 2) = 0.51.
    decision = HypergeometricTest().decide(_trailing_history(200), 1000)
    expected = hypergeom.cdf(0, 700, 2, 200)
    assert expected == pytest.approx(comb(500, 2) / comb(700, 2))
    assert decision.evidence["p_value"] == pytest.approx(expected)
    assert (decision.evidence["k_tar"], decision.evidence["urn_size"]) == (2, 700)
    assert decision.evidence["mode"] == "trailing irrelevant run (heuristic)"
    assert not decision.stop


def test_hypergeometric_trailing_run_must_stop():
    # 600 trailing zeros: p = C(100, 2) / C(700, 2) = 0.0202 < 0.05.
    decision = HypergeometricTest().decide(_trailing_history(600), 1000)
    expected = hypergeom.cdf(0, 700, 2, 600)
    assert expected == pytest.approx(comb(100, 2) / comb(700, 2))
    assert decision.evidence["p_value"] == pytest.approx(expected)
    assert decision.stop


@pytest.mark.parametrize("sample, should_stop", [(400, False), (650, True)])
def test_hypergeometric_declared_random_sample(sample, should_stop):
    # 300 prioritised records with 19 relevant, then a random sample with 1 relevant:
    # r_seen = 20, K_tar = ⌊20/0.95⌋ + 1 − 19 = 3, urn = 700.
    # p = P(X <= 1) = [C(700−n, 3) + n·C(700−n, 2)] / C(700, 3)  (n = sample size):
    # n = 400 -> 0.393 ; n = 650 -> 0.0143.
    history = [1] * 19 + [0] * 281 + [1] + [0] * (sample - 1)
    decision = HypergeometricTest(random_from=300).decide(history, 1000)
    by_hand = (comb(700 - sample, 3) + sample * comb(700 - sample, 2)) / comb(700, 3)
    assert hypergeom.cdf(1, 700, 3, sample) == pytest.approx(by_hand)
    assert decision.evidence["p_value"] == pytest.approx(by_hand)
    assert decision.evidence["k_tar"] == 3
    assert decision.evidence["relevant_in_sample"] == 1
    assert decision.stop is should_stop


def test_hypergeometric_edge_cases():
    # Nothing relevant yet: K_tar = 1, p = 1 − n/N = 0.9.
    none_found = HypergeometricTest().decide([0] * 100, 1000)
    assert none_found.evidence["p_value"] == pytest.approx(0.9)
    # Last record relevant: empty trailing sample, p = 1.
    assert HypergeometricTest().decide([0, 1], 10).evidence["p_value"] == pytest.approx(1.0)
    # K_tar larger than the urn: recall below target is impossible, p = 0.
    impossible = HypergeometricTest(recall_target=0.5).decide([1] * 8 + [0], 10)
    assert impossible.evidence["k_tar"] > impossible.evidence["urn_size"]
    assert impossible.stop and impossible.evidence["p_value"] == 0.0
    with pytest.raises(ValueError):
        HypergeometricTest(random_from=5).decide([0, 0], 10)


def test_hypergeometric_k_tar_is_exact_for_targets_just_above_a_fraction():
    # τ = 0.5000000001, one relevant seen: 1/τ = 1.9999999996, so K_tar = ⌊1.99…⌋ + 1 − 1 = 1
    # (the urn must have held at least 1 more). A float floor nudged by 1e-9 gave 2, a
    # K_tar one too large and so a p-value too small (less conservative).
    assert hypergeometric_p(1, 0, 10, 100, 0.5000000001)[0] == 1
    assert hypergeometric_p(1, 0, 10, 100, 0.5)[0] == 2  # exactly 1/0.5 = 2: ⌊2⌋ + 1 − 1
    assert hypergeometric_p(19, 0, 0, 700, 0.95)[0] == 2  # 19/0.95 is 20 exactly
    with pytest.raises(ValueError):
        HypergeometricTest(recall_target=0.0)


# ------------------------------------------------------------------ random sample (buscar)


def _needed_by_hand(before: int, k: int, n: int, urn: int) -> int:
    """The smallest number of further draws, all irrelevant, after which
    P(X <= k) < 0.05 (τ = 0.95), X ~ Hypergeom(urn, K_tar, size), by a plain loop over
    the sizes and the probability summed from binomial coefficients."""
    k_tar = (20 * (before + k)) // 19 + 1 - before  # ⌊r/0.95⌋ in integers
    for size in range(n, urn + 1):
        p = sum(comb(k_tar, j) * comb(urn - k_tar, size - j) for j in range(k + 1)) \
            / comb(urn, size)
        if p < 0.05:
            return size - n
    raise AssertionError("never")


def test_random_records_needed_by_hand():
    # r_AL = 19, nothing drawn: K_tar = 2, p(n) = C(700 − n, 2)/C(700, 2) < 0.05 first at
    # 700 − n = 156 (156·155 = 24 180 < 0.05·700·699 = 24 465 < 157·156): n = 544.
    assert random_records_needed(19, 0, 0, 700, 0.95, 0.95) == 544
    assert random_records_needed(19, 0, 200, 700, 0.95, 0.95) == 344
    assert random_records_needed(19, 1, 400, 700, 0.95, 0.95) == _needed_by_hand(19, 1, 400, 700)
    assert random_records_needed(19, 0, 600, 700, 0.95, 0.95) == 0  # p = 0.0202 already
    k_tar, p = hypergeometric_p(19, 1, 400, 700, 0.95)
    assert (k_tar, p) == (3, pytest.approx(hypergeom.cdf(1, 700, 3, 400)))


def test_random_sample_stop_advises_the_switch_by_the_ranked_reading_at_even_odds():
    # 40 relevant first, then irrelevant ones (N = 1000). K_tar = ⌊40/0.95⌋ + 1 − 40 = 3
    # in the urn of the 960 records after the last relevant one; the trailing run of n
    # irrelevant records is the quasi-sample: p = C(960 − n, 3) / C(960, 3). The switch is
    # advised at the first n with p < 1 − 0.5.
    run = next(n for n in range(1, 961) if comb(960 - n, 3) / comb(960, 3) < 0.5)
    assert run == 198  # (1 − n/960)^3 ≈ 0.5 at n ≈ 198
    history = [1] * 40 + [0] * 960
    rule = RandomSampleStop()
    before = rule.decide(history[:40 + run - 1], 1000)
    assert not before.stop
    assert before.evidence["switch_to_random"] == \
        "not yet (ranked records: p = 0.50, switch below 0.5)"
    now = rule.decide(history[:40 + run], 1000)
    assert not now.stop and now.evidence["switch_to_random"] == "now"
    assert now.evidence["random_needed_if_none_relevant"] == _needed_by_hand(
        40, 0, 0, 1000 - 40 - run)
    assert rule.switch_rule() == HypergeometricTest(confidence=0.5)
    assert not rule.decide([0] * 80, 1000).evidence["switch_to_random"] == "now"  # none found
    # a stricter switch waits longer: at 0.9 the run must leave p < 0.1
    strict = next(n for n in range(1, 961) if comb(960 - n, 3) / comb(960, 3) < 0.1)
    late = RandomSampleStop(switch_confidence=0.9)
    assert strict > run
    assert late.decide(history[:40 + strict - 1], 1000).evidence["switch_to_random"] != "now"
    assert late.decide(history[:40 + strict], 1000).evidence["switch_to_random"] == "now"


@pytest.mark.parametrize("sample, should_stop", [(400, False), (650, True)])
def test_random_sample_stop_in_the_random_phase(sample, should_stop):
    # As test_hypergeometric_declared_random_sample: r_AL = 19, one relevant in the sample.
    history = [1] * 19 + [0] * 281 + [1] + [0] * (sample - 1)
    decision = RandomSampleStop(random_from=300).decide(history, 1000)
    by_hand = (comb(700 - sample, 3) + sample * comb(700 - sample, 2)) / comb(700, 3)
    assert decision.evidence["p_value"] == pytest.approx(by_hand)
    assert decision.evidence["phase"] == "random"
    assert decision.stop is should_stop
    assert decision.evidence["random_remaining"] == _needed_by_hand(19, 1, sample, 700)
    assert (decision.evidence["random_remaining"] == 0) is should_stop
    with pytest.raises(ValueError):
        RandomSampleStop(random_from=2000).decide(history, 1000)
    with pytest.raises(ValueError):
        RandomSampleStop(switch_confidence=1.0)


def test_no_relevant_drawn_by_log_gamma_is_scipys():
    """The ranked reading's one-pass p (P(X = 0) by log-gamma) against scipy's hypergeom."""
    from scipy.stats import hypergeom

    from litqeval_gui.metrics.stopping.hypergeometric import none_drawn
    rng = np.random.default_rng(1)
    urn = rng.integers(1, 5000, 500)
    k_tar = np.minimum(rng.integers(0, 60, 500), urn)
    n = np.array([rng.integers(0, u + 1) for u in urn])
    assert np.allclose(none_drawn(urn, k_tar, n), hypergeom.cdf(0, urn, k_tar, n),
                       rtol=1e-9, atol=1e-300)
    # by hand: 10 records, 2 relevant, 3 drawn: C(8, 3)/C(10, 3) = 56/120
    assert none_drawn(10, 2, 3) == pytest.approx(56 / 120)
    assert none_drawn(10, 2, 9) == 0.0  # 9 of 10 drawn must hold a relevant one
