"""De-duplicated works: which records of a topic are the same publication.

A record's ``work_id`` is the smallest record id of its group; groups join the
topic's certain links (``auto`` and ``confirmed``) but never the two records of a
``rejected`` one, nor (without the user's confirmation) two different DOIs (see
:func:`~litqeval_gui.core.records.linkage.group`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import sqlite_utils

from litqeval_gui.core.projectfile.stored import read_json
from litqeval_gui.core.records.linkage import (
    SHORT_TITLE_CHARS,
    USER,
    Link,
    LinkItem,
    abstract_key,
    group,
)

# the abstract is read only where the linker needs it: for short titles
_ITEM_COLUMNS = ("id, title_norm, year, doi, pmid, ids, CASE WHEN length(title_norm) < "
                 f"{SHORT_TITLE_CHARS} THEN abstract END")


def link_items(db: sqlite_utils.Database, topic_id: int, *, exclude_import: int | None = None,
               only_import: int | None = None) -> list[LinkItem]:
    """The linker's view of a topic's records: the live ones (all, or all but one import),
    or those of one import (pending while it is linked)."""
    if only_import is not None:
        rows = db.execute(f"SELECT {_ITEM_COLUMNS} FROM records "
                          "WHERE import_id = ? ORDER BY id", [only_import])
    else:
        rows = db.execute(f"SELECT {_ITEM_COLUMNS} FROM live_records "
                          "WHERE topic_id = ? AND import_id IS NOT ? ORDER BY id",
                          [topic_id, exclude_import])
    return items_of(rows)


def items_of(rows: Iterable[tuple]) -> list[LinkItem]:
    """The :class:`LinkItem` of each row selected as :func:`link_items` selects them (id,
    title_norm, year, doi, pmid, ids, the abstract of a short title), e.g. those a
    :class:`~litqeval_gui.core.records.rows.RowWriter` kept."""
    return [_item(*row) for row in rows]


def _item(key: int, title: str | None, year: int | None, doi: str | None, pmid: str | None,
          ids: str | None, abstract: str | None) -> LinkItem:
    pairs: tuple[tuple[str, str], ...] = (("doi", doi),) if doi else ()
    if pmid:
        pairs += (("pmid", pmid),)
    if ids:
        pairs += tuple(read_json(ids, f"the stored record {key}", dict, part="ids").items())
    title = title or ""
    return LinkItem(key, title, year, pairs, abstract_key(title, abstract) if abstract else "")


def abstract_reader(db: sqlite_utils.Database) -> Callable[[list[int]], dict[int, str]]:
    """The linker's ``abstracts`` reader: record id -> abstract of the ids asked (those
    without one left out), read a few hundred at a time."""
    def read(keys: list[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        for start in range(0, len(keys), _READ_CHUNK):
            some = keys[start:start + _READ_CHUNK]
            found.update(db.execute(
                f"SELECT id, abstract FROM records WHERE id IN ({','.join('?' * len(some))}) "
                "AND abstract IS NOT NULL", some).fetchall())
        return found
    return read


_READ_CHUNK = 500  # ids in one query (below SQLite's parameter limit)


def regroup(db: sqlite_utils.Database, topic_id: int) -> None:
    """Recompute ``work_id`` for a topic from its links and the user's verdicts.

    A rejection always holds; where the user's confirmations contradict one (x ≠ y,
    yet x = z and z = y), the more recent confirmation joins first and wins.
    """
    apply_regroup(db, plan_regroup(db, topic_id))


def apply_regroup(db: sqlite_utils.Database, changed: Iterable[tuple[int, int]]) -> None:
    """Write the (work id, record id) pairs of :func:`plan_regroup`."""
    db.conn.executemany("UPDATE records SET work_id = ? WHERE id = ?", changed)


def plan_regroup(db: sqlite_utils.Database, topic_id: int,
                 pending_import: int | None = None) -> list[tuple[int, int]]:
    """What :func:`regroup` would change, as (work id, record id) pairs, read without
    writing; ``pending_import``'s records count as live (an import about to be done).

    Only the records some link that groups (``auto``, ``confirmed``, ``rejected``) names
    and those not their own work are read: every other record is its own work, so it
    changes only if it is not (a read in SQLite, not 100 000 rows in Python)."""
    current: dict[int, int] = {}
    dois: dict[int, str] = {}
    for key, work, doi in db.execute(
            "WITH linked(id) AS (SELECT a FROM links WHERE topic_id = :topic AND status IN "
            f"{_GROUPING} UNION SELECT b FROM links WHERE topic_id = :topic AND status IN "
            f"{_GROUPING}) "
            "SELECT id, work_id, doi FROM live_records WHERE topic_id = :topic "
            "AND (work_id IS NOT id OR id IN linked) UNION ALL "
            "SELECT id, work_id, doi FROM records WHERE import_id = :pending "
            "AND (work_id IS NOT id OR id IN linked)",
            {"topic": topic_id, "pending": pending_import}):
        current[key] = work
        if doi:
            dois[key] = doi
    links = [
        Link(a=a, b=b, method=method if status == "auto" else USER, score=score or 0.0,
             certain=status != "rejected")
        for a, b, method, score, status in db.execute(
            "SELECT a, b, method, score, status FROM links WHERE topic_id = ? "
            f"AND status IN {_GROUPING} "
            "ORDER BY decided_at DESC, a, b", [topic_id],  # newest verdicts first
        )
        if a in current and b in current  # not the links of an import still pending
    ]
    groups = group(current.keys(), links, dois)
    return [(work, key) for key, work in groups.items() if current[key] != work]


_GROUPING = "('auto', 'confirmed', 'rejected')"  # the links' statuses that group works


def merge(db: sqlite_utils.Database, topic_id: int, a: int, b: int) -> None:
    """Join the works of records ``a`` and ``b`` after the user confirmed a–b.

    The newest confirmation joins first in :func:`regroup`, so joining the two works
    (the smaller id stays) is exactly what regroup would give, without reading the
    topic, unless a rejection lies between them: then the topic is regrouped.
    """
    wa, wb = (db.execute("SELECT work_id FROM records WHERE id = ?", [key]).fetchone()[0]
              for key in (a, b))
    if wa == wb:
        return
    if db.execute(
        "SELECT 1 FROM links l JOIN records x ON x.id = l.a JOIN records y ON y.id = l.b "
        "WHERE l.topic_id = ? AND l.status = 'rejected' AND x.work_id IN (?, ?) "
        "AND y.work_id IN (?, ?) AND x.work_id != y.work_id LIMIT 1",
        [topic_id, wa, wb, wa, wb],
    ).fetchone():
        regroup(db, topic_id)
    else:
        db.execute("UPDATE records SET work_id = ? WHERE topic_id = ? AND work_id = ?",
                   [min(wa, wb), topic_id, max(wa, wb)])


def core_works(db: sqlite_utils.Database, topic_id: int) -> set[int]:
    """Work ids of the topic's core set (all core imports)."""
    return _works(db, "i.topic_id = ? AND i.role = 'core'", [topic_id])


def results_works(db: sqlite_utils.Database, topic_id: int) -> set[int]:
    """Work ids found in any result list of the topic."""
    return _works(db, "i.topic_id = ? AND i.role = 'results'", [topic_id])


def list_works(db: sqlite_utils.Database, import_id: int) -> set[int]:
    """Distinct work ids of one imported list."""
    return _works(db, "i.id = ?", [import_id])


def _works(db: sqlite_utils.Database, where: str, params: Iterable[object]) -> set[int]:
    sql = ("SELECT DISTINCT r.work_id FROM live_records r JOIN imports i ON r.import_id = i.id "
           f"WHERE {where}")
    return {row[0] for row in db.execute(sql, list(params))}
