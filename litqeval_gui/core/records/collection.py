"""A document collection: the texts of a topic's docids, imported as role ``collection``.

A collection is no list: it gives text to the records of the topic's runs and qrels
that have none. Of its documents only those whose docid (or PMID) a record of the
topic already has are kept (each then links to that record's work by the docid); the
rest are counted and left out. A document that names a PMID — a MEDLINE record, a
JSON ``pmid`` — gets the docid it matched, so the run's bare numeric docid is known as
that PMID; ``pubmed_ids`` says every numeric docid of the collection is a PMID.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace

import sqlite_utils

from litqeval_gui.core.records.model import BIBLIO_FIELDS, Record
from litqeval_gui.core.records.rows import CONTENT_COLUMNS

ROLE = "collection"
# the record of the same work whose text a record without one shows: a collection's first
_TEXT_SOURCE = ("SELECT r.id FROM live_records r JOIN imports i ON i.id = r.import_id "
                "WHERE r.topic_id = ? AND r.work_id = ? AND (COALESCE(r.title, '') != '' "
                "OR COALESCE(r.abstract, '') != '') ORDER BY i.role != 'collection', r.id "
                "LIMIT 1")
_IDS, _PMID = CONTENT_COLUMNS.index("ids"), CONTENT_COLUMNS.index("pmid")


class CollectionFilter:
    """Keeps the rows (``CONTENT_COLUMNS`` tuples) of documents the topic names;
    ``left_out`` counts the others."""

    def __init__(self, db: sqlite_utils.Database, topic_id: int, *,
                 pubmed_ids: bool = False) -> None:
        self.docids: set[str] = set()
        self.pmids: set[str] = set()
        for docid, pmid in db.execute(
                "SELECT json_extract(ids, '$.docid'), pmid FROM live_records "
                "WHERE topic_id = ?", [topic_id]):
            if docid:
                self.docids.add(str(docid))
            if pmid:
                self.pmids.add(pmid)
        self.pubmed_ids = pubmed_ids
        self.left_out = 0

    def __call__(self, rows: Iterable[tuple]) -> list[tuple]:
        kept = []
        for row in rows:
            ids = json.loads(row[_IDS]) if row[_IDS] else {}
            docid, pmid = ids.get("docid", ""), row[_PMID] or ""
            if self.pubmed_ids and not pmid and docid.isdigit():
                pmid = docid
            if pmid and docid not in self.docids and pmid in self.docids:
                docid = pmid  # the run's docid is this PMID
            if docid not in self.docids and pmid not in self.pmids:
                self.left_out += 1
                continue
            if docid:
                ids["docid"] = docid
            row = list(row)
            row[_IDS], row[_PMID] = json.dumps(ids, ensure_ascii=False, separators=(",", ":")), pmid or None
            kept.append(tuple(row))
        return kept

    def note(self) -> str:
        """The import's note on what was left out."""
        return (f"{self.left_out} document(s) of the collection are in no list of this "
                "topic (no run or qrels names their docid): left out")


def text_sources(db: sqlite_utils.Database, record_ids: Iterable[int]) -> dict[int, int]:
    """For each record without title and abstract whose work has a record with one, that
    record (a collection's first): whose text it shows, is ranked by and exports."""
    found: dict[int, int] = {}
    ids = list(record_ids)
    for start in range(0, len(ids), 20_000):
        part = ids[start:start + 20_000]
        rows = db.execute(
            "SELECT id, topic_id, work_id FROM records WHERE COALESCE(title, '') = '' AND "
            f"COALESCE(abstract, '') = '' AND id IN ({','.join('?' * len(part))})", part)
        for record_id, topic_id, work_id in rows.fetchall():
            source = db.execute(_TEXT_SOURCE, [topic_id, work_id]).fetchone()
            if source is not None:
                found[record_id] = source[0]
    return found


_FILLED = ("title", "abstract", "authors", "year", "venue", "keywords", "type", "language",
           "doi", "pmid", *BIBLIO_FIELDS)


def with_text(record: Record, source: Record) -> Record:
    """``record`` with each field it lacks taken from ``source`` (its work's text), and
    ``source``'s identifiers added to its own; rank, score and ``raw`` stay its own."""
    filled = {name: getattr(source, name) for name in _FILLED
              if not getattr(record, name) and getattr(source, name)}
    return replace(record, **filled, ids={**source.ids, **record.ids})
