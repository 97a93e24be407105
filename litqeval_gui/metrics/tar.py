"""TAR measures at a fixed recall level (SPEC §2; seed 001, Kusa et al. 2024, §3–4).

A ranking covers the whole candidate set of N records: I = relevant records, E = the rest
(unjudged candidates count as not relevant). For recall level r in (0, 1]:

    TP = ⌈r·|I|⌉   cutoff = first rank with TP relevant seen   FP = cutoff − TP
    TN = |E| − FP  FN = |I| − TP
    P@r = TP/(TP+FP)  TNR@r = TN/|E|  nP@r = P@r·TNR@r  snP@r = √nP@r
    WSS@r = (TN+FN)/N − (1−r)  last_rel = rank of the last relevant / N · 100

TP is computed exactly: r is read as the decimal it prints as (``Fraction(str(r))``), so
0.95·20 gives 19 and 0.7·10 gives 7, never 8 through floating-point error.
A score mapping is ranked by score, highest first, ties broken by the mapping's own order.

``convention="clef"`` reproduces the official CLEF TAR script (``eval_measures.py``,
CountBasedMeasures) instead: TP = ``round(float(r)·|I|)`` in floating point with Python's
round-half-to-even, WSS@r = (N − cutoff)/N − (1 − r) in the script's floating-point
operations (1 − r as the decimal it prints as: 0.05 for 0.95), WSS@r = 0 when fewer than TP relevant records are among the first
``retrieved`` ranks (the records the run actually returned), and last_rel = the rank of
the last relevant record among them (0 if none), not a percentage.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from litqeval_gui.metrics.ranking import Run, grades_in_rank_order

NAN = float("nan")
Convention = Literal["paper", "clef"]
CONVENTIONS: tuple[Convention, ...] = ("paper", "clef")


@dataclass(frozen=True)
class TarResult:
    """All counts and measures at recall level ``recall``; ``reason`` explains any NaN."""

    recall: float
    n_records: int
    n_includes: int
    n_excludes: int
    tp: int
    fp: int
    tn: int
    fn: int
    cutoff: int
    precision: float
    tnr: float
    nprecision: float
    snprecision: float
    wss: float
    last_rel: float
    reason: str = ""


def target_true_positives(recall: float | Fraction, n_includes: int) -> int:
    """TP = ⌈r·|I|⌉ computed exactly (floats are read as their shortest decimal repr)."""
    if not 0 < recall <= 1:
        raise ValueError(f"recall level must be in (0, 1], got {recall!r}")
    exact = recall if isinstance(recall, Fraction) else Fraction(str(float(recall)))
    return math.ceil(exact * n_includes)


def clef_true_positives(recall: float, n_includes: int) -> int:
    """TP = round(r·|I|) as the CLEF TAR script computes it (float product, half to even)."""
    if not 0 < recall <= 1:
        raise ValueError(f"recall level must be in (0, 1], got {recall!r}")
    return round(float(n_includes) * float(recall))


def tar_at_recall(
    labels: np.ndarray | list[bool],
    recall: float = 0.95,
    *,
    convention: Convention = "paper",
    retrieved: int | None = None,
) -> TarResult:
    """TAR measures from relevance labels in rank order (truthy = relevant, index 0 = rank 1).

    Undefined values are NaN and ``reason`` says why: N = 0 (empty ranking) or |I| = 0 (no
    relevant record) → all measures NaN; |E| = 0 → TNR, nP and snP NaN; TP = 0 (CLEF
    rounding of a small r·|I|) → P@r, nP and snP NaN. ``retrieved`` (default N) is how many
    leading ranks the run returned; only ``convention="clef"`` uses it (see the module).
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    rel = np.asarray(labels, dtype=bool)
    n = rel.size
    shown = n if retrieved is None else retrieved
    positions = np.flatnonzero(rel) + 1  # 1-based ranks of the relevant records
    n_inc = positions.size
    n_exc = n - n_inc
    clef = convention == "clef"
    tp = clef_true_positives(recall, n_inc) if clef else target_true_positives(recall, n_inc)
    if n_inc == 0:
        reason = "empty ranking (N = 0)" if n == 0 else "no relevant record (|I| = 0)"
        return TarResult(
            float(recall), n, 0, n_exc, 0, 0, 0, 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, reason
        )
    cutoff = int(positions[tp - 1]) if tp else 0
    fp = cutoff - tp
    tn = n_exc - fp
    fn = n_inc - tp
    precision = tp / cutoff if tp else NAN
    wss = (tn + fn) / n - (1 - float(recall))
    if clef:  # the script's float operations: (N − cutoff)/N − 0.05 for r = 0.95
        found = positions[positions <= shown]
        missed = float(1 - Fraction(str(float(recall))))
        wss = (n - cutoff) / n - missed if found.size >= tp else 0.0
        last_rel = float(found[-1]) if found.size else 0.0
    else:
        last_rel = float(positions[-1]) / n * 100
    reasons = []
    if not tp:
        reasons.append(f"TP = round({recall:g}·{n_inc}) = 0: P@r, nP and snP are undefined")
    if n_exc == 0:
        tnr = nprec = snprec = NAN
        reasons.append("no excluded record (|E| = 0): TNR, nP and snP are undefined")
    else:
        tnr = tn / n_exc
        nprec = precision * tnr
        snprec = math.sqrt(nprec) if tp else NAN
    return TarResult(
        float(recall),
        n,
        n_inc,
        n_exc,
        tp,
        fp,
        tn,
        fn,
        cutoff,
        precision,
        tnr,
        nprec,
        snprec,
        wss,
        last_rel,
        "; ".join(reasons),
    )


def relevance_labels(run: Run, relevant: Collection[str]) -> np.ndarray:
    """Boolean labels of the run in rank order; every relevant id must be in the run."""
    qrels = dict.fromkeys(relevant, 1)
    labels = grades_in_rank_order(run, qrels) >= 1  # NaN (not relevant) compares False
    missing = len(qrels) - int(labels.sum())
    if missing:
        raise ValueError(f"{missing} relevant record(s) are not in the ranking (candidate set)")
    return labels


def tar_at_recall_ids(run: Run, relevant: Collection[str], recall: float = 0.95) -> TarResult:
    """:func:`tar_at_recall` for a run of ids (ranked list, or score mapping) and relevant ids."""
    return tar_at_recall(relevance_labels(run, relevant), recall)


def recall_curve(labels: np.ndarray | list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """Relevant found vs records screened: ``(screened, found)``, both of length N + 1.

    ``screened = [0, 1, …, N]`` and ``found[i]`` = relevant records among the first i.
    """
    rel = np.asarray(labels, dtype=bool)
    found = np.concatenate(([0], np.cumsum(rel, dtype=np.int64)))
    return np.arange(rel.size + 1), found
