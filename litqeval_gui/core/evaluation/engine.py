"""Evaluate a topic: every result list × the core set (SPEC §1), cached in the project.

Three steps, the same for one topic (:func:`evaluate_topic`, the app and ``evaluate
--topic``) and for all (:mod:`.batch`, ``evaluate --all-topics``):

1. :func:`plan_topic` reads (no writes): recall with its 95 % Wilson interval and the
   missed core (:func:`~litqeval_gui.core.evaluation.recall.recall_report`), whether the
   vectors (the settings' backend) and the map are current, which outcomes are stored;
   it makes a :class:`~.compute.TopicTask` of plain data.
2. :func:`~.compute.compute_topic` embeds, maps and runs SP_cos, SP_cluster, SP_mvee and
   SP_hull (:mod:`.methods`, all through ``metrics/``) where nothing is stored — without
   the project, so anywhere.
3. :func:`store_topic` stores the answer through the write path (vectors in bounded
   commits, the map, the outcomes) and builds the :class:`TopicEvaluation`.

What each method depends on is its key (:mod:`.result_store`): cos — E_C, the list's
rows, θ; cluster — the rows, the clustering θ; MVEE — the rows, the map, the
tolerance; hull — the rows, the map. All include the embedding set. p, q, α and β only
re-score stored outcomes, so a change of them recomputes nothing; vectors and the map
are read only when some method has to run or the map is fitted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from litqeval_gui import __version__
from litqeval_gui.core.embedding.backends import Backend, BackendInfo
from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.compute import Computed, Found, TopicTask, compute_topic
from litqeval_gui.core.evaluation.inputs import (
    Rows,
    core_pairs,
    core_text_note,
    list_pairs,
    rows_from,
)
from litqeval_gui.core.evaluation.intervals import wilson_interval
from litqeval_gui.core.evaluation.map_store import StoredMap, load_map, store_map
from litqeval_gui.core.evaluation.methods import METHODS, MethodResult, scored
from litqeval_gui.core.evaluation.recall import MissedRecord, RecallReport, recall_report
from litqeval_gui.core.evaluation.result_store import load_outcome, outcome_key, store_outcomes
from litqeval_gui.core.evaluation.settings import EvaluationSettings, load_settings
from litqeval_gui.core.evaluation.vector_store import (
    EmbeddingSet,
    corpus_fingerprint,
    latest_set,
    live_record_ids,
    load_vectors,
    plan_embedding,
    set_status,
    store_embedding,
    stored_vector_ids,
)
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.records import works
from litqeval_gui.core.records.queries import lists


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
    repaired: tuple[str, ...] = ()  # damaged stored results computed again (also in notes)

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
                 "recall_ci": list(item.recall_ci), "without_vector": item.without_vector}
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


def method_keys(set_id: int, map_id: int | None, core_rows_: Rows, rows: Rows, n_core: int,
                settings: EvaluationSettings) -> dict[str, str | None]:
    """Each method's key (module docstring); None for a method on a map not made yet."""
    common = {"set": set_id, "rows": rows.fingerprint}
    inputs = {"cos": {"theta": settings.theta, "core": core_rows_.fingerprint, "n_core": n_core},
              "cluster": {"theta": settings.cluster_theta, "n_core": n_core},
              "mvee": {"tol": settings.mvee_tol, "map": map_id, "n_core": n_core},
              "hull": {"map": map_id, "n_core": n_core}}
    return {method: None if map_id is None and "map" in inputs[method]
            else outcome_key(method=method, **common, **inputs[method]) for method in METHODS}


@dataclass(frozen=True, eq=False)
class TopicPlan:
    """What :func:`plan_topic` read: the worker's :class:`TopicTask` and what storing its
    answer needs — the recall report, the lists' ids, the ready set and current map
    (None: the task makes them), the outcomes found stored by (list index, method), the
    topic's corpus fingerprint when read; ``repaired`` says which stored map or outcomes
    were damaged (:mod:`~litqeval_gui.core.projectfile.stored`) and are computed again."""

    topic: str
    task: TopicTask
    report: RecallReport
    list_ids: tuple[int, ...]
    emb: EmbeddingSet | None
    map: StoredMap | None
    stored: dict[tuple[int, str], Found]
    corpus: str
    repaired: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the user should know of the inputs


