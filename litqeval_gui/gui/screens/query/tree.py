"""The clause tree: the query as searchrefiner's QueryVis draws it, one node per clause
(its operator, then the clause as written), with what each clause does in columns — the
cells of :func:`litqeval_gui.core.query.report.rows`. A clause worth a look (an OR branch
bringing many works and no core work) is shaded, with a warning sign, a few words in the
last column and the whole reason as its tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QHeaderView, QStyle, QTreeWidget, QTreeWidgetItem, QWidget

from litqeval_gui.core.query.report import rows
from litqeval_gui.core.query.syntax import Node, Op
from litqeval_gui.core.query.topic import Analysis, Clause
from litqeval_gui.gui.screens.query.editor import flag_colour
from litqeval_gui.gui.screens.query.job import short_flag

COLUMNS = (
    ("Clause", "Each clause as written, its operator first; the whole query at the top"),
    ("Works", "The topic's works the clause matches"),
    ("Core", "Core works among them"),
    ("Only\nit", "Core works the query retrieves only through this clause: lost when it is "
                "removed"),
    ("Adds", "Works the query retrieves only through this clause"),
    ("Without:\nworks", "The query with this clause removed: the works it retrieves"),
    ("Without:\ncore", "The query without this clause: its core works"),
    ("Without:\nrecall", "The query without this clause: its local recall (core works "
                         "retrieved ÷ the topic's core works)"),
    ("Without:\nSP_cos", "The query without this clause: its semantic precision SP_cos (– "
                         "until the topic has vectors: evaluate the topic once)"),
    ("Worth\na look", "Why a clause deserves a look (hover for the whole reason); shown "
                      "when a clause is flagged"),
)
FLAG = len(COLUMNS) - 1
PATH_ROLE = Qt.ItemDataRole.UserRole


def kind_text(clause: Clause, node: Node | None) -> str:
    """AND, OR, NOT, NEAR/n (NEAR/n in order); "" for a term or phrase."""
    if clause.kind in ("term", "phrase"):
        return ""
    if clause.kind == "near" and isinstance(node, Op):
        return f"NEAR/{node.distance}" + (" in order" if node.ordered else "")
    return clause.kind.upper()


class ClauseTree(QTreeWidget):
    """The clauses of one :class:`Analysis`; ``clause_chosen(path)`` when one is selected
    ("" when none is)."""

    clause_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(len(COLUMNS))
        self.setHeaderLabels([name for name, _ in COLUMNS])
        for column, (_, tip) in enumerate(COLUMNS):
            self.headerItem().setToolTip(column, tip)
            if 0 < column < FLAG:
                self.headerItem().setTextAlignment(column, Qt.AlignmentFlag.AlignRight
                                                   | Qt.AlignmentFlag.AlignVCenter)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setMinimumSectionSize(44)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setIndentation(16)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.currentItemChanged.connect(
            lambda item, _before: self.clause_chosen.emit(item.data(0, PATH_ROLE) if item
                                                          else ""))

    def show_analysis(self, analysis: Analysis | None) -> None:
        """One row per clause of ``analysis``, every node expanded (None: empty)."""
        chosen = self.currentItem().data(0, PATH_ROLE) if self.currentItem() else None
        self.clear()
        if analysis is None:
            return
        nodes = dict(analysis.query.clauses())
        items: dict[str, QTreeWidgetItem] = {}
        bold = self.font()
        bold.setBold(True)
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        shade = QBrush(flag_colour(self))
        for clause, cells in zip(analysis.clauses, rows(analysis), strict=True):
            kind = kind_text(clause, nodes.get(clause.path))
            label = f"{kind}   {clause.text}" if kind else clause.text
            parent = items.get(clause.path.rpartition(".")[0])
            item = QTreeWidgetItem(parent or self, [label, *cells[1:], short_flag(clause)])
            items[clause.path] = item
            item.setData(0, PATH_ROLE, clause.path)
            item.setToolTip(0, f"{clause.path} {kind} {clause.text}".replace("  ", " "))
            for column in range(1, FLAG):
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            if kind:
                item.setFont(0, bold)
            if clause.flag:
                item.setIcon(FLAG, warning)
                for column in range(len(COLUMNS)):
                    item.setBackground(column, shade)
                    item.setToolTip(column, f"Worth a look: {clause.flag}")
        self.expandAll()
        self.setColumnHidden(FLAG, not any(c.flag for c in analysis.clauses))
        if chosen in items:
            self.setCurrentItem(items[chosen])

    def item_at(self, path: str) -> QTreeWidgetItem | None:
        """The row of clause ``path`` ("1", "1.2", …)."""
        found = [item for item in self.findItems("*", Qt.MatchFlag.MatchWildcard
                                                 | Qt.MatchFlag.MatchRecursive)
                 if item.data(0, PATH_ROLE) == path]
        return found[0] if found else None
