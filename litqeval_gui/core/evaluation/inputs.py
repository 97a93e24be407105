"""The rows an evaluation works on: the records read from the project, the rows made
from them in plain numpy (so a worker without the project makes the same rows).

E_C (SPEC §1): one row per core work that has a vector (its first core record with one);
|C| counts every core work. R: one row per distinct work of the list that has a vector
(its first record in the list with one), flagged core when the work is in the core set.
Works without a vector (no title or abstract) are counted apart, never dropped silently.
Each row set carries a fingerprint of its record ids and flags, so a stored result is
reused only for the same rows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import sqlite_utils
from numpy.typing import NDArray


@dataclass(frozen=True, eq=False)
class Rows:
    """``record_ids[i]`` stands for work ``work_ids[i]``; ``is_core`` flags core works."""

    work_ids: NDArray[np.int64]
    record_ids: NDArray[np.int64]
    is_core: NDArray[np.bool_]

    @property
    def fingerprint(self) -> str:
        sha = hashlib.sha256(self.record_ids.tobytes())
        sha.update(self.is_core.tobytes())
        return sha.hexdigest()[:16]


@dataclass(frozen=True, eq=False)
class Pairs:
    """(work, record) of every live record of a list or of the core set."""

    work_ids: NDArray[np.int64]
    record_ids: NDArray[np.int64]


_CORE_SQL = """
SELECT r.work_id, r.id FROM live_imports i JOIN records r ON r.import_id = i.id
WHERE i.topic_id = ? AND i.role = 'core'
"""
_LIST_SQL = "SELECT work_id, id FROM live_records WHERE import_id = ?"


def _pairs(db: sqlite_utils.Database, sql: str, params: list) -> Pairs:
    pairs = np.array(db.execute(sql, params).fetchall(), dtype=np.int64).reshape(-1, 2)
    return Pairs(np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]))


def core_text_note(db: sqlite_utils.Database, topic_id: int) -> str:
    """What core records without an abstract do to SP ("" when every one has one)."""
    total, bare = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(COALESCE(r.abstract, '') = ''), 0) FROM live_imports i "
        "JOIN records r ON r.import_id = i.id WHERE i.topic_id = ? AND i.role = 'core'",
        [topic_id]).fetchone()
    if not bare:
        return ""
    return (f"{bare} of {total} core records have no abstract: their vectors are of the "
            "title alone while the result lists' are of title and abstract, so the semantic "
            "precisions compare unlike texts and are likely to read lower (a core set with "
            "abstracts, e.g. from PubMed, compares like with like)")


def core_pairs(db: sqlite_utils.Database, topic_id: int) -> Pairs:
    """The records of the topic's core set."""
    return _pairs(db, _CORE_SQL, [topic_id])


def list_pairs(db: sqlite_utils.Database, list_id: int) -> Pairs:
    """The live records of one result list."""
    return _pairs(db, _LIST_SQL, [list_id])


def rows_from(pairs: Pairs, with_vector: NDArray[np.int64], core: NDArray[np.int64]) -> Rows:
    """One row per work of ``pairs`` with a record among ``with_vector`` (sorted ids of the
    records that have a vector): its smallest such record id, works ascending; flagged
    core when the work is in ``core``. E_C's rows from the core set's pairs, R's from a
    list's."""
    has = np.isin(pairs.record_ids, with_vector)
    works, records = pairs.work_ids[has], pairs.record_ids[has]
    order = np.lexsort((records, works))
    works, records = works[order], records[order]
    first = np.r_[True, works[1:] != works[:-1]] if works.size else np.zeros(0, bool)
    works = np.ascontiguousarray(works[first])
    return Rows(works, np.ascontiguousarray(records[first]), np.isin(works, core))


def take(ids: NDArray[np.int64], values: NDArray, wanted: NDArray[np.int64]) -> NDArray:
    """Rows of ``values`` (one per sorted ``ids``) for the ids ``wanted``; every wanted
    id must be present (a map fitted before the record came is stale: refit it first)."""
    at = np.searchsorted(ids, wanted)
    if wanted.size and (at.max() >= ids.size or not np.array_equal(ids[at], wanted)):
        raise LookupError("some records are not among the stored rows")
    return values[at]