def plan_topic(project: Project, topic: str, settings: EvaluationSettings | None = None,
               backend: Backend | None = None) -> TopicPlan:
    """Read everything the evaluation of ``topic`` needs (module docstring, step 1).
    ``settings`` default to the topic's stored ones; ``backend`` supplies precomputed
    vectors."""
    settings = settings or load_settings(project, topic)
    report = recall_report(project, topic)  # refuses a topic without core set or lists
    db = project.db
    topic_id = project.topic_id(topic)
    by_name = {info.name: info.id for info in lists(project, topic) if info.role == "results"}
    list_ids = tuple(by_name[item.name] for item in report.lists)
    core = np.array(sorted(works.core_works(db, topic_id)), dtype=np.int64)
    core_p = core_pairs(db, topic_id)
    pairs = tuple(list_pairs(db, list_id) for list_id in list_ids)
    live = live_record_ids(db, topic_id)
    emb = stored_map = embedding = None
    repaired: list[str] = []
    if backend is not None or set_status(db, topic_id, settings.backend, live) != "ready":
        embedding = plan_embedding(project, topic, backend_for(settings, backend), True)
    else:
        emb = latest_set(db, topic_id, settings.backend)
        assert emb is not None
        try:
            stored_map = load_map(db, emb, settings.map_method, live)
        except DamagedDataError as err:
            stored_map = None
            repaired.append(f"{err.what} was damaged ({err.problem}); computed again")
        stored_map = None if stored_map is None or stored_map.stale else stored_map
    stored: dict[tuple[int, str], Found] = {}
    todo = [METHODS] * len(list_ids)
    vector_ids = np.empty(0, np.int64)
    if emb is not None:
        vector_ids = stored_vector_ids(db, emb)
        core_rows_ = rows_from(core_p, vector_ids, core)
        for number, (list_id, list_p) in enumerate(zip(list_ids, pairs, strict=True)):
            rows = rows_from(list_p, vector_ids, core)
            keys = method_keys(emb.id, stored_map.id if stored_map else None, core_rows_, rows,
                               len(core), settings)
            for method, key in keys.items():
                try:
                    found = key and load_outcome(db, list_id, method, key,
                                                 len(rows.record_ids))
                except DamagedDataError as err:
                    found = None
                    repaired.append(f"{err.what} was damaged ({err.problem}); computed again")
                if found:
                    stored[(number, method)] = found
            todo[number] = tuple(m for m in METHODS if (number, m) not in stored)
    need_vectors = emb is not None and (
        stored_map is None or any(m in ("cos", "cluster") for m in chain(*todo)))
    vectors = (load_vectors(db, emb) if need_vectors and emb is not None
               else (vector_ids, np.empty((0, 0), np.float32)))
    task = TopicTask(settings, embedding, vectors,
                     stored_map.record_ids if stored_map else None,
                     stored_map.coords if stored_map else None, core, core_p, pairs,
                     tuple(todo))
    notes = tuple(note for note in [core_text_note(db, topic_id)] if note)
    return TopicPlan(topic, task, report, list_ids, emb, stored_map, stored,
                     corpus_fingerprint(live), tuple(repaired), notes)


def store_topic(project: Project, plan: TopicPlan, computed: Computed,
                token: CancelToken = NEVER) -> Job[TopicEvaluation]:
    """Store what ``computed`` found through the write path (module docstring, step 3):
    the vectors (0–80 %), the map, then every new outcome in one write."""
    settings, task = plan.task.settings, plan.task
    emb = plan.emb
    if task.embedding is not None:
        emb = yield from scaled(store_embedding(project, task.embedding,
                                                computed.embeddings(task.embedding), token),
                                0, 80, 100, "vectors")
    assert emb is not None
    stored_map = plan.map
    projection = computed.map_projection(settings.map_method)
    if projection is not None:
        token.raise_if_cancelled()
        stored_map = store_map(project, emb, computed.map_ids, projection, plan.corpus)
    assert stored_map is not None
    yield Progress(90, 100, "storing the results")
    n_core = len(task.core_works)
    out, to_store = [], []
    for number, (recall, list_id, rows) in enumerate(zip(plan.report.lists, plan.list_ids,
                                                         computed.rows, strict=True)):
        keys = method_keys(emb.id, stored_map.id, computed.core_rows, rows, n_core, settings)
        methods, relevant = {}, {}
        for method in METHODS:
            found = plan.stored.get((number, method))
            if found is None:
                found = computed.outcomes[(number, method)]
                to_store.append((list_id, method, keys[method], *found))
            methods[method] = scored(found[0], settings.scoring)
            relevant[method] = found[1]
        out.append(ListEvaluation(
            list_id, recall.name, recall.size, recall.core, recall.retrieved_core,
            recall.recall, wilson_interval(recall.retrieved_core, recall.core), recall.missed,
            methods, rows, relevant, recall.size - len(rows.work_ids)))
    store_outcomes(project, to_store)
    yield Progress(100, 100, "evaluated")
    names = [item.name for item in plan.report.lists]
    return TopicEvaluation(plan.topic, settings, emb.info,
                           emb.notes + plan.notes + plan.repaired,
                           stored_map, computed.core_rows, out,
                           tuple((names[number], method) for number, method in computed.outcomes),
                           repaired=plan.repaired)


def evaluate_topic(project: Project, topic: str, settings: EvaluationSettings | None = None,
                   backend: Backend | None = None,
                   token: CancelToken = NEVER) -> Job[TopicEvaluation]:
    """Evaluate every result list of ``topic`` (module docstring: plan, compute here,
    store). ``settings`` default to the topic's stored ones; ``backend`` supplies
    precomputed vectors."""
    plan = plan_topic(project, topic, settings, backend)
    computed = yield from scaled(compute_topic(plan.task, token), 0, 90, 100)
    return (yield from scaled(store_topic(project, plan, computed, token), 90, 100, 100))
