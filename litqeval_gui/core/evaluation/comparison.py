"""The comparison table of a topic's evaluation as plain rows: one per result list, the
authors' columns (recall; per method precision, relevant count, F2) plus recall's 95 %
interval, each method's recall and λ, SP_cos's θ and leave-one-out ranges, cluster k,
the reasons of undefined metrics and the map's fidelity. The CLI's ``--csv`` and the
screen's CSV/XLSX export write these rows."""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path

from litqeval_gui.core.evaluation.engine import ListEvaluation, TopicEvaluation
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.records.exporting import escape_formula, write_sheet, write_whole

_PER_METHOD = ("precision", "relevant", "recall", "decay", "f2", "reason")


def header() -> list[str]:
    columns = ["topic", "list", "size", "recall", "recall_ci_low", "recall_ci_high"]
    columns += [f"{method}_{name}" for method in METHODS for name in _PER_METHOD]
    return columns + ["cos_theta", "cos_loo_low", "cos_loo_high", "cos_loo_f2_low",
                      "cos_loo_f2_high", "cluster_k", "backend", "map", "fidelity"]


def _row(evaluation: TopicEvaluation, item: ListEvaluation) -> list[object]:
    row: list[object] = [evaluation.topic, item.name, item.size, item.recall, *item.recall_ci]
    for method in METHODS:
        r = item.methods[method]
        row += [r.precision, r.relevant, r.recall, r.decay, r.f_beta, r.reason or ""]
    cos = item.methods["cos"]
    row += [cos.detail.get("theta"), *(cos.loo_range or ("", "")),
            *(cos.loo_f_range or ("", "")), item.methods["cluster"].detail.get("k") or "",
            evaluation.backend.name, evaluation.map.method,
            "" if math.isnan(evaluation.fidelity) else evaluation.fidelity]
    return row


def comparison_rows(evaluation: TopicEvaluation) -> list[list[object]]:
    """One row per result list, in the order of :func:`header`."""
    return [_row(evaluation, item) for item in evaluation.lists]


def write_csv(evaluation: TopicEvaluation | Sequence[TopicEvaluation], path: str | Path) -> Path:
    """Write the table — of one topic, or of several one after another — as UTF-8 CSV
    (replaced whole, never half-written; text that a spreadsheet would run as a formula
    is escaped, as every CSV export is)."""
    evaluations = [evaluation] if isinstance(evaluation, TopicEvaluation) else evaluation

    def write(partial: Path) -> None:
        with partial.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(header())
            writer.writerows([escape_formula(v) if isinstance(v, str) else v for v in row]
                             for one in evaluations for row in comparison_rows(one))

    return write_whole(path, write, "the table")


def write_xlsx(evaluation: TopicEvaluation, path: str | Path) -> Path:
    """Write the table as one XLSX sheet: numbers as numbers, text always a string cell
    (a list named "=…" is never a formula)."""

    def write(partial: Path) -> None:
        write_sheet(partial, "comparison", [header(), *comparison_rows(evaluation)])

    return write_whole(path, write, "the table")
