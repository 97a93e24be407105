"""How a record is stored: one ``records`` row per imported entry.

:func:`record_row` turns a :class:`Record` into the row's content columns
(:data:`CONTENT_COLUMNS`); :func:`insert_rows` adds the keys and writes them. The
parallel parser builds rows in a child process with the same function.

``raw`` keeps the original fields as JSON, except that a field whose value is exactly
the stored title or abstract is replaced by a reference (``"_copied": {"TI": "title"}``)
instead of storing the text twice; :func:`unpack_raw` puts it back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlite_utils

from litqeval_gui.core.records import Record, normalise_title

CONTENT_COLUMNS = ("rank", "score", "title", "title_norm", "abstract", "authors", "year",
                   "venue", "keywords", "type", "language", "doi", "pmid", "ids", "raw",
                   "source_line")
SELECT_CONTENT = ", ".join(CONTENT_COLUMNS)
_COPIED = "_copied"
_encode = json.JSONEncoder(ensure_ascii=False, default=str).encode


def pack_raw(raw: dict[str, Any], title: str, abstract: str) -> str:
    """JSON of ``raw`` with verbatim copies of the title/abstract stored as references."""
    kept: dict[str, Any] = {}
    copied: dict[str, str] = {}
    for key, value in raw.items():
        if title and value == title:
            copied[key] = "title"
        elif abstract and value == abstract:
            copied[key] = "abstract"
        else:
            kept[key] = value
    if copied:
        kept[_COPIED] = copied
    return _encode(kept)


def unpack_raw(text: str | None, title: str, abstract: str) -> dict[str, Any]:
    """The original fields, inverse of :func:`pack_raw`."""
    raw = json.loads(text or "{}")
    for key, column in raw.pop(_COPIED, {}).items():
        raw[key] = title if column == "title" else abstract
    return raw


def record_from_row(row: Sequence[Any]) -> Record:
    """The :class:`Record` of a row selected as :data:`CONTENT_COLUMNS` (inverse of
    :func:`record_row`; ``title_norm`` is derived and not kept)."""
    v = dict(zip(CONTENT_COLUMNS, row, strict=True))
    title, abstract = v["title"] or "", v["abstract"] or ""
    return Record(
        title=title, abstract=abstract, authors=json.loads(v["authors"] or "[]"),
        year=v["year"], venue=v["venue"] or "", keywords=json.loads(v["keywords"] or "[]"),
        type=v["type"] or "", language=v["language"] or "", doi=v["doi"] or "",
        pmid=v["pmid"] or "", ids=json.loads(v["ids"] or "{}"),
        raw=unpack_raw(v["raw"], title, abstract), rank=v["rank"], score=v["score"],
        source_line=v["source_line"],
    )


def record_row(rec: Record) -> tuple:
    """The values of :data:`CONTENT_COLUMNS` for ``rec``."""
    return (
        rec.rank, rec.score, rec.title, normalise_title(rec.title), rec.abstract,
        _encode(rec.authors), rec.year, rec.venue, _encode(rec.keywords), rec.type,
        rec.language, rec.doi or None, rec.pmid or None, _encode(rec.ids) if rec.ids else None,
        pack_raw(rec.raw, rec.title, rec.abstract), rec.source_line,
    )


_INSERT = (
    "INSERT INTO records (id, topic_id, import_id, work_id, "
    + SELECT_CONTENT + ") VALUES (" + ",".join("?" * (4 + len(CONTENT_COLUMNS)))
    + ")"
)


class RowWriter:
    """Writes content rows of one import with new ids (each record its own work until
    linked); use inside the import's transaction. ``count`` = rows written."""

    def __init__(self, db: sqlite_utils.Database, topic_id: int, import_id: int) -> None:
        self.db = db
        self.topic_id = topic_id
        self.import_id = import_id
        self.next_id = int(db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM records")
                           .fetchone()[0])
        self.count = 0

    def write(self, rows: Sequence[tuple], rank_offset: int = 0) -> None:
        """Write ``rows`` (ranks shifted by ``rank_offset``)."""
        first, tid, iid = self.next_id, self.topic_id, self.import_id
        self.db.conn.executemany(_INSERT, [
            (first + i, tid, iid, first + i, row[0] + rank_offset, *row[1:])
            for i, row in enumerate(rows)
        ])
        self.next_id += len(rows)
        self.count += len(rows)
