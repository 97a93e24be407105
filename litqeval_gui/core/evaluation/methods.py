"""The four semantic precisions of one result list, through ``metrics/`` (SPEC §1.1–1.4).

An :class:`Outcome` is what a method found, before the decay and the F-score: the
relevant count, precision and the recall its F-score uses, or the reason it is
undefined (then zeros). It does not depend on p, q, α or β, so it is stored and a
change of those only re-scores it (:func:`scored`: λ = ``metrics.sets.decay``,
F_β = ``metrics.sets.semantic_f_beta``, exactly as ``metrics.semantic`` does).

Beyond the paper, SP_cos's leave-one-out: for each core record with a vector in turn,
SP_cos with the core set without it (E_C without its row, |C| − 1, and its work no
longer core in R: ``metrics.semantic.sp_cos_leave_one_out``); the range of SP and of F_β
over those runs shows how much one odd core record swings the default θ.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.metrics.geometry import Ellipsoid, Hull
from litqeval_gui.metrics.semantic import (
    Scoring,
    SemanticResult,
    sp_cos,
    sp_cos_leave_one_out,
    sp_hull,
    sp_mvee,
)
from litqeval_gui.metrics.semantic_cluster import sp_cluster
from litqeval_gui.metrics.sets import decay, semantic_f_beta

METHODS = ("cos", "cluster", "mvee", "hull")


@dataclass(frozen=True)
class Outcome:
    """A method's result on one list without decay and F-score (module docstring).

    ``detail``: cos θ; cluster k; MVEE centre and shape matrix; hull polygon. ``loo``
    (cos only): (n_relevant, precision, recall) per left-out core record.
    """

    method: str
    n_relevant: int
    n_retrieved: int
    precision: float
    recall: float
    defined: bool
    reason: str | None
    detail: dict = field(default_factory=dict)
    loo: tuple[tuple[int, float, float], ...] = ()

    def as_json(self) -> dict:
        return {"method": self.method, "n_relevant": self.n_relevant,
                "n_retrieved": self.n_retrieved, "precision": self.precision,
                "recall": self.recall, "defined": self.defined, "reason": self.reason,
                "detail": self.detail, "loo": [list(entry) for entry in self.loo]}

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        return cls(data["method"], data["n_relevant"], data["n_retrieved"], data["precision"],
                   data["recall"], data["defined"], data["reason"], data["detail"],
                   tuple((int(n), float(p), float(r)) for n, p, r in data["loo"]))


@dataclass(frozen=True)
class MethodResult:
    """A method's numbers for one list: precision, relevant count, the recall its F-score
    uses, λ, F_β; the reason when undefined; the leave-one-out ranges (cos)."""

    method: str
    precision: float
    relevant: int
    recall: float
    decay: float
    f_beta: float
    defined: bool
    reason: str | None
    detail: dict
    loo_range: tuple[float, float] | None = None
    loo_f_range: tuple[float, float] | None = None


def _outcome(result: SemanticResult, detail: dict,
             loo: tuple[tuple[int, float, float], ...] = ()) -> Outcome:
    return Outcome(result.method, result.n_relevant, result.n_retrieved, result.precision,
                   result.recall, result.defined, result.reason, detail, loo)


def _f(n_relevant: int, precision: float, recall: float, scoring: Scoring) -> tuple[float, float]:
    lam = float(decay(n_relevant, scoring.p, scoring.q, scoring.alpha))
    return lam, semantic_f_beta(precision, lam, recall, scoring.beta)


def scored(outcome: Outcome, scoring: Scoring) -> MethodResult:
    """The outcome with λ(n_relevant) and F_β for ``scoring``."""
    lam, f = _f(outcome.n_relevant, outcome.precision, outcome.recall, scoring)
    loo_range = loo_f_range = None
    if outcome.loo:
        precisions = [p for _, p, _ in outcome.loo]
        fs = [_f(n, p, r, scoring)[1] for n, p, r in outcome.loo]
        loo_range, loo_f_range = (min(precisions), max(precisions)), (min(fs), max(fs))
    return MethodResult(outcome.method, outcome.precision, outcome.n_relevant, outcome.recall,
                        lam, f, outcome.defined, outcome.reason, outcome.detail,
                        loo_range, loo_f_range)


def cos_outcome(core_vectors: NDArray[np.float32], core_works: NDArray[np.int64],
                vectors: NDArray[np.float32], works: NDArray[np.int64], is_core: NDArray[np.bool_],
                n_core: int, theta: float | None) -> tuple[Outcome, NDArray[np.bool_]]:
    """SP_cos (``metrics.semantic.sp_cos``) and its leave-one-out runs; ``core_works`` names
    the work of each row of ``core_vectors``, ``works`` of each row of ``vectors``."""
    result = sp_cos(core_vectors, vectors, is_core, n_core, theta)
    position = {work: i for i, work in enumerate(core_works.tolist())}
    owner = np.fromiter((position.get(work, -1) for work in works.tolist()), np.int64,
                        len(works))
    loo = sp_cos_leave_one_out(core_vectors, vectors, is_core, n_core, owner, theta)
    detail = {"theta": result.params["theta"], "theta_from_core": theta is None}
    return _outcome(result, detail, tuple(loo)), result.relevant


def cluster_outcome(vectors: NDArray[np.float32], is_core: NDArray[np.bool_], n_core: int,
                    theta: float) -> tuple[Outcome, NDArray[np.bool_]]:
    """SP_cluster (``metrics.semantic_cluster.sp_cluster``) on the list's vectors."""
    result = sp_cluster(vectors, is_core, n_core, theta=theta)
    detail = {"theta": theta, "k": result.params.get("k"),
              "k_reached": result.params.get("k_reached")}
    return _outcome(result, detail), result.relevant


def mvee_outcome(coords: NDArray[np.float32], is_core: NDArray[np.bool_], n_core: int,
                 tol: float) -> tuple[Outcome, NDArray[np.bool_]]:
    """SP_mvee (``metrics.semantic.sp_mvee``) on the map points."""
    result = sp_mvee(coords, is_core, n_core, tol=tol)
    detail: dict = {"tol": tol}
    if isinstance(result.shape, Ellipsoid):
        detail.update(centre=result.shape.centre.tolist(), matrix=result.shape.shape.tolist())
    return _outcome(result, detail), result.relevant


def hull_outcome(coords: NDArray[np.float32], is_core: NDArray[np.bool_],
                 n_core: int) -> tuple[Outcome, NDArray[np.bool_]]:
    """SP_hull (``metrics.semantic.sp_hull``) on the map points."""
    result = sp_hull(coords, is_core, n_core)
    detail: dict = {}
    if isinstance(result.shape, Hull):
        detail["polygon"] = result.shape.points[result.shape.vertices].tolist()
    return _outcome(result, detail), result.relevant
