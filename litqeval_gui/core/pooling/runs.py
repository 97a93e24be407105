"""Rankings a pool can take as runs besides stored lists: the evaluation's cosine to core.

:func:`cosine_ranking` orders a result list's records by their cosine to the topic's
core set, with the similarity SP_cos uses (SPEC §1.1: to the centroid c of the unit
core embeddings, :func:`~litqeval_gui.metrics.semantic.centroid_similarity`), on the
vectors the topic's evaluation stored (its settings' backend). Best first; equal
cosines keep the list's order; records without a vector (no text, or a zero vector)
follow in the list's order, so the run covers the whole list.
"""

from __future__ import annotations

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.inputs import core_pairs, rows_from, take
from litqeval_gui.core.evaluation.settings import load_settings
from litqeval_gui.core.evaluation.vector_store import latest_set, load_vectors, set_status
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import works
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.metrics.semantic import centroid_similarity

COSINE = "cosine"


def cosine_ranking(project: Project, topic: str, list_name: str) -> list[int]:
    """The records of result list ``list_name`` ranked by cosine to the core centroid
    (module docstring); a clear error when the topic has no current vectors or core."""
    info = find_list(project, topic, list_name)
    db = project.db
    topic_id = project.topic_id(topic)
    backend = load_settings(project, topic).backend
    status = set_status(db, topic_id, backend)
    if status != "ready":
        why = {"missing": "has no embeddings yet", "pending": "has unfinished embeddings",
               "stale": "has embeddings older than its records"}[status]
        raise LitqError(f"topic {topic!r} {why} ({backend}): evaluate the topic first, "
                        "then create the pool")
    emb = latest_set(db, topic_id, backend)
    assert emb is not None
    core = works.core_works(db, topic_id)
    if not core:
        raise LitqError(f"topic {topic!r} has no core set to rank by")
    ids, matrix = load_vectors(db, emb)
    core_ids = rows_from(core_pairs(db, topic_id), ids, np.fromiter(core, np.int64)).record_ids
    records = np.fromiter((row[0] for row in db.execute(
        "SELECT id FROM live_records WHERE import_id = ? ORDER BY rank, id", [info.id])),
        np.int64)
    if not records.size:
        raise LitqError(f"list {list_name!r} has no records")
    with_vector = np.isin(records, ids)
    sims = centroid_similarity(take(ids, matrix, core_ids),
                               take(ids, matrix, records[with_vector]))
    if sims.reason:
        raise LitqError(f"cannot rank list {list_name!r} by cosine to core: {sims.reason}")
    cosines = np.full(records.size, np.nan)
    cosines[with_vector] = sims.retrieved
    known = ~np.isnan(cosines)
    order = np.argsort(-cosines[known], kind="stable")
    return [*records[known][order].tolist(), *records[~known].tolist()]
