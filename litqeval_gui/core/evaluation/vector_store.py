"""A topic's vectors in the project: computed once per record and backend, resumable.

An *embedding set* is one backend with its exact parameters (``BackendInfo``) for one
topic; each of the topic's records gets one row in ``vectors``: its float32 vector as
``ndarray.tobytes()`` with the dtype and shape stored beside it (read back with
``numpy.frombuffer``; plain bytes, no serialised objects), or NULL when it has none (no text, no matching id).

A set is ``pending`` until every record has a row, then ``done``. :func:`embed_topic`
writes rows in commits of at most ``CHUNK_ROWS`` through the write path, giving way to a
decision (:func:`~litqeval_gui.core.projectfile.writes.writing_rows`); after a crash or a
cancel the rows already committed stay, and the next run computes only the records
without a row. ``lsa``, fitted on the whole topic, recomputes its fit and rewrites every
row: a fit made in another process can differ in its last bits, and scikit-learn's
``svd_flip`` may then give a component the other sign, so a set mixing rows of two fits
would be wrong (``test_sigkill_mid_embedding_then_the_next_run_resumes`` caught it).

``lsa`` vectors depend on every record of the topic, so its set carries the topic's
*corpus* (:func:`corpus_fingerprint` of the live record ids): an import makes it stale
and a new set is computed. ``minilm`` and ``precomputed`` vectors belong to one record
each: a new import only adds the new records' rows.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal

import numpy as np
import sqlite_utils
from numpy.typing import NDArray

from litqeval_gui.core.embedding.backends import Backend, BackendInfo, Document, Embeddings
from litqeval_gui.core.embedding.errors import EmbeddingPaused
from litqeval_gui.core.errors import ProjectError, database_reason
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled
from litqeval_gui.core.projectfile.changes import NOTHING, Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import (
    MAX_DIMENSION,
    DamagedDataError,
    check_finite,
    check_number,
    read_array,
    read_json,
    read_shape,
    read_strings,
    topic_label,
)
from litqeval_gui.core.projectfile.writes import chunks, writing_rows

CORPUS_FITTED = frozenset({"lsa"})  # backends whose vectors depend on every record
Status = Literal["missing", "pending", "stale", "ready"]


@dataclass(frozen=True)
class EmbeddingSet:
    """One stored set: what made it (``info``), the corpus it was fitted on ('' when
    per-record), its state, dimension and notes (records without a vector, and why)."""

    id: int
    topic_id: int
    info: BackendInfo
    corpus: str
    state: str
    dim: int | None
    notes: tuple[str, ...]


def corpus_fingerprint(record_ids: Sequence[int] | NDArray[np.int64]) -> str:
    """Short SHA-256 of the sorted record ids: changes when a record comes or goes."""
    ids = np.sort(np.asarray(record_ids, dtype=np.int64))
    return hashlib.sha256(ids.tobytes()).hexdigest()[:16]


def live_record_ids(db: sqlite_utils.Database, topic_id: int) -> NDArray[np.int64]:
    """Ids of the topic's live records, ascending."""
    return np.fromiter((row[0] for row in db.execute(
        "SELECT id FROM live_records WHERE topic_id = ? ORDER BY id", [topic_id])), np.int64)


def documents(db: sqlite_utils.Database, record_ids: Sequence[int]) -> list[Document]:
    """The :class:`Document` of each record, in the order given."""
    found: dict[int, Document] = {}
    for part in chunks(list(record_ids), 900):
        rows = db.execute(
            "SELECT id, title, abstract, doi, pmid, ids FROM records WHERE id IN "
            f"({','.join('?' * len(part))})", list(part))
        for key, title, abstract, doi, pmid, ids in rows:
            other = read_json(ids, f"record {key}", dict, part="other ids") if ids else {}
            if pmid:
                other["pmid"] = pmid
            found[key] = Document(title or "", abstract or "", doi or "", other)
    return [found[key] for key in record_ids]


