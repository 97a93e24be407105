"""Semantic precision of a result list R against a core set C (LitQEval).

Source: seed ``000_984c3d5506dbd963.txt`` ("Evaluation metrics" and "Comparative
Analysis") and SPEC §1.1–1.5. Every SP function takes

* the rows of R (embeddings or 2D/k-D map coordinates, one row per retrieved record),
* ``is_core``: a bool mask over R marking the rows matched to a core record (C ∩ R),
* ``n_core`` = |C| (all core records, also those not retrieved),

and returns a :class:`SemanticResult` (SP_cluster: :mod:`.semantic_cluster`). Data that make a method undefined (too few
core points, degenerate shapes, empty inputs) give ``defined=False``, SP = 0, F = 0 and
a readable ``reason``; they never raise. Wrong argument shapes raise ValueError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.decomposition import PCA

from litqeval_gui.metrics.geometry import (
    DEFAULT_TOL,
    DegenerateGeometry,
    Ellipsoid,
    Hull,
    convex_hull,
    mvee,
)
from litqeval_gui.metrics.sets import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_P,
    DEFAULT_Q,
    decay,
    semantic_f_beta,
)

DEFAULT_CLUSTER_THETA = 0.7
DEFAULT_K_MAX = 99
DEFAULT_SEED = 0


@dataclass(frozen=True)
class Scoring:
    """Decay parameters (p, q, α) and the F-score weight β (SPEC §1.4 defaults)."""

    p: float = DEFAULT_P
    q: float = DEFAULT_Q
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA


@dataclass(frozen=True, eq=False)
class SemanticResult:
    """One semantic-precision evaluation of one result list.

    ``relevant`` is a read-only bool mask over R; precision = n_relevant / n_retrieved;
    ``recall`` is the recall the method's F-score uses; ``decay`` = λ(n_relevant);
    ``f_beta`` = F_β(precision·λ, recall). ``params`` holds θ, k, tol, p, q, α, β, ...
    ``shape`` is the fitted MVEE or hull (for drawing), else None.
    """

    method: str
    relevant: NDArray[np.bool_]
    n_relevant: int
    n_retrieved: int
    precision: float
    recall: float
    decay: float
    f_beta: float
    params: Mapping[str, Any]
    defined: bool = True
    reason: str | None = None
    shape: Ellipsoid | Hull | None = field(default=None, repr=False)


def _result(
    method: str,
    relevant: NDArray[np.bool_],
    recall: float,
    scoring: Scoring,
    params: Mapping[str, Any],
    reason: str | None = None,
    shape: Ellipsoid | Hull | None = None,
) -> SemanticResult:
    """Assemble a result; ``reason`` not None marks it undefined (nothing relevant)."""
    mask = np.zeros(relevant.shape, dtype=bool) if reason else relevant.astype(bool, copy=True)
    mask.setflags(write=False)
    n_retrieved = int(mask.size)
    n_relevant = int(mask.sum())
    precision = n_relevant / n_retrieved if n_retrieved else 0.0
    lam = float(decay(n_relevant, scoring.p, scoring.q, scoring.alpha))
    all_params = {**params, "p": scoring.p, "q": scoring.q, "alpha": scoring.alpha,
                  "beta": scoring.beta}
    return SemanticResult(
        method=method,
        relevant=mask,
        n_relevant=n_relevant,
        n_retrieved=n_retrieved,
        precision=precision,
        recall=recall,
        decay=lam,
        f_beta=semantic_f_beta(precision, lam, recall, scoring.beta),
        params=MappingProxyType(all_params),
        defined=reason is None,
        reason=reason,
        shape=shape,
    )


def _core_mask(is_core: ArrayLike, n_rows: int, n_core: int) -> NDArray[np.bool_]:
    """Validate the core mask over R against |C|; raise ValueError on misuse."""
    mask = np.asarray(is_core, dtype=bool)
    if mask.shape != (n_rows,):
        raise ValueError(f"is_core must have one flag per retrieved row ({n_rows}), "
                         f"got shape {mask.shape}")
    if n_core < int(mask.sum()):
        raise ValueError(f"n_core={n_core} is smaller than the {int(mask.sum())} "
                         "core records flagged in R")
    return mask


def _rows(values: ArrayLike, what: str) -> NDArray[np.floating]:
    arr = np.asarray(values)
    if arr.ndim != 2:
        raise ValueError(f"{what} must be a 2-D array (one row per record), got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.floating):
        arr = arr.astype(np.float64)
    return arr


def _core_recall(mask: NDArray[np.bool_], n_core: int) -> float:
    """Flagged core rows / |C| (0 for an empty core set)."""
    return int(mask.sum()) / n_core if n_core else 0.0


# --------------------------------------------------------------------------- SP_cos


# Relative slack of the ≥ θ test (SPEC §1.1): round-off in a cosine never drops a record.
COS_RTOL = 1e-9


@dataclass(frozen=True, eq=False)
class CentroidSimilarity:
    """cos(c, r) for every row of R and for every core embedding; c = mean of unit E_C rows.

    ``default_theta`` = min over E_C of cos(c, e) (seed eq. for θ). Rows with zero norm
    get NaN (never relevant). ``reason`` is set when no centroid exists.
    """

    retrieved: NDArray[np.floating]
    core: NDArray[np.floating]
    default_theta: float
    reason: str | None = None


def centroid_similarity(
    core_embeddings: ArrayLike, retrieved_embeddings: ArrayLike
) -> CentroidSimilarity:
    """Cosine of each core and retrieved embedding to the centroid of the unit core rows.

    cos(c, r) = r·ĉ / ‖r‖ with ĉ = c/‖c‖ (c from the core rows in float64). Core and
    retrieved cosines go through the same function in R's dtype (:func:`_cosines`; E_C is
    cast to it, float32 stays float32), so a retrieved row equal to a core row gets the
    same cosine bit for bit (SPEC §1.1 decision).
    """
    e_c = _rows(core_embeddings, "core_embeddings")
    e_r = _rows(retrieved_embeddings, "retrieved_embeddings")
    if e_c.shape[0] and e_r.shape[0] and e_c.shape[1] != e_r.shape[1]:
        raise ValueError(f"embedding widths differ: core {e_c.shape[1]}, retrieved {e_r.shape[1]}")
    nan_r = np.full(e_r.shape[0], np.nan)
    if e_c.shape[0] == 0:
        return CentroidSimilarity(nan_r, np.empty(0), np.nan, "no core record has an embedding")
    unit_c = _unit_rows(e_c.astype(np.float64))
    direction, reason = _centroid_direction(unit_c)
    if direction is None:
        return CentroidSimilarity(nan_r, np.empty(0), np.nan, reason)
    core_cos = _cosines(e_c.astype(e_r.dtype, copy=False), direction[None])[:, 0]
    return CentroidSimilarity(
        retrieved=_cosines(e_r, direction[None])[:, 0],
        core=core_cos,
        default_theta=float(core_cos.min()),
    )


def _centroid_direction(unit_c: NDArray[np.float64]) -> tuple[NDArray[np.float64] | None, str]:
    """ĉ = c/‖c‖ of c = mean of the unit core rows, or None and why there is none."""
    if not np.all(np.isfinite(unit_c)):
        return None, "a core embedding is zero or not finite"
    centroid = unit_c.mean(axis=0)
    norm = float(np.linalg.norm(centroid))
    if norm == 0.0:
        return None, "the core embeddings cancel out: their centroid is zero"
    return centroid / norm, ""


def _unit_rows(matrix: NDArray[np.floating]) -> NDArray[np.floating]:
    with np.errstate(divide="ignore", invalid="ignore"):
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def _cosines(matrix: NDArray[np.floating], directions: NDArray[np.float64]) -> NDArray:
    """r·d / ‖r‖ per row r and unit direction d (one column per row of ``directions``),
    in the matrix's dtype.

    Dots and norms both by einsum: each (row, direction) sum runs over the row's
    contiguous values in the same order wherever the row sits and however many
    directions there are (a BLAS product rounds by position), so one direction alone or
    many at once give the same bits.
    """
    units = directions.astype(matrix.dtype)
    dots = np.einsum("ij,kj->ik", matrix, units)
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norms[:, None] > 0, dots / norms[:, None], np.nan)


def _slackened(theta: float | NDArray[np.float64]) -> float | NDArray[np.float64]:
    """θ − 1e-9·|θ|: the bound that cos ≥ θ is tested against."""
    return theta - COS_RTOL * np.abs(theta)


def sp_cos(
    core_embeddings: ArrayLike,
    retrieved_embeddings: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    theta: float | None = None,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, immutable default
) -> SemanticResult:
    """SP_cos (SPEC §1.1): relevant = {r ∈ R : cos(c, r) ≥ θ}, SP = |relevant| / |R|.

    c = mean of the L2-normalised core embeddings E_C (all core records with text);
    θ defaults to min_i cos(c, E_C[i]); a user θ overrides it. Recall in the F-score =
    |C ∩ relevant| / |C| (retrieved core rows that pass θ), as the authors evaluate.
    A retrieved core row may miss the default θ when its R embedding differs from its
    E_C row (other text); round-off cannot drop it: the test is cos ≥ θ − 1e-9·|θ|.
    """
    e_r, core, sims = _cos_inputs(core_embeddings, retrieved_embeddings, is_core, n_core)
    threshold = sims.default_theta if theta is None else float(theta)
    params = {"theta": threshold, "theta_is_default": theta is None}
    relevant = sims.retrieved >= _slackened(threshold)
    reason = sims.reason or _empty_reason(e_r.shape[0], n_core)
    recall = _core_recall(relevant & core, n_core)
    return _result("cos", relevant, recall, scoring, params, reason)


def sp_cos_leave_one_out(
    core_embeddings: ArrayLike,
    retrieved_embeddings: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    core_row_of: ArrayLike,
    theta: float | None = None,
) -> list[tuple[int, float, float]]:
    """SP_cos with each core row left out in turn: per row i of E_C, (relevant count,
    precision, recall) of ``sp_cos(E_C without row i, E_R, is_core & (core_row_of != i),
    n_core − 1, θ)`` — ``core_row_of[r]`` is the E_C row of R row r's core work (−1 when
    none), which stops being core with it. Empty with fewer than two core rows.

    Number for number those runs: the same centroids, the same cosine code (one einsum
    over all left-out centroids at once, R's norms computed once) and the same ≥ θ test;
    a left-out set without a centroid runs :func:`sp_cos` itself.
    """
    e_c = _rows(core_embeddings, "core_embeddings")
    e_r = _rows(retrieved_embeddings, "retrieved_embeddings")
    core = _core_mask(is_core, e_r.shape[0], n_core)
    owner = np.asarray(core_row_of, dtype=np.int64)
    if owner.shape != core.shape:
        raise ValueError(f"core_row_of must have one entry per retrieved row ({core.size}), "
                         f"got shape {owner.shape}")
    m, n = e_c.shape[0], e_r.shape[0]
    if m < 2:
        return []

    def run(i: int) -> tuple[int, float, float]:
        result = sp_cos(np.delete(e_c, i, axis=0), e_r, core & (owner != i), n_core - 1, theta)
        return result.n_relevant, result.precision, result.recall

    unit_c = _unit_rows(e_c.astype(np.float64))
    directions = [_centroid_direction(np.delete(unit_c, i, axis=0))[0] for i in range(m)]
    good = [i for i, direction in enumerate(directions) if direction is not None]
    if n == 0 or e_c.shape[1] != e_r.shape[1] or not good:
        return [run(i) for i in range(m)]
    stacked = np.stack([directions[i] for i in good])
    core_cos = _cosines(e_c.astype(e_r.dtype, copy=False), stacked)
    retrieved_cos = _cosines(e_r, stacked)
    column = {i: col for col, i in enumerate(good)}
    out = []
    for i in range(m):
        if i not in column:
            out.append(run(i))
            continue
        col = column[i]
        threshold = (float(np.delete(core_cos[:, col], i).min()) if theta is None
                     else float(theta))
        relevant = retrieved_cos[:, col] >= _slackened(threshold)
        n_relevant = int(relevant.sum())
        out.append((n_relevant, n_relevant / n,
                    _core_recall(relevant & core & (owner != i), n_core - 1)))
    return out


def _cos_inputs(
    core_embeddings: ArrayLike, retrieved_embeddings: ArrayLike, is_core: ArrayLike, n_core: int
) -> tuple[NDArray[np.floating], NDArray[np.bool_], CentroidSimilarity]:
    """Validated E_R rows, the core mask over them and their cosines to the core centroid."""
    e_r = _rows(retrieved_embeddings, "retrieved_embeddings")
    core = _core_mask(is_core, e_r.shape[0], n_core)
    return e_r, core, centroid_similarity(core_embeddings, e_r)


def _empty_reason(n_retrieved: int, n_core: int) -> str | None:
    if n_retrieved == 0:
        return "the result list is empty"
    if n_core == 0:
        return "the core set is empty"
    return None


@dataclass(frozen=True, eq=False)
class ThresholdAnalysis:
    """SP_cos over a θ grid: per θ the relevant count, core kept and F_β; the best θ.

    ``best_theta`` is the first (smallest) θ of the grid with the largest F_β.
    """

    thetas: NDArray[np.float64]
    n_relevant: NDArray[np.int64]
    core_kept: NDArray[np.int64]
    f_beta: NDArray[np.float64]
    best_theta: float
    best_f_beta: float
    default_theta: float


def threshold_analysis(
    core_embeddings: ArrayLike,
    retrieved_embeddings: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    thetas: ArrayLike | None = None,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, immutable default
) -> ThresholdAnalysis:
    """Sweep θ (default 0, 0.01, …, 1) for SP_cos; same rule as :func:`sp_cos` per θ.

    n_relevant(θ) = #{r : cos(c, r) ≥ θ}, core_kept(θ) = #{retrieved core r : cos ≥ θ},
    F_β(θ) = F_β(n_relevant/|R| · λ(n_relevant), core_kept/|C|); one sort, then
    binary searches. Empty R or C gives F_β = 0 everywhere.
    """
    grid = np.linspace(0.0, 1.0, 101) if thetas is None else np.asarray(thetas, np.float64)
    e_r, core, sims = _cos_inputs(core_embeddings, retrieved_embeddings, is_core, n_core)
    n_relevant = _count_at_least(sims.retrieved, grid)
    core_kept = _count_at_least(sims.retrieved[core], grid)
    n_r = e_r.shape[0]
    f = np.array([
        semantic_f_beta(
            n / n_r if n_r else 0.0,
            float(decay(n, scoring.p, scoring.q, scoring.alpha)),
            kept / n_core if n_core else 0.0,
            scoring.beta,
        )
        for n, kept in zip(n_relevant, core_kept, strict=True)
    ])
    best = int(np.argmax(f)) if f.size else 0
    return ThresholdAnalysis(
        thetas=grid,
        n_relevant=n_relevant,
        core_kept=core_kept,
        f_beta=f,
        best_theta=float(grid[best]) if grid.size else np.nan,
        best_f_beta=float(f[best]) if f.size else 0.0,
        default_theta=sims.default_theta,
    )


def _count_at_least(values: NDArray, thresholds: NDArray[np.float64]) -> NDArray[np.int64]:
    """#{v ≥ t − 1e-9·|t|} for every t, the test of :func:`sp_cos` (NaN never counts)."""
    ordered = np.sort(values[~np.isnan(values)])
    bounds = _slackened(thresholds)
    return (ordered.size - np.searchsorted(ordered, bounds, side="left")).astype(np.int64)


# ----------------------------------------------------------------- SP_mvee, SP_hull


def sp_mvee(
    coords: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    tol: float = DEFAULT_TOL,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, immutable default
) -> SemanticResult:
    """SP_mvee (SPEC §1.2): relevant = {r : (r−δ)ᵀA(r−δ) ≤ 1}, SP = |relevant| / |R|.

    The MVEE (Khachiyan, tolerance ``tol``) is fitted on the map points of the
    retrieved core rows; fewer than d+1 (3 in 2D) or degenerate points → undefined.
    Recall = plain recall |C ∩ R| / |C|. Works in any dimension (2D map or k-D PCA).
    """
    return _sp_shape("mvee", lambda pts: mvee(pts, tol=tol), coords, is_core, n_core,
                     scoring, {"tol": tol})


def sp_hull(
    coords: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, immutable default
) -> SemanticResult:
    """SP_hull (SPEC §1.2): relevant = points of R in the convex hull of the retrieved
    core map points (Delaunay ``find_simplex ≥ 0``); otherwise as :func:`sp_mvee`."""
    return _sp_shape("hull", convex_hull, coords, is_core, n_core, scoring, {})


def _sp_shape(
    method: str,
    fit: Callable[[NDArray[np.float64]], Ellipsoid | Hull],
    coords: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    scoring: Scoring,
    params: dict[str, Any],
) -> SemanticResult:
    points = np.asarray(_rows(coords, "coords"), dtype=np.float64)
    core = _core_mask(is_core, points.shape[0], n_core)
    recall = _core_recall(core, n_core)
    params = {**params, "dim": points.shape[1]}
    nothing = np.zeros(points.shape[0], dtype=bool)
    reason = _empty_reason(points.shape[0], n_core)
    if reason:
        return _result(method, nothing, recall, scoring, params, reason)
    try:
        shape = fit(points[core])
    except DegenerateGeometry as err:
        return _result(method, nothing, recall, scoring, params,
                       f"{method.upper()} undefined for the retrieved core points: {err}")
    return _result(method, shape.contains(points), recall, scoring, params, shape=shape)


def sp_in_pca_space(
    sp: Callable[..., SemanticResult],
    embeddings: ArrayLike,
    is_core: ArrayLike,
    n_core: int,
    n_components: int = 3,
    random_state: int = DEFAULT_SEED,
    **kwargs: Any,
) -> SemanticResult:
    """Run ``sp`` (sp_mvee or sp_hull) on a k-D PCA projection of R's embeddings.

    Beyond the paper (SPEC §1.2, optional): PCA(n_components, random_state) is fitted on
    the rows of R. With fewer rows than components the shape is undefined anyway.
    """
    rows = _rows(embeddings, "embeddings")
    if rows.shape[0] > n_components:
        coords = PCA(n_components=n_components, random_state=random_state).fit_transform(rows)
    else:
        coords = np.zeros((rows.shape[0], n_components))
    result = sp(coords, is_core, n_core, **kwargs)
    params = MappingProxyType({**result.params, "pca_components": n_components})
    return dataclasses.replace(result, params=params)
