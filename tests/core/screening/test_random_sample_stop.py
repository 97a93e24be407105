"""The random-sample stop replayed on constructed label sequences (simulate's procedure)."""

import math
from math import comb

import numpy as np
import pytest
from scipy.stats import hypergeom

from litqeval_gui.core.screening.simulation.simulate import random_sample_stop
from litqeval_gui.metrics.stopping import RandomSampleStop


def _switch(labels: np.ndarray) -> int:
    return RandomSampleStop().switch_rule().first_stop(labels, labels.size)


def test_all_found_early_stops_after_the_random_records_the_test_needs():
    # 25 relevant first, then 1 975 irrelevant (N = 2 000). K_tar = ⌊25/0.95⌋ + 1 − 25 = 2.
    # The switch comes when the ranked reading gives p < 0.5: the trailing run of n
    # irrelevant records, drawn from the 1 975 after the 25th relevant one, holds none of
    # 2, p = C(1975 − n, 2)/C(1975, 2); first below 0.5 at n = 579, so s = 604. The urn
    # of 2 000 − s holds nothing relevant, p(m) = C(urn − m, 2)/C(urn, 2) < 0.05.
    labels = np.array([1] * 25 + [0] * 1975)
    s = _switch(labels)
    run = next(n for n in range(1, 1976) if comb(1975 - n, 2) / comb(1975, 2) < 0.5)
    assert s == 25 + run == 604
    urn = 2000 - s
    m = next(m for m in range(urn) if comb(urn - m, 2) / comb(urn, 2) < 0.05)
    assert m == urn - math.floor((1 + math.sqrt(1 + 0.2 * urn * (urn - 1))) / 2)  # the root
    stopped, found = random_sample_stop(RandomSampleStop(), labels, np.random.default_rng(0))
    assert (stopped, found) == (s + m, 25)


def test_a_relevant_record_in_the_random_sample_by_hand():
    # 40 relevant then 260 irrelevant, one more relevant among the last 700 (N = 1000);
    # the switch after a run of 198 irrelevant (K_tar = 3 among the 960 after the 40th:
    # C(960 − n, 3)/C(960, 3) < 0.5 first at n = 198), s = 238; the urn of 1000 − s
    # holds that one relevant record, drawn in the seeded random order.
    labels = np.array([1] * 40 + [0] * 260 + [1] + [0] * 699)
    s = _switch(labels)
    assert s == 40 + 198
    urn = 1000 - s
    assert labels[s:].sum() == 1
    stopped, found = random_sample_stop(RandomSampleStop(), labels, np.random.default_rng(4))
    sample = np.random.default_rng(4).permutation(labels[s:])
    k = np.cumsum(sample)
    # by hand: K_tar = ⌊(40 + k)/0.95⌋ + 1 − 40; p = Σ_{j <= k} C(K, j) C(930 − K, m − j) / C(930, m)
    first = None
    for m in range(1, urn + 1):
        k_tar = int(np.floor((40 + k[m - 1]) / 0.95 + 1e-9)) + 1 - 40
        p = sum(comb(k_tar, j) * comb(urn - k_tar, m - j) for j in range(k[m - 1] + 1)) \
            / comb(urn, m)
        assert p == pytest.approx(hypergeom.cdf(k[m - 1], urn, k_tar, m))
        if p < 0.05:
            first = m
            break
    assert stopped == s + first and found == 40 + k[first - 1]


def test_no_switch_while_the_yield_holds():
    # One relevant in every four records (N = 200): a trailing run is at most 3, so the
    # ranked reading stays above even odds until the urn is small. At 188 screened (47
    # found, K_tar = ⌊47/0.95⌋ + 1 − 47 = 3, run 3 from an urn of 15):
    # p = C(12, 3)/C(15, 3) = 220/455 < 0.5; at every earlier count the urn is larger.
    labels = np.array(([1] + [0] * 3) * 50)
    assert _switch(labels) == 188
    assert comb(12, 3) / comb(15, 3) < 0.5 < comb(16, 3) / comb(19, 3)
    stopped, found = random_sample_stop(RandomSampleStop(), labels, np.random.default_rng(0))
    assert stopped is None or stopped > 188
