"""Read-side queries over a project: topics, lists and their counts.

The CLI's ``info``/``lists`` and the GUI's topic sidebar both call these.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.project import Project
from litqeval_gui.core.records import Record
from litqeval_gui.core.storage import unpack_raw


@dataclass(frozen=True)
class ListInfo:
    """One imported list. ``size`` = distinct works; ``records`` = entries stored."""

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
SELECT i.id, t.name, i.name, i.role, i.file_name, i.format, i.database, i.query, i.created,
       (SELECT COUNT(DISTINCT r.work_id) FROM records r WHERE r.import_id = i.id),
       (SELECT COUNT(*) FROM records r WHERE r.import_id = i.id),
       i.n_read, i.n_new, i.n_duplicate, i.n_matched, i.n_rejected
FROM imports i JOIN topics t ON t.id = i.topic_id
WHERE i.state = 'done' {where}
ORDER BY t.name, CASE i.role WHEN 'core' THEN 0 WHEN 'results' THEN 1 ELSE 2 END, i.id
"""


def lists(project: Project, topic: str | None = None) -> list[ListInfo]:
    """Every imported list, core first, optionally of one topic."""
    if topic is None:
        rows = project.db.execute(_LIST_SQL.format(where=""))
    else:
        topic_id = project.topic_id(topic)
        rows = project.db.execute(_LIST_SQL.format(where="AND i.topic_id = ?"), [topic_id])
    return [ListInfo(*(v if v is not None else _blank(i) for i, v in enumerate(row)))
            for row in rows]


def _blank(column: int) -> object:
    return 0 if column >= 9 else ""


def find_list(project: Project, topic: str, name: str) -> ListInfo:
    """The list ``name`` of ``topic``; a clear error names the lists that exist."""
    found = lists(project, topic)
    for info in found:
        if info.name == name:
            return info
    names = ", ".join(repr(i.name) for i in found) or "none"
    raise ProjectError(f"topic {topic!r} has no list named {name!r} (lists: {names})")


def topics(project: Project) -> list[TopicInfo]:
    """Every topic with its counts, by name."""
    rows = project.db.execute("""
        SELECT t.id, t.name,
          (SELECT COUNT(DISTINCT r.work_id) FROM records r JOIN imports i ON r.import_id = i.id
             WHERE i.topic_id = t.id AND i.role = 'core' AND i.state = 'done'),
          (SELECT COUNT(*) FROM imports i
             WHERE i.topic_id = t.id AND i.role = 'results' AND i.state = 'done'),
          (SELECT COUNT(*) FROM records r JOIN imports i ON r.import_id = i.id
             WHERE i.topic_id = t.id AND i.state = 'done'),
          (SELECT COUNT(DISTINCT r.work_id) FROM records r JOIN imports i ON r.import_id = i.id
             WHERE i.topic_id = t.id AND i.state = 'done')
        FROM topics t ORDER BY t.name""")
    return [TopicInfo(*row) for row in rows]


def project_info(project: Project) -> dict:
    """Summary of the project file for ``litqeval info``."""
    db = project.db
    return {
        "path": str(project.path),
        "schema_version": int(db.execute("PRAGMA user_version").fetchone()[0]),
        "app_version": project.meta("app_version"),
        "created": project.meta("created"),
        "size_bytes": project.path.stat().st_size,
        "records": db.execute("SELECT COUNT(*) FROM records r JOIN imports i "
                              "ON r.import_id = i.id WHERE i.state = 'done'").fetchone()[0],
        "imports": db.execute("SELECT COUNT(*) FROM imports WHERE state = 'done'").fetchone()[0],
        "topics": [t.as_dict() for t in topics(project)],
    }


def list_records(project: Project, list_id: int) -> Iterator[Record]:
    """The stored entries of one list as :class:`Record` objects, in rank order."""
    rows = project.db.execute(
        "SELECT title, abstract, authors, year, venue, keywords, type, language, doi, pmid, "
        "ids, raw, rank, score, source_line FROM records WHERE import_id = ? ORDER BY rank, id",
        [list_id],
    )
    for (title, abstract, authors, year, venue, keywords, rtype, language, doi, pmid, ids, raw,
         rank, score, line) in rows:
        yield Record(
            title=title or "", abstract=abstract or "", authors=json.loads(authors or "[]"),
            year=year, venue=venue or "", keywords=json.loads(keywords or "[]"),
            type=rtype or "", language=language or "", doi=doi or "", pmid=pmid or "",
            ids=json.loads(ids or "{}"), raw=unpack_raw(raw, title or "", abstract or ""),
            rank=rank, score=score,
            source_line=line,
        )
