"""Page 5 of the import wizard: the role each file was imported as, the counts of each
import, its problems and the report; imports into several topics (TREC files) also get a
table of what each topic received: its lists and their record counts.

A result list's recall against the topic's core set is a row of the counts, its missed
core works one click away (the link opens them). Every column is at least as wide as its
cells, whatever the number of lists or the font (a count always shows in full); a long
list name is elided in its header. The offer to review uncertain matches counts those
awaiting a verdict now (:func:`~litqeval_gui.core.records.matches.uncertain_count`),
updated as verdicts are given, not those the imports found."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QShowEvent
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
    QTabWidget,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from litqeval_gui.core import evaluation
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.recall import ListRecall
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records import matches
from litqeval_gui.core.records.exporting import check_target, write_whole
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.import_wizard.list_settings import role_name
from litqeval_gui.gui.import_wizard.messages import message_label, show_error_text
from litqeval_gui.gui.import_wizard.screening_update import UpdateOffers
from litqeval_gui.gui.import_wizard.state import WizardState, describe_import
from litqeval_gui.gui.missed_core import (
    RecallLabel,
)
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.matches.dialog import MatchesDialog, open_matches_dialog


class FittedTable(QTableWidget):
    """A table whose columns are as wide as their cells (a count never elided) and their
    headers, a header from column ``capped_from`` on at most :data:`HEADER_CHARS`
    characters wide (a long list name is elided); fitted again when the font or style
    changes and when shown."""

    HEADER_CHARS = 18

    def __init__(self, rows: int, columns: int, capped_from: int = 0,
                 parent: QWidget | None = None) -> None:
        super().__init__(rows, columns, parent)
        self.capped_from = capped_from
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)

    def fit_columns(self) -> None:
        """Each column as wide as its widest cell, and as its header up to the cap."""
        header = self.horizontalHeader()
        cap = self.fontMetrics().averageCharWidth() * self.HEADER_CHARS
        for col in range(self.columnCount()):
            head = header.sectionSizeHint(col)
            width = max(self.sizeHintForColumn(col),
                        head if col < self.capped_from else min(head, cap))
            header.resizeSection(col, width)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 — Qt override
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit_columns()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 — Qt override
        super().showEvent(event)
        self.fit_columns()


class CountsTable(FittedTable):
    """A table as tall as its rows that never asks for more than :data:`MAX_WIDTH` pixels
    (more columns scroll)."""

    MAX_WIDTH = 640

    def sizeHint(self) -> QSize:  # noqa: D102 — Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.MAX_WIDTH), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: D102 — Qt override
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), 200), hint.height())


class SummaryPage(QWizardPage):
    """What each import did, the rejected records, the uncertain matches, the report."""

    ROWS = (("role", "Imported as"), ("read", "Read"), ("new", "New works"), ("in_file", "Duplicates within the file"),
            ("known", "Already in the topic"), ("matched", "Matched to core"),
            ("rejected", "Rejected"),
            ("uncertain", "Uncertain matches"), ("pending", "Core pending review"),
            ("recall", "Recall"))
    TOPIC_COLUMNS = ("Topic", "Lists", "Read", "New works")
    PENDING_TIP = ("Core works a result list misses only because a match awaits your "
                   "verdict: accepting it would retrieve them")

    def __init__(self, state: WizardState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state = state
        self.setTitle("Summary")
        self.setSubTitle("What the import did. Save the report to keep it with your review.")
        self.headline = message_label()
        self.counts = CountsTable(len(self.ROWS), 0)
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
                         ("uncertain", "Uncertain matches this import found (the "
                                       "button below counts those awaiting a verdict now)"),
                         ("pending", self.PENDING_TIP),
                         ("recall", "Core works in the result list / core works of the "
                                    "topic; the link lists those missed")):
            self.counts.verticalHeaderItem(keys.index(key)).setToolTip(tip)
        self.counts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.counts.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.counts.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.counts.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        self.counts.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.topics_table = FittedTable(0, len(self.TOPIC_COLUMNS), len(self.TOPIC_COLUMNS))
        self.topics_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.topics_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.topics_table.setWordWrap(False)
        self.topics_table.verticalHeader().setVisible(False)
        self.tabs = QTabWidget()  # per topic (several topics only), per list
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.topics_table, "Per &topic")
        self.tabs.addTab(self.counts, "Per &list")
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
        state.session.changed.connect(self._project_changed)
        buttons = QHBoxLayout()
        buttons.addWidget(self.matches_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        layout = self._layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.tabs)
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
        files = len({key[0] for key in self._state.summaries})
        self.headline.setText(
            f"{len(summaries)} list(s) imported into topic <b>{html.escape(topics[0])}</b>."
            if len(topics) == 1 else
            f"{len(summaries)} list(s) imported into {len(topics)} topics "
            f"({html.escape(', '.join(topics[:8]))}{', …' if len(topics) > 8 else ''}) "
            f"from {files} file(s).")
        several = len(topics) > 1
        self.tabs.setTabVisible(0, several)
        self.tabs.tabBar().setVisible(several)
        self.tabs.setCurrentIndex(0 if several else 1)
        self._layout.setStretchFactor(self.tabs, int(several))  # the topics' table grows
        self._show_topics(summaries)
        self.counts.setColumnCount(len(summaries))
        self.counts.setHorizontalHeaderLabels(
            [s.name if len(topics) == 1 else f"{s.topic}: {s.name}" for s in summaries])
        header = self.counts.horizontalHeader()
        header.setTextElideMode(Qt.TextElideMode.ElideRight)  # the topic first
        for col in range(len(summaries)):
            item = self.counts.horizontalHeaderItem(col)
            item.setToolTip(item.text())
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
        named = {id(s): f"{s.topic}: {s.name}" if several else s.name for s in summaries}
        lines = [f"{named[id(s)]}: {p}" for s in summaries for p in s.problems]
        lines += [f"{named[id(s)]}: note: {n}" for s in summaries for n in s.notes]
        self.problems.setPlainText("\n".join(lines))
        self.problems_box.setVisible(bool(lines))
        self.counts.fit_columns()
        self.updates.show_offers(summaries)
        self.show_matches_offer()

    def uncertain_now(self) -> dict[str, int]:
        """Topic -> its matches awaiting a verdict now, for the topics imported into."""
        found = {}
        for topic in dict.fromkeys(s.topic for s in self.summaries()):
            try:
                found[topic] = matches.uncertain_count(self._state.session.project, topic)
            except LitqError:  # the topic is gone (deleted meanwhile)
                found[topic] = 0
        return found

    def show_matches_offer(self) -> None:
        """The review button with the number of matches awaiting a verdict now."""
        uncertain = sum(self.uncertain_now().values())
        self.matches_button.setEnabled(uncertain > 0)
        self.matches_button.setText(f"Review {uncertain:,} &uncertain match(es)…" if uncertain
                                    else "No uncertain matches")

    def _project_changed(self, changes: Changes, _initiator: object) -> None:
        if (changes.verdicts or changes.records) and self.summaries():
            self.show_matches_offer()

    def _show_topics(self, summaries: list[ImportSummary]) -> None:
        """One row per topic: its number of lists, the records read and new works, then
        the records read of each list (– where a file had no lines of the topic)."""
        names = list(dict.fromkeys(s.name for s in summaries))
        by_topic: dict[str, dict[str, ImportSummary]] = {}
        for summary in summaries:
            by_topic.setdefault(summary.topic, {})[summary.name] = summary
        table = self.topics_table
        table.setRowCount(len(by_topic))
        table.setColumnCount(len(self.TOPIC_COLUMNS) + len(names))
        table.setHorizontalHeaderLabels([*self.TOPIC_COLUMNS, *names])
        for col in range(len(self.TOPIC_COLUMNS), table.columnCount()):
            table.horizontalHeaderItem(col).setToolTip(
                f"Records read of list {names[col - len(self.TOPIC_COLUMNS)]} in each topic")
        table.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideMiddle)
        for row, (topic, made) in enumerate(by_topic.items()):
            cells = [topic, f"{len(made):,}", f"{sum(s.read for s in made.values()):,}",
                     f"{sum(s.new for s in made.values()):,}"]
            cells += [f"{made[n].read:,}" if n in made else "–" for n in names]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                else:
                    item.setToolTip(", ".join(f"{n} ({role_name(s.role)})"
                                              for n, s in made.items()))
                table.setItem(row, col, item)
        table.fit_columns()

    @staticmethod
    def _cell(key: str, summary: ImportSummary, recall: ListRecall | None) -> str:
        """The text of row ``key`` for ``summary``: its role, a count, or – (no recall)."""
        if key == "role":
            return role_name(summary.role)
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
        """The topic whose matches to review: the first with uncertain ones now, else the
        topic named on page 3, else the first imported into."""
        summaries = self.summaries()
        uncertain = next((topic for topic, n in self.uncertain_now().items() if n), "")
        named = self._state.settings.topic if self._state.settings else ""
        return uncertain or named or next((s.topic for s in summaries), "")
