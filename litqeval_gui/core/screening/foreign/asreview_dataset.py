"""A screening handed back to ASReview LAB as its labelled dataset: a CSV of the records
with ``label_included`` (1 relevant, 0 irrelevant, empty not yet labelled), which
ASReview reads as prior knowledge (Oracle) or as the labels to simulate from.

``label_included`` is the final decision: include 1, exclude 0, a grade 1 if it is
relevant (≥ 1) else 0; a maybe, a report not retrieved, an open conflict and an
undecided record are empty — ASReview has no label for them. docs/interop.md.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from litqeval_gui.core.records.exporting import escape_formula
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.log.labels import GRADED, is_relevant, phase_labels

ASREVIEW_COLUMNS = ("record_id", "title", "abstract", "authors", "keywords", "year", "doi",
                    "url", "label_included")


def asreview_label(scheme: str, decision: str) -> str:
    """``label_included`` of a record whose final decision (or state) is ``decision``."""
    if decision in ("include", "exclude") or (scheme == GRADED and decision.isdigit()):
        return "1" if is_relevant(scheme, decision) else "0"
    return ""


def write_asreview_csv(ids: Sequence[int], records: Sequence[Record],
                       rows: Sequence[Mapping[str, str]], scheme: str, phase: str,
                       path: Path) -> int:
    """Write ``records`` (this project's ``ids`` as ``record_id``) with the ``decision``
    of each of ``rows`` (same order) at ``path``; UTF-8 without a byte-order mark, text
    never read as a formula. Returns the records written."""
    known = set(phase_labels(scheme, phase))
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(ASREVIEW_COLUMNS)
        for record_id, record, row in zip(ids, records, rows, strict=True):
            decision = row["decision"]
            writer.writerow([record_id, *(escape_formula(v) for v in (
                record.title, record.abstract, "; ".join(record.authors),
                "; ".join(record.keywords))), record.year or "",
                escape_formula(record.doi), escape_formula(record.url),
                asreview_label(scheme, decision) if decision in known else ""])
    return len(records)