def encode(vector: NDArray[np.float32]) -> tuple[str, str, bytes]:
    """(dtype, JSON shape, bytes) of one vector, as stored."""
    array = np.ascontiguousarray(vector, dtype=np.float32)
    return array.dtype.str, json.dumps(list(array.shape)), array.tobytes()


VECTOR_DTYPES = ("<f4",)  # what :func:`encode` stores


def decode(dtype: object, shape: object, data: object, what: str = "a stored vector",
           ndim: int = 1) -> NDArray:
    """Inverse of :func:`encode`, checked (:func:`~litqeval_gui.core.projectfile.stored.
    read_array`): a damaged row raises ``DamagedDataError`` naming ``what``."""
    return read_array(data, dtype, shape, what, VECTOR_DTYPES, ndim)


def _params_text(info: BackendInfo) -> str:
    return json.dumps(dict(info.params), sort_keys=True)


def _set_from_row(db: sqlite_utils.Database, row: tuple) -> EmbeddingSet:
    key, topic_id, backend, model, version, params, corpus, state, dim, notes = row
    what = f"{topic_label(db, topic_id)}: the stored {backend} vector set"
    if dim is not None:
        check_number(dim, what, 1, MAX_DIMENSION, integer=True, part="dimension")
    return EmbeddingSet(key, topic_id,
                        BackendInfo(backend, model, version,
                                    read_json(params, what, dict, part="parameters")),
                        corpus, state, dim, tuple(read_strings(notes or "[]", what, "notes")))


_SET_COLUMNS = "id, topic_id, backend, model, version, params, corpus, state, dim, notes"


def find_set(db: sqlite_utils.Database, topic_id: int, info: BackendInfo,
             corpus: str) -> EmbeddingSet | None:
    """The set of exactly this backend, parameters and corpus, if stored."""
    row = db.execute(
        f"SELECT {_SET_COLUMNS} FROM embedding_sets WHERE topic_id = ? AND backend = ? "
        "AND model = ? AND version = ? AND params = ? AND corpus = ?",
        [topic_id, info.name, info.model, info.version, _params_text(info), corpus]).fetchone()
    return _set_from_row(db, row) if row else None


def latest_set(db: sqlite_utils.Database, topic_id: int, backend: str) -> EmbeddingSet | None:
    """The most recent set of ``backend`` for the topic (done before pending)."""
    row = db.execute(
        f"SELECT {_SET_COLUMNS} FROM embedding_sets WHERE topic_id = ? AND backend = ? "
        "ORDER BY state = 'done' DESC, id DESC LIMIT 1", [topic_id, backend]).fetchone()
    return _set_from_row(db, row) if row else None


def set_status(db: sqlite_utils.Database, topic_id: int, backend: str,
               live: NDArray[np.int64] | None = None) -> Status:
    """``missing`` (never computed), ``pending`` (unfinished), ``stale`` (records changed
    since) or ``ready``."""
    emb = latest_set(db, topic_id, backend)
    if emb is None:
        return "missing"
    if emb.state != "done":
        return "pending"
    return "stale" if missing_records(db, emb, live).size else "ready"


