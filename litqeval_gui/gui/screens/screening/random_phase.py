"""The screener's "Switch to Random Sampling" (issue 28 §3): the Topic menu's action and
the side panel's button start the random phase of the screening's current round
(:meth:`~litqeval_gui.core.screening.session.ScreeningSession.start_random`). From then
on the queue serves the round's records in a seeded random order, and the stopping panel
gives the random-sample test's p-value, the random records remaining and the recall
estimate from that sample. The button says so when the recommended rule advises the
switch; once switched, the ordering choice is off (the random order is the test's)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QMessageBox, QPushButton, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping.panel import Panel
from litqeval_gui.gui.notify import show_error
from litqeval_gui.metrics.stopping import RandomSampleStop

TEXT = "Switch to Random Sampling…"  # the action (the Topic menu)
BUTTON = "Random sampling…"  # the side panel's button: narrow, the side must stay so
ADVISED = "Random sampling… (advised now)"
QUESTION = ("From now on this screening's records are served in a random order (seeded, "
            "kept with the project). The random-sample stop tests them: screen them in the "
            "order served, whatever they are. The ordering cannot be changed back for this "
            "round.\n\nSwitch to random sampling?")


class Screener(Protocol):
    """What the control needs of the screening view."""

    core: ScreeningSession
    ordering: QComboBox

    def _reviewer_known(self) -> bool: ...
    def show_current(self) -> None: ...
    def refresh_panel(self) -> None: ...


class RandomPhaseControl(QObject):
    """``action`` (for the Topic menu) and ``button`` (for the side panel) of ``view``."""

    def __init__(self, view: Screener, parent: QWidget) -> None:
        super().__init__(parent)
        self.view, self.parent_widget = view, parent
        self.action = QAction(TEXT, parent)
        self.button = QPushButton(BUTTON, toolTip=(
            "Screen the rest of this round in a random order: the random-sample stop "
            "(Callaghan & Müller-Hansen) then tells, with a p-value, when recall has "
            "reached its target"))
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.action.triggered.connect(self.ask_and_start)
        self.button.clicked.connect(lambda _checked=False: self.ask_and_start())

    def refresh(self) -> None:
        """Enabled while the round is ranked and has records left; the ordering choice is
        off in a random phase."""
        core = self.view.core
        self.action.setEnabled(not core.random_phase and core.shown is not None)
        self.button.setEnabled(self.action.isEnabled())
        self.button.setVisible(not core.random_phase)
        self.view.ordering.setEnabled(not core.random_phase)
        self.view.ordering.setToolTip(
            "Random sampling: the records come in the random order the stop's test needs"
            if core.random_phase else "How the records are ordered")

    def show_advice(self, panel: Panel) -> None:
        """The button says when the recommended rule advises switching now."""
        verdict = panel.verdict(RandomSampleStop.name)
        now = verdict is not None and verdict.decision.evidence.get("switch_to_random") == "now"
        self.button.setText(ADVISED if now else BUTTON)

    def ask_and_start(self) -> None:
        if not self.view._reviewer_known():
            return
        answer = QMessageBox.question(self.parent_widget, "Switch to random sampling", QUESTION)
        if answer == QMessageBox.StandardButton.Yes:
            self.start()

    def start(self, seed: int | None = None) -> None:
        """Switch now (a refusal is shown, nothing changes)."""
        try:
            self.view.core.start_random(seed, then=lambda _round: self.view.refresh_panel())
        except LitqError as exc:
            show_error(self.parent_widget, "Could not switch to random sampling", exc)
            return
        self.view.show_current()
