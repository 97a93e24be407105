"""How much screening a prioritised order saves, in the two conventions a simulation
reports (issue 28 §1), from relevance labels in screening order (index 0 = first).

* ``project`` — SPEC §2 (:func:`~litqeval_gui.metrics.tar.tar_at_recall`): the whole
  order including the prior records, TP = ⌈r·|I|⌉, WSS@r = (N − cutoff)/N − (1 − r).
* ``insights`` — asreview-insights' ``wss`` (``algorithms._wss_values`` with
  ``metrics._slice_metric``, ``priors=False``): the prior records are left out; over
  the remaining n records with p relevant, the k-th relevant is found at the 0-based
  index ``when(k)`` (first index where the running count reaches k) and at ``rnd(k)``
  by the reference "random" curve round(linspace(0, p, n)); WSS@r = (rnd(k) − when(k))/n
  with k the largest of 1…p with k/p ≤ r (a floor, where the project's is a ceiling).

Also: recall after a fraction of the records is screened (⌊f·N⌋ records, priors
included) and the records screened to reach a recall (the ⌈r·|I|⌉-th relevant's rank).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from litqeval_gui.metrics.tar import tar_at_recall, target_true_positives

NAN = float("nan")


def wss_insights(labels: np.ndarray, recall: float) -> float:
    """WSS@``recall`` as asreview-insights computes it on ``labels`` (priors already
    left out); NaN without a relevant record. Its index is the number of relevant counts k
    with k/p ≤ ``recall``, minus one; when no count qualifies (p = 1 at 95 %) insights'
    ``y[i - 1]`` wraps to the last value, WSS@100, and so does this."""
    rel = np.asarray(labels, dtype=np.int64)
    n, p = rel.size, int(rel.sum())
    if p == 0:
        return NAN
    ks = np.arange(1, p + 1)
    when = np.searchsorted(np.cumsum(rel), ks)
    reference = np.searchsorted(np.round(np.linspace(0, p, n)), ks)
    k = int(np.searchsorted(ks / p, recall, side="right"))
    return float((reference[k - 1] - when[k - 1]) / n)  # k = 0 wraps, as insights'


def recall_after(labels: np.ndarray, fraction: float) -> float:
    """Recall after the first ⌊``fraction``·N⌋ records; NaN without a relevant record."""
    rel = np.asarray(labels, dtype=bool)
    total = int(rel.sum())
    if not total:
        return NAN
    screened = math.floor(Fraction(str(float(fraction))) * rel.size)
    return int(rel[:screened].sum()) / total


def screened_to_reach(labels: np.ndarray, recall: float) -> int | None:
    """Records screened when ⌈``recall``·|I|⌉ relevant are found (None: none relevant)."""
    positions = np.flatnonzero(np.asarray(labels, dtype=bool)) + 1
    if not positions.size:
        return None
    return int(positions[target_true_positives(recall, positions.size) - 1])


def effort(labels: np.ndarray, priors: int) -> dict[str, float | int | None]:
    """The ``simulate --json`` measures of a screening order whose first ``priors``
    records are the prior knowledge: WSS@95 and WSS@100 in both conventions (module
    docstring; NaN → None), recall at 10 % and 25 % screened, records to 95 % and 100 %."""
    rel = np.asarray(labels, dtype=bool)
    found: dict[str, float | int | None] = {}
    for level, name in ((0.95, "95"), (1.0, "100")):
        found[f"wss_at_{name}_project"] = tar_at_recall(rel, level).wss
        found[f"wss_at_{name}_insights"] = wss_insights(rel[priors:], level)
    found["recall_at_10pct"] = recall_after(rel, 0.10)
    found["recall_at_25pct"] = recall_after(rel, 0.25)
    found["screened_to_95"] = screened_to_reach(rel, 0.95)
    found["screened_to_100"] = screened_to_reach(rel, 1.0)
    return {key: None if isinstance(v, float) and math.isnan(v) else v
            for key, v in found.items()}