def missing_records(db: sqlite_utils.Database, emb: EmbeddingSet,
                    live: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
    """Live records of the set's topic without a row in it. A corpus-fitted set whose
    corpus is not the topic's any more misses them all."""
    live = live_record_ids(db, emb.topic_id) if live is None else live
    if emb.info.name in CORPUS_FITTED and emb.corpus != corpus_fingerprint(live):
        return live
    have = np.fromiter((row[0] for row in db.execute(
        "SELECT record_id FROM vectors WHERE set_id = ?", [emb.id])), np.int64)
    return np.setdiff1d(live, have)


@dataclass(frozen=True, eq=False)
class EmbeddingPlan:
    """What giving a topic's records their vectors takes, as plain data (a worker computes
    it without the project): the backend, the set to complete (``set_id``; None = a new
    one for ``corpus``), the records the backend sees (``fit_on``, their ``documents``)
    and those that get a row (``todo``); ``existing`` = the set's stored (ids, vectors)."""

    topic_id: int
    backend: Backend
    corpus: str
    set_id: int | None
    notes: tuple[str, ...]
    fit_on: NDArray[np.int64]
    documents: list[Document]
    todo: NDArray[np.int64]
    n_live: int
    existing: tuple[NDArray[np.int64], NDArray[np.float32]]


def plan_embedding(project: Project, topic: str, backend: Backend,
                   with_existing: bool = False) -> EmbeddingPlan:
    """Read what :func:`compute_embedding` needs; ``with_existing`` also reads the set's
    stored vectors (to build the whole set with :func:`merged_vectors`)."""
    db = project.db
    topic_id = project.topic_id(topic)
    live = live_record_ids(db, topic_id)
    if live.size == 0:
        raise ProjectError(f"topic {topic!r} has no records to embed")
    info = backend.info
    corpus = corpus_fingerprint(live) if info.name in CORPUS_FITTED else ""
    emb = find_set(db, topic_id, info, corpus)
    todo = live if emb is None else missing_records(db, emb)
    if todo.size and info.name in CORPUS_FITTED:
        todo = live  # rewrite the whole set from one fit (module docstring)
    fit_on = live if info.name in CORPUS_FITTED else todo
    existing = (load_vectors(db, emb) if with_existing and emb is not None
                else (np.empty(0, np.int64), np.empty((0, 0), np.float32)))
    return EmbeddingPlan(topic_id, backend, corpus, emb.id if emb else None,
                         emb.notes if emb else (), fit_on,
                         documents(db, fit_on.tolist()) if todo.size else [], todo,
                         int(live.size), existing)


def compute_embedding(plan: EmbeddingPlan,
                      token: CancelToken = NEVER) -> Job[Embeddings | None]:
    """The backend's vectors of ``plan.fit_on`` (None when no record needs one)."""
    if not plan.todo.size:
        return None
    name = plan.backend.info.name
    yield Progress(0, 100, f"{name}: embedding {plan.fit_on.size:,} records")
    return (yield from scaled(plan.backend.embed(plan.documents, token), 0, 100, 100, name))


def merged_vectors(plan: EmbeddingPlan, result: Embeddings | None
                   ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """The set's (ids ascending, float32 vectors) once ``result`` is stored: what
    :func:`load_vectors` will read back (``plan.existing`` must have been read)."""
    new = [(key, vector) for key, vector in _todo_vectors(plan.fit_on, result, plan.todo)
           if vector is not None] if result is not None else []
    old_ids, old = plan.existing
    kept = ~np.isin(old_ids, plan.todo)  # rows of ``todo`` are rewritten
    old_ids, old = old_ids[kept], old[kept]
    ids = np.concatenate([old_ids, np.array([key for key, _ in new], np.int64)])
    if not ids.size:
        return ids, np.empty((0, 0), np.float32)
    parts = ([old] if old_ids.size else []) + [
        np.ascontiguousarray(vector, dtype=np.float32)[None] for _, vector in new]
    order = np.argsort(ids, kind="stable")
    return ids[order], np.ascontiguousarray(np.vstack(parts)[order], dtype=np.float32)


def store_embedding(project: Project, plan: EmbeddingPlan, result: Embeddings | None,
                    token: CancelToken = NEVER) -> Job[EmbeddingSet]:
    """Store ``result`` by :func:`~litqeval_gui.core.projectfile.writes.writing_rows` (cancelled:
    :class:`EmbeddingPaused` says how many are kept), then mark the set done and drop
    older sets of the same backend for the topic."""
    info = plan.backend.info
    emb = (find_set(project.db, plan.topic_id, info, plan.corpus)
           or _create_set(project, plan.topic_id, info, plan.corpus))
    notes = plan.notes
    if result is not None:
        notes = result.notes
        rows = _vector_rows(emb.id, plan.fit_on, result, plan.todo)
        kept = plan.n_live - plan.todo.size
        try:
            for done in chain((0,), writing_rows(project, rows, _insert_vectors)):
                if done == len(rows):
                    break
                yield Progress(100 * done // len(rows), 100,
                               f"storing vectors {done:,} of {len(rows):,}")
                if token.cancelled:
                    raise EmbeddingPaused(kept + done, plan.n_live)
        except sqlite3.DatabaseError as err:
            _refuse_with_what_is_kept(project, emb, plan.n_live, err)
            raise
    final = _finish(project, emb, notes)
    yield Progress(100, 100, "vectors ready")
    return final


def _refuse_with_what_is_kept(project: Project, emb: EmbeddingSet, total: int,
                              err: sqlite3.DatabaseError) -> None:
    """After a failed commit of vectors from the environment (a full disk, a read-only
    file), a ``ProjectError`` saying which vectors the earlier commits kept: the set
    stays pending and the next run goes on from there ("unchanged" would be untrue)."""
    reason = database_reason(err)
    if reason is None:
        return
    stored = project.db.execute("SELECT COUNT(*) FROM vectors WHERE set_id = ?",
                                [emb.id]).fetchone()[0]
    raise ProjectError(f"{reason} ({err}): {stored:,} of {total:,} records' "
                       f"{emb.info.name} vectors are stored (the set stays unfinished); "
                       "embedding again goes on from there once that is fixed") from None


def embed_topic(project: Project, topic: str, backend: Backend,
                token: CancelToken = NEVER) -> Job[EmbeddingSet]:
    """Give every live record of ``topic`` a row in ``backend``'s set (module docstring):
    :func:`plan_embedding`, :func:`compute_embedding` (0–60 %), :func:`store_embedding`
    (60–100 %). Only records without a row are computed."""
    plan = plan_embedding(project, topic, backend)
    result = yield from scaled(compute_embedding(plan, token), 0, 60, 100)
    return (yield from scaled(store_embedding(project, plan, result, token), 60, 100, 100))


def _create_set(project: Project, topic_id: int, info: BackendInfo,
                corpus: str) -> EmbeddingSet:
    def op(p: Project) -> Changes:
        p.db.execute(
            "INSERT INTO embedding_sets (topic_id, backend, model, version, params, corpus, "
            "state, created) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
            [topic_id, info.name, info.model, info.version, _params_text(info), corpus, now()])
        return NOTHING

    project.write(op)
    found = find_set(project.db, topic_id, info, corpus)
    assert found is not None
    return found


def _todo_vectors(fit_on: NDArray[np.int64], result: Embeddings,
                  todo: NDArray[np.int64]) -> list[tuple[int, NDArray[np.float32] | None]]:
    """(record, its vector or None) for each record of ``todo``."""
    position = {int(key): i for i, key in enumerate(fit_on)}
    row_of = {int(pos): i for i, pos in enumerate(result.rows)}
    out: list[tuple[int, NDArray[np.float32] | None]] = []
    for key in todo.tolist():
        i = row_of.get(position[key])
        out.append((key, None if i is None else result.vectors[i]))
    return out


def _vector_rows(set_id: int, fit_on: NDArray[np.int64], result: Embeddings,
                 todo: NDArray[np.int64]) -> list[tuple]:
    """(set, record, dtype, shape, bytes or NULL) for each record of ``todo``."""
    return [(set_id, key, "<f4", "[0]", None) if vector is None
            else (set_id, key, *encode(vector))
            for key, vector in _todo_vectors(fit_on, result, todo)]


def _insert_vectors(project: Project, rows: Iterable[tuple]) -> Changes:
    project.db.conn.executemany(
        "INSERT OR REPLACE INTO vectors (set_id, record_id, dtype, shape, data) "
        "VALUES (?, ?, ?, ?, ?)", rows)
    return NOTHING


def _finish(project: Project, emb: EmbeddingSet, notes: tuple[str, ...]) -> EmbeddingSet:
    """Mark the set done with its dimension and notes; drop older sets of its backend."""
    def op(p: Project) -> Changes:
        row = p.db.execute("SELECT shape FROM vectors WHERE set_id = ? AND data IS NOT NULL "
                           "LIMIT 1", [emb.id]).fetchone()
        dim = (read_shape(row[0], f"the stored vector set {emb.id}", 1, "a vector's shape")[0]
               if row else None)
        changed = emb.state != "done"
        p.db.execute("UPDATE embedding_sets SET state = 'done', dim = ?, notes = ? "
                     "WHERE id = ?", [dim, json.dumps(list(notes)), emb.id])
        gone = p.db.execute("DELETE FROM embedding_sets WHERE topic_id = ? AND backend = ? "
                            "AND id != ?", [emb.topic_id, emb.info.name, emb.id]).rowcount
        return Changes(evaluation=True) if changed or gone else NOTHING

    changes = project.write(op)
    if changes:
        _CACHE.clear()
    row = project.db.execute(f"SELECT {_SET_COLUMNS} FROM embedding_sets WHERE id = ?",
                             [emb.id]).fetchone()
    return _set_from_row(project.db, row)


def stored_vector_ids(db: sqlite_utils.Database, emb: EmbeddingSet) -> NDArray[np.int64]:
    """Ids of the set's records that have a vector, ascending (as :func:`load_vectors`)."""
    return np.fromiter((row[0] for row in db.execute(
        "SELECT record_id FROM vectors WHERE set_id = ? AND data IS NOT NULL "
        "ORDER BY record_id", [emb.id])), np.int64)


# Vectors of done sets never change (new records get new rows, a new corpus a new set):
# the last ones read are kept, keyed by file, set and row count.
_CACHE: dict[tuple[str, int, int], tuple[NDArray[np.int64], NDArray[np.float32]]] = {}


def load_vectors(db: sqlite_utils.Database, emb: EmbeddingSet
                 ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """(record ids ascending, their vectors as one float32 matrix) of the records of the
    set that have a vector."""
    count = db.execute("SELECT COUNT(*) FROM vectors WHERE set_id = ? AND data IS NOT NULL",
                       [emb.id]).fetchone()[0]
    key = (str(db.execute("PRAGMA database_list").fetchone()[2]), emb.id, count)
    if key not in _CACHE:
        ids = np.empty(count, np.int64)
        parts = []
        what = f"{topic_label(db, emb.topic_id)}: the stored {emb.info.name} vector"
        rows = db.execute("SELECT record_id, dtype, shape, data FROM vectors "
                          "WHERE set_id = ? AND data IS NOT NULL ORDER BY record_id", [emb.id])
        for i, (record_id, dtype, shape, data) in enumerate(rows):
            ids[i] = record_id
            vector = read_array(data, dtype, shape, f"{what} of record {record_id}",
                                VECTOR_DTYPES, 1, finite=False)
            dim = emb.dim or (parts[0].size if parts else vector.size)
            if vector.size != dim:
                raise DamagedDataError(f"{what} of record {record_id}",
                                       f"{vector.size} values where "
                                       f"the set's vectors have {dim}")
            parts.append(vector)
        dim = emb.dim or 0
        matrix = np.vstack(parts).astype(np.float32, copy=False) if parts else np.empty((0, dim),
                                                                                        np.float32)
        check_finite(matrix, f"{what} set")
        flat = np.flatnonzero(~matrix.any(axis=1))
        if flat.size:
            raise DamagedDataError(f"{what} of record {ids[flat[0]]}",
                                   f"all zeros, a vector with no direction; {flat.size:,} "
                                   "such vector(s)")
        _CACHE.clear()
        _CACHE[key] = (ids, matrix)
    return _CACHE[key]
