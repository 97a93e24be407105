"""Rank-based effectiveness measures (SPEC §2): AP, MAP, P@k, R-precision, recall@k, nDCG@k, bpref.

Conventions (they follow trec_eval, so that the numbers agree with ir_measures/pytrec_eval):

* A *run* for one topic is either a ranked sequence of document ids (best first) or a mapping
  ``{doc_id: score}``. A score mapping is ranked by score, highest first; **ties in score are
  broken by the mapping's own order** (insertion order: the earlier document ranks higher).
  A sequence is taken as already ranked. Document ids must be unique within a run.
  (trec_eval instead breaks ties by document id; runs with distinct scores rank identically.)
* *qrels* for one topic map ``{doc_id: grade}``. A document is relevant when ``grade >= 1``,
  judged non-relevant when ``grade < 1`` and unjudged when absent. Unjudged documents count
  as non-relevant everywhere except in bpref, which skips them.
* A topic without relevant documents scores 0.0 on every measure (trec_eval convention).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat

import numpy as np

Run = Sequence[str] | Mapping[str, float]
Qrels = Mapping[str, float]

RELEVANCE_LEVEL = 1


def _ids_and_order(run: Run) -> tuple[list[str], np.ndarray | None]:
    """The run's ids as given and, for a score mapping, the permutation that ranks them.

    The permutation is ``argsort(-score)`` with a stable sort (score ties keep the mapping's
    own order); None for a sequence, which is already ranked and must not repeat an id.
    """
    docs = list(run)
    if isinstance(run, Mapping):
        scores = np.fromiter(run.values(), dtype=float, count=len(docs))
        return docs, np.argsort(-scores, kind="stable")
    if len(set(docs)) != len(docs):
        raise ValueError("document ids in a run must be unique")
    return docs, None


def rank_documents(run: Run) -> list[str]:
    """Return the run's document ids best first; score ties keep the mapping's own order."""
    docs, order = _ids_and_order(run)
    return docs if order is None else [docs[i] for i in order]


def grades_in_rank_order(run: Run, qrels: Qrels) -> np.ndarray:
    """Grades of the run's documents in rank order (float array); NaN marks unjudged documents.

    For a score mapping the ranking is ``argsort(-score)`` with a stable sort, i.e. ties are
    broken by the mapping's own order.
    """
    docs, order = _ids_and_order(run)
    grades = np.fromiter(map(qrels.get, docs, repeat(np.nan)), dtype=float, count=len(docs))
    return grades if order is None else grades[order]


def _n_relevant(qrels: Qrels) -> int:
    return sum(1 for g in qrels.values() if g >= RELEVANCE_LEVEL)


def _check_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"cut-off k must be a positive integer, got {k!r}")


def average_precision_from_ranks(
    ranks: np.ndarray, groups: np.ndarray, n_relevant: Sequence[int] | np.ndarray
) -> np.ndarray:
    """AP per group from the 1-based ``ranks`` of its relevant retrieved documents.

    ``AP_g = (1/R_g) · Σ_j j / rank_gj`` where ``rank_gj`` is the rank of the j-th relevant
    document group g retrieves. ``groups`` gives each entry's group (non-decreasing, ranks
    ascending within a group); ``n_relevant[g] = R_g`` counts relevant documents retrieved
    or not. AP is 0.0 where ``R_g = 0``. Vectorised: O(len(ranks)).
    """
    n_rel = np.asarray(n_relevant, dtype=float)
    ranks = np.asarray(ranks, dtype=float)
    groups = np.asarray(groups, dtype=np.int64)
    first_hit = np.searchsorted(groups, np.arange(n_rel.size))  # first entry of each group
    found = np.arange(ranks.size) - first_hit[groups] + 1
    if np.any(found > n_rel[groups]):
        raise ValueError("a topic retrieves more relevant documents than n_relevant")
    sums = np.bincount(groups, weights=found / ranks, minlength=n_rel.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_rel > 0, sums / n_rel, 0.0)


def recall_from_ranks(
    ranks: np.ndarray, groups: np.ndarray, n_relevant: Sequence[int] | np.ndarray, k: int
) -> np.ndarray:
    """recall@k per group = #(ranks <= k) / R_g from the ranks of the relevant retrieved
    documents (as :func:`average_precision_from_ranks`); 0.0 where ``R_g = 0``."""
    _check_k(k)
    n_rel = np.asarray(n_relevant, dtype=float)
    groups = np.asarray(groups, dtype=np.int64)
    found = np.bincount(groups[np.asarray(ranks) <= k], minlength=n_rel.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_rel > 0, found / n_rel, 0.0)


def relevant_ranks(relevance: Sequence[np.ndarray] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ranks, groups) of the relevant entries (>= 1 or True) of rank-ordered rows; NaN is
    unjudged = not relevant. The input of :func:`average_precision_from_ranks`."""
    rows = [np.asarray(r) for r in relevance]
    lengths = np.fromiter((r.size for r in rows), dtype=np.int64, count=len(rows))
    flat = np.concatenate(rows) if rows else np.empty(0)
    hits = np.flatnonzero(flat >= RELEVANCE_LEVEL)  # NaN compares False: unjudged = non-rel
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    groups = np.searchsorted(starts, hits, side="right") - 1
    return hits - starts[groups] + 1, groups


