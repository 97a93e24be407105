"""A topic's shared 2D map in the project: one per embedding set and method, with its
fidelity, fitted jointly on every record of the topic that has a vector (core set and
all result lists), so lists share it (SPEC §1).

The map keeps the ids of the records it placed and the topic's corpus
(:func:`~litqeval_gui.core.evaluation.vector_store.corpus_fingerprint`) when it was made:
it is *stale* when the topic's records changed since (an import, a deleted list) or its
set is no longer the backend's current one. Coordinates are float32 bytes with dtype and
shape, ids int64 bytes (plain bytes, no serialised objects).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import sqlite_utils
from numpy.typing import NDArray

from litqeval_gui.core.embedding.projection import MAP_SEED, Method, Projection, project
from litqeval_gui.core.evaluation.vector_store import (
    VECTOR_DTYPES,
    EmbeddingSet,
    corpus_fingerprint,
    latest_set,
    live_record_ids,
    load_vectors,
    stored_vector_ids,
)
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import (
    DamagedDataError,
    check_number,
    read_array,
    read_buffer,
    read_json,
    topic_label,
)

MAP_METHODS = ("umap", "pca")


@dataclass(frozen=True, eq=False)
class StoredMap:
    """``coords[i]`` is where record ``record_ids[i]`` lies; ``fidelity`` NaN = undefined
    (``note`` says why); ``stale`` as in the module docstring."""

    id: int
    set_id: int
    method: str
    params: dict
    fidelity: float
    note: str
    record_ids: NDArray[np.int64]
    coords: NDArray[np.float32]
    stale: bool


def load_map(db: sqlite_utils.Database, emb: EmbeddingSet, method: str,
             live: NDArray[np.int64] | None = None) -> StoredMap | None:
    """The stored map of ``emb`` by ``method``, or None; ``live`` = the topic's live
    record ids when already read. A damaged map raises ``DamagedDataError``."""
    row = db.execute(
        "SELECT id, params, corpus, fidelity, note, record_ids, coords, dtype, shape "
        "FROM maps WHERE set_id = ? AND method = ? ORDER BY id DESC LIMIT 1",
        [emb.id, method]).fetchone()
    if row is None:
        return None
    key, params, corpus, fidelity, note, ids, coords, dtype, shape = row
    what = f"{topic_label(db, emb.topic_id)}: the stored {method.upper()} map"
    points = read_array(coords, dtype, shape, what, VECTOR_DTYPES, 2, part="coordinates")
    if points.shape[1] != 2:
        raise DamagedDataError(what, f"{points.shape[1]} columns, not 2", "coordinates")
    record_ids = read_buffer(ids, "<i8", what, len(points), part="record ids")
    params = read_json(params, what, dict, part="parameters")
    if fidelity is not None:
        check_number(fidelity, what, 0.0, 1.0, part="fidelity")
    if record_ids.size and not (record_ids[0] > 0 and np.all(np.diff(record_ids) > 0)):
        raise DamagedDataError(what, "not ascending record ids", "record ids")
    current = latest_set(db, emb.topic_id, emb.info.name)
    live = live_record_ids(db, emb.topic_id) if live is None else live
    stale = (corpus != corpus_fingerprint(live)
             or current is None or current.id != emb.id)
    if not stale and not np.array_equal(record_ids, stored_vector_ids(db, emb)):
        # a current map places exactly the set's records with a vector
        raise DamagedDataError(what, "not the records of its vector set", "record ids")
    return StoredMap(key, emb.id, method, params,
                     float("nan") if fidelity is None else float(fidelity), note or "",
                     record_ids, points, stale)


def map_topic(project_: Project, emb: EmbeddingSet, method: Method = "umap",
              seed: int = MAP_SEED, token: CancelToken = NEVER) -> Job[StoredMap]:
    """Fit the map of every vector of ``emb`` and store it (:func:`store_map`)."""
    db = project_.db
    corpus = corpus_fingerprint(live_record_ids(db, emb.topic_id))
    ids, vectors = load_vectors(db, emb)
    projection = yield from scaled(project(vectors, method, seed, token), 0, 95, 100,
                                   f"{method.upper()} map")
    token.raise_if_cancelled()
    stored = store_map(project_, emb, ids, projection, corpus)
    yield Progress(100, 100, "map ready")
    return stored


def store_map(project_: Project, emb: EmbeddingSet, ids: NDArray[np.int64],
              projection: Projection, corpus: str) -> StoredMap:
    """Store ``projection`` of the records ``ids`` of ``emb``, fitted when the topic's
    records had the fingerprint ``corpus`` (one op), replacing older maps of the same
    set and method."""
    method = projection.method
    coords = np.ascontiguousarray(projection.coords, dtype=np.float32)
    fidelity = None if np.isnan(projection.fidelity) else float(projection.fidelity)

    def op(p: Project) -> Changes:
        p.db.execute("DELETE FROM maps WHERE set_id = ? AND method = ?", [emb.id, method])
        p.db.execute(
            "INSERT INTO maps (topic_id, set_id, method, params, corpus, fidelity, note, "
            "record_ids, coords, dtype, shape, created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [emb.topic_id, emb.id, method, json.dumps(dict(projection.params), sort_keys=True),
             corpus, fidelity, projection.note, np.ascontiguousarray(ids).tobytes(),
             coords.tobytes(), coords.dtype.str, json.dumps(list(coords.shape)), now()])
        return Changes(evaluation=True)

    project_.write(op)
    stored = load_map(project_.db, emb, method)
    assert stored is not None
    return stored
