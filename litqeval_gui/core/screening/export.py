"""Export a screening's records with their current decisions (RIS, CSV, XLSX, BibTeX).

Records come in the screening's list order; CSV and XLSX add the columns
:data:`DECISION_COLUMNS` (``undecided`` for a record without a decision), written as
text that a spreadsheet never runs as a formula (:mod:`litqeval_gui.core.records.exporting`).
``labels`` keeps only records whose decision is one of them (``undecided`` included).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.store import Screening

UNDECIDED = "undecided"
DECISION_COLUMNS = ("decision", "reason", "note", "tags", "reviewer", "decided_at")


def decided_records(project: Project, screening: Screening,
                    labels: Collection[str] | None = None
                    ) -> tuple[list[Record], list[dict[str, str]]]:
    """The screening's records (list order) and one decision row per record."""
    if labels is not None:
        unknown = set(labels) - {*screening.labels, UNDECIDED}
        if unknown:
            raise LitqError(f"unknown label(s) {', '.join(sorted(unknown))}; this screening "
                            f"uses {', '.join(screening.labels)} (or {UNDECIDED})")
    current = {e.record_id: e for e in store.current_decisions(project, screening.id)}
    records, rows = [], []
    order = [record_id for (record_id,) in project.db.execute(
        "SELECT record_id FROM screening_items WHERE screening_id = ? ORDER BY position",
        [screening.id])]
    stored = queries.records_by_id(project, order)
    for record_id in order:
        event = current.get(record_id)
        label = event.label if event else UNDECIDED
        if labels is not None and label not in labels:
            continue
        records.append(stored[record_id])
        rows.append(dict(zip(DECISION_COLUMNS, (
            label, *((event.reason, event.note, "; ".join(event.tags), event.reviewer,
                      event.at) if event else ("",) * 5)), strict=True)))
    return records, rows


def export_screening(project: Project, screening: Screening, path: str | Path, fmt: str,
                     labels: Collection[str] | None = None) -> int:
    """Write the screening's records (module docstring); returns the count."""
    records, rows = decided_records(project, screening, labels)
    return export_records(records, path, fmt, project=project.path, extra=rows)
