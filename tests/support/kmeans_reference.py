"""SPEC §1.3's k search written out with scikit-learn only: the independent reference
that tests and ``benchmarks/bench_semantic.py`` compare ``sp_cluster`` with."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from sklearn.cluster import KMeans


def plain_loop(rows: NDArray, core: NDArray[np.bool_], theta: float = 0.7, k_max: int = 99,
               seed: int = 0) -> tuple[int, dict[int, int], NDArray[np.bool_]]:
    """A fresh KMeans per k, then the refit of best k: (best k, M(k) per k, relevant)."""
    m = int(core.sum())
    best_k, core_max = min(k_max, len(rows)), {}
    for k in range(2, min(k_max, len(rows)) + 1):
        labels = KMeans(n_clusters=k, random_state=seed, n_init=1).fit(rows).labels_
        core_max[k] = int(np.bincount(labels[core], minlength=k).max())
        if core_max[k] <= theta * m:
            best_k = k - 1
            break
    if best_k == 1:
        return best_k, core_max, np.ones(len(rows), bool)
    labels = KMeans(n_clusters=best_k, random_state=seed, n_init=1).fit(rows).labels_
    return best_k, core_max, labels == np.argmax(np.bincount(labels[core], minlength=best_k))
