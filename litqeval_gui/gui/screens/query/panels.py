"""Below the clause tree, in tabs: the query on the list's own export (how much of it the
query matches locally, and why not the rest), the core works it misses with their words
no clause matches, and what the local evaluation approximates."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.query.agreement import Agreement
from litqeval_gui.core.query.report import agreement_line
from litqeval_gui.core.query.topic import Analysis
from litqeval_gui.gui.tables import read_only_table

NO_LIST = "The topic has no result list: there is no export to compare the query with."
NO_CORE = ("The topic has no core set: import one (role “core set”) to see which core "
           "publications the query misses.")
ALL_FOUND = "The query retrieves every core work of the topic."
NOTHING_APPROXIMATED = ("Nothing is approximated: the local evaluation reads this query as "
                        "the database does (on the records' title, abstract and keywords).")


def _fitted(table: QTableWidget, stretched: tuple[int, ...]) -> QTableWidget:
    """``table`` with rows of one line of text, its ``stretched`` columns sharing the
    width left by the others (fitted to their contents)."""
    header = table.horizontalHeader()
    for column in range(table.columnCount()):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch
                                    if column in stretched
                                    else QHeaderView.ResizeMode.ResizeToContents)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setAlternatingRowColors(True)
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    return table


def _fill(table: QTableWidget, rows: list[tuple[object, ...]]) -> None:
    """Show ``rows`` (counts right-aligned, with thousands separators), each cell's whole
    text as its tooltip: an elided one can be read. The columns keep their resize modes
    (:func:`~litqeval_gui.gui.tables.fill_table` would fit every one to its contents)."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(f"{value:,}" if isinstance(value, int) else str(value))
            if isinstance(value, int):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            else:
                item.setToolTip(str(value))
            table.setItem(r, c, item)


def _page(*widgets: QWidget) -> QWidget:
    page = QWidget()
    column = QVBoxLayout(page)
    column.setContentsMargins(4, 4, 4, 4)
    for widget in widgets:
        column.addWidget(widget, 0 if isinstance(widget, QLabel) else 1)
    return page


class ResultTabs(QTabWidget):
    """The own export, the missed core works and the approximations of one evaluation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, documentMode=True)
        self.agreement_line = QLabel(wordWrap=True)
        self.reasons = _fitted(read_only_table(
            ["Records", "Why the query does not match them here"],
            "The list's records the query does not match locally, by reason"), (1,))
        self.examples = _fitted(read_only_table(
            ["Not matched, e.g.", "Why not"],
            "Some of those records, with the part of the query that keeps each out"), (0, 1))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.reasons)
        split.addWidget(self.examples)
        split.setSizes([420, 580])
        self.missed_line = QLabel(wordWrap=True)
        self.missed = _fitted(read_only_table(
            ["Core work", "Words it has that no clause matches"],
            "Core works the query does not retrieve; their title and abstract words no "
            "term of the query matches, most telling first"), (0, 1))
        self.notes = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignTop)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.addTab(_page(self.agreement_line, split), "Own export")
        self.addTab(_page(self.missed_line, self.missed), "Missed core")
        self.addTab(_page(self.notes), "Approximated")

    def show_results(self, analysis: Analysis | None, agreed: Agreement | None,
                     list_name: str | None) -> None:
        """Fill the tabs from one evaluation (None: empty)."""
        self._agreement(agreed, list_name)
        self._missed(analysis)
        notes = analysis.query.approximations if analysis else ()
        self.notes.setText("\n".join(f"• {note}" for note in notes) if notes
                           else NOTHING_APPROXIMATED if analysis else "")
        self.setTabText(2, f"Approximated ({len(notes)})" if notes else "Approximated")

    def _agreement(self, agreed: Agreement | None, list_name: str | None) -> None:
        if agreed is None or not list_name:
            self.agreement_line.setText(NO_LIST if not list_name else "")
            _fill(self.reasons, [])
            _fill(self.examples, [])
            self.setTabText(0, "Own export")
            return
        self.agreement_line.setText(
            agreement_line(agreed, list_name) + (
                ". Every record the database returned is matched here." if not agreed.reasons
                else ". Records not matched here show what the local evaluation lacks: text "
                "the export does not carry, fields the database searched."))
        _fill(self.reasons, [(n, reason) for reason, n in agreed.reasons])
        _fill(self.examples, [(e.title or "(no title)", e.reason) for e in agreed.examples])
        self.setTabText(0, f"Own export ({agreed.share:.1%})")

    def _missed(self, analysis: Analysis | None) -> None:
        if analysis is None:
            self.missed_line.setText("")
            _fill(self.missed, [])
            self.setTabText(1, "Missed core")
            return
        found = analysis.whole.core
        self.missed_line.setText(
            NO_CORE if not analysis.n_core else ALL_FOUND if not analysis.missed else
            f"{len(analysis.missed):,} of the topic's {analysis.n_core:,} core works are not "
            f"retrieved (the query finds {found:,}); beside each, words it has that no clause "
            "of the query matches — candidates for the query.")
        _fill(self.missed, [(m.title or "(no title)", ", ".join(m.words) or "(none)")
                            for m in analysis.missed])
        self.setTabText(1, f"Missed core ({len(analysis.missed)})" if analysis.missed
                        else "Missed core")
