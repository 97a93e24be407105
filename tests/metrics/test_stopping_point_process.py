"""The point-process rule IP-P: worked pieces by hand, and stops checked against the
authors' own code (Stevenson & Bin-Hezam, github.com/ReemBinHezam/TAR_Stopping_Point_Processes
at 709f808: ``run_point_process`` with "IP", "P", RMSE 0.1, dynamic minimum 20, steps of
0.025, run on the same label lists)."""

import math

import numpy as np
import pytest
from scipy.stats import poisson

from litqeval_gui.metrics.stopping import MODEL_BASED, PointProcess


def squares(top: int, n: int = 2000) -> np.ndarray:
    """Relevant at positions ⌊j²/6⌋, j = 1 … top − 1: ever rarer relevant records."""
    labels = np.zeros(n, dtype=np.int64)
    labels[[j * j // 6 for j in range(1, top) if j * j // 6 < n]] = 1
    return labels


@pytest.mark.parametrize(("top", "reference_stop"), [(30, 300), (40, 550), (50, 850), (80, 1950)])
def test_the_stop_is_the_authors_codes(top, reference_stop):
    labels = squares(top)
    assert PointProcess().first_stop(labels, labels.size) == reference_stop


def test_the_expected_count_after_a_point_is_the_rate_integral():
    # ∫_100^400 0.5·x^−0.5 dx = [x^0.5]_100^400 = 20 − 10 = 10; k = −1 gives a·ln(N/at)
    assert PointProcess.expected_after(0.5, -0.5, 100, 400) == pytest.approx(10.0)
    assert PointProcess.expected_after(2.0, -1.0, 100, 400) == pytest.approx(2 * math.log(4))


def test_the_minimum_relevant_falls_after_every_check():
    # int(m − m·i·0.025) after check i: 20, 19, 18, 16, 14, 12, 10, 8, 6, 4, 3, 2, 1, 0
    checks = PointProcess().checks(np.zeros(400, dtype=np.int64), 400)
    needed = [int(c.reason.rsplit(" ", 1)[1]) for c in checks[:15]]
    assert needed == [20, 19, 18, 16, 14, 12, 10, 8, 6, 4, 3, 2, 1, 0, 0]
    assert not any(c.stop for c in checks)  # nothing found: never "stop"


def test_nothing_in_the_last_half_of_the_windows_stops():
    # 30 relevant first, N = 1000: at 25 and 50 the rates (1, …, 1, ½, …) fit a power
    # curve too loosely; at 75 the windows from record 41 on (the last five) are empty
    labels = np.array([1] * 30 + [0] * 970)
    checks = PointProcess().checks(labels, 1000)
    assert [(c.at, c.found, c.stop) for c in checks] == [(25, 25, False), (50, 30, False),
                                                          (75, 30, True)]
    assert checks[-1].reason == "nothing relevant in the last half of the windows"
    assert PointProcess().first_stop(labels, 1000) == 75


def test_the_stop_rule_and_the_estimate_at_a_kept_fit():
    labels = squares(80)
    rule = PointProcess()
    made = rule.checks(labels[:700], 2000)
    last = made[-1]
    a, k = last.fit
    mu = PointProcess.expected_after(a, k, 700, 2000)
    assert last.expected_total == 63 + poisson.ppf(0.95, mu) and not last.stop
    assert 0.95 * last.expected_total > 63  # why it goes on
    decision = rule.decide(labels[:700], 2000)
    estimate = decision.estimate
    assert not decision.stop and decision.evidence["next_check"] == 750
    assert estimate.method == "point process (IP-P)" and estimate.remaining == pytest.approx(mu)
    assert estimate.recall == pytest.approx(63 / (63 + mu))
    assert (estimate.low, estimate.high) == (pytest.approx(63 / (63 + poisson.ppf(0.95, mu))),
                                             1.0)  # one-sided, as the stop's claim
    assert estimate.low < estimate.recall < estimate.high
    assert "point process (IP-P)" in estimate.text()


def test_once_stopped_it_says_stop_later_and_one_pass_agrees_with_every_prefix():
    labels = squares(40)
    rule = PointProcess()
    assert rule.kind == MODEL_BASED
    assert not rule.decide(labels[:549], 2000).stop
    assert rule.decide(labels[:550], 2000).stop and rule.decide(labels[:900], 2000).stop
    rng = np.random.default_rng(5)
    for _ in range(5):
        n = int(rng.integers(200, 600))
        drawn = (rng.random(n) < np.linspace(0.4, 0.0, n)).astype(np.int64)
        every = next((s for s in range(1, n) if rule.decide(drawn[:s], n).stop), n)
        assert rule.first_stop(drawn, n) == every


def test_a_short_history_waits_for_the_first_check():
    decision = PointProcess().decide([1] * 5, 1000)
    assert not decision.stop and decision.evidence["reason"] == "first check at 25 screened"
    assert decision.estimate is None
