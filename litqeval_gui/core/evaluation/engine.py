"""Evaluate a topic: every result list × the core set (SPEC §1), cached in the project.

:func:`evaluate_topic` is a generator job. It makes sure the topic's vectors (the
backend of the settings) and its map exist and are current — computing them when
missing or stale — then, per list: recall with its 95 % Wilson interval and the missed
core (:func:`~litqeval_gui.core.evaluation.recall.recall_report`), and SP_cos,
SP_cluster, SP_mvee and SP_hull (:mod:`.methods`, all through ``metrics/``).

What each method depends on is its key (:mod:`.result_store`): cos — E_C, the list's
rows, θ; cluster — the rows, the clustering θ; MVEE — the rows, the map, the
tolerance; hull — the rows, the map. All include the embedding set. p, q, α and β only
re-score stored outcomes, so a change of them recomputes nothing; vectors and the map
are read only when some method has to run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from litqeval_gui import __version__
from litqeval_gui.core import works
from litqeval_gui.core.catalog import lists
from litqeval_gui.core.embedding.backends import Backend, BackendInfo
from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.inputs import Rows, core_rows, list_rows, take
from litqeval_gui.core.evaluation.intervals import wilson_interval
from litqeval_gui.core.evaluation.map_store import StoredMap, load_map, map_topic
from litqeval_gui.core.evaluation.methods import (
    METHODS,
    MethodResult,
    Outcome,
    cluster_outcome,
    cos_outcome,
    hull_outcome,
    mvee_outcome,
    scored,
)
from litqeval_gui.core.evaluation.recall import MissedRecord, recall_report
from litqeval_gui.core.evaluation.result_store import load_outcome, outcome_key, store_outcomes
from litqeval_gui.core.evaluation.settings import EvaluationSettings, load_settings
from litqeval_gui.core.evaluation.vector_store import (
    EmbeddingSet,
    embed_topic,
    latest_set,
    load_vectors,
    set_status,
)
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled
from litqeval_gui.core.project import Project


@dataclass(frozen=True, eq=False)
class ListEvaluation:
    """One result list: recall over its ``size`` distinct works, its interval, the missed
    core; per method a :class:`MethodResult` (keys of :data:`METHODS`); ``rows`` the R rows
    (work, record, core flag) and ``relevant`` each method's mask over them;
    ``without_vector`` works of the list left out of the semantic precisions."""

    list_id: int
    name: str
    size: int
    core: int
    retrieved_core: int
    recall: float
    recall_ci: tuple[float, float]
    missed: list[MissedRecord]
    methods: dict[str, MethodResult]
    rows: Rows
    relevant: dict[str, NDArray[np.bool_]] = field(repr=False)
    without_vector: int = 0


@dataclass(frozen=True, eq=False)
class TopicEvaluation:
    """A topic's evaluation: its settings, what made the vectors and the map, the map
    itself (``map.coords`` per ``map.record_ids``), E_C's rows, one
    :class:`ListEvaluation` per result list; ``computed`` = the (list, method) pairs run
    this time (the rest came from the project)."""

    topic: str
    settings: EvaluationSettings
    backend: BackendInfo
    embedding_notes: tuple[str, ...]
    map: StoredMap
    core_rows: Rows
    lists: list[ListEvaluation]
    computed: tuple[tuple[str, str], ...]
    app_version: str = __version__

    @property
    def fidelity(self) -> float:
        return self.map.fidelity

    def as_dict(self) -> dict:
        """The ``evaluate --json`` document (issue 13 §3)."""
        fidelity = None if np.isnan(self.fidelity) else self.fidelity
        return {"topic": self.topic, "backend": self.backend.name,
                "lists": [_list_dict(item) for item in self.lists], "fidelity": fidelity}


def _method_dict(result: MethodResult) -> dict:
    out: dict = {"precision": result.precision, "relevant": result.relevant,
                 "recall": result.recall, "f2": result.f_beta, "decay": result.decay}
    if result.method == "cos":
        out["theta"] = result.detail.get("theta")
        out["loo_range"] = list(result.loo_range) if result.loo_range else None
        out["loo_f2_range"] = list(result.loo_f_range) if result.loo_f_range else None
    if result.method == "cluster":
        out["k"] = result.detail.get("k")
    if not result.defined:
        out["reason"] = result.reason
    return out


def _list_dict(item: ListEvaluation) -> dict:
    out: dict = {"name": item.name, "size": item.size, "recall": item.recall,
                 "recall_ci": list(item.recall_ci)}
    out.update({method: _method_dict(item.methods[method]) for method in METHODS})
    return out


def backend_for(settings: EvaluationSettings, backend: Backend | None) -> Backend:
    """``backend`` when given (a precomputed file), else the settings' backend by name."""
    if backend is not None:
        if backend.info.name != settings.backend:
            raise ProjectError(f"the settings name backend {settings.backend!r}, the vectors "
                               f"given are {backend.info.name!r}")
        return backend
    if settings.backend == "precomputed":
        raise ProjectError("precomputed vectors come from a file: run litqeval embed "
                           "--backend precomputed --vectors FILE first")
    return backend_by_name(settings.backend)


