"""Static pools for comparison: depth-k, RBP-take-N and RRF-take-N, by hand."""

import pytest

from litqeval_gui.metrics.pooling import depth_k_pool, rbp_take_n, rrf_take_n

RUNS = [["a", "b", "c", "d"], ["c", "e", "a", "f"]]


def test_depth_k_pool_in_pooling_order():
    assert depth_k_pool(RUNS, 2) == ["a", "c", "b", "e"]
    assert depth_k_pool(RUNS, 0) == []


def test_rbp_take_n_by_hand():
    # p = 0.5: weights 0.5, 0.25, 0.125, 0.0625 by rank
    # a: 0.5 + 0.125 = 0.625, c: 0.125 + 0.5 = 0.625, b 0.25, e 0.25, d 0.0625, f 0.0625
    assert rbp_take_n(RUNS, 4, p=0.5) == ["a", "c", "b", "e"]
    assert rbp_take_n(RUNS, 6, p=0.5)[4:] == ["d", "f"]
    with pytest.raises(ValueError):
        rbp_take_n(RUNS, 2, p=1.0)


def test_rrf_take_n_by_hand():
    # k = 1: a 1/2 + 1/4 = 0.75, c 1/4 + 1/2 = 0.75, b 1/3, e 1/3, d 1/5, f 1/5
    assert rrf_take_n(RUNS, 3, k=1) == ["a", "c", "b"]
    # a run's repeated document counts once, at its first rank
    assert rrf_take_n([["x", "y", "x"]], 2, k=0) == ["x", "y"]
