"""Message labels and error texts shared by the pages of the import wizard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.gui.notify import describe, show_error

_ERROR_STYLE = ("QLabel { color: #8a1010; background: #fdecea; border: 1px solid #f1b0ad;"
                " border-radius: 3px; padding: 6px; }")


def failure_text(parent: QWidget | None, title: str, exc: BaseException) -> str:
    """The readable text of ``exc`` for the page; unexpected errors also go to show_error."""
    if not isinstance(exc, LitqError):
        show_error(parent, title, exc)
    return describe(exc)[0]


def message_label(error: bool = False) -> QLabel:
    """A wrapped, selectable label; an error label is red and hidden until it has text."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if error:
        label.setStyleSheet(_ERROR_STYLE)
        label.hide()
    return label


def show_error_text(label: QLabel, text: str) -> None:
    """Show ``text`` in the error ``label``; no text hides it."""
    label.setText(text)
    label.setVisible(bool(text))
