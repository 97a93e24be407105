"""Small read queries the GUI's views need beyond :mod:`catalog` and :mod:`browse` (Qt-free)."""

from __future__ import annotations

from litqeval_gui.core.project import Project


def year_span(project: Project, import_id: int) -> tuple[int, int] | None:
    """(earliest, latest) publication year of one list's records; None when no record has one."""
    low, high = project.db.execute(
        "SELECT MIN(year), MAX(year) FROM records WHERE import_id = ? AND year IS NOT NULL",
        [import_id]).fetchone()
    return None if low is None else (int(low), int(high))
