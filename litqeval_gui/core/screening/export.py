"""Export a screening's records with their current decisions (RIS, CSV, XLSX, BibTeX,
MEDLINE, EndNote XML, and ASReview LAB's labelled dataset: :mod:`.foreign.asreview_dataset`), and its
audit trail.

Records come in the screening's list order; CSV and XLSX add the columns
:data:`DECISION_COLUMNS` (``undecided`` for a record without a decision; ``pdf``: the
path of the record's full text when one is attached), written as
text that a spreadsheet never runs as a formula (:mod:`litqeval_gui.core.records.exporting`).
A record's decision is its state (:func:`~litqeval_gui.core.screening.state.item_states`:
the final decision, the resolution where one exists); a record whose reviewers disagree
unresolved reads ``conflict`` with their names as the reviewer. RIS, BibTeX and EndNote
XML carry a decided record's decision as a note (RIS ``N1``, BibTeX ``annote``, EndNote
``notes``: "LitQEval screening 'S' (phase): label; reason: …; note: …; reviewer: … at
…") and keywords ``LitQEval: LABEL`` and ``LitQEval reason: REASON`` (RIS ``KW``).
They carry the full text's path too (RIS ``L1``, BibTeX ``file``, EndNote ``pdf-urls``).
``labels`` keeps only records whose decision is one of them (``undecided`` and
``conflict`` included). When two or more reviewers decided, :func:`export_screening`
also writes their agreement beside the export (``NAME.agreement.csv``).

:func:`export_audit` writes every event of the screening's log (who, what, when) as CSV.
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Mapping
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.attachments import attachment_paths
from litqeval_gui.core.records.citation_writers import (
    Annotation,
    write_bibtex,
    write_endnote_xml,
    write_ris,
)
from litqeval_gui.core.records.exporting import (
    EXPORT_FORMATS,
    check_target,
    escape_formula,
    export_records,
    write_whole,
)
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.foreign.asreview_dataset import write_asreview_csv
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import phase_labels
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.state import CONFLICT, UNDECIDED, item_states

ASREVIEW = "asreview"  # ASReview LAB's labelled dataset (CSV)
SCREENING_FORMATS = (*EXPORT_FORMATS, ASREVIEW)
DECISION_COLUMNS = ("decision", "phase", "reason", "note", "tags", "reviewer", "decided_at",
                    "pdf")
AUDIT_COLUMNS = ("event", "at", "reviewer", "action", "record_id", "title", "label",
                 "reason", "note", "tags", "undoes_or_redoes", "phase", "ordering",
                 "position", "model")


def decided_records(project: Project, screening: Screening,
                    labels: Collection[str] | None = None, reviewer: str | None = None
                    ) -> tuple[list[Record], list[dict[str, str]]]:
    """The screening's records (list order) and one decision row per record: its final
    decision (in a blind screening ``reviewer``'s own decisions only)."""
    _, records, rows = _decided(project, screening, labels, reviewer)
    return records, rows


def _decided(project: Project, screening: Screening, labels: Collection[str] | None,
             reviewer: str | None) -> tuple[list[int], list[Record], list[dict[str, str]]]:
    """:func:`decided_records` with the records' ids."""
    if labels is not None:
        used = phase_labels(screening.scheme, screening.phase)
        unknown = set(labels) - {*used, UNDECIDED, CONFLICT}
        if unknown:
            raise LitqError(f"unknown label(s) {', '.join(sorted(unknown))}; this screening "
                            f"uses {', '.join(used)} (or {UNDECIDED}, {CONFLICT})")
    states = item_states(project, screening, reviewer)
    order = [s.record_id for s in states]
    stored = queries.records_by_id(project, order)
    pdfs = attachment_paths(project, order)
    ids, records, rows = [], [], []
    for item in states:
        event, label = item.event, item.state
        if labels is not None and label not in labels:
            continue
        ids.append(item.record_id)
        records.append(stored[item.record_id])
        rows.append(dict(zip(DECISION_COLUMNS, (
            label, *((event.phase, event.reason, event.note, "; ".join(event.tags),
                      event.reviewer, event.at) if event else
                     ("", "", "", "", ", ".join(item.reviewers), "")),
            str(pdfs.get(item.record_id, ""))), strict=True)))
    return ids, records, rows


def decision_annotation(screening: Screening, row: Mapping[str, str]) -> Annotation:
    """A decision row as the note, keywords and full-text path RIS and BibTeX carry
    (module docstring)."""
    if row["decision"] in (UNDECIDED, CONFLICT):
        return Annotation(attachment=row["pdf"])
    parts = [f"LitQEval screening {screening.name!r} ({row['phase']}): {row['decision']}",
             *(f"{name}: {row[name]}" for name in ("reason", "note", "tags") if row[name]),
             f"reviewer: {row['reviewer']} at {row['decided_at']}"]
    keywords = [f"LitQEval: {row['decision']}"]
    if row["reason"]:
        keywords.append(f"LitQEval reason: {row['reason']}")
    return Annotation("; ".join(parts), tuple(keywords), row["pdf"])


def export_screening(project: Project, screening: Screening, path: str | Path, fmt: str,
                     labels: Collection[str] | None = None, reviewer: str | None = None) -> int:
    """Write the screening's records (module docstring) and, when two or more
    reviewers decided (and the reader is not blinded), their agreement as
    ``NAME.agreement.csv`` beside it; returns the record count."""
    ids, records, rows = _decided(project, screening, labels, reviewer)
    writer = {"ris": write_ris, "bibtex": write_bibtex, "endnote": write_endnote_xml}.get(fmt)
    target = Path(path)
    if fmt == ASREVIEW:
        check_target(target, project.path)
        write_whole(target, lambda partial: write_asreview_csv(
            ids, records, rows, screening.scheme, screening.phase, partial), "the export")
        count = len(records)
    elif writer is None:
        count = export_records(records, target, fmt, project=project.path, extra=rows)
    else:
        check_target(target, project.path)
        notes = [decision_annotation(screening, row) for row in rows]
        write_whole(target, lambda partial: writer(records, partial, notes), "the export")
        count = len(records)
    blinded = reviewer is not None and store.is_blind(project, screening.id)
    if not blinded and len(team.by_reviewer(project, screening.id)) > 1:
        team.write_agreement(project, screening, agreement_path(target))
    return count


def agreement_path(export: Path) -> Path:
    """Where :func:`export_screening` writes the agreement beside ``export``."""
    return export.with_name(f"{export.stem}.agreement.csv")


def export_audit(project: Project, screening: Screening, path: str | Path,
                 reviewer: str | None = None) -> int:
    """Write every event of the screening (:data:`AUDIT_COLUMNS`, oldest first) as CSV,
    text escaped so a spreadsheet never runs it as a formula; returns the count. In a
    blind screening only ``reviewer``'s events, when given."""
    target = Path(path)
    check_target(target, project.path)
    log = store.events(project, screening.id)
    if reviewer is not None and store.is_blind(project, screening.id):
        log = [e for e in log if e.reviewer == reviewer]
    titles = {record_id: record.title for record_id, record in
              queries.records_by_id(project, {e.record_id for e in log}).items()}

    def write(partial: Path) -> None:
        with open(partial, "w", encoding="utf-8-sig", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(AUDIT_COLUMNS)
            for e in log:
                row = (e.id, e.at, e.reviewer, e.kind, e.record_id, titles.get(e.record_id, ""),
                       e.label, e.reason, e.note, "; ".join(e.tags),
                       "" if e.target is None else e.target, e.phase, e.ordering,
                       "" if e.position is None else e.position, e.model)
                writer.writerow([escape_formula(v) if isinstance(v, str) else v for v in row])

    write_whole(target, write, "the audit export")
    return len(log)
