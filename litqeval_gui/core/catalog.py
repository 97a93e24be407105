"""Read-side queries over a project: topics, lists and their counts.

The CLI's ``info``/``lists`` and the GUI's topic sidebar both call these.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

from litqeval_gui.core.errors import ProjectError, find_named
from litqeval_gui.core.project import Project
from litqeval_gui.core.records import Record
from litqeval_gui.core.storage import SELECT_CONTENT, record_from_row


@dataclass(frozen=True)
class ListInfo:
    """One imported list. ``size`` = distinct works; ``records`` = entries stored;
    ``matched`` = for a result list, the core works it contains now; for a core list,
    its works found in some result list now (both counted live). ``read``, ``new``,
    ``duplicate`` and ``rejected`` are the numbers of its import, as reported then."""

    id: int
    topic: str
    name: str
    role: str
    file_name: str
    format: str
    database: str
    query: str
    created: str
    size: int
    records: int
    read: int
    new: int
    duplicate: int
    matched: int
    rejected: int

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class TopicInfo:
    id: int
    name: str
    core: int  # distinct core works
    lists: int  # result lists
    records: int  # stored entries of every list
    works: int  # distinct works of the topic

    def as_dict(self) -> dict:
        return asdict(self)


_LIST_SQL = """
SELECT i.id, t.name, i.name, i.role, COALESCE(i.file_name, ''), COALESCE(i.format, ''),
       COALESCE(i.database, ''), COALESCE(i.query, ''), COALESCE(i.created, ''),
       (SELECT COUNT(DISTINCT r.work_id) FROM records r WHERE r.import_id = i.id),
       (SELECT COUNT(*) FROM records r WHERE r.import_id = i.id),
       COALESCE(i.n_read, 0), COALESCE(i.n_new, 0), COALESCE(i.n_duplicate, 0),
       CASE i.role  -- both walk the (small) core set, looking works up by index
         WHEN 'results' THEN (
           SELECT COUNT(DISTINCT c.work_id) FROM live_records c JOIN imports ci
             ON ci.id = c.import_id WHERE ci.topic_id = i.topic_id AND ci.role = 'core'
             AND EXISTS (SELECT 1 FROM records r WHERE r.topic_id = i.topic_id
                         AND r.work_id = c.work_id AND r.import_id = i.id))
         WHEN 'core' THEN (
           SELECT COUNT(DISTINCT c.work_id) FROM records c WHERE c.import_id = i.id
             AND EXISTS (SELECT 1 FROM live_records r JOIN imports ri ON ri.id = r.import_id
                         WHERE r.topic_id = i.topic_id AND r.work_id = c.work_id
                         AND ri.role = 'results'))
         ELSE 0 END,
       COALESCE(i.n_rejected, 0)
FROM live_imports i JOIN topics t ON t.id = i.topic_id
WHERE 1 {where}
ORDER BY t.name, CASE i.role WHEN 'core' THEN 0 WHEN 'results' THEN 1 ELSE 2 END, i.id
"""


def lists(project: Project, topic: str | None = None) -> list[ListInfo]:
    """Every imported list, core first, optionally of one topic."""
    if topic is None:
        rows = project.db.execute(_LIST_SQL.format(where=""))
    else:
        topic_id = project.topic_id(topic)
        rows = project.db.execute(_LIST_SQL.format(where="AND i.topic_id = ?"), [topic_id])
    return [ListInfo(*row) for row in rows]


def list_info(project: Project, list_id: int) -> ListInfo | None:
    """The live list with id ``list_id``, or None when there is none (deleted)."""
    rows = project.db.execute(_LIST_SQL.format(where="AND i.id = ?"), [list_id]).fetchall()
    return ListInfo(*rows[0]) if rows else None


def find_list(project: Project, topic: str, name: str) -> ListInfo:
    """The list ``name`` of ``topic``; a clear error names the lists that exist."""
    return find_named(lists(project, topic), name, topic, "list", "lists", ProjectError)


_CORE_WORKS = ("SELECT COUNT(DISTINCT r.work_id) FROM live_records r JOIN imports i "
               "ON r.import_id = i.id WHERE i.topic_id = {topic} AND i.role = 'core'")
_WORKS = "SELECT COUNT(DISTINCT r.work_id) FROM live_records r WHERE r.topic_id = {topic}"


def topics(project: Project) -> list[TopicInfo]:
    """Every topic with its counts, by name."""
    rows = project.db.execute(f"""
        SELECT t.id, t.name, ({_CORE_WORKS.format(topic="t.id")}),
          (SELECT COUNT(*) FROM live_imports i WHERE i.topic_id = t.id AND i.role = 'results'),
          (SELECT COUNT(*) FROM live_records r WHERE r.topic_id = t.id),
          ({_WORKS.format(topic="t.id")})
        FROM topics t ORDER BY t.name""")
    return [TopicInfo(*row) for row in rows]


def core_size(project: Project, topic_id: int) -> int:
    """Distinct works of the topic's core set (cheap: core sets are small)."""
    return int(project.db.execute(_CORE_WORKS.format(topic="?"), [topic_id]).fetchone()[0])


def work_count(project: Project, topic_id: int) -> int:
    """Distinct works of the topic (a scan of its records)."""
    return int(project.db.execute(_WORKS.format(topic="?"), [topic_id]).fetchone()[0])


def project_info(project: Project) -> dict:
    """Summary of the project file for ``litqeval info``."""
    db = project.db
    return {
        "path": str(project.path),
        "schema_version": int(db.execute("PRAGMA user_version").fetchone()[0]),
        "app_version": project.meta("app_version"),
        "created": project.meta("created"),
        "size_bytes": project.path.stat().st_size,
        "records": db.execute("SELECT COUNT(*) FROM live_records").fetchone()[0],
        "imports": db.execute("SELECT COUNT(*) FROM live_imports").fetchone()[0],
        "topics": [t.as_dict() for t in topics(project)],
    }


def list_records(project: Project, list_id: int) -> Iterator[Record]:
    """The stored entries of one list as :class:`Record` objects, in rank order."""
    rows = project.db.execute(
        f"SELECT {SELECT_CONTENT} FROM live_records WHERE import_id = ? ORDER BY rank, id",
        [list_id])
    return (record_from_row(row) for row in rows)
