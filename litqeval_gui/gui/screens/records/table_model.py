"""The table model of one list's records over
:class:`~litqeval_gui.core.records.queries.ListBrowser`: ``rowCount`` is the number of
rows passing the filter, and ``data`` fetches the page of :data:`PAGE_SIZE` rows holding
the asked row, keeping the :data:`CACHE_PAGES` most recently used pages. A 100 000-row
list opens at once and only the visible pages ever become Python objects."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from litqeval_gui.core.records.queries import ListBrowser, RowSummary

PAGE_SIZE = 200
CACHE_PAGES = 8
HEADERS = ("Rank", "Title", "Year", "Venue", "DOI", "Core", "Copies")
HEADER_TIPS = {5: "✓ when the record's work is in the topic's core set",
               6: "How many records of the topic (in any list, the core set included) are "
                  "this same publication; empty when it is the only one"}
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTRE = Qt.AlignmentFlag.AlignCenter


def _cell(row: RowSummary, column: int) -> str:
    if column == 0:
        return str(row.rank)
    if column == 1:
        return row.title or "(no title)"
    if column == 2:
        return "" if row.year is None else str(row.year)
    if column == 3:
        return row.venue
    if column == 4:
        return row.doi
    if column == 5:
        return "✓" if row.core else ""
    return f"{row.group_size} copies" if row.group_size > 1 else ""


def _copies_tip(row: RowSummary) -> str | None:
    if row.group_size < 2:
        return None
    return (f"{row.group_size} records of the topic are this publication (work "
            f"#{row.group}), merged as duplicates; the detail pane lists where each is from")


class RecordsModel(QAbstractTableModel):
    """Rows of a :class:`ListBrowser`, fetched a page at a time with a small LRU cache."""

    def __init__(self, browser: ListBrowser, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._browser = browser
        self._pages: OrderedDict[int, list[RowSummary]] = OrderedDict()

    @property
    def browser(self) -> ListBrowser:
        return self._browser

    def set_browser(self, browser: ListBrowser) -> None:
        """Show another browser's rows (a new filter)."""
        self.beginResetModel()
        self._browser = browser
        self._pages.clear()
        self.endResetModel()

    def works_changed(self) -> None:
        """Same rows, new grouping: drop the cached pages and repaint the visible cells."""
        self._browser.works_changed()
        self._pages.clear()
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(self.rowCount() - 1, len(HEADERS) - 1))

    def row(self, row: int) -> RowSummary:
        """The summary of row ``row`` (fetching its page when not cached)."""
        number = row // PAGE_SIZE
        page = self._pages.get(number)
        if page is None:
            page = self._browser.rows(number * PAGE_SIZE, PAGE_SIZE)
            self._pages[number] = page
            if len(self._pages) > CACHE_PAGES:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(number)
        return page[row % PAGE_SIZE]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._browser)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS.get(section)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _cell(self.row(index.row()), column)
        if role == Qt.ItemDataRole.ToolTipRole and column in (1, 3):
            return _cell(self.row(index.row()), column) or None
        if role == Qt.ItemDataRole.ToolTipRole and column == 6:
            return _copies_tip(self.row(index.row()))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if column in (0, 2) else _CENTRE if column in (5, 6) else None
        return None
