"""Paging over a list's records for the records view (Qt-free).

:class:`ListBrowser` loads the ordered ids of the rows that pass the filter once
(a few MB for 100 000 rows) and fetches the visible page by id, so scrolling to
row 99 999 costs the same as row 0 and no row objects are built for unseen rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from litqeval_gui.core import works
from litqeval_gui.core.project import Project
from litqeval_gui.core.records import Record
from litqeval_gui.core.storage import SELECT_CONTENT, record_from_row


@dataclass(frozen=True)
class RecordFilter:
    """Rows whose title or abstract contains ``text`` (case-insensitive) within a year range."""

    text: str = ""
    year_min: int | None = None
    year_max: int | None = None

    def sql(self) -> tuple[str, list[object]]:
        clauses, params = [], []
        if self.text.strip():
            clauses.append("(r.title LIKE ? ESCAPE '\\' OR r.abstract LIKE ? ESCAPE '\\')")
            like = "%" + self.text.strip().replace("\\", "\\\\").replace("%", "\\%") \
                .replace("_", "\\_") + "%"
            params += [like, like]
        if self.year_min is not None:
            clauses.append("r.year >= ?")
            params.append(self.year_min)
        if self.year_max is not None:
            clauses.append("r.year <= ?")
            params.append(self.year_max)
        return "".join(f" AND {c}" for c in clauses), params


@dataclass(frozen=True)
class RowSummary:
    """One row of the records table."""

    id: int
    rank: int
    title: str
    year: int | None
    venue: str
    doi: str
    core: bool  # its work is in the topic's core set
    group: int  # work id (duplicate group)
    group_size: int  # records of the topic in that work


class ListBrowser:
    """Rows of one list (``import_id``) passing ``filter``, in rank order."""

    def __init__(self, project: Project, import_id: int,
                 record_filter: RecordFilter | None = None) -> None:
        self.project = project
        self.import_id = import_id
        self.filter = record_filter or RecordFilter()
        where, params = self.filter.sql()
        db = project.db
        live = db.execute("SELECT topic_id FROM live_imports WHERE id = ?", [import_id]).fetchone()
        self.topic_id = int(live[0]) if live else None
        self.ids = [row[0] for row in db.execute(  # a live list: all its records are live
            f"SELECT r.id FROM records r WHERE r.import_id = ?{where} ORDER BY r.rank, r.id",
            [import_id, *params])] if live else []
        self._core = works.core_works(db, self.topic_id)

    def works_changed(self) -> None:
        """Records were grouped anew: re-read the core works (the rows stay the same)."""
        self._core = works.core_works(self.project.db, self.topic_id)

    def __len__(self) -> int:
        return len(self.ids)

    def records(self, chunk: int = 500) -> Iterator[Record]:
        """The full records of the rows, in row order (for an export), ``chunk`` at a time."""
        for start in range(0, len(self.ids), chunk):
            page = self.ids[start:start + chunk]
            found = {row[0]: row[1:] for row in self.project.db.execute(
                f"SELECT id, {SELECT_CONTENT} FROM records "
                f"WHERE id IN ({','.join('?' * len(page))})", page)}
            yield from (record_from_row(found[i]) for i in page)

    def rows(self, offset: int, limit: int) -> list[RowSummary]:
        """Rows ``offset`` … ``offset+limit-1`` (clipped to the end)."""
        page = self.ids[max(0, offset):max(0, offset) + max(0, limit)]
        if not page:
            return []
        marks = ",".join("?" * len(page))
        found = {row[0]: row for row in self.project.db.execute(
            f"SELECT r.id, r.rank, r.title, r.year, r.venue, COALESCE(r.doi, ''), r.work_id, "
            f"(SELECT COUNT(*) FROM live_records g WHERE g.topic_id = r.topic_id "
            f"AND g.work_id = r.work_id) FROM records r WHERE r.id IN ({marks})", page)}
        return [
            RowSummary(id=i, rank=found[i][1], title=found[i][2] or "", year=found[i][3],
                       venue=found[i][4] or "", doi=found[i][5], core=found[i][6] in self._core,
                       group=found[i][6], group_size=found[i][7])
            for i in page
        ]


@dataclass(frozen=True)
class Occurrence:
    """Where a work appears: a list, the record's rank there and its source line."""

    record_id: int
    list_name: str
    role: str
    file_name: str
    database: str
    rank: int
    source_line: int | None


@dataclass(frozen=True)
class RecordDetail:
    """A stored record with its work, provenance and links."""

    id: int
    work_id: int
    record: Record
    occurrences: list[Occurrence] = field(default_factory=list)  # every record of its work
    links: list[tuple[int, str, float, str]] = field(default_factory=list)
    # (other record id, method, score, status)


def record_detail(project: Project, record_id: int) -> RecordDetail:
    """The full record with its provenance (all records of its work) and its links."""
    db = project.db
    row = db.execute(f"SELECT id, work_id, topic_id, {SELECT_CONTENT} FROM records WHERE id = ?",
                     [record_id]).fetchone()
    if row is None:
        raise KeyError(record_id)
    work_id, topic_id = row[1], row[2]
    occurrences = [Occurrence(*r) for r in db.execute(
        "SELECT r.id, i.name, i.role, i.file_name, COALESCE(i.database, ''), r.rank, "
        "r.source_line FROM live_records r JOIN imports i ON i.id = r.import_id "
        "WHERE r.topic_id = ? AND r.work_id = ? ORDER BY i.id, r.rank", [topic_id, work_id])]
    links = [tuple(r) for r in db.execute(
        "SELECT CASE WHEN a = ? THEN b ELSE a END, method, score, status FROM links "
        "WHERE a = ? OR b = ? ORDER BY score DESC", [record_id] * 3)]
    return RecordDetail(id=record_id, work_id=work_id, record=record_from_row(row[3:]),
                        occurrences=occurrences, links=links)


def year_span(project: Project, import_id: int) -> tuple[int, int] | None:
    """(earliest, latest) publication year of one list's records; None when none has one."""
    low, high = project.db.execute(
        "SELECT MIN(year), MAX(year) FROM records WHERE import_id = ? AND year IS NOT NULL",
        [import_id]).fetchone()
    return None if low is None else (int(low), int(high))
