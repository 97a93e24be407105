"""Small read-only tables of counts (the overview, the pooling screen's side tables)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def read_only_table(headers: Sequence[str], tip: str = "") -> QTableWidget:
    """A table with ``headers``, no row numbers, not editable; ``tip`` is its tooltip."""
    table = QTableWidget(0, len(headers), toolTip=tip)
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    return table


def fill_table(table: QTableWidget, rows: Sequence[Sequence[object]]) -> None:
    """Show ``rows``: numbers right-aligned (integers with thousands separators), the
    columns as wide as their contents."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            number = isinstance(value, int | float) and not isinstance(value, bool)
            item = QTableWidgetItem(f"{value:,}" if isinstance(value, int) and number
                                    else str(value))
            if number:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()
