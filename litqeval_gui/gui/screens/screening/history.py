"""The screening's past decisions (searchable; picking one shows it to change it) and the
audit view of one record's events."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.screening.log.labels import label_text
from litqeval_gui.core.screening.log.store import Event

AUDIT_COLUMNS = ("When (UTC)", "Event", "Label", "Reason", "Note", "Reviewer", "Ordering",
                 "Position", "Model")


ALL_TAGS = "All tags"


class HistoryList(QWidget):
    """Decided records, latest first, filtered by the search text (title, label or tag)
    and by a tag; ``picked(record_id)`` is called when one is activated."""

    def __init__(self, picked: Callable[[int], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit(placeholderText="Search decisions (title, label, tag)")
        self.search.setClearButtonEnabled(True)
        self.search.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # typed keys stay decisions
        self.tag = QComboBox(toolTip="Only the decisions with this tag")
        self.tag.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.tag.addItem(ALL_TAGS, None)
        self.tag.currentIndexChanged.connect(lambda _index: self._filter(self.search.text()))
        self._tags: dict[int, tuple[str, ...]] = {}
        hint = QLabel("Click a decision to show its record; a decision key then changes it.")
        hint.setWordWrap(True)
        self.list = QListWidget()
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # decision keys stay the screen's
        self.list.itemActivated.connect(lambda item: picked(item.data(Qt.ItemDataRole.UserRole)))
        self.list.itemClicked.connect(lambda item: picked(item.data(Qt.ItemDataRole.UserRole)))
        self.search.textChanged.connect(self._filter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.tag)
        layout.addLayout(top)
        layout.addWidget(hint)
        layout.addWidget(self.list, 1)

    def show_history(self, rows: list[tuple[int, str, str, tuple[str, ...]]]) -> None:
        """``rows`` = (record id, label, title, tags) in decision order."""
        self.list.clear()
        self._tags = {record_id: tags for record_id, _label, _title, tags in rows}
        for record_id, label, title, tags in reversed(rows):
            marks = "".join(f"  #{tag}" for tag in tags)
            item = QListWidgetItem(f"[{label_text(label)}]{marks}  {title}")
            item.setData(Qt.ItemDataRole.UserRole, record_id)
            item.setToolTip(title + (f"\nTags: {', '.join(tags)}" if tags else ""))
            self.list.addItem(item)
        self._offer_tags(sorted({t for tags in self._tags.values() for t in tags},
                                key=str.casefold))
        self._filter(self.search.text())

    def _offer_tags(self, tags: list[str]) -> None:
        """The tag filter's choices; the chosen tag stays chosen while it exists."""
        chosen = self.tag.currentData()
        self.tag.blockSignals(True)
        self.tag.clear()
        self.tag.addItem(ALL_TAGS, None)
        for tag in tags:
            self.tag.addItem(f"#{tag}", tag)
        self.tag.setCurrentIndex(max(0, self.tag.findData(chosen)))
        self.tag.setEnabled(bool(tags))  # nothing to choose before the first tag
        self.tag.blockSignals(False)

    def _filter(self, text: str) -> None:
        needle = text.strip().casefold()
        tag = self.tag.currentData()
        for row in range(self.list.count()):
            item = self.list.item(row)
            record_id = item.data(Qt.ItemDataRole.UserRole)
            item.setHidden((bool(needle) and needle not in item.text().casefold())
                           or (tag is not None and tag not in self._tags.get(record_id, ())))

    def visible_ids(self) -> list[int]:
        return [self.list.item(r).data(Qt.ItemDataRole.UserRole) for r in range(self.list.count())
                if not self.list.item(r).isHidden()]


def audit_rows(events: list[Event]) -> list[tuple[str, ...]]:
    """One table row per event (undo and redo name the event they take back or restore)."""
    rows = []
    for e in events:
        kind = e.kind if e.target is None else f"{e.kind} of #{e.target}"
        rows.append((e.at[:19].replace("T", " "), f"#{e.id} {kind}", label_text(e.label), e.reason, e.note,
                     e.reviewer, e.ordering, "" if e.position is None else str(e.position),
                     e.model))
    return rows


class AuditDialog(QDialog):
    """Every event about one record, oldest first."""

    def __init__(self, title: str, events: list[Event], parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle=f"History of “{title[:60]}”")
        rows = audit_rows(events)
        self.table = QTableWidget(len(rows), len(AUDIT_COLUMNS))
        self.table.setHorizontalHeaderLabels(AUDIT_COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(900, 300)
