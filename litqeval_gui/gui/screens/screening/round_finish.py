"""The screener's "Finish Screening Round…": the reviewer's decision that the current
title/abstract round is done (:func:`~litqeval_gui.core.screening.stopping.finishing.finish_round_op`).
Asked with what the recommended stopping rule says now; once finished, the round's
records never screened are excluded by automation tools in PRISMA, and the side panel
says who finished it and when."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QWidget

from litqeval_gui.core.projectfile.writes import Done
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping.finishing import Finish, finish_round_op, finishes
from litqeval_gui.core.screening.stopping.panel import RECOMMENDED, Panel
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.session import ProjectSession

TEXT = "Finish Screening Round…"


class Screener(Protocol):
    """What the control needs of the screening view."""

    core: ScreeningSession
    session: ProjectSession

    def _reviewer_known(self) -> bool: ...
    def refresh_panel(self) -> None: ...


def question(panel: Panel | None, unscreened: int, number: int) -> str:
    """The confirmation's text: what finishing does, and the recommended rule's advice."""
    advice = ""
    if panel is not None:
        verdict = next((v for v in panel.verdicts if v.name == RECOMMENDED), None)
        if verdict is not None:
            said = "says you could stop" if verdict.decision.stop else \
                "still says keep screening"
            advice = f"\n\n{verdict.title.split(' (')[0]} {said}."
        if panel.estimate is not None:
            advice += f" Recall: {panel.estimate.text()}."
    return (f"Finish round {number}? Its {unscreened:,} records not screened will be counted "
            "as excluded by automation tools in the PRISMA diagram, which names the "
            "stopping rule and its evidence now. You can still decide records afterwards; "
            f"the finish itself cannot be taken back.{advice}")


class RoundFinishControl(QObject):
    """``action`` (for the Topic menu) of ``view``; ``status`` the line the side panel
    shows for a finished round ("" while it is open)."""

    def __init__(self, view: Screener, parent: QWidget) -> None:
        super().__init__(parent)
        self.view, self.parent_widget = view, parent
        self.action = QAction(TEXT, parent)
        self.action.setToolTip("Say this round is done: its unscreened records are then "
                               "excluded by automation tools in PRISMA")
        self.action.triggered.connect(self.ask_and_finish)
        self.panel: Panel | None = None
        self.status = ""

    def show_panel(self, panel: Panel) -> None:
        """Keep the latest reading (for the question) and enable the action while the
        panel's round is open."""
        self.panel = panel
        number = panel.round.number if panel.round is not None else 1
        done = finishes(self.view.session.project, self.view.core.screening.id).get(number)
        self.status = done.text() if done is not None else ""
        self.action.setEnabled(done is None)

    def ask_and_finish(self) -> None:
        if not self.view._reviewer_known():
            return
        panel = self.panel
        number = panel.round.number if panel is not None and panel.round is not None else 1
        unscreened = panel.n_total - panel.screened if panel is not None else 0
        answer = QMessageBox.question(self.parent_widget, "Finish screening round",
                                      question(panel, unscreened, number))
        if answer == QMessageBox.StandardButton.Yes:
            self.finish(number)

    def finish(self, number: int | None = None) -> None:
        """Finish the round now (a refusal is shown in one line, nothing changes)."""
        core = self.view.core

        def done(result: Done[Finish]) -> None:
            self.status = result.value.text()
            self.action.setEnabled(False)
            self.view.refresh_panel()

        self.view.session.write(
            finish_round_op(core.screening, core.reviewer, number), initiator=self,
            on_success=done,
            on_failure=lambda exc: show_error(self.parent_widget,
                                              "Could not finish the round", exc))
