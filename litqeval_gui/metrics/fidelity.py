"""Projection fidelity (SPEC §1.5): how much of the embedding a 2D (or k-D) map keeps."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.cross_decomposition import PLSRegression

from litqeval_gui.metrics.semantic import _rows


def projection_fidelity(coords: ArrayLike, embeddings: ArrayLike) -> float:
    """Explained variance of a 2D (or k-D) map w.r.t. the full embedding, by PLS.

    The seed reports 7.15 % for its UMAP map, estimated "by a Partial Least Squares
    Regression approach as outlined by Oskolkov" without a formula. We fit
    PLSRegression(n_components = map width, scale=False) from the map X (N×k) to the
    embedding Y (N×D) and return the share of Y's total variance it reproduces:

        EV = 1 − Σ_ij (Y_ij − Ŷ_ij)² / Σ_ij (Y_ij − Ȳ_j)²,   Ŷ = PLS prediction,

    i.e. the variance-weighted R². With as many components as map columns PLS spans
    the whole map, so EV equals the R² of the least-squares regression of Y on the
    map; for a map of the top-k PCA scores EV equals PCA's summed explained-variance
    ratio. Returns a fraction in [0, 1]; NaN when Y has no variance or N ≤ k.
    """
    x = np.asarray(_rows(coords, "coords"), dtype=np.float64)
    y = np.asarray(_rows(embeddings, "embeddings"), dtype=np.float64)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"coords has {x.shape[0]} rows, embeddings {y.shape[0]}")
    total = float(np.sum((y - y.mean(axis=0)) ** 2))
    if x.shape[0] <= x.shape[1] or total == 0.0:
        return float("nan")
    model = PLSRegression(n_components=x.shape[1], scale=False).fit(x, y)
    residual = float(np.sum((y - model.predict(x)) ** 2))
    return min(max(1.0 - residual / total, 0.0), 1.0)
