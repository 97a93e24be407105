"""Stored evaluation outcomes: per result list and method, the :class:`Outcome`, the
relevant mask over the list's rows (``numpy.packbits``) and the *key* — a digest of the
rows, the embedding set, the map and the method's own parameters it came from. A
stored outcome is used only when its key matches; one per list and method is kept."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import numpy as np
import sqlite_utils
from numpy.typing import NDArray

from litqeval_gui.core.evaluation.methods import Outcome
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now


def outcome_key(**inputs: object) -> str:
    """Digest of everything an outcome depends on (JSON of ``inputs``, keys sorted)."""
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:24]


def load_outcome(db: sqlite_utils.Database, list_id: int, method: str, key: str,
                 n_rows: int) -> tuple[Outcome, NDArray[np.bool_]] | None:
    """The stored outcome of ``method`` on list ``list_id`` when its key is ``key``."""
    row = db.execute("SELECT outcome, relevant FROM evaluation_results WHERE list_id = ? "
                     "AND method = ? AND key = ?", [list_id, method, key]).fetchone()
    if row is None:
        return None
    bits = np.frombuffer(row[1] or b"", dtype=np.uint8)
    return Outcome.from_json(json.loads(row[0])), np.unpackbits(bits, count=n_rows).astype(bool)


def store_outcomes(project: Project,
                   rows: Sequence[tuple[int, str, str, Outcome, NDArray[np.bool_]]]) -> Changes:
    """Store (list id, method, key, outcome, relevant mask) rows in one write."""
    values = [(list_id, method, key, json.dumps(outcome.as_json()),
               np.packbits(relevant).tobytes(), now())
              for list_id, method, key, outcome, relevant in rows]

    def op(p: Project) -> Changes:
        p.db.conn.executemany(
            "INSERT OR REPLACE INTO evaluation_results (list_id, method, key, outcome, "
            "relevant, created) VALUES (?, ?, ?, ?, ?, ?)", values)
        return Changes(evaluation=True)

    return project.write(op) if values else Changes()
