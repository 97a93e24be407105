"""Projection fidelity (SPEC §1.5): how much of the embedding a 2D (or k-D) map keeps."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from litqeval_gui.metrics.semantic import _rows


def projection_fidelity(coords: ArrayLike, embeddings: ArrayLike) -> float:
    """Explained variance of a 2D (or k-D) map w.r.t. the full embedding (variance-weighted R²).

    The seed reports 7.15 % for its UMAP map, estimated "by a Partial Least Squares
    Regression approach as outlined by Oskolkov" without a formula: PLSRegression with
    n_components = map width (scale=False) from the map X (N×k) to the embedding Y (N×D),
    and the share of Y's total variance its prediction Ŷ reproduces,

        EV = 1 − Σ_ij (Y_ij − Ŷ_ij)² / Σ_ij (Y_ij − Ȳ_j)².

    With as many components as map columns PLS spans the whole (centred) map, so Ŷ is the
    least-squares regression of Y on the map with an intercept, i.e. the orthogonal
    projection of the centred Y onto the column space of the centred X. That projection
    is computed here directly, from the left singular vectors U of the centred X that
    belong to non-negligible singular values: EV = ‖Uᵀ(Y − Ȳ)‖² / ‖Y − Ȳ‖² (the same value
    as the PLS fit to ~1e-16 on a full-rank map, at a fraction of its time; on a
    rank-deficient map, where sklearn's PLS diverges, the least-squares value). For a
    map of the top-k PCA scores EV equals PCA's summed explained-variance ratio. Returns
    a fraction in [0, 1]; NaN when Y has no variance or N ≤ k.
    """
    x = np.asarray(_rows(coords, "coords"), dtype=np.float64)
    y = np.asarray(_rows(embeddings, "embeddings"), dtype=np.float64)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"coords has {x.shape[0]} rows, embeddings {y.shape[0]}")
    centred = y - y.mean(axis=0)
    total = float(np.sum(centred**2))
    if x.shape[0] <= x.shape[1] or total == 0.0:
        return float("nan")
    basis, singular, _ = np.linalg.svd(x - x.mean(axis=0), full_matrices=False)
    # numpy's matrix_rank tolerance: directions below it are rounding, not map
    rank = int(np.sum(singular > singular.max(initial=0.0) * max(x.shape) * np.finfo(float).eps))
    explained = float(np.sum((basis[:, :rank].T @ centred) ** 2))
    return min(max(explained / total, 0.0), 1.0)
