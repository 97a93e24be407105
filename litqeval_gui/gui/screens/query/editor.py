"""The query editor: plain text, monospaced, wrapped to its width; it marks where a query
cannot be read and which part of it a clause of the tree is. Marks take their colours
from the palette, so they read in the light and the dark theme alike."""

from __future__ import annotations

import re

from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextOption,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

LINES_SHOWN = 4  # the editor's height at least, in lines of text
_TOKEN = re.compile(r"\S+")


def error_colour(widget: QWidget) -> QColor:
    """A red that reads on ``widget``'s background (light or dark)."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return QColor("#ff7b72" if dark else "#b3261e")


def flag_colour(widget: QWidget) -> QColor:
    """A translucent amber over ``widget``'s base: a flagged row, in either theme."""
    dark = widget.palette().color(QPalette.ColorRole.Base).lightness() < 128
    return QColor(255, 176, 32, 70 if dark else 90)


class QueryEditor(QPlainTextEdit):
    """A search query as typed; :meth:`mark_error` and :meth:`mark_span` underline or
    shade a part of it without moving the cursor (:meth:`go_to` does)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTabChangesFocus(True)  # Tab moves on; a query holds no tabs
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * LINES_SHOWN + 12)
        self._error: QTextEdit.ExtraSelection | None = None
        self._span: QTextEdit.ExtraSelection | None = None

    def replace_text(self, text: str) -> None:
        """Show ``text`` as one undoable edit (Ctrl+Z brings the text before back)."""
        if text == self.toPlainText():
            return
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self.setTextCursor(cursor)

    def _selection(self, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        size = len(self.toPlainText())
        cursor.setPosition(max(0, min(start, size)))
        cursor.setPosition(max(0, min(end, size)), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        return selection

    def token_end(self, at: int) -> int:
        """Where the token starting at ``at`` ends (at least one character on)."""
        m = _TOKEN.match(self.toPlainText(), at)
        return m.end() if m else at + 1

    def mark_error(self, at: int | None) -> None:
        """Underline the token at character ``at`` (0-based) in red; None: no mark."""
        if at is None:
            self._error = None
        else:
            fmt = QTextCharFormat()
            colour = error_colour(self)
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(colour)
            shade = QColor(colour)
            shade.setAlpha(60)
            fmt.setBackground(shade)
            end = self.token_end(at)
            if at >= len(self.toPlainText()):  # the query ends too soon: mark its end
                at, end = max(at - 1, 0), at
            self._error = self._selection(at, end, fmt)
        self._show_marks()

    def mark_span(self, span: tuple[int, int] | None) -> None:
        """Shade characters ``span`` (a clause chosen in the tree); None: no shade."""
        if span is None:
            self._span = None
        else:
            fmt = QTextCharFormat()
            shade = QColor(self.palette().color(QPalette.ColorRole.Highlight))
            shade.setAlpha(70)
            fmt.setBackground(shade)
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, False)
            self._span = self._selection(*span, fmt)
        self._show_marks()

    def _show_marks(self) -> None:
        self.setExtraSelections([s for s in (self._span, self._error) if s is not None])

    def go_to(self, at: int) -> None:
        """Put the cursor on character ``at`` and take the focus."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(max(0, min(at, len(self.toPlainText()))))
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        self.setFocus()
