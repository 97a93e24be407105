"""SP_cluster (SPEC §1.2): k-means over R with growing k, the search for the k at which
the retrieved core records stop sitting together (:func:`cluster_k_search`), and the
relevant set it gives (:func:`sp_cluster`).

Same contract as :mod:`litqeval_gui.metrics.semantic` (rows of R, ``is_core``, ``n_core``
→ :class:`~litqeval_gui.metrics.semantic.SemanticResult`), whose shared helpers it uses.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.cluster import KMeans

from litqeval_gui.metrics.semantic import (
    DEFAULT_CLUSTER_THETA,
    DEFAULT_K_MAX,
    DEFAULT_SEED,
    Scoring,
    SemanticResult,
    _core_mask,
    _core_recall,
    _empty_reason,
    _result,
    _rows,
)


@dataclass(frozen=True, eq=False)
class KSearch:
    """Outcome of the k search: best k, M(k) for every k tried (k = 2, 3, …) and the labels
    of the fresh fit of best k (None when best k is 1 or nothing was fitted)."""

    best_k: int
    core_max: Mapping[int, int]
    reached: bool  # False when no k ≤ k_max met M(k) ≤ θ·m
    labels: NDArray[np.intp] | None = field(default=None, repr=False)


def cluster_k_search(
    embeddings: ArrayLike,
    is_core: ArrayLike,
    theta: float = DEFAULT_CLUSTER_THETA,
    k_max: int = DEFAULT_K_MAX,
    random_state: int = DEFAULT_SEED,
    n_jobs: int = 1,
) -> KSearch:
    """Find best k (SPEC §1.3); m = #core rows of R.

    For k = 2, 3, …: a **fresh** KMeans(k, random_state, n_init=1) on the rows;
    M(k) = max number of core rows in one cluster; stop at the first k with M(k) ≤ θ·m;
    best k = k − 1 (when never reached: k_max, or the number of rows if smaller).
    Exactly the authors' loop, no warm start. Speed: the loop stops at the first k that
    meets the condition and keeps the labels of k − 1, so :func:`sp_cluster` needs no
    refit; ``n_jobs`` > 1 fits the next ``n_jobs`` values of k concurrently in threads
    (sklearn's k-means releases the GIL) and discards the fits past the stopping k.
    Each fit is the same call whatever ``n_jobs`` is.
    """
    rows = _rows(embeddings, "embeddings")
    core = np.asarray(is_core, bool)
    limit = min(k_max, rows.shape[0])
    m = int(core.sum())
    core_max: dict[int, int] = {}
    previous: NDArray[np.intp] | None = None
    for k, labels in _fits_in_order(rows, range(2, limit + 1), random_state, n_jobs):
        core_max[k] = int(np.bincount(labels[core], minlength=k).max())
        if core_max[k] <= theta * m:
            return KSearch(k - 1, MappingProxyType(core_max), True, previous)
        previous = labels
    return KSearch(max(limit, 1), MappingProxyType(core_max), False, previous)


def _fits_in_order(
    rows: NDArray[np.floating], ks: range, random_state: int, n_jobs: int
) -> Iterator[tuple[int, NDArray[np.intp]]]:
    """Yield (k, labels of a fresh fixed-seed k-means) for k in ``ks``, in order.

    With n_jobs > 1 up to n_jobs fits run ahead in a thread pool; when the consumer stops,
    fits not yet started are cancelled and running ones are not waited for.
    """
    if n_jobs <= 1:
        for k in ks:
            yield k, _fresh_kmeans(rows, k, random_state).labels_
        return
    pool = ThreadPoolExecutor(max_workers=n_jobs)
    try:
        ahead = deque(pool.submit(_fresh_kmeans, rows, k, random_state) for k in ks[:n_jobs])
        for i, k in enumerate(ks):
            labels = ahead.popleft().result().labels_
            if i + n_jobs < len(ks):
                ahead.append(pool.submit(_fresh_kmeans, rows, ks[i + n_jobs], random_state))
            yield k, labels
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _fresh_kmeans(rows: NDArray[np.floating], k: int, random_state: int) -> KMeans:
    return KMeans(n_clusters=k, random_state=random_state, n_init=1).fit(rows)


def sp_cluster(
    embeddings: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    theta: float = DEFAULT_CLUSTER_THETA,
    k_max: int = DEFAULT_K_MAX,
    random_state: int = DEFAULT_SEED,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, immutable default
    n_jobs: int = 1,
    method: str = "cluster",
) -> SemanticResult:
    """SP_cluster (SPEC §1.3) on the high-dimensional rows E_R.

    m = |C ∩ R| (< 2 → undefined). best k and its fresh fixed-seed fit
    KMeans(best k, random_state, n_init=1) from :func:`cluster_k_search`; best cluster =
    most core rows (ties: lowest label); relevant = its members; SP = |relevant| / |R|;
    recall = core rows in it / |C|. best k = 1 (M(2) already ≤ θ·m) makes all of R
    relevant. Rows should be L2-normalised (SPEC §1) so Euclidean k-means follows cosine
    geometry. ``method`` names the result (see :func:`sp_cluster_on_map`).
    """
    rows = _rows(embeddings, "embeddings")
    core = _core_mask(is_core, rows.shape[0], n_core)
    m = int(core.sum())
    params: dict[str, Any] = {"theta": theta, "k_max": k_max, "random_state": random_state}
    reason = _empty_reason(rows.shape[0], n_core)
    if reason is None and m < 2:
        reason = f"only {m} retrieved core record(s); clustering needs at least 2"
    if reason is None and not np.all(np.isfinite(rows)):
        reason = "some embeddings are NaN or infinite"
    if reason:
        return _result(method, np.zeros(rows.shape[0], bool), _core_recall(core, n_core),
                       scoring, params, reason)
    search = cluster_k_search(rows, core, theta, k_max, random_state, n_jobs)
    params.update(k=search.best_k, k_reached=search.reached, core_max=search.core_max)
    if search.labels is None:  # best k = 1: one cluster holds everything
        relevant = np.ones(rows.shape[0], dtype=bool)
    else:
        best_cluster = int(np.argmax(np.bincount(search.labels[core], minlength=search.best_k)))
        relevant = search.labels == best_cluster
    recall = _core_recall(relevant & core, n_core)
    return _result(method, relevant, recall, scoring, params)


def sp_cluster_on_map(coords: ArrayLike, is_core: ArrayLike, n_core: int,
                      **kwargs: Any) -> SemanticResult:
    """SP_cluster on the 2D map instead of E_R, as a comparison (method "cluster_map").

    The seed clusters E_umap with the same thresholds and reads the gap to the
    high-dimensional result as a sign of UMAP's information loss ("Semantic Clustering
    Precision", last paragraph). Same rule and arguments as :func:`sp_cluster`; the map
    coordinates are used as they are (no normalisation).
    """
    return sp_cluster(coords, is_core, n_core, method="cluster_map", **kwargs)


# ---------------------------------------------------------------- projection fidelity
