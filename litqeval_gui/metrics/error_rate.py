"""Error rate of a measure for pairs of runs (Buckley & Voorhees; thesis §6.5, Algorithm 1).

Source: seed ``003_6cce0722108f84f7.txt``, section 6.5.2 and Algorithm 1; SPEC §4 ("the
error rate of Buckley & Voorhees (thesis chapter 6) for pairs of runs").

For a topic-set size z, each trial draws two **disjoint** topic sets A and B of z topics
(sampling without replacement, the thesis's choice). For every pair of runs (X, Y) the mean
scores on A give d_A = M(X, A) − M(Y, A), likewise d_B. A difference smaller than the
fuzziness value counts as no difference (d = 0). A pair is a *swap* when d_A·d_B < 0.
error rate(z) = swaps / comparisons over all trials and run pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

DEFAULT_TRIALS = 50
DEFAULT_FUZZINESS = 0.05
THESIS_FUZZINESS = (0.0, 0.05, 0.10, 0.20, 0.30)


@dataclass(frozen=True, eq=False)
class ErrorRate:
    """Outcome for one topic-set size and fuzziness value.

    ``rate`` = swaps / comparisons; ``tie_ratio`` = share of comparisons in which at least
    one of the two topic sets calls the pair equivalent (the thesis's "proportion of ties",
    §6.6.2; lower means a more discriminative measure); ``pair_rates[x, y]`` = swap share of
    runs x and y (symmetric, NaN on the diagonal).
    """

    set_size: int
    fuzziness: float
    trials: int
    rate: float
    swaps: int
    comparisons: int
    tie_ratio: float
    pair_rates: NDArray[np.float64]


def _differences(means: NDArray[np.float64], fuzziness: float) -> NDArray[np.float64]:
    """d[x, y] = mean_x − mean_y, set to 0 where |d| < fuzziness · max(mean_x, mean_y)."""
    diff = means[:, None] - means[None, :]
    larger = np.maximum(means[:, None], means[None, :])
    return np.where(np.abs(diff) < fuzziness * np.abs(larger), 0.0, diff)


def error_rate(
    scores: ArrayLike,
    set_size: int,
    trials: int = DEFAULT_TRIALS,
    fuzziness: float = DEFAULT_FUZZINESS,
    seed: int = 0,
) -> ErrorRate:
    """Buckley–Voorhees error rate of a measure at topic-set size ``set_size``.

    ``scores``: (runs × topics) per-topic values of the measure (e.g. AP per topic).
    Each of ``trials`` trials (thesis: 50) permutes the topics with
    ``numpy.random.default_rng(seed)`` and takes A = the first z, B = the next z.
    **Fuzziness** (the thesis's tolerance p, "M(X,A) ~ M(Y,A) ≥ p%"; values 0, 5, 10, 20,
    30 %, with 5 % the level of its conclusions, Table 9.1): two mean scores count as
    different only when |d| ≥ fuzziness × the larger of the two, Buckley & Voorhees'
    relative reading. Where a set calls the pair equivalent its d is 0 (Algorithm 1 as
    printed keeps the previous pair's d; we do not). Raises ValueError unless there are
    ≥ 2 runs, 1 ≤ z ≤ topics/2 and trials ≥ 1.
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] < 2:
        raise ValueError("scores must be a (runs × topics) array with at least 2 runs")
    n_runs, n_topics = values.shape
    if not 1 <= set_size <= n_topics // 2:
        raise ValueError(f"set_size must be between 1 and {n_topics // 2} (half the topics)")
    if trials < 1 or fuzziness < 0:
        raise ValueError("trials must be ≥ 1 and fuzziness ≥ 0")
    rng = np.random.default_rng(seed)
    upper = np.triu(np.ones((n_runs, n_runs), dtype=bool), k=1)
    swaps = np.zeros((n_runs, n_runs), dtype=np.int64)
    ties = 0
    for _ in range(trials):
        order = rng.permutation(n_topics)
        d_a = _differences(values[:, order[:set_size]].mean(axis=1), fuzziness)
        d_b = _differences(values[:, order[set_size:2 * set_size]].mean(axis=1), fuzziness)
        swaps += (d_a * d_b < 0) & upper
        ties += int(np.count_nonzero(((d_a == 0) | (d_b == 0)) & upper))
    comparisons = trials * int(upper.sum())
    pair_rates = (swaps + swaps.T) / trials
    np.fill_diagonal(pair_rates, np.nan)
    total = int(swaps.sum())
    return ErrorRate(set_size, fuzziness, trials, total / comparisons, total, comparisons,
                     ties / comparisons, pair_rates)


def error_rate_curve(
    scores: ArrayLike,
    sizes: range | None = None,
    trials: int = DEFAULT_TRIALS,
    fuzziness: float = DEFAULT_FUZZINESS,
    seed: int = 0,
) -> list[ErrorRate]:
    """:func:`error_rate` for every topic-set size (default 5 … topics/2, as the thesis)."""
    n_topics = np.shape(scores)[1]
    grid = range(5, n_topics // 2 + 1) if sizes is None else sizes
    return [error_rate(scores, z, trials, fuzziness, seed) for z in grid]
