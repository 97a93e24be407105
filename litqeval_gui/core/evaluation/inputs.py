"""The rows an evaluation works on, read from the project.

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


# CROSS JOIN fixes the order: from the import's records to their vectors, never a scan
# of every vector of the set
_CORE_SQL = """
SELECT r.work_id, MIN(r.id) FROM live_imports i CROSS JOIN records r CROSS JOIN vectors v
WHERE i.topic_id = ? AND i.role = 'core' AND r.import_id = i.id
  AND v.set_id = ? AND v.record_id = r.id AND v.data IS NOT NULL
GROUP BY r.work_id ORDER BY r.work_id
"""
_LIST_SQL = """
SELECT r.work_id, MIN(r.id) FROM live_records r CROSS JOIN vectors v
WHERE r.import_id = ? AND v.set_id = ? AND v.record_id = r.id AND v.data IS NOT NULL
GROUP BY r.work_id ORDER BY r.work_id
"""


def _rows(db: sqlite_utils.Database, sql: str, params: list, core: set[int]) -> Rows:
    pairs = np.array(db.execute(sql, params).fetchall(), dtype=np.int64).reshape(-1, 2)
    works = np.ascontiguousarray(pairs[:, 0])
    core_ids = np.fromiter(core, np.int64, len(core))
    return Rows(works, np.ascontiguousarray(pairs[:, 1]), np.isin(works, core_ids))


def core_rows(db: sqlite_utils.Database, topic_id: int, set_id: int, core: set[int]) -> Rows:
    """E_C's rows: core works with a vector (``core`` = every core work id)."""
    return _rows(db, _CORE_SQL, [topic_id, set_id], core)


def list_rows(db: sqlite_utils.Database, list_id: int, set_id: int, core: set[int]) -> Rows:
    """R's rows for one result list."""
    return _rows(db, _LIST_SQL, [list_id, set_id], core)


def take(ids: NDArray[np.int64], values: NDArray, wanted: NDArray[np.int64]) -> NDArray:
    """Rows of ``values`` (one per sorted ``ids``) for the ids ``wanted``; every wanted
    id must be present (a map fitted before the record came is stale: refit it first)."""
    at = np.searchsorted(ids, wanted)
    if wanted.size and (at.max() >= ids.size or not np.array_equal(ids[at], wanted)):
        raise LookupError("some records are not among the stored rows")
    return values[at]
