"""Stored evaluation outcomes: per result list and method, the :class:`Outcome`, the
relevant mask over the list's rows (``numpy.packbits``) and the *key* — a digest of the
rows, the embedding set, the map and the method's own parameters it came from. A
stored outcome is used only when its key matches; one per list and method is kept."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence

import numpy as np
import sqlite_utils
from numpy.typing import NDArray

from litqeval_gui.core.evaluation.methods import Outcome
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import (
    FLOAT_LIMIT,
    DamagedDataError,
    check_number,
    read_bits,
    read_json,
    topic_label,
)


def outcome_key(**inputs: object) -> str:
    """Digest of everything an outcome depends on (JSON of ``inputs``, keys sorted)."""
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:24]


def load_outcome(db: sqlite_utils.Database, list_id: int, method: str, key: str,
                 n_rows: int) -> tuple[Outcome, NDArray[np.bool_]] | None:
    """The stored outcome of ``method`` on list ``list_id`` (of ``n_rows`` rows) when its
    key is ``key``; a damaged one raises ``DamagedDataError`` naming topic, list and
    method (the caller may compute it again)."""
    row = db.execute("SELECT outcome, relevant FROM evaluation_results WHERE list_id = ? "
                     "AND method = ? AND key = ?", [list_id, method, key]).fetchone()
    if row is None:
        return None
    what = _label(db, list_id, method)
    relevant = read_bits(row[1] or b"", n_rows, what, "relevant mask")
    return _outcome(read_json(row[0], what, dict), method, n_rows, what), relevant


def _label(db: sqlite_utils.Database, list_id: int, method: str) -> str:
    row = db.execute("SELECT i.name, i.topic_id FROM imports i WHERE i.id = ?",
                     [list_id]).fetchone()
    name, topic_id = row if row else (f"#{list_id}", 0)
    return f"{topic_label(db, topic_id)}: the stored {method} result of list {name!r}"


def _outcome(data: dict, method: str, n_rows: int, what: str) -> Outcome:
    """The :class:`Outcome` of the stored JSON ``data``, every field checked."""
    try:
        if data["method"] != method:
            raise DamagedDataError(what, f"it says method {data['method']!r}")
        retrieved = int(check_number(data["n_retrieved"], what, 0, n_rows, integer=True,
                                     part="retrieved count"))
        relevant = int(check_number(data["n_relevant"], what, 0, retrieved, integer=True,
                                    part="relevant count"))
        precision = float(check_number(data["precision"], what, 0, 1, part="precision"))
        recall = float(check_number(data["recall"], what, 0, 1, part="recall"))
        if not isinstance(data["defined"], bool) or not isinstance(data["reason"],
                                                                    str | None):
            raise DamagedDataError(what, "its 'defined' or 'reason' has the wrong type")
        detail = data["detail"]
        if not isinstance(detail, dict):
            raise DamagedDataError(what, "its detail is not a JSON object")
        for name, (shape, low, high) in _DETAIL.items():
            if detail.get(name) is not None:
                _numbers(detail[name], what, name, shape, low, high)
        loo = tuple((int(check_number(n, what, 0, retrieved, integer=True,
                                      part="leave-one-out count")),
                     float(check_number(p, what, 0, 1, part="leave-one-out precision")),
                     float(check_number(r, what, 0, 1, part="leave-one-out recall")))
                    for n, p, r in data["loo"])
    except (KeyError, TypeError, ValueError):  # a field missing, a list of the wrong length
        raise DamagedDataError(what, "its fields are missing or malformed") from None
    return Outcome(method, relevant, retrieved, precision, recall, data["defined"],
                   data["reason"], detail, loo)


# detail entries a reader uses: (shape, least, greatest); None = any length on that axis
_DETAIL: dict[str, tuple[tuple[int | None, ...], float, float]] = {
    "theta": ((), -1.0, 1.0), "k": ((), 0, 2**31), "tol": ((), 0.0, math.inf),
    "centre": ((2,), -FLOAT_LIMIT, FLOAT_LIMIT), "matrix": ((2, 2), -FLOAT_LIMIT, FLOAT_LIMIT),
    "polygon": ((None, 2), -FLOAT_LIMIT, FLOAT_LIMIT)}


def _numbers(value: object, what: str, part: str, shape: tuple[int | None, ...], low: float,
             high: float) -> None:
    """``value`` is a number (``shape`` ()) or nested lists of ``shape``, each in range."""
    if not shape:
        check_number(value, what, low, high, part=part)
        return
    if not isinstance(value, list) or (shape[0] is not None and len(value) != shape[0]):
        raise DamagedDataError(what, "not a list of the expected length", part)
    for item in value:
        _numbers(item, what, part, shape[1:], low, high)


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
