"""Tests for litqeval_gui.metrics.ranking: hand-computed cases, properties, trec_eval cross-checks."""

import math

import ir_measures
import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.metrics.ranking import (
    average_precision,
    average_precision_batch,
    bpref,
    grades_in_rank_order,
    mean_average_precision,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    rank_documents,
    recall_at_k,
)

# a(2) b(0) c(1) d(unjudged) ranked in that order; z(1) relevant but not retrieved.
QRELS = {"a": 2, "b": 0, "c": 1, "z": 1}
RUN = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}


def test_hand_computed_example():
    assert average_precision(RUN, QRELS) == pytest.approx((1 / 1 + 2 / 3) / 3)
    assert precision_at_k(RUN, QRELS, 2) == 0.5
    assert recall_at_k(RUN, QRELS, 2) == pytest.approx(1 / 3)
    assert r_precision(RUN, QRELS) == pytest.approx(2 / 3)  # R = 3: a, c in the top 3
    dcg = 2 / 1 + 0 / math.log2(3) + 1 / math.log2(4)
    idcg = 2 / 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(RUN, QRELS, 3) == pytest.approx(dcg / idcg)
    # bpref: R = 3, N = 1; a: 1; c: 1 - min(1, 3)/min(3, 1) = 0; z not retrieved.
    assert bpref(RUN, QRELS) == pytest.approx(1 / 3)


def test_ndcg_exponential_gain():
    dcg = 3 / 1 + 0 + 1 / 2  # gains 2^2-1, 0, 2^1-1
    idcg = 3 + 1 / math.log2(3) + 1 / 2
    assert ndcg_at_k(RUN, QRELS, 3, exponential_gain=True) == pytest.approx(dcg / idcg)


def test_score_ties_are_broken_by_the_mappings_own_order():
    qrels = {"y": 1}
    assert rank_documents({"x": 1.0, "y": 1.0}) == ["x", "y"]
    assert average_precision({"x": 1.0, "y": 1.0}, qrels) == 0.5
    assert average_precision({"y": 1.0, "x": 1.0}, qrels) == 1.0
    assert rank_documents({"x": 0.5, "y": 1.0, "z": 1.0}) == ["y", "z", "x"]


def test_ranked_list_is_taken_as_given_and_unjudged_are_nan():
    grades = grades_in_rank_order(["c", "u", "a"], QRELS)
    np.testing.assert_array_equal(grades, [1.0, np.nan, 2.0])
    assert average_precision(["c", "u", "a"], QRELS) == pytest.approx((1 + 2 / 3) / 3)


def test_empty_run_scores_zero():
    for value in (
        average_precision([], QRELS),
        precision_at_k([], QRELS, 5),
        recall_at_k([], QRELS, 5),
        r_precision([], QRELS),
        ndcg_at_k([], QRELS, 5),
        bpref([], QRELS),
    ):
        assert value == 0.0


def test_no_relevant_documents_scores_zero():
    qrels = {"a": 0, "b": 0}
    run = ["a", "b", "c"]
    assert average_precision(run, qrels) == 0.0
    assert r_precision(run, qrels) == 0.0
    assert recall_at_k(run, qrels, 2) == 0.0
    assert ndcg_at_k(run, qrels, 2) == 0.0
    assert bpref(run, qrels) == 0.0
    assert average_precision(run, {}) == 0.0


def test_all_relevant_scores_one():
    qrels = {"a": 1, "b": 3, "c": 2}
    run = ["a", "b", "c"]
    assert average_precision(run, qrels) == 1.0
    assert precision_at_k(run, qrels, 3) == 1.0
    assert r_precision(run, qrels) == 1.0
    assert recall_at_k(run, qrels, 3) == 1.0
    assert bpref(run, qrels) == 1.0
    assert ndcg_at_k(["b", "c", "a"], qrels, 3) == pytest.approx(1.0)
    assert ndcg_at_k(run, qrels, 3) < 1.0  # graded: a(1) first is not ideal


def test_precision_pads_short_runs_and_checks_k():
    assert precision_at_k(["a"], QRELS, 4) == 0.25
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError):
            precision_at_k(["a"], QRELS, bad)


def test_bpref_skips_unjudged_documents():
    qrels = {"r": 1, "n": 0}
    assert bpref(["u", "r"], qrels) == 1.0  # unjudged above: no penalty
    assert bpref(["n", "r"], qrels) == 0.0  # 1 - min(1, 1)/min(1, 1)
    assert bpref(["r", "u", "n"], {"r": 1}) == 1.0  # N = 0 is well defined
    # R = 2, N = 3: penalty capped by min(R, N) = 2.
    qrels = {"r1": 1, "r2": 1, "n1": 0, "n2": 0, "n3": 0}
    assert bpref(["n1", "r1", "u", "n2", "n3", "r2"], qrels) == pytest.approx(
        ((1 - 1 / 2) + (1 - 2 / 2)) / 2
    )


def test_duplicate_ids_are_rejected():
    with pytest.raises(ValueError):
        average_precision(["a", "a"], QRELS)
    with pytest.raises(ValueError):
        rank_documents(["a", "b", "a"])


