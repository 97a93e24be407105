"""The screener's note box (N): a note on the shown record, its lines wrapped at word
boundaries to the box's width (a long note is read without scrolling sideways);
Ctrl+Enter saves, Escape cancels."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

MIN_SIZE = (460, 240)


class NoteDialog(QDialog):
    """Edit ``text``, the shown record's note; :meth:`note` after ``accept``."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Note on this record")
        self.setMinimumSize(*MIN_SIZE)
        self.edit = QPlainTextEdit(text)
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.edit.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.edit.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.edit.setTabChangesFocus(True)  # Tab goes on to the buttons
        self.edit.moveCursor(self.edit.textCursor().MoveOperation.End)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.edit.installEventFilter(self)  # Ctrl+Enter saves (Enter is a new line)
        hint = QLabel("An empty note removes it · Ctrl+Enter saves · Esc cancels",
                      wordWrap=True)
        hint.setStyleSheet("color: palette(placeholder-text)")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Note on this record:"))
        layout.addWidget(self.edit, 1)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def note(self) -> str:
        return self.edit.toPlainText()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 — Qt override
        if (watched is self.edit and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.accept()
            return True
        return super().eventFilter(watched, event)


def ask_note(text: str, parent: QWidget | None) -> tuple[str, bool]:
    """The note as edited and whether it was saved (as ``QInputDialog`` answers)."""
    dialog = NoteDialog(text, parent)
    try:
        saved = dialog.exec() == QDialog.DialogCode.Accepted
        return dialog.note(), saved
    finally:
        dialog.deleteLater()  # gone, so the screen's window is the active one again