def average_precision_batch(
    relevance: Sequence[np.ndarray] | np.ndarray, n_relevant: Sequence[int] | np.ndarray
) -> np.ndarray:
    """Vectorised AP for many topics: ``AP_t = (1/R_t) · Σ_{i: rel_t[i]} (#rel in 1..i) / i``.

    ``relevance`` holds one array per topic (or a 2-D array, one row per topic) of grades or
    booleans **in rank order**; entries ``>= 1`` (or ``True``) are relevant, NaN is unjudged.
    ``n_relevant[t] = R_t`` is the number of relevant documents of topic t in the qrels,
    retrieved or not. AP is 0.0 where ``R_t = 0``. Cost: O(total length), no Python loop over
    documents.
    """
    if np.shape(n_relevant) != (len(relevance),):
        raise ValueError("n_relevant needs one entry per topic")
    return average_precision_from_ranks(*relevant_ranks(relevance), n_relevant)


def average_precision(run: Run, qrels: Qrels) -> float:
    """AP = (1/R) · Σ over relevant retrieved documents of precision at their rank; R = #rel."""
    return float(
        average_precision_batch([grades_in_rank_order(run, qrels)], [_n_relevant(qrels)])[0]
    )


def mean_average_precision(runs: Mapping[str, Run], qrels: Mapping[str, Qrels]) -> float:
    """MAP = mean AP over the topics that appear in both ``runs`` and ``qrels`` (trec_eval).

    Returns NaN when no topic is shared. Each topic's run follows the module's tie rule.
    """
    topics = [t for t in runs if t in qrels]
    if not topics:
        return float("nan")
    rels = [grades_in_rank_order(runs[t], qrels[t]) for t in topics]
    return float(average_precision_batch(rels, [_n_relevant(qrels[t]) for t in topics]).mean())


def precision_at_k(run: Run, qrels: Qrels, k: int) -> float:
    """P@k = #relevant in the top k / k (a run shorter than k is padded with non-relevant)."""
    _check_k(k)
    return float(np.count_nonzero(grades_in_rank_order(run, qrels)[:k] >= RELEVANCE_LEVEL) / k)


def recall_at_k(run: Run, qrels: Qrels, k: int) -> float:
    """recall@k = #relevant in the top k / R; 0.0 when R = 0."""
    ranks, groups = relevant_ranks([grades_in_rank_order(run, qrels)])
    return float(recall_from_ranks(ranks, groups, [_n_relevant(qrels)], k)[0])


def r_precision(run: Run, qrels: Qrels) -> float:
    """R-precision = #relevant in the top R / R with R = #relevant; 0.0 when R = 0."""
    n_rel = _n_relevant(qrels)
    if n_rel == 0:
        return 0.0
    return precision_at_k(run, qrels, n_rel)


def ndcg_at_k(run: Run, qrels: Qrels, k: int, *, exponential_gain: bool = False) -> float:
    """nDCG@k = DCG@k / IDCG@k with DCG@k = Σ_{i≤k} gain(g_i) / log2(i + 1).

    gain(g) = max(g, 0) (trec_eval's linear gain) or ``2**g - 1`` when ``exponential_gain``;
    unjudged documents gain 0. IDCG@k sorts all qrels grades (retrieved or not) descending.
    0.0 when IDCG = 0.
    """
    _check_k(k)

    def gain(g: np.ndarray) -> np.ndarray:
        g = np.clip(np.nan_to_num(g, nan=0.0), 0.0, None)
        return np.exp2(g) - 1.0 if exponential_gain else g

    def dcg(g: np.ndarray) -> float:
        return float(np.sum(gain(g[:k]) / np.log2(np.arange(2, min(k, g.size) + 2))))

    ideal = dcg(np.sort(np.fromiter(qrels.values(), dtype=float, count=len(qrels)))[::-1])
    return dcg(grades_in_rank_order(run, qrels)) / ideal if ideal > 0 else 0.0


def bpref(run: Run, qrels: Qrels) -> float:
    """bpref = (1/R) · Σ_{relevant retrieved r} (1 − min(n_r, R) / min(R, N)).

    R = #relevant, N = #judged non-relevant in the qrels, n_r = #judged non-relevant documents
    ranked above r. **Unjudged documents are skipped** (neither counted nor penalised).
    A term is 1 when n_r = 0 (so N = 0 is well defined). 0.0 when R = 0. (trec_eval's bpref.)
    """
    n_rel = _n_relevant(qrels)
    if n_rel == 0:
        return 0.0
    n_nonrel = len(qrels) - n_rel
    grades = grades_in_rank_order(run, qrels)
    grades = grades[~np.isnan(grades)]
    is_rel = grades >= RELEVANCE_LEVEL
    nonrel_above = np.cumsum(~is_rel)[is_rel]
    penalties = np.minimum(nonrel_above, n_rel) / max(min(n_rel, n_nonrel), 1)
    return float(np.sum(1.0 - penalties) / n_rel)
