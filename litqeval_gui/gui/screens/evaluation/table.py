"""The comparison table: one row per result list (cells from :mod:`.adapter`), sortable
by each cell's value through a :class:`QSortFilterProxyModel`. Each method's name spans
its P / n / F2 columns in a :class:`GroupedHeader`, so the columns are as narrow as their
numbers (only the sorted column keeps room for the sort arrow) and the table fits beside
the sidebar. The list's name takes the width left, never less than a readable width
(:func:`fit_columns`): a long name wraps at its spaces onto more lines of its row, and
when even that width is not left the table scrolls sideways rather than cut the name."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyleOptionHeader,
    QTableView,
    QWidget,
)

from litqeval_gui.gui.screens.evaluation.adapter import Cell, table_headers
from litqeval_gui.gui.screens.evaluation.parameters import tip_html

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2  # a header's group ("" for a column of its own)
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
        group, _, label = text.rpartition("\n")
        warn = self.low_fidelity and self._on_map(section)
        if role == Qt.ItemDataRole.DisplayRole:
            return label
        if role == GROUP_ROLE:
            return f"⚠ {group}" if warn and group else group
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip_html(tip + (" — the map's fidelity is low: read it as rough"
                                   if warn else ""))
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


NAME_CHARS = 14  # the narrowest the name column gets: about this many characters


class ComparisonTable(QTableView):
    """A table whose columns :func:`fit_columns` sets whenever its width changes."""

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        fit_columns(self)


def comparison_view(model: ComparisonModel) -> ComparisonTable:
    """A sortable table over ``model`` (click a header to sort by its values)."""
    proxy = QSortFilterProxyModel(model)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    table = ComparisonTable()
    header = GroupedHeader(table)
    table.setHorizontalHeader(header)
    table.setModel(proxy)
    table.setSortingEnabled(True)
    table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the lists' own order until clicked
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.setWordWrap(True)  # a name wraps at its spaces
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # only a word wider than the column
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.verticalHeader().hide()
    header.setSectionsClickable(True)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # set by fit_columns
    header.setMinimumSectionSize(header.fontMetrics().horizontalAdvance("0.000") + 10)
    for signal in (model.modelReset, header.sortIndicatorChanged):
        signal.connect(lambda *_: fit_columns(table))
    return table


def name_floor(table: QTableView) -> int:
    """The narrowest the name column gets: :data:`NAME_CHARS` characters, or the
    longest name when shorter."""
    metrics = table.fontMetrics()
    want = max(table.sizeHintForColumn(0),
               table.horizontalHeader().sectionSizeHint(0))
    return min(want, metrics.averageCharWidth() * NAME_CHARS + 12)


def fit_columns(table: QTableView) -> None:
    """Each number column as wide as its numbers and its label; the name column takes
    the width left, at least :func:`name_floor` (the table scrolls sideways when the
    view is narrower); then each row as tall as its wrapped name (at least the
    default row height)."""
    header = table.horizontalHeader()
    if header.count() == 0:
        return
    numbers = 0
    for column in range(1, header.count()):
        width = max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
        header.resizeSection(column, width)
        numbers += width
    header.resizeSection(0, max(name_floor(table), table.viewport().width() - numbers))
    table.resizeRowsToContents()
    least = table.verticalHeader().defaultSectionSize()
    for row in range(table.model().rowCount()):
        table.setRowHeight(row, max(table.rowHeight(row), least))


def rows_height(table: QTableView) -> int:
    """The height that shows ``table``'s header and every row without scrolling."""
    rows = sum(table.rowHeight(r) for r in range(table.model().rowCount()))
    bar = table.horizontalScrollBar()
    return (table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth()
            + (bar.sizeHint().height() if bar.maximum() > 0 else 0))


class GroupedHeader(QHeaderView):
    """A horizontal header of two rows: a column's ``GROUP_ROLE`` text spans every
    adjacent column of the same group, its own label is below; a column without a group
    uses both rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)

    def _group(self, logical: int) -> str:
        return self.model().headerData(logical, self.orientation(), GROUP_ROLE) or ""

    def sizeHint(self) -> QSize:
        size = super().sizeHint()
        size.setHeight(max(size.height(), 2 * self.fontMetrics().height() + 10))
        return size

    def sectionSizeFromContents(self, logical: int) -> QSize:
        """Wide enough for the label (the group's width is shared by its columns); room
        for the sort arrow in the sorted column only."""
        size = super().sectionSizeFromContents(logical)
        if self.isSortIndicatorShown() and logical != self.sortIndicatorSection():
            size.setWidth(size.width() - self._arrow_room(logical))
        group = self._group(logical)
        if group:
            span = self._span(logical)
            share = self.fontMetrics().horizontalAdvance(group) // (span[1] - span[0] + 1)
            size.setWidth(max(size.width(), share + 8))
        return size

    def _arrow_room(self, logical: int) -> int:
        """What :class:`QHeaderView` adds to a section's width for the sort arrow."""
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.section = logical
        option.text = str(self.model().headerData(logical, self.orientation()) or "")
        plain = self.style().sizeFromContents(QStyle.ContentsType.CT_HeaderSection, option,
                                              QSize(), self)
        return plain.height() + self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin,
                                                         option, self)

    def _span(self, logical: int) -> tuple[int, int]:
        """The first and last visual index of the columns sharing ``logical``'s group."""
        group, first = self._group(logical), self.visualIndex(logical)
        last = first
        while first > 0 and self._group(self.logicalIndex(first - 1)) == group:
            first -= 1
        while last < self.count() - 1 and self._group(self.logicalIndex(last + 1)) == group:
            last += 1
        return first, last

    def paintSection(self, painter: QPainter, rect: QRect, logical: int) -> None:
        group = self._group(logical)
        if not group:
            super().paintSection(painter, rect, logical)
            return
        top_height = rect.height() // 2
        super().paintSection(painter, rect.adjusted(0, top_height, 0, 0), logical)
        first, last = self._span(logical)
        left = self.sectionViewportPosition(self.logicalIndex(first))
        right = (self.sectionViewportPosition(self.logicalIndex(last))
                 + self.sectionSize(self.logicalIndex(last)))
        option = QStyleOptionHeader()
        option.initFrom(self)
        option.rect = QRect(left, rect.top(), right - left, top_height)
        option.text = group
        option.textAlignment = Qt.AlignmentFlag.AlignCenter
        option.orientation = Qt.Orientation.Horizontal
        option.position = QStyleOptionHeader.SectionPosition.Middle
        painter.save()
        painter.setClipRect(QRect(rect.left(), rect.top(), rect.width(), top_height))
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)
        painter.restore()
