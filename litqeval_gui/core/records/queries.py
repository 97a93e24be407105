"""Read-side queries over a project's records (Qt-free): topics, lists and their
counts (the CLI's ``info``/``lists``, the GUI's topic sidebar); paging over a list's
records for the records view; the core records a result list missed.

:class:`ListBrowser` loads the ordered ids of the rows that pass the filter once
(a few MB for 100 000 rows) and fetches the visible page by id, so scrolling to
row 99 999 costs the same as row 0 and no row objects are built for unseen rows.
:func:`missed_core_records` gives one stored core record per core work the list does
not contain (the first imported), ordered by title — for an export.

Every query that builds :class:`~litqeval_gui.core.records.model.Record` objects selects
:data:`~litqeval_gui.core.records.rows.SELECT_CONTENT`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field

from litqeval_gui.core.errors import ProjectError, find_named
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import collection, works
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.rows import SELECT_CONTENT, record_from_row

# --------------------------------------------------------------------------- topics and lists

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



def records_by_id(project: Project, record_ids: Iterable[int]) -> dict[int, Record]:
    """The stored records with these ids, by id (an id that is not stored is absent)."""
    ids = list(record_ids)
    found: dict[int, Record] = {}
    for start in range(0, len(ids), 20_000):  # below SQLite's limit of bound values
        part = ids[start:start + 20_000]
        found.update((row[0], record_from_row(row[1:])) for row in project.db.execute(
            f"SELECT id, {SELECT_CONTENT} FROM records "
            f"WHERE id IN ({','.join('?' * len(part))})", part))
    return found

# --------------------------------------------------------------------------- paging a list

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
    text_from: Occurrence | None = None  # the record of its work whose text it shows


def record_detail(project: Project, record_id: int) -> RecordDetail:
    """The full record with its provenance (all records of its work) and its links; a
    record without title and abstract shows its work's text
    (:func:`~litqeval_gui.core.records.collection.text_sources`)."""
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
    record, text_from = record_from_row(row[3:]), None
    source = collection.text_sources(db, [record_id]).get(record_id)
    if source is not None:
        (content,) = db.execute(f"SELECT {SELECT_CONTENT} FROM records WHERE id = ?", [source])
        record = collection.with_text(record, record_from_row(content))
        text_from = next(o for o in occurrences if o.record_id == source)
    return RecordDetail(id=record_id, work_id=work_id, record=record,
                        occurrences=occurrences, links=links, text_from=text_from)


def year_span(project: Project, import_id: int) -> tuple[int, int] | None:
    """(earliest, latest) publication year of one list's records; None when none has one."""
    low, high = project.db.execute(
        "SELECT MIN(year), MAX(year) FROM records WHERE import_id = ? AND year IS NOT NULL",
        [import_id]).fetchone()
    return None if low is None else (int(low), int(high))


# --------------------------------------------------------------------------- missed core records

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
