"""The lifecycle of an imported list: ``pending`` while stored, ``done`` once linked,
deleted with everything that refers to its records.

An import is all or nothing: its records are written (``pending``, invisible to every
read) and then linked; when it fails, is cancelled, or the process dies in between,
the pending import is deleted — at once, or by :func:`discard_unfinished_imports`
the next time the project is opened for writing.
"""

from __future__ import annotations

import sqlite_utils

from litqeval_gui.core.projectfile.changes import IMPORTED, NOTHING, Changes
from litqeval_gui.core.projectfile.writes import immediate


def discard_unfinished_imports(db: sqlite_utils.Database) -> list[str]:
    """Delete imports a crash left ``pending``; return their names."""
    pending = db.execute("SELECT id, name FROM imports WHERE state = 'pending'").fetchall()
    for import_id, _ in pending:
        with immediate(db):
            delete_import(db, import_id)
    return [name for _, name in pending]


def delete_import(db: sqlite_utils.Database, import_id: int) -> Changes:
    """Remove one import; its records and their links go with it (the schema cascades).

    A topic left without imports goes too (topics come into being by importing).
    """
    row = db.execute("SELECT state FROM imports WHERE id = ?", [import_id]).fetchone()
    db.execute("DELETE FROM imports WHERE id = ?", [import_id])
    db.execute("DELETE FROM topics WHERE id NOT IN (SELECT topic_id FROM imports)")
    return IMPORTED if row and row[0] == "done" else NOTHING
