"""The core records a result list missed: one stored core record per core work the
list does not contain (the first imported), ordered by title — for an export."""

from __future__ import annotations

from litqeval_gui.core import works
from litqeval_gui.core.project import Project
from litqeval_gui.core.records import Record
from litqeval_gui.core.storage import SELECT_CONTENT, record_from_row


def missed_core_records(project: Project, list_id: int) -> list[Record]:
    """Core records of the works of list ``list_id``'s topic that the list misses."""
    db = project.db
    (topic_id,) = db.execute("SELECT topic_id FROM imports WHERE id = ?", [list_id]).fetchone()
    missed = sorted(works.core_works(db, topic_id) - works.list_works(db, list_id))
    if not missed:
        return []
    marks = ",".join("?" * len(missed))
    rows = db.execute(
        f"SELECT MIN(r.id), {SELECT_CONTENT} FROM live_records r "  # MIN(): its row's columns
        f"JOIN imports i ON r.import_id = i.id WHERE i.topic_id = ? AND i.role = 'core' "
        f"AND r.work_id IN ({marks}) GROUP BY r.work_id ORDER BY r.title, MIN(r.id)",
        [topic_id, *missed])
    return [record_from_row(row[1:]) for row in rows]
