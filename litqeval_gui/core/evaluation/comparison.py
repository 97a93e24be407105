"""The comparison table of a topic's evaluation as plain rows: one per result list, the
authors' columns (recall; per method precision, relevant count, F2) plus recall's 95 %
interval, each method's recall and λ, SP_cos's θ and leave-one-out ranges, cluster k,
the reasons of undefined metrics and the map's fidelity. The CLI's ``--csv`` and the
screen's CSV/XLSX export write these rows."""

from __future__ import annotations

import csv
import math
import os
import secrets
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.engine import ListEvaluation, TopicEvaluation
from litqeval_gui.core.evaluation.methods import METHODS

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


def _write_whole(path: str | Path, write) -> Path:
    """Run ``write(partial_path)`` and move the result onto ``path`` (never half-written)."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.{secrets.token_hex(4)}.partial")
    try:
        write(partial)
        os.replace(partial, target)
    except OSError as err:
        raise LitqError(f"{target}: cannot write the table ({err.strerror})") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def write_csv(evaluation: TopicEvaluation, path: str | Path) -> Path:
    """Write the table as UTF-8 CSV (replaced whole, never half-written)."""

    def write(partial: Path) -> None:
        with partial.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(header())
            writer.writerows(comparison_rows(evaluation))

    return _write_whole(path, write)


def write_xlsx(evaluation: TopicEvaluation, path: str | Path) -> Path:
    """Write the table as one XLSX sheet: numbers as numbers, text always a string cell
    (a list named "=…" is never a formula)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    def write(partial: Path) -> None:
        book = Workbook(write_only=True)
        sheet = book.create_sheet("comparison")

        def cell(value: object) -> object:
            if not isinstance(value, str):
                return value
            text = WriteOnlyCell(sheet, ILLEGAL_CHARACTERS_RE.sub("", value))
            text.data_type = "s"
            return text

        sheet.append([cell(name) for name in header()])
        for row in comparison_rows(evaluation):
            sheet.append([cell(value) for value in row])
        book.save(partial)

    return _write_whole(path, write)
