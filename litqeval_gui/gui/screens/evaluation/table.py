"""The comparison table: one row per result list (cells from :mod:`.adapter`), sortable
by each cell's value through a :class:`QSortFilterProxyModel`."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from litqeval_gui.gui.screens.evaluation.adapter import Cell, table_headers

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class ComparisonModel(QAbstractTableModel):
    """Rows of :class:`Cell`; headers from :func:`table_headers` (a ⚠ marks the map-based
    columns when the map's fidelity is low)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headers = table_headers()
        self.rows: list[list[Cell]] = []
        self.low_fidelity = False

    def set_rows(self, rows: list[list[Cell]], *, low_fidelity: bool) -> None:
        self.beginResetModel()
        self.rows, self.low_fidelity = rows, low_fidelity
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.headers) - 1)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def _on_map(self, section: int) -> bool:
        return self.headers[section][0].startswith(("MVEE", "hull"))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        text, tip = self.headers[section]
        warn = self.low_fidelity and self._on_map(section)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"⚠ {text}" if warn else text
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip + (" — the map's fidelity is low: read it as rough" if warn else "")
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        cell = self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cell.text
        if role == SORT_ROLE:
            return cell.sort
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell.tip or None
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return _RIGHT
        return None


def comparison_view(model: ComparisonModel) -> QTableView:
    """A sortable table over ``model`` (click a header to sort by its values)."""
    proxy = QSortFilterProxyModel(model)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    table = QTableView()
    table.setModel(proxy)
    table.setSortingEnabled(True)
    table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the lists' own order until clicked
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table
