"""Page 5 of the import wizard: the role each file was imported as, the counts of each
import, its problems and the report.

A result list's recall against the topic's core set is a row of the counts (issue 24),
its missed core works one click away (the link opens them)."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from litqeval_gui.core import evaluation
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.recall import ListRecall
from litqeval_gui.core.records.exporting import check_target, write_whole
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.import_wizard.list_settings import ROLE_NAMES
from litqeval_gui.gui.import_wizard.messages import message_label, show_error_text
from litqeval_gui.gui.import_wizard.screening_update import UpdateOffers
from litqeval_gui.gui.import_wizard.state import WizardState, describe_import
from litqeval_gui.gui.missed_core import (
    RecallLabel,
)
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.matches.dialog import MatchesDialog, open_matches_dialog


class SummaryPage(QWizardPage):
    """What each import did, the rejected records, the uncertain matches, the report."""

    ROWS = (("role", "Imported as"), ("read", "Read"), ("new", "New works"), ("in_file", "Duplicates within the file"),
            ("known", "Already in the topic"), ("matched", "Matched to core"),
            ("rejected", "Rejected"),
            ("uncertain", "Uncertain matches"), ("pending", "Core pending review"),
            ("recall", "Recall"))
    PENDING_TIP = ("Core works a result list misses only because a match awaits your "
                   "verdict: accepting it would retrieve them")

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self.setTitle("Summary")
        self.setSubTitle("What the import did. Save the report to keep it with your review.")
        self.headline = message_label()
        self.counts = QTableWidget(len(self.ROWS), 0)
        self.counts.setVerticalHeaderLabels([label for _, label in self.ROWS])
        keys = [key for key, _ in self.ROWS]
        for key, tip in (("role", "The role each file's list has in the topic: the core "
                                  "set (known relevant), search results or another list"),
                         ("in_file", "Entries of a work another entry of this file already "
                                     "holds: merged into one work"),
                         ("known", "Works of this file the topic already had, from any list "
                                   "(the core set included)"),
                         ("matched", "Core works this list contains (for a core set: its "
                                     "works found in some result list)"),
                         ("pending", self.PENDING_TIP),
                         ("recall", "Core works in the result list / core works of the "
                                    "topic; the link lists those missed")):
            self.counts.verticalHeaderItem(keys.index(key)).setToolTip(tip)
        self.counts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.counts.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.counts.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.counts.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.counts.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        self.counts.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.problems = QPlainTextEdit()
        self.problems.setReadOnly(True)
        self.problems_box = QGroupBox("Rejected records and notes")
        QVBoxLayout(self.problems_box).addWidget(self.problems)
        self.failures_label = message_label(error=True)
        self.matches_button = QPushButton("Review &uncertain matches…")
        self.matches_button.clicked.connect(self.review_matches)
        self.save_button = QPushButton("Save &report…")
        self.save_button.clicked.connect(self._save_clicked)
        self.matches_dialog: MatchesDialog | None = None
        self.recalls: dict[str, ListRecall] = {}  # result list name -> its recall
        self.updates = UpdateOffers(state, self)  # a search update grows a screening
        buttons = QHBoxLayout()
        buttons.addWidget(self.matches_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.counts)
        layout.addWidget(self.failures_label)
        layout.addWidget(self.updates)
        layout.addWidget(self.problems_box, 1)
        layout.addStretch(0)
        layout.addLayout(buttons)

    def summaries(self) -> list[ImportSummary]:
        """The summaries of the files imported, in the order they were imported."""
        return list(self._state.summaries.values())

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        summaries = self.summaries()
        topics = list(dict.fromkeys(s.topic for s in summaries)) or [self._topic()]
        self.headline.setText(
            f"{len(summaries)} list(s) imported into topic <b>{html.escape(topics[0])}</b>."
            if len(topics) == 1 else
            f"{len(summaries)} list(s) imported into {len(topics)} topics "
            f"({html.escape(', '.join(topics[:8]))}{', …' if len(topics) > 8 else ''}).")
        self.counts.setColumnCount(len(summaries))
        self.counts.setHorizontalHeaderLabels(
            [s.name if len(topics) == 1 else f"{s.topic}: {s.name}" for s in summaries])
        self.recalls = {}
        for col, summary in enumerate(summaries):
            recall = self._recall(summary)
            if recall is not None:
                self.recalls[summary.name] = recall
            for row, (key, _) in enumerate(self.ROWS):
                if key == "recall" and recall is not None:
                    self.counts.setCellWidget(row, col, self._recall_label(recall))
                    continue
                item = QTableWidgetItem(self._cell(key, summary, recall))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.counts.setItem(row, col, item)
        failures = self._state.failures
        show_error_text(self.failures_label, "\n".join(
            f"Not imported: {describe_import(key)}: {reason}" for key, reason in failures.items()))
        lines = [f"{s.name}: {p}" for s in summaries for p in s.problems]
        lines += [f"{s.name}: note: {n}" for s in summaries for n in s.notes]
        self.problems.setPlainText("\n".join(lines))
        self.problems_box.setVisible(bool(lines))
        self.updates.show_offers(summaries)
        uncertain = sum(s.uncertain for s in summaries)
        self.matches_button.setEnabled(uncertain > 0)
        self.matches_button.setText(f"Review {uncertain} &uncertain match(es)…" if uncertain
                                    else "No uncertain matches")

    @staticmethod
    def _cell(key: str, summary: ImportSummary, recall: ListRecall | None) -> str:
        """The text of row ``key`` for ``summary``: its role, a count, or – (no recall)."""
        if key == "role":
            return ROLE_NAMES[summary.role]
        if key == "pending":
            return "–" if recall is None else f"{recall.pending:,}"
        return "–" if key == "recall" else f"{getattr(summary, key):,}"

    def _recall(self, summary: ImportSummary) -> ListRecall | None:
        """A result list's recall (with its missed core and those pending review); None
        for a core or other list, or without a core set."""
        if summary.role != "results":
            return None
        try:
            return evaluation.recall_report(self._state.session.project, summary.topic,
                                            summary.name).lists[0]
        except LitqError:  # no core set yet
            return None

    def _recall_label(self, recall: ListRecall) -> QLabel:
        label = RecallLabel(compact=True)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.show_recall(recall)
        return label

    def report_text(self) -> str:
        """The text report of every import, then the files not imported."""
        text = "\n".join(s.report() for s in self.summaries())
        failures = self._state.failures
        return text + "".join(f"not imported: {describe_import(key)}: {why}\n"
                              for key, why in failures.items())

    def save_report(self, path: Path) -> None:
        """Write the report to ``path`` (whole or not at all; never onto the project or any
        SQLite database); a failure is shown, not raised."""
        text = self.report_text()
        try:
            check_target(Path(path), self._state.session.project.path)
            write_whole(path, lambda partial: partial.write_text(text, encoding="utf-8"),
                        "the report")
        except LitqError as exc:
            show_error(self, "Could not save the report", exc)

    def _save_clicked(self) -> None:
        first = next(iter(self.summaries()), None)
        settings = self._state.app_settings
        default = settings.last_dir / f"import-report-{first.name if first else 'lists'}.txt"
        chosen, _ = QFileDialog.getSaveFileName(self, "Save import report", str(default),
                                                "Text files (*.txt);;All files (*)")
        if chosen:
            self.save_report(Path(chosen))

    def review_matches(self) -> None:
        """Open the uncertain-matches dialog for the topic."""
        self.matches_dialog = open_matches_dialog(self._state.session, self._topic(), self)

    def _topic(self) -> str:
        """The topic the lists were imported into."""
        return self._state.settings.topic if self._state.settings else ""
