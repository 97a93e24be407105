"""The full-text screener's offer of late records: those its title/abstract screening
passed on after the full text started (a resolved conflict, a search update's round;
:func:`~litqeval_gui.core.screening.fulltext.late_records`). A line above the record
says how many there are, with "Add them"; Topic ▸ Add Late Records to Full Text… does
the same and can send the maybes on too. They join this screening, where PRISMA counts
them."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.writes import Done
from litqeval_gui.core.screening.fulltext import add_late_op, late_records
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.session import ProjectSession

TEXT = "Add Late Records to Full Text…"


class Screener(Protocol):
    """What the control needs of the screening view."""

    core: ScreeningSession
    session: ProjectSession


class LateRecordsControl(QObject):
    """``action`` (the Topic menu) and ``bar`` (the line with "Add them") of a full-text
    ``view``; :meth:`refresh` reads how many records are late."""

    def __init__(self, view: Screener, parent: QWidget) -> None:
        super().__init__(parent)
        self.view, self.parent_widget = view, parent
        self.action = QAction(TEXT, parent)
        self.action.triggered.connect(self.ask_and_add)
        self.bar = QWidget()
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.text = QLabel(wordWrap=True)
        self.button = QPushButton("Add them")
        self.button.clicked.connect(lambda _checked=False: self.add(with_maybe=False))
        row.addWidget(self.text, 1)
        row.addWidget(self.button)
        self.late: list[int] = []
        self.maybes: list[int] = []

    def refresh(self) -> None:
        """Read the late records (and the maybes that could go on) and show the line."""
        project, screening = self.view.session.project, self.view.core.screening
        try:
            self.late = late_records(project, screening)
            self.maybes = [r for r in late_records(project, screening, with_maybe=True)
                           if r not in set(self.late)]
        except LitqError:  # a full text started without a title/abstract screening
            self.late, self.maybes = [], []
        self.text.setText(f"<b>{len(self.late):,}</b> record(s) passed title/abstract "
                          "after this full text started (a resolved conflict or a search "
                          "update): until they join it, PRISMA counts them as pending.")
        self.bar.setVisible(bool(self.late))
        self.action.setEnabled(bool(self.late or self.maybes))

    def ask_and_add(self) -> None:
        """Ask whether to send the maybes on too, then add."""
        if not self.late and not self.maybes:
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Add late records",
                          f"{len(self.late):,} record(s) passed title/abstract after this "
                          f"full text started; {len(self.maybes):,} more are maybes not sent "
                          "on. Add them to this full-text screening?", parent=self.parent_widget)
        only = box.addButton("Add the includes", QMessageBox.ButtonRole.AcceptRole)
        both = box.addButton("Add the includes and maybes", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        only.setEnabled(bool(self.late))
        box.exec()
        if box.clickedButton() in (only, both):
            self.add(with_maybe=box.clickedButton() is both)

    def add(self, *, with_maybe: bool) -> None:
        """Append the late records now; the screener reads them in once committed."""
        def done(result: Done[int]) -> None:
            self.refresh()

        self.view.session.write(
            add_late_op(self.view.core.screening, with_maybe=with_maybe), on_success=done,
            on_failure=lambda exc: show_error(self.parent_widget,
                                              "Could not add the late records", exc))
