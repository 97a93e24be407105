"""File ▸ Switch Reviewer…: who screens from now on, a name already used in the project's
screenings (:func:`~litqeval_gui.core.projectfile.reviewers.reviewer_names`) or a new one.

The name goes into the window's :class:`~litqeval_gui.gui.settings.Settings` (kept for the
next start); the window then says who screens in its status bar and tells its open
screens (their ``reviewer_changed``), so decisions made from then on carry the new name
and a blind screening shows the new reviewer's own decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.projectfile.reviewers import reviewer_names
from litqeval_gui.core.records.lists import plain_name


class SwitchReviewerDialog(QDialog):
    """The names ``used`` in the project (a click takes one, a double click switches to
    it) and a field for any name, filled with the ``current`` one; OK needs a name."""

    def __init__(self, current: str, used: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Switch Reviewer")
        self.used = QListWidget(toolTip="The reviewers who have decided in this project's "
                                "screenings")
        self.used.addItems([plain_name(name) for name in used])
        self.name = QLineEdit(current, placeholderText="Your name")
        self.name.setClearButtonEnabled(True)
        self.used.currentTextChanged.connect(self.name.setText)
        self.used.itemActivated.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.name.textChanged.connect(lambda text: self.ok.setEnabled(bool(plain_name(text))))
        self.ok.setEnabled(bool(plain_name(current)))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Who screens from now on? Every decision records the name."))
        if used:
            layout.addWidget(QLabel("Reviewers of this project:"))
            layout.addWidget(self.used)
        else:
            self.used.hide()
        layout.addWidget(QLabel("Name:"))
        layout.addWidget(self.name)
        layout.addWidget(buttons)
        self.name.setFocus()

    def chosen(self) -> str:
        """The name in the field as plain one-line text (:func:`plain_name`, as every
        decision stores it)."""
        return plain_name(self.name.text())

    def accept(self) -> None:
        if self.chosen():  # an empty name is refused: every decision needs one
            super().accept()


def switch_reviewer(window: Any) -> str | None:
    """Ask who screens from now on and make it so (``window.settings.reviewer``, saved);
    the name, or None when cancelled."""
    session = window.session
    used = reviewer_names(session.project) if session is not None else []
    dialog = SwitchReviewerDialog(window.settings.reviewer, used, window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    name = dialog.chosen()
    window.settings.reviewer = name
    window.settings.save()
    window.statusBar().showMessage(f"Screening as {name} from now on", 5000)
    return name
