"""Set-based retrieval metrics, the LitQEval decay factor and the semantic F-score.

Source: seed ``000_984c3d5506dbd963.txt`` ("Evaluation metrics": decay function and
F-beta) and SPEC §1.4. Nothing here rounds; round only for display.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable

import numpy as np
from numpy.typing import ArrayLike, NDArray

DEFAULT_P = 1.5
DEFAULT_Q = 10.0
DEFAULT_ALPHA = 50_000.0
DEFAULT_BETA = 2.0


def precision(retrieved: Collection[Hashable], relevant: Collection[Hashable]) -> float:
    """|retrieved ∩ relevant| / |retrieved|; 0.0 when nothing was retrieved."""
    found = set(retrieved)
    if not found:
        return 0.0
    return len(found & set(relevant)) / len(found)


def recall(retrieved: Collection[Hashable], relevant: Collection[Hashable]) -> float:
    """|retrieved ∩ relevant| / |relevant|; 0.0 when the relevant set is empty."""
    wanted = set(relevant)
    if not wanted:
        return 0.0
    return len(wanted & set(retrieved)) / len(wanted)


def jaccard(a: Collection[Hashable], b: Collection[Hashable]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 when both are empty."""
    first, second = set(a), set(b)
    union = first | second
    return len(first & second) / len(union) if union else 0.0


def f_beta(precision: float, recall: float, beta: float = DEFAULT_BETA) -> float:
    """F_β = (1+β²)·P·R / (β²·P + R); 0.0 when P or R is 0.

    Raises ValueError when P or R lies outside [0, 1] or β ≤ 0.
    """
    if not 0.0 <= precision <= 1.0 or not 0.0 <= recall <= 1.0:
        raise ValueError(f"precision and recall must lie in [0, 1], got {precision}, {recall}")
    if not beta > 0.0:
        raise ValueError(f"beta must be positive, got {beta}")
    if precision == 0.0 or recall == 0.0:
        return 0.0
    b2 = beta * beta
    return (1.0 + b2) * precision * recall / (b2 * precision + recall)


def decay(
    n: ArrayLike,
    p: float = DEFAULT_P,
    q: float = DEFAULT_Q,
    alpha: float = DEFAULT_ALPHA,
) -> float | NDArray[np.float64]:
    """Decay factor λ(n; p, q, α) = (1 − (n/α)^p)^q for 0 ≤ n < α, and λ = 0 for n ≥ α.

    ``n`` is the number of semantically relevant records (a scalar, or an array for a
    decay curve; the result has the same shape, a float for a scalar).

    Difference from the authors' code: it evaluates the formula without the clamp, so
    for n > α the base 1 − (n/α)^p is negative and, with an even q such as the default
    10, λ becomes positive again and grows without bound as n grows (e.g. n = 2α gives
    (1 − 2^1.5)^10 ≈ 417.6). We clamp λ to 0 for n ≥ α (SPEC §1.4), so λ is
    non-increasing in n and stays in [0, 1].

    Raises ValueError for negative n or non-positive p, q or α.
    """
    if not (p > 0.0 and q > 0.0 and alpha > 0.0):
        raise ValueError(f"p, q and alpha must be positive, got p={p}, q={q}, alpha={alpha}")
    counts = np.asarray(n, dtype=np.float64)
    if np.any(~(counts >= 0.0)):
        raise ValueError("n (number of relevant records) must be a non-negative number")
    ratio = np.minimum(counts / alpha, 1.0)
    lam = (1.0 - ratio**p) ** q
    return float(lam) if lam.ndim == 0 else lam


def semantic_f_beta(
    semantic_precision: float, decay_factor: float, recall: float, beta: float = DEFAULT_BETA
) -> float:
    """F_β = (1+β²)·(SP·λ·Rec) / (β²·SP·λ + Rec); 0.0 when SP·λ or Rec is 0.

    This is the plain F_β with precision SP·λ (seed, eq. f-beta and its F2 form).
    """
    return f_beta(semantic_precision * decay_factor, recall, beta)
