"""“Known relevant…”: search the screening's records (title or abstract contains the text)
and include the ones the reviewer already knows are relevant, so the model has examples
before the first include in the queue (ASReview LAB's prior knowledge). Each is decided
through the screening session like any other decision, with a note saying how it was
found; the record on screen stays."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.screening.log.labels import GRADED
from litqeval_gui.core.screening.ranking.seeding import find_in_screening
from litqeval_gui.core.screening.session import ScreeningSession


def relevant_label(session: ScreeningSession) -> str:
    """The label a known relevant record gets: include, or the highest grade."""
    labels = session.screening.labels
    return max(labels) if session.screening.scheme == GRADED else "include"


class SeedDialog(QDialog):
    """Search, select, “Include selected”; ``included(count)`` runs after each batch."""

    def __init__(self, core: ScreeningSession, included: Callable[[int], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Known relevant records")
        self.core = core
        self._included = included
        self.search = QLineEdit(placeholderText="Words of a title or abstract, e.g. robotic knee")
        self.search.textChanged.connect(self.refresh)
        self.results = QListWidget()
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.count = QLabel()
        self.include_button = QPushButton(f"Mark selected as {relevant_label(core)}")
        self.include_button.clicked.connect(self.include_selected)
        self.results.itemSelectionChanged.connect(self._selection_changed)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.include_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(
            "Find records you already know are relevant and mark them, so the model learns "
            "from them before the first include in the queue.", wordWrap=True))
        layout.addWidget(self.search)
        layout.addWidget(self.count)
        layout.addWidget(self.results, 1)
        layout.addWidget(buttons)
        self.resize(640, 420)
        self.refresh()

    def refresh(self) -> None:
        """The records matching the search; decided ones show their label, unselectable."""
        text = self.search.text()
        found = find_in_screening(self.core.project, self.core.screening.id, text)
        self.results.clear()
        for record in found:
            label = self.core.labels.get(record.record_id)
            year = f" ({record.year})" if record.year else ""
            item = QListWidgetItem(f"{record.title}{year}" + (f" — {label}" if label else ""))
            item.setData(Qt.ItemDataRole.UserRole, record.record_id)
            if label:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.results.addItem(item)
        self.count.setText(f"{len(found):,} records of this screening contain “{text.strip()}”"
                           if text.strip() else "Type words to search the titles and abstracts")
        self._selection_changed()

    def _selection_changed(self) -> None:
        self.include_button.setEnabled(bool(self.results.selectedItems()))

    def include_selected(self) -> None:
        ids = [item.data(Qt.ItemDataRole.UserRole) for item in self.results.selectedItems()]
        note = f"known relevant, found by searching “{self.search.text().strip()}”"
        for record_id in ids:
            self.core.decide(relevant_label(self.core), record_id=record_id, stay=True,
                             note=note)
        self.refresh()
        self._included(len(ids))
