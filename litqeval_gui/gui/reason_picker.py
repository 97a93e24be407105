"""The quick exclusion-reason picker of the screener (E at full text, R in either phase)
and the conflicts screen (a full-text exclusion needs a reason): the screening's reasons
numbered, a digit (1–9) picks one at once, typing filters them (Enter takes the
highlighted one, or the typed text as a new reason when none matches), ↑/↓ move,
Escape cancels."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.records.lists import plain_name

FULL_TEXT_PROMPT = "A full-text exclusion needs a reason:"
MIN_WIDTH = 440  # the title (with the app's name after it) and long reasons readable


class ReasonPicker(QDialog):
    """Pick one of ``reasons`` (or type a new one); :attr:`reason` after ``accept``.
    ``prompt``: the line above the filter."""

    def __init__(self, reasons: Sequence[str], parent: QWidget | None = None, *,
                 prompt: str = FULL_TEXT_PROMPT) -> None:
        super().__init__(parent, windowTitle="Exclusion reason")
        self.setMinimumWidth(MIN_WIDTH)
        self.reasons = list(reasons)
        self.reason = ""
        self.filter = QLineEdit(placeholderText="Type to filter, or a new reason")
        self.filter.textChanged.connect(self._filter)
        self.filter.installEventFilter(self)
        self.list = QListWidget()
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay in the filter
        self.list.itemActivated.connect(lambda item: self._take(item.data(Qt.ItemDataRole.UserRole)))
        for number, reason in enumerate(self.reasons, 1):
            text = f"{number}  {reason}" if number <= 9 else f"    {reason}"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, reason)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        hint = QLabel("1–9 picks · type to filter · ↑/↓ move · Enter takes · Esc cancels"
                      if self.reasons else "Type a reason · Enter takes · Esc cancels")
        hint.setStyleSheet("color: palette(placeholder-text)")
        self.list.setVisible(bool(self.reasons))  # none yet: the filter alone, for typing
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(prompt))
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        layout.addWidget(hint)
        self.filter.setFocus()

    def _shown(self) -> list[QListWidgetItem]:
        return [self.list.item(i) for i in range(self.list.count())
                if not self.list.item(i).isHidden()]

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(needle not in item.data(Qt.ItemDataRole.UserRole).lower())
        shown = self._shown()
        self.list.setCurrentItem(shown[0] if shown else None)

    def _move(self, step: int) -> None:
        shown = self._shown()
        if shown:
            at = shown.index(self.list.currentItem()) if self.list.currentItem() in shown else 0
            self.list.setCurrentItem(shown[min(max(at + step, 0), len(shown) - 1)])

    def _take(self, reason: str) -> None:
        self.reason = plain_name(reason)  # as the screening's list stores it
        if self.reason:
            self.accept()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt override
        if watched is self.filter and event.type() == QEvent.Type.KeyPress:
            key, text = event.key(), event.text()
            if not self.filter.text() and text.isdigit() and 1 <= int(text) <= min(
                    9, len(self.reasons)):
                self._take(self.reasons[int(text) - 1])
                return True
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self._move(-1 if key == Qt.Key.Key_Up else 1)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                item = self.list.currentItem()
                self._take(item.data(Qt.ItemDataRole.UserRole) if item and not item.isHidden()
                           else self.filter.text())
                return True
        return super().eventFilter(watched, event)


def pick_reason(reasons: Sequence[str], parent: QWidget | None, *,
                prompt: str = FULL_TEXT_PROMPT) -> str:
    """The reason picked (or typed); empty when cancelled."""
    picker = ReasonPicker(reasons, parent, prompt=prompt)
    try:
        return picker.reason if picker.exec() == QDialog.DialogCode.Accepted else ""
    finally:
        picker.deleteLater()  # gone, so the screen's window is the active one again
