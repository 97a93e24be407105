"""A consistent copy of a project file, safe while the project is open and being written.

A plain file copy of an open project misses what its ``-wal`` file still holds: every
change since the last checkpoint. :func:`copy_project` copies through SQLite's online
backup API instead, in one step that reads one snapshot of the committed data whatever
another connection or process writes meanwhile (a step-by-step backup would start over
after each such write). The copy is one self-contained file (journal mode DELETE, no
``-wal`` beside it) that keeps the ``created`` stamp and the screenings' ``uuid``: it is a
copy of the same project, so the decisions a colleague makes on it merge back
(:mod:`~litqeval_gui.core.screening.reviewers.exchange`). Its target is refused as an export's is
(:func:`~litqeval_gui.core.records.exporting.check_target`) and written whole
(:func:`~litqeval_gui.core.records.exporting.write_whole`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from litqeval_gui.core.errors import LitqError, database_reason
from litqeval_gui.core.projectfile.changes import NOTHING
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.exporting import check_target, write_whole

_JOURNALS = ("-wal", "-journal")  # what SQLite would replay into a file of that name


def copy_project(source: Project | str | Path, target: str | Path) -> Path:
    """Write a consistent copy of ``source`` (an open project, or a project file, opened
    read-only for the copy) to ``target``; returns ``target``. An open project that writes
    through a write path (the app's) first waits for the ops queued on it, so the copy holds
    every change handed over before the call. A refused target, a missing folder or a full
    disk raises one :class:`LitqError` line and leaves nothing behind."""
    target = Path(target)
    _check(target, source.path if isinstance(source, Project) else Path(source))
    if isinstance(source, Project):
        return _copy(source, target)
    with Project.open(source, readonly=True) as project:
        return _copy(project, target)


def _check(target: Path, project: Path) -> None:
    """Refuse a target an export may not overwrite and one with a journal left beside it
    (SQLite would replay it into the copy)."""
    check_target(target, project)
    for suffix in _JOURNALS:
        journal = Path(f"{target}{suffix}")
        if journal.exists():
            raise LitqError(f"{target}: {journal.name} beside it belongs to another database; "
                            "remove it or choose another file name")


def _copy(project: Project, target: Path) -> Path:
    if project.writes is not None:
        project.write(lambda p: NOTHING)  # the ops queued before have committed

    def write(partial: Path) -> None:
        partial.open("xb").close()  # a folder we may not write says so as an OSError
        try:
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                project.db.conn.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # the header said WAL
            finally:
                copy.close()
        except sqlite3.Error as err:
            reason = database_reason(err, partial) or f"database error: {err}"
            raise LitqError(f"{target}: cannot write the copy ({reason}); nothing was "
                            "written") from None
        finally:
            for suffix in (*_JOURNALS, "-shm"):
                Path(f"{partial}{suffix}").unlink(missing_ok=True)

    return write_whole(target, write, "the copy")