def prepare_topic(project: Project, topic: str, settings: EvaluationSettings,
                  backend: Backend | None = None,
                  token: CancelToken = NEVER) -> Job[tuple[EmbeddingSet, StoredMap]]:
    """The topic's current embedding set and map, computing what is missing or stale."""
    topic_id = project.topic_id(topic)
    if backend is not None or set_status(project.db, topic_id, settings.backend) != "ready":
        yield from scaled(embed_topic(project, topic, backend_for(settings, backend), token),
                          0, 60, 100, "vectors")
    emb = latest_set(project.db, topic_id, settings.backend)
    assert emb is not None
    stored = load_map(project.db, emb, settings.map_method)
    if stored is None or stored.stale:
        stored = yield from scaled(map_topic(project, emb, settings.map_method, token=token),
                                   60, 95, 100, "map")
    return emb, stored


class _Arrays:
    """Vectors and map points, read once and only when some method has to run."""

    def __init__(self, project: Project, emb: EmbeddingSet, stored: StoredMap) -> None:
        self._load = lambda: load_vectors(project.db, emb)
        self._map = stored
        self._vectors: tuple[NDArray[np.int64], NDArray[np.float32]] | None = None

    def vectors(self, record_ids: NDArray[np.int64]) -> NDArray[np.float32]:
        if self._vectors is None:
            self._vectors = self._load()
        return take(*self._vectors, record_ids)

    def coords(self, record_ids: NDArray[np.int64]) -> NDArray[np.float32]:
        return take(self._map.record_ids, self._map.coords, record_ids)


def evaluate_topic(project: Project, topic: str, settings: EvaluationSettings | None = None,
                   backend: Backend | None = None,
                   token: CancelToken = NEVER) -> Job[TopicEvaluation]:
    """Evaluate every result list of ``topic`` (module docstring). ``settings`` default to
    the topic's stored ones; ``backend`` supplies precomputed vectors."""
    settings = settings or load_settings(project, topic)
    report = recall_report(project, topic)  # refuses a topic without core set or lists
    emb, stored = yield from scaled(prepare_topic(project, topic, settings, backend, token),
                                    0, 80, 100)
    db = project.db
    topic_id = project.topic_id(topic)
    core = works.core_works(db, topic_id)
    core_rows_ = core_rows(db, topic_id, emb.id, core)
    arrays = _Arrays(project, emb, stored)
    ids = {info.name: info.id for info in lists(project, topic) if info.role == "results"}
    out, computed, to_store = [], [], []
    for number, recall in enumerate(report.lists):
        yield Progress(80 + 20 * number // len(report.lists), 100, f"evaluating {recall.name}")
        token.raise_if_cancelled()
        list_id = ids[recall.name]
        rows = list_rows(db, list_id, emb.id, core)
        common = {"set": emb.id, "rows": rows.fingerprint}
        runs: dict[str, tuple[dict, Callable[[], tuple[Outcome, NDArray[np.bool_]]]]] = {
            "cos": ({"theta": settings.theta, "core": core_rows_.fingerprint,
                     "n_core": len(core)},
                    lambda rows=rows: cos_outcome(
                        arrays.vectors(core_rows_.record_ids), core_rows_.work_ids,
                        arrays.vectors(rows.record_ids), rows.work_ids, rows.is_core, len(core),
                        settings.theta)),
            "cluster": ({"theta": settings.cluster_theta, "n_core": len(core)},
                        lambda rows=rows: cluster_outcome(
                            arrays.vectors(rows.record_ids), rows.is_core, len(core),
                            settings.cluster_theta)),
            "mvee": ({"tol": settings.mvee_tol, "map": stored.id, "n_core": len(core)},
                     lambda rows=rows: mvee_outcome(
                         arrays.coords(rows.record_ids), rows.is_core, len(core),
                         settings.mvee_tol)),
            "hull": ({"map": stored.id, "n_core": len(core)},
                     lambda rows=rows: hull_outcome(arrays.coords(rows.record_ids),
                                                    rows.is_core, len(core))),
        }
        methods, relevant = {}, {}
        for method, (inputs, run) in runs.items():
            key = outcome_key(method=method, **common, **inputs)
            found = load_outcome(db, list_id, method, key, len(rows.record_ids))
            if found is None:
                token.raise_if_cancelled()
                found = run()
                to_store.append((list_id, method, key, *found))
                computed.append((recall.name, method))
            methods[method] = scored(found[0], settings.scoring)
            relevant[method] = found[1]
        out.append(ListEvaluation(
            list_id, recall.name, recall.size, recall.core, recall.retrieved_core,
            recall.recall, wilson_interval(recall.retrieved_core, recall.core), recall.missed,
            methods, rows, relevant, recall.size - len(rows.work_ids)))
    store_outcomes(project, to_store)
    yield Progress(100, 100, "evaluated")
    return TopicEvaluation(topic, settings, emb.info, emb.notes, stored, core_rows_, out,
                           tuple(computed))
