"""The one notification path: every error the user sees goes through here.

:func:`show_error` shows a readable message with a "Show Details" expander
(``QMessageBox.setDetailedText``). A :class:`~litqeval_gui.core.errors.LitqError`
is the user's message as is, with its ``details`` (facts such as a path or a pid) when
it has them, else its traceback; any other exception is described as an internal error
with its traceback in the details. Tests replace :data:`presenter` to capture calls.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from litqeval_gui.core.errors import LitqError


def describe(exc: BaseException) -> tuple[str, str]:
    """(message, details) for an exception, as the user should see them."""
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if isinstance(exc, LitqError):
        return str(exc), exc.details or details
    return (f"An internal error occurred: {type(exc).__name__}: {exc}\n"
            "Your project file is safe; the details below help us fix it."), details


def _message_box(parent: QWidget | None, title: str, message: str, details: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok,
                      parent)
    if details:
        box.setDetailedText(details)
    box.exec()


presenter: Callable[[QWidget | None, str, str, str], None] = _message_box


def show_error(parent: QWidget | None, title: str, error: BaseException | str) -> None:
    """Show ``error`` (an exception, with its details, or a plain message) to the user."""
    message, details = describe(error) if isinstance(error, BaseException) else (error, "")
    presenter(parent, title, message, details)
