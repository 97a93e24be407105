"""The records of one list: a paged table (:class:`~.table_model.RecordsModel`), a
filter bar and a detail pane.

A result list's header says its recall against the topic's core set, with the core
works it missed one click away (issue 24); it is recounted after every regrouping.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QGuiApplication,
    QHideEvent,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QSpinBox,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.recall import recall_report
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.attachments import attachment_column
from litqeval_gui.core.records.queries import (
    ListBrowser,
    ListInfo,
    RecordFilter,
    RowSummary,
    record_detail,
    year_span,
)
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.export_dialog import export_dialog
from litqeval_gui.gui.missed_core import RecallLabel
from litqeval_gui.gui.record_detail import detail_html, doi_url
from litqeval_gui.gui.screens.records.table_model import RecordsModel
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

FILTER_DELAY_MS = 250
TITLE_SHARE = 0.4  # of the table's width the title column keeps on a narrow window
SHRINKING = (3, 4)  # venue, DOI: the columns that give way to the title


class RecordsView(QWidget):
    """One list's records: filter bar, table and a detail pane in a splitter (a
    :class:`~litqeval_gui.gui.screens.Screen` opened on a :class:`ListInfo`)."""

    key = "records"

    def __init__(self, session: ProjectSession, info: ListInfo,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.info = info
        self.target_gone = False  # its list was deleted: the window closes the tab
        self._settings = Settings()  # replaced by the window's in restore_state
        self._stale = False  # reload everything when next shown
        self._works_stale = False  # repaint the rows' groups when next shown
        self.model = RecordsModel(ListBrowser(session.project, info.id), self)

        self.filter_edit = QLineEdit(placeholderText="Filter title and abstract (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setMinimumWidth(self.filter_edit.fontMetrics().horizontalAdvance(
            "Filter title and"))
        self.year_from = QSpinBox(toolTip="Earliest publication year")
        self.year_to = QSpinBox(toolTip="Latest publication year")
        self.count_label = QLabel()
        self.recall_label = RecallLabel()
        self._timer = QTimer(self, singleShot=True, interval=FILTER_DELAY_MS)
        self._timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(lambda _text: self._timer.start())
        self.year_from.valueChanged.connect(lambda year: self._year_changed(self.year_to, year))
        self.year_to.valueChanged.connect(lambda year: self._year_changed(self.year_from, year))

        self.table = self._make_table()
        self.detail = QTextBrowser(openExternalLinks=True)
        self.detail.setPlaceholderText("Select a record to see its details and provenance.")
        self.splitter = QSplitter(Qt.Orientation.Vertical)  # both get the full width
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([600, 400])

        self.copy_doi_action = make_action(self, "Copy DOI", self.copy_doi,
                                           shortcut="Ctrl+Shift+C", scoped=True)
        self.open_doi_action = make_action(self, "Open DOI", self.open_doi, scoped=True,
                                           tip="Open the DOI in the web browser")
        self.focus_filter_action = make_action(self, "Find", self.focus_filter,
                                               shortcut=QKeySequence.StandardKey.Find,
                                               scoped=True)
        self.export_action = make_action(self, "Export These Records…", self.export,
                                         scoped=True)
        self.clear_filter_action = make_action(self, "Clear Filter", self.clear_filter,
                                               shortcut="Escape", scoped=True)
        self.table.activated.connect(lambda _index: self.detail.setFocus())  # Enter, double-click

        self.setFocusProxy(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.recall_label)
        layout.addLayout(self._filter_bar())
        layout.addWidget(self.splitter, 1)
        self._update_recall()
        self._reset_years()
        self._update_count()
        self._update_actions()

    # -- the screen protocol ---------------------------------------------------------
    @staticmethod
    def id_of(info: ListInfo) -> int:
        return info.id

    def target_id(self) -> int:
        return self.info.id

    @property
    def title(self) -> str:
        return self.info.name

    @property
    def tooltip(self) -> str:
        return f"{self.info.topic} · {self.info.name} ({self.info.role})"

    def screen_actions(self) -> list[QAction]:
        """None for the Topic menu: its keys work in the table, its DOI and export
        actions are in the table's context menu and File ▸ Export…"""
        return []

    def save_state(self, settings: Settings) -> None:
        settings.set_splitter_sizes(self.key, self.splitter.sizes())

    def restore_state(self, settings: Settings) -> None:
        """The splitter as last left (in any records tab); moving it is remembered."""
        self._settings = settings
        sizes = settings.splitter_sizes(self.key)
        if sizes:
            self.splitter.setSizes(sizes)
        self.splitter.splitterMoved.connect(lambda *_: self.save_state(settings))

    # -- building ------------------------------------------------------------------
    def _make_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self._context_menu)
        rows = table.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform row heights
        rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
        header = table.horizontalHeader()
        header.setHighlightSections(False)
        width = table.fontMetrics().horizontalAdvance
        self._natural = {column: width(sample) + 14 for column, sample in (
            (0, "Rank0"), (2, "Year0"), (3, "Venue venue v"), (4, "10.0000/abc.0000"),
            (5, "Core"), (6, "00 copies"))}
        for column, natural in self._natural.items():
            header.resizeSection(column, natural)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(width("Core") + 6)
        table.selectionModel().currentRowChanged.connect(self._show_detail)
        table.viewport().installEventFilter(self)
        return table

    def eventFilter(self, watched: object, event: QEvent) -> bool:  # noqa: N802 — Qt override
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self.fit_columns()
        return super().eventFilter(watched, event)

    def fit_columns(self) -> None:
        """On a narrow table the venue and DOI columns give way first (in proportion to
        their natural widths) so the title keeps :data:`TITLE_SHARE` of the width; the
        short columns (rank, year, core, copies) keep theirs."""
        fixed = sum(w for c, w in self._natural.items() if c not in SHRINKING)
        room = self.table.viewport().width() * (1 - TITLE_SHARE) - fixed
        scale = max(0.0, min(1.0, room / sum(self._natural[c] for c in SHRINKING)))
        header = self.table.horizontalHeader()
        for column in SHRINKING:
            header.resizeSection(column, max(header.minimumSectionSize(),
                                             int(self._natural[column] * scale)))

    def _filter_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        bar.addWidget(self.filter_edit, 3)
        bar.addWidget(QLabel("Years"))
        bar.addWidget(self.year_from)
        bar.addWidget(QLabel("–"))
        bar.addWidget(self.year_to)
        bar.addWidget(self.count_label, 1)
        for action in (self.copy_doi_action, self.open_doi_action):
            button = QToolButton()
            button.setDefaultAction(action)
            bar.addWidget(button)
        return bar

    # -- filtering -----------------------------------------------------------------
    def _reset_years(self) -> None:
        """Year spin boxes span the list's years; the full span means no year filter."""
        span = year_span(self.session.project, self.info.id)
        for box, start in ((self.year_from, 0), (self.year_to, 1)):
            box.blockSignals(True)
            box.setEnabled(span is not None)
            box.setRange(*(span or (0, 0)))
            box.setValue((span or (0, 0))[start])
            box.blockSignals(False)

    def _year_changed(self, other: QSpinBox, year: int) -> None:
        """Keep from ≤ to by moving the other box along, then filter after the delay."""
        if (other is self.year_to and other.value() < year) or \
                (other is self.year_from and other.value() > year):
            other.setValue(year)
        self._timer.start()

    def current_filter(self) -> RecordFilter:
        """The filter the controls describe (a full year span is no year filter)."""
        low, high = self.year_from.value(), self.year_to.value()
        full = (low == self.year_from.minimum(), high == self.year_to.maximum())
        return RecordFilter(text=self.filter_edit.text(),
                            year_min=None if full[0] else low,
                            year_max=None if full[1] else high)

    def apply_filter(self) -> None:
        """Re-query the rows passing the current filter."""
        self._timer.stop()
        self.model.set_browser(ListBrowser(self.session.project, self.info.id,
                                           self.current_filter()))
        self._update_count()
        self.detail.clear()
        self._update_actions()

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), self.info.records
        self.count_label.setText(f"{total:,} records" if shown == total
                                 else f"{shown:,} of {total:,} records")

    # -- recall ------------------------------------------------------------------------
    def _update_recall(self) -> None:
        """The header's recall (result lists of a topic with a core set; else hidden)."""
        recall = None
        if self.info.role == "results":
            try:
                recall = recall_report(self.session.project, self.info.topic,
                                       self.info.name).lists[0]
            except LitqError:  # no core set yet
                pass
        self.recall_label.show_recall(recall)

    # -- staleness -----------------------------------------------------------------
    def project_changed(self, changes: Changes, _initiator: object) -> None:
        """Reload after records or lists changed; after a regrouping (a verdict) only the
        rows' core and group cells are repainted. Now if visible, else when next shown."""
        if changes.lists:
            info = queries.list_info(self.session.project, self.info.id)
            self.target_gone = info is None
            self.info = info or self.info
        if changes.records or changes.lists:
            self._stale = True
        elif changes.works:
            self._works_stale = True
        if self.isVisible():
            self._refresh_stale()

    def _refresh_stale(self) -> None:
        if self._stale:
            self.refresh()
        elif self._works_stale:
            self._works_stale = False
            self.model.works_changed()
            self._update_recall()

    def refresh(self) -> None:
        self._stale = self._works_stale = False
        self._update_recall()
        self._reset_years()
        self.apply_filter()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._refresh_stale()

    def hideEvent(self, event: QHideEvent) -> None:
        """A filter still waiting for its delay is applied when shown again."""
        if self._timer.isActive():
            self._timer.stop()
            self._stale = True
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._timer.stop()  # closed (even if never shown): nothing left to apply
        super().closeEvent(event)

    # -- current record --------------------------------------------------------------
    def current_row(self) -> RowSummary | None:
        index = self.table.currentIndex()
        return self.model.row(index.row()) if index.isValid() else None

    def _show_detail(self, current: QModelIndex) -> None:
        if current.isValid():
            record_id = self.model.row(current.row()).id
            self.detail.setHtml(detail_html(record_detail(self.session.project, record_id)))
        else:
            self.detail.clear()
        self._update_actions()

    def _update_actions(self) -> None:
        row = self.current_row()
        for action in (self.copy_doi_action, self.open_doi_action):
            action.setEnabled(bool(row and row.doi))

    def focus_filter(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def clear_filter(self) -> None:
        """Escape: show every record again (text and years), keeping the current record."""
        row = self.current_row()
        self.filter_edit.blockSignals(True)
        self.filter_edit.clear()
        self.filter_edit.blockSignals(False)
        self._reset_years()
        self.apply_filter()
        if row is not None and row.id in self.model.browser.ids:
            self.table.selectRow(self.model.browser.ids.index(row.id))
        self.table.setFocus()

    def copy_doi(self) -> None:
        row = self.current_row()
        if row and row.doi:
            QGuiApplication.clipboard().setText(row.doi)

    def open_doi(self) -> None:
        row = self.current_row()
        if row and row.doi:
            QDesktopServices.openUrl(doi_url(row.doi))

    def export_source(self) -> tuple[str, object]:
        """(name, records factory) of the rows shown: the list, with the filter if any."""
        browser = self.model.browser
        filtered = len(browser) != self.info.records
        return (f"{self.info.name} (filtered)" if filtered else self.info.name), browser.records

    def export(self) -> None:
        """Export the rows shown (the filter applied) through a save dialog."""
        if self._timer.isActive():  # a filter still being typed
            self.apply_filter()
        name, records = self.export_source()
        export_dialog(self, self.session.project.path, name, records, self._settings,
                      attachments=self.export_attachments)

    def export_attachments(self) -> list[str]:
        """The full-text path of each row of :meth:`export_source` (``""`` for none)."""
        return attachment_column(self.session.project, self.model.browser.ids)

    def _context_menu(self, pos: object) -> None:
        menu = QMenu(self)
        menu.addActions([self.copy_doi_action, self.open_doi_action])
        menu.addSeparator()
        menu.addAction(self.export_action)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    # -- reopened with the project (main window) ---------------------------------------
    def descriptor(self) -> dict:
        return {"list": self.info.id}

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict) -> RecordsView | None:
        info = queries.list_info(session.project, descriptor["list"])
        return None if info is None else cls(session, info)
