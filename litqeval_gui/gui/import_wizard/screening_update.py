"""The import summary's offer to grow a running screening with a search update (issue 28
§4): for each result list imported into a topic whose title/abstract screening it can
grow (:func:`~litqeval_gui.core.screening.stopping.updates.updatable`), a line says how many of
its works are new to the screening, already screened or already queued, and a button
adds the new ones as the screening's next round
(:func:`~litqeval_gui.core.screening.stopping.updates.add_update_op`, on the write path). A
ranked screening is then ranked again by the project's model in the background, so the
new works enter the queue in the current model's order."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.retrain import has_ranking
from litqeval_gui.core.screening.stopping.updates import (
    UpdateReport,
    add_update_op,
    preview_update,
    updatable,
)
from litqeval_gui.gui.import_wizard.state import WizardState
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.screening.ranking import ranking_job
from litqeval_gui.gui.screens.screening.start import ask_reviewer


def offer_text(report: UpdateReport) -> str:
    """``U: 20 of its 40 works are new to screening “s” (10 already screened, …)``."""
    return (f"<b>{html.escape(report.list_name)}</b>: {report.added:,} of its "
            f"{report.works:,} works are new to screening “{html.escape(report.screening)}” "
            f"({report.already_screened:,} already screened, their decisions kept; "
            f"{report.already_queued:,} already in its queue)")


class UpdateOffers(QGroupBox):
    """One line and button per (imported result list, screening it can grow)."""

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__("Add to a running screening", parent)
        self._state = state
        self.grid = QGridLayout(self)
        self.lines: list[tuple[QLabel, QPushButton]] = []
        self.setVisible(False)

    def show_offers(self, summaries: list[ImportSummary]) -> None:
        """An offer for each result list of ``summaries`` and screening of its topic that
        has records and does not hold it yet."""
        for label, button in self.lines:
            label.deleteLater()
            button.deleteLater()
        self.lines = []
        project = self._state.session.project
        for summary in summaries:
            if summary.role != "results":
                continue
            for screening in updatable(project, summary.topic):
                try:
                    report = preview_update(project, screening, summary.import_id)
                except LitqError:  # already holds the list, or it is not there any more
                    continue
                self._add_line(report, screening, summary.import_id)
        self.setVisible(bool(self.lines))

    def _add_line(self, report: UpdateReport, screening: Screening, import_id: int) -> None:
        label = QLabel(offer_text(report), wordWrap=True)
        button = QPushButton(f"Add {report.added:,} new to “{screening.name}”" if report.added
                             else f"Add the list to “{screening.name}”")
        button.setToolTip("The new works become the screening's next round: the stopping "
                          "rules read it on its own; a ranked screening is ranked again")
        button.clicked.connect(lambda _checked=False: self.add(screening, import_id, label,
                                                               button))
        row = len(self.lines)
        self.grid.addWidget(label, row, 0)
        self.grid.addWidget(button, row, 1)
        self.grid.setColumnStretch(0, 1)
        self.lines.append((label, button))

    def add(self, screening: Screening, import_id: int, label: QLabel,
            button: QPushButton) -> None:
        """Add the list to the screening (asks the reviewer's name the first time)."""
        reviewer = ask_reviewer(self._state.app_settings, self)
        if not reviewer:
            return
        button.setEnabled(False)

        def added(done) -> None:
            report: UpdateReport = done.value
            label.setTextFormat(Qt.TextFormat.PlainText)  # its quotes are no entities
            label.setText(report.text())
            button.setText("Added")
            if report.added and has_ranking(self._state.session.project, screening.id):
                self._rank(screening)

        def failed(exc: BaseException) -> None:
            button.setEnabled(True)
            show_error(self, "The search update was not added", exc)

        self._state.session.write(add_update_op(screening, import_id, reviewer),
                                  initiator=self, on_success=added, on_failure=failed)

    def _rank(self, screening: Screening) -> None:
        """Rank the grown screening again by the project's model (a background job)."""
        session = self._state.session
        project = session.project
        grown = store.get_screening(project, screening.id)
        session.jobs.run(f"Ranking {grown.name}", ranking_job(
            session, grown, parameters.get(project, parameters.SCREENING_MODEL), None,
            parameters.get(project, parameters.SCREENING_QUESTION)),
            on_failure=lambda exc: show_error(None, "Ranking failed", exc))
