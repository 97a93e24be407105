"""The computing half of a topic's evaluation: plain data in, plain data out.

A :class:`TopicTask` holds everything the evaluation of one topic needs, read from the
project beforehand (``engine.plan_topic``): what to embed (texts), the set's stored
vectors, the current map when there is one, the records of the core set and of each
list, and which methods have no stored outcome. :func:`compute_topic` needs no project:
it embeds, fits the map, makes the rows (``inputs.rows_from``) and runs the missing
methods (:mod:`.methods`), and returns a :class:`Computed` of numpy arrays and plain
values — so it runs in this process, in a worker process or on a Dask worker alike,
and ``engine.store_topic`` stores the answer through the write path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.core.embedding.backends import Embeddings
from litqeval_gui.core.embedding.blas import one_blas_thread
from litqeval_gui.core.embedding.projection import (
    MAP_SEED,
    Projection,
    compile_in_background,
    fit_in_child,
    project,
    stop_map_child,
)
from litqeval_gui.core.evaluation.inputs import Pairs, Rows, rows_from, take
from litqeval_gui.core.evaluation.methods import (
    Outcome,
    cluster_outcome,
    cos_outcome,
    hull_outcome,
    mvee_outcome,
)
from litqeval_gui.core.evaluation.settings import EvaluationSettings
from litqeval_gui.core.evaluation.vector_store import (
    EmbeddingPlan,
    compute_embedding,
    merged_vectors,
)
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled

Found = tuple[Outcome, NDArray[np.bool_]]


@dataclass(frozen=True, eq=False)
class TopicTask:
    """One topic's evaluation inputs (module docstring). ``embedding`` is None when the
    set is ready (then ``vectors`` are its stored vectors, or only their ids when no
    method has to run and no map to fit); ``map_ids``/``map_coords`` the current map,
    None to fit one; ``todo[i]`` the methods list i has no stored outcome for."""

    settings: EvaluationSettings
    embedding: EmbeddingPlan | None
    vectors: tuple[NDArray[np.int64], NDArray[np.float32]]
    map_ids: NDArray[np.int64] | None
    map_coords: NDArray[np.float32] | None
    core_works: NDArray[np.int64]
    core_pairs: Pairs
    list_pairs: tuple[Pairs, ...]
    todo: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, eq=False)
class Computed:
    """What :func:`compute_topic` found, as plain data: the new vectors (``vectors``,
    ``rows``, ``notes`` of :class:`Embeddings`; None when the set was ready), the new map
    (``projection``: coords, params, fidelity, note; None when the map was current), the
    record ids the map placed, E_C's and each list's rows and each new outcome by
    (list index, method)."""

    embedded: tuple[NDArray[np.float32], NDArray[np.intp], tuple[str, ...]] | None
    projection: tuple[NDArray[np.float32], dict, float, str] | None
    map_ids: NDArray[np.int64]
    core_rows: Rows
    rows: tuple[Rows, ...]
    outcomes: dict[tuple[int, str], Found]

    def embeddings(self, plan: EmbeddingPlan) -> Embeddings | None:
        if self.embedded is None:
            return None
        vectors, rows, notes = self.embedded
        return Embeddings(vectors, rows, len(plan.documents), plan.backend.info, notes)

    def map_projection(self, method: str) -> Projection | None:
        if self.projection is None:
            return None
        coords, params, fidelity, note = self.projection
        return Projection(coords, method, params, fidelity, note)  # type: ignore[arg-type]


def compute_topic(task: TopicTask, token: CancelToken = NEVER) -> Job[Computed]:
    """Embed (0–45 %), map (45–85 %), run the missing methods (85–100 %). A UMAP map's
    uncachable kernels compile meanwhile: in the child process that then fits the map
    when there are vectors to compute
    (:func:`~litqeval_gui.core.embedding.projection.fit_in_child`), else (or where no
    child can start) on another thread
    (:func:`~litqeval_gui.core.embedding.projection.compile_in_background`). All of it on
    one BLAS thread (:func:`~litqeval_gui.core.embedding.blas.one_blas_thread`), so the
    bytes are the same serially, on worker processes and beside other topics on the
    threads of one Dask worker."""
    with one_blas_thread():
        return (yield from _computed(task, token))


def _computed(task: TopicTask, token: CancelToken) -> Job[Computed]:
    """:func:`compute_topic`'s steps."""
    settings, embedded, projection = task.settings, None, None
    ids, vectors = task.vectors
    if task.map_ids is None:
        rows = task.embedding.fit_on.size if task.embedding is not None else len(ids)
        if task.embedding is None or not fit_in_child(rows, settings.map_method):
            compile_in_background(rows, settings.map_method)
    try:
        if task.embedding is not None:
            result = yield from scaled(compute_embedding(task.embedding, token), 0, 45, 100,
                                       "vectors")
            ids, vectors = merged_vectors(task.embedding, result)
            if result is not None:
                embedded = (result.vectors, result.rows, result.notes)
        map_ids, coords = task.map_ids, task.map_coords
        if map_ids is None or coords is None:
            fitted = yield from scaled(project(vectors, settings.map_method, MAP_SEED, token),
                                       45, 85, 100, f"{settings.map_method.upper()} map")
            map_ids, coords = ids, np.ascontiguousarray(fitted.coords, dtype=np.float32)
            projection = (coords, dict(fitted.params), fitted.fidelity, fitted.note)
    finally:
        stop_map_child()  # one the map did not take (an error, a PCA map, too few rows)
    core_rows = rows_from(task.core_pairs, ids, task.core_works)
    all_rows = tuple(rows_from(pairs, ids, task.core_works) for pairs in task.list_pairs)
    n_core = len(task.core_works)
    outcomes: dict[tuple[int, str], Found] = {}
    for number, (rows, methods) in enumerate(zip(all_rows, task.todo, strict=True)):
        yield Progress(85 + 15 * number // max(len(all_rows), 1), 100, "evaluating")
        for method in methods:
            token.raise_if_cancelled()
            if method == "cos":
                found = cos_outcome(take(ids, vectors, core_rows.record_ids), core_rows.work_ids,
                                    take(ids, vectors, rows.record_ids), rows.work_ids,
                                    rows.is_core, n_core, settings.theta)
            elif method == "cluster":
                found = cluster_outcome(take(ids, vectors, rows.record_ids), rows.is_core,
                                        n_core, settings.cluster_theta)
            elif method == "mvee":
                found = mvee_outcome(take(map_ids, coords, rows.record_ids), rows.is_core,
                                     n_core, settings.mvee_tol)
            else:
                found = hull_outcome(take(map_ids, coords, rows.record_ids), rows.is_core,
                                     n_core)
            outcomes[(number, method)] = found
    yield Progress(100, 100, "computed")
    return Computed(embedded, projection, map_ids, core_rows, all_rows, outcomes)
