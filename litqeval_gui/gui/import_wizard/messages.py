"""Message labels and error texts shared by the pages of the import wizard."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

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


class ElidedLabel(QLabel):
    """A one-line label that elides its text rather than widening its window; the whole
    text is its tooltip. It asks for at most ``max_chars`` average characters."""

    def __init__(self, text: str = "", mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
                 max_chars: int = 60, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._mode = mode
        self._max_chars = max_chars
        self.setToolTip(text)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802 — Qt override
        super().setText(text)
        self.setToolTip(text)

    def sizeHint(self) -> QSize:  # noqa: D102 — Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().averageCharWidth() * self._max_chars),
                     hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: D102 — Qt override
        return QSize(self.fontMetrics().horizontalAdvance("…") * 4, super().minimumSizeHint().height())

    def elided(self) -> str:
        """The text as shown at the label's width."""
        return self.fontMetrics().elidedText(self.text(), self._mode, self.contentsRect().width())

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 — Qt override
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()),
                                  self.palette(), self.isEnabled(), self.elided(),
                                  self.foregroundRole())
