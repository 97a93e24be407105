"""Decisions given as rows — ``id,label[,reason,note]`` from a CSV file or the command
line — matched to a screening's records before anything is written.

An id is a record id of the screening, a DOI or a PMID. A DOI or PMID names the record
of the screening whose work holds a record with that identifier (any imported copy of
the publication counts). Every row is checked first — its id found, its label allowed —
so a bad file changes nothing and says which line is wrong.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import normalise_doi, normalise_id
from litqeval_gui.core.screening.log.labels import check_decision
from litqeval_gui.core.screening.log.store import Screening

MAX_ROWS = 1_000_000


@dataclass(frozen=True)
class DecisionRow:
    """One decision to make: ``record_id`` of the screening, ``label``, ``reason``, ``note``
    (``line`` is where it came from, for messages)."""

    record_id: int
    label: str
    reason: str = ""
    note: str = ""
    line: int = 0


def read_rows(path: str | Path) -> list[tuple[int, list[str]]]:
    """``(line number, cells)`` of each non-empty row of the CSV file ``path``; a first
    row whose second cell is ``label`` is a header and skipped."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = []
            for number, cells in enumerate(csv.reader(handle), start=1):
                if number > MAX_ROWS:
                    raise LitqError(f"{path}: more than {MAX_ROWS:,} rows")
                if any(cell.strip() for cell in cells):
                    rows.append((number, [cell.strip() for cell in cells]))
    except OSError as err:
        raise LitqError(f"{path}: cannot read the file ({err.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as err:
        raise LitqError(f"{path}: not a UTF-8 CSV file ({err})") from None
    if rows and len(rows[0][1]) > 1 and rows[0][1][1].lower() == "label":
        rows = rows[1:]
    return rows


def resolve(project: Project, screening: Screening,
            rows: list[tuple[int, list[str]]]) -> list[DecisionRow]:
    """The decisions of ``rows`` (``id, label[, reason, note]``) on ``screening``'s
    records; a row that names no record of it, a label the screening does not use, or a
    full-text exclusion without one of its reasons refuses them all with the line."""
    items = _items_by_work(project, screening.id)
    records = set(items.values())
    by_identifier = _works_by_identifier(project, screening.topic_id)
    out = []
    for line, cells in rows:
        if len(cells) < 2 or len(cells) > 4:
            raise LitqError(f"line {line}: expected id,label[,reason,note], got "
                            f"{len(cells)} cell(s)")
        key, label, reason, note = (*cells, "", "")[:4]
        try:
            check_decision(screening.scheme, screening.phase, screening.reasons, label, reason)
        except LitqError as err:
            raise LitqError(f"line {line}: {err}" if line else str(err)) from None
        record_id = _record_of(key, records, items, by_identifier)
        if record_id is None:
            raise LitqError(f"line {line}: {key!r} is no record id, DOI or PMID of screening "
                            f"{screening.name!r}")
        out.append(DecisionRow(record_id, label, reason, note, line))
    return out


def _items_by_work(project: Project, screening_id: int) -> dict[int, int]:
    """work id → the screening's record of that work."""
    return {work: record for record, work in project.db.execute(
        "SELECT i.record_id, r.work_id FROM screening_items i JOIN records r "
        "ON r.id = i.record_id WHERE i.screening_id = ?", [screening_id])}


def _works_by_identifier(project: Project, topic_id: int) -> dict[str, int]:
    """``doi:…`` / ``pmid:…`` → work id, over the topic's live records."""
    found: dict[str, int] = {}
    for work, doi, pmid in project.db.execute(
            "SELECT work_id, doi, pmid FROM live_records WHERE topic_id = ?", [topic_id]):
        if doi:
            found.setdefault(f"doi:{doi}", work)
        if pmid:
            found.setdefault(f"pmid:{pmid}", work)
    return found


def _record_of(key: str, records: set[int], items: dict[int, int],
               by_identifier: dict[str, int]) -> int | None:
    """The screening's record ``key`` names: its record id, else the record of the work
    with that DOI, else with that PMID."""
    if key.isdigit() and int(key) in records:
        return int(key)
    doi, pmid = normalise_doi(key), normalise_id("pmid", key)
    work = by_identifier.get(f"doi:{doi}") if doi else None
    if work is None and pmid:
        work = by_identifier.get(f"pmid:{pmid}")
    return items.get(work) if work is not None else None
