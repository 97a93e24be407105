"""How a record is stored: one ``records`` row per imported entry.

:func:`record_row` turns a :class:`Record` into the row's content columns
(:data:`CONTENT_COLUMNS`); :class:`RowWriter` adds the keys and writes them. The
parallel parser builds rows in a child process with the same function.

``raw`` keeps the original fields as JSON, except that a field whose value is exactly
that of a stored column (title, abstract, venue, type, language, authors, keywords) is
replaced by a reference (``"_copied": {"TI": "title", "AU": "authors"}``) instead of storing it
twice; :func:`unpack_raw` puts it back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from json.encoder import encode_basestring
from operator import itemgetter
from typing import Any

import sqlite_utils

from litqeval_gui.core.projectfile.stored import DamagedDataError, read_json, read_strings
from litqeval_gui.core.records.linkage import SHORT_TITLE_CHARS
from litqeval_gui.core.records.model import BIBLIO_FIELDS, Record, normalise_title

CONTENT_COLUMNS = ("rank", "score", "title", "title_norm", "abstract", "authors", "year",
                   "venue", "keywords", "type", "language", "doi", "pmid", "ids", "raw",
                   "source_line", *BIBLIO_FIELDS)
SELECT_CONTENT = ", ".join(CONTENT_COLUMNS)
_LINKED = itemgetter(*map(CONTENT_COLUMNS.index, ("title_norm", "year", "doi", "pmid", "ids")))
_TITLE_NORM, _ABSTRACT = CONTENT_COLUMNS.index("title_norm"), CONTENT_COLUMNS.index("abstract")
_COPIED = "_copied"
_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


def _dict_encoder() -> Callable[[dict], str]:
    """``_DUMPS.encode`` of a dict, by the C encoder that json itself uses but made once
    (``encode`` makes one per call: a third of its time on a record's fields); without
    json's C speed-ups, ``_DUMPS.encode``. Never given a cycle (it does not look for one)."""
    make = json.encoder.c_make_encoder
    if make is None:
        return _DUMPS.encode
    chunks = make(None, _DUMPS.default, encode_basestring, None, ":", ",", False, False, True)
    return lambda value: "".join(chunks(value, 0))


_encode = _dict_encoder()


def _encode_strings(items: list[str]) -> str:
    """``_encode`` of a list of strings, without the encoder's per-call set-up (3x faster)."""
    return "[" + ",".join(map(encode_basestring, map(str, items))) + "]"


def pack_raw(rec: Record) -> str:
    """JSON of ``rec.raw`` with exact copies of a stored column's value stored as references."""
    texts = {**{getattr(rec, name): name for name in BIBLIO_FIELDS},
             rec.language: "language", rec.type: "type", rec.venue: "venue",
             rec.abstract: "abstract", rec.title: "title"}  # on a tie the title wins
    texts.pop("", None)
    kept: dict[str, Any] = {}
    copied: dict[str, str] = {}
    for key, value in rec.raw.items():
        if type(value) is str:
            column = texts.get(value)
        elif value and value == rec.authors:
            column = "authors"
        elif value and value == rec.keywords:
            column = "keywords"
        else:
            column = None
        if column:
            copied[key] = column
        else:
            kept[key] = value
    if copied:
        kept[_COPIED] = copied
    return _encode(kept)


def unpack_raw(text: str | None, rec: Record) -> dict[str, Any]:
    """The original fields, inverse of :func:`pack_raw` (``rec`` holds the columns)."""
    raw = read_json(text or "{}", _stored(rec.title), dict, part="original fields")
    copied = raw.pop(_COPIED, {})
    if not isinstance(copied, dict) or not all(
            isinstance(column, str) and hasattr(rec, column) for column in copied.values()):
        raise DamagedDataError(_stored(rec.title), "not the names of record fields",
                               "original fields")
    for key, column in copied.items():
        value = getattr(rec, column)
        raw[key] = list(value) if isinstance(value, list) else value  # a copy, not an alias
    return raw


def record_from_row(row: Sequence[Any]) -> Record:
    """The :class:`Record` of a row selected as :data:`CONTENT_COLUMNS` (inverse of
    :func:`record_row`; ``title_norm`` is derived and not kept)."""
    v = dict(zip(CONTENT_COLUMNS, row, strict=True))
    what = _stored(v["title"] or "")
    rec = Record(
        title=v["title"] or "", abstract=v["abstract"] or "",
        authors=read_strings(v["authors"] or "[]", what, "authors"),
        year=v["year"], venue=v["venue"] or "",
        keywords=read_strings(v["keywords"] or "[]", what, "keywords"),
        type=v["type"] or "", language=v["language"] or "", doi=v["doi"] or "",
        pmid=v["pmid"] or "", ids=read_json(v["ids"] or "{}", what, dict, part="ids"),
        rank=v["rank"], score=v["score"], source_line=v["source_line"],
        **{name: v[name] or "" for name in BIBLIO_FIELDS},
    )
    rec.raw = unpack_raw(v["raw"], rec)
    return rec


def _stored(title: str) -> str:
    """How a damaged record is named in its message: by (the start of) its title."""
    return f"the stored record {title[:60]!r}"


def record_row(rec: Record) -> tuple:
    """The values of :data:`CONTENT_COLUMNS` for ``rec``."""
    return (
        rec.rank, rec.score, rec.title, normalise_title(rec.title), rec.abstract,
        _encode_strings(rec.authors), rec.year, rec.venue, _encode_strings(rec.keywords), rec.type,
        rec.language, rec.doi or None, rec.pmid or None, _encode(rec.ids) if rec.ids else None,
        pack_raw(rec), rec.source_line, *(getattr(rec, name) or None for name in BIBLIO_FIELDS),
    )


_INSERT = (
    "INSERT INTO records (id, topic_id, import_id, work_id, "
    + SELECT_CONTENT + ") VALUES (" + ",".join("?" * (4 + len(CONTENT_COLUMNS)))
    + ")"
)


class RowWriter:
    """Writes content rows of one import with new ids (each record its own work until
    linked), one chunk per call inside a write. ``count`` = rows written; ``kept`` = what
    the linker reads of each row written, in order, as
    :func:`~litqeval_gui.core.records.works.link_items` selects it (id, title_norm, year,
    doi, pmid, ids, and the abstract of a short title only), so linking the import needs
    not read its rows back."""

    def __init__(self, topic_id: int, import_id: int) -> None:
        self.topic_id = topic_id
        self.import_id = import_id
        self.count = 0
        self.kept: list[tuple] = []

    def write(self, db: sqlite_utils.Database, rows: Iterable[tuple], rank_offset: int = 0) -> None:
        """Write ``rows`` (ranks shifted by ``rank_offset``) after the largest record id,
        each as it is taken from ``rows``."""
        first = int(db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM records").fetchone()[0])
        cursor = db.conn.executemany(_INSERT, self._values(rows, first, rank_offset))
        self.count += cursor.rowcount  # executemany: the rows of every statement

    def _values(self, rows: Iterable[tuple], first: int, rank_offset: int) -> Iterator[tuple]:
        tid, iid, keep = self.topic_id, self.import_id, self.kept.append
        for key, row in enumerate(rows, first):
            keep((key, *_LINKED(row),
                  row[_ABSTRACT] if len(row[_TITLE_NORM]) < SHORT_TITLE_CHARS else None))
            yield (key, tid, iid, key, row[0] + rank_offset, *row[1:])