def test_average_precision_batch_matrix_and_ragged():
    rel = np.array([[1, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    expected = [(1 + 2 / 3) / 3, (1 / 4) / 1, 0.0]
    np.testing.assert_allclose(average_precision_batch(rel, [3, 1, 0]), expected)
    ragged = [np.array([True]), np.array([], dtype=bool), np.array([0, 2.0, np.nan, 1])]
    np.testing.assert_allclose(
        average_precision_batch(ragged, [1, 2, 2]), [1.0, 0.0, (1 / 2 + 2 / 4) / 2]
    )
    assert average_precision_batch([], []).shape == (0,)
    with pytest.raises(ValueError):
        average_precision_batch(rel, [1, 1, 0])  # topic 0 retrieves 2 relevant > 1
    with pytest.raises(ValueError):
        average_precision_batch(rel, [3, 1])


def test_mean_average_precision_uses_topics_in_run_and_qrels():
    runs = {"q1": RUN, "q2": ["x", "y"], "q3": ["a"]}
    qrels = {"q1": QRELS, "q2": {"y": 1}, "q4": {"a": 1}}
    assert mean_average_precision(runs, qrels) == pytest.approx(((1 + 2 / 3) / 3 + 0.5) / 2)
    assert math.isnan(mean_average_precision({"q3": ["a"]}, {"q4": {"a": 1}}))


def _random_collection(seed: int, n_topics: int = 8):
    rng = np.random.default_rng(seed)
    runs, qrels = {}, {}
    for t in range(n_topics):
        n_docs = int(rng.integers(1, 60))
        scores = rng.permutation(n_docs) + rng.random()
        runs[f"q{t}"] = {f"d{i}": float(s) for i, s in enumerate(scores)}
        judged = rng.choice(n_docs + 10, size=int(rng.integers(1, n_docs + 10)), replace=False)
        qrels[f"q{t}"] = {f"d{j}": int(rng.integers(0, 4)) for j in judged}
    return runs, qrels


MEASURES = {
    "AP": (ir_measures.AP, average_precision),
    "P@5": (ir_measures.P @ 5, lambda r, q: precision_at_k(r, q, 5)),
    "P@10": (ir_measures.P @ 10, lambda r, q: precision_at_k(r, q, 10)),
    "R@10": (ir_measures.R @ 10, lambda r, q: recall_at_k(r, q, 10)),
    "Rprec": (ir_measures.Rprec, r_precision),
    "nDCG@10": (ir_measures.nDCG @ 10, lambda r, q: ndcg_at_k(r, q, 10)),
    "nDCG@25": (ir_measures.nDCG @ 25, lambda r, q: ndcg_at_k(r, q, 25)),
    "Bpref": (ir_measures.Bpref, bpref),
}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_agrees_with_ir_measures_on_random_runs(seed):
    runs, qrels = _random_collection(seed)
    for name, (measure, ours) in MEASURES.items():
        for m in ir_measures.iter_calc([measure], qrels, runs):
            assert ours(runs[m.query_id], qrels[m.query_id]) == pytest.approx(m.value, abs=1e-9), (
                name,
                m.query_id,
            )
    ref_map = ir_measures.calc_aggregate([ir_measures.AP], qrels, runs)[ir_measures.AP]
    assert mean_average_precision(runs, qrels) == pytest.approx(ref_map, abs=1e-9)


def test_agrees_with_pytrec_eval_on_random_runs():
    runs, qrels = _random_collection(7)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "bpref", "Rprec"})
    for qid, ref in evaluator.evaluate(runs).items():
        assert average_precision(runs[qid], qrels[qid]) == pytest.approx(ref["map"], abs=1e-9)
        assert ndcg_at_k(runs[qid], qrels[qid], 10) == pytest.approx(ref["ndcg_cut_10"], abs=1e-9)
        assert bpref(runs[qid], qrels[qid]) == pytest.approx(ref["bpref"], abs=1e-9)
        assert r_precision(runs[qid], qrels[qid]) == pytest.approx(ref["Rprec"], abs=1e-9)


runs_and_qrels = st.integers(1, 25).flatmap(
    lambda n: st.tuples(
        st.permutations([f"d{i}" for i in range(n)]),
        st.dictionaries(st.sampled_from([f"d{i}" for i in range(n + 3)]), st.integers(0, 3)),
    )
)


@settings(max_examples=60, deadline=None)
@given(runs_and_qrels, st.integers(1, 30))
def test_bounded_measures_stay_in_unit_interval(data, k):
    run, qrels = data
    for value in (
        average_precision(run, qrels),
        precision_at_k(run, qrels, k),
        recall_at_k(run, qrels, k),
        r_precision(run, qrels),
        ndcg_at_k(run, qrels, k),
        ndcg_at_k(run, qrels, k, exponential_gain=True),
        bpref(run, qrels),
    ):
        assert -1e-12 <= value <= 1 + 1e-12


@settings(max_examples=60, deadline=None)
@given(runs_and_qrels, st.randoms(use_true_random=False))
def test_shuffling_below_the_last_relevant_keeps_ap(data, rnd):
    run, qrels = data
    rel_positions = [i for i, d in enumerate(run) if qrels.get(d, 0) >= 1]
    cut = rel_positions[-1] + 1 if rel_positions else 0
    tail = list(run[cut:])
    rnd.shuffle(tail)
    assert average_precision(list(run[:cut]) + tail, qrels) == pytest.approx(
        average_precision(run, qrels), abs=1e-12
    )
