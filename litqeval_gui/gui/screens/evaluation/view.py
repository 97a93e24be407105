"""The evaluation screen of one topic: the parameters, the comparison table and the
Landscape, Threshold, Decay and Overlap tabs (a
:class:`~litqeval_gui.gui.screens.Screen` opened on a topic's name).

Every evaluation runs as a background job (:func:`.adapter.evaluation_job`): vectors
and the map are computed there when missing or stale, stored results make a parameter
change quick. Recall is a set count: until the first evaluation arrives, the table shows
each list's works, recall and interval at once (:func:`.adapter.recall_row`) and the
missed core below it, the semantic columns waiting (issue 24). A parameter change (after a short pause) evaluates again; the settings
are stored once that evaluation succeeded, as ``litqeval evaluate`` does.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation import comparison, report_html
from litqeval_gui.core.evaluation.analysis import readiness
from litqeval_gui.core.evaluation.engine import ListEvaluation
from litqeval_gui.core.evaluation.recall import ListRecall, RecallReport, recall_report
from litqeval_gui.core.evaluation.settings import (
    EvaluationSettings,
    load_settings,
    save_settings_op,
)
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.query import report as query_report
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.exporting import check_target
from litqeval_gui.core.records.queries import record_detail
from litqeval_gui.gui import folders
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.missed_core import missed_html
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plots.fidelity import FidelityBadge
from litqeval_gui.gui.record_detail import detail_html
from litqeval_gui.gui.screens import TopicTarget
from litqeval_gui.gui.screens.evaluation.adapter import (
    ScreenData,
    cos_theta,
    evaluation_job,
    notes,
    recall_row,
    table_row,
)
from litqeval_gui.gui.screens.evaluation.parameters import ParameterBar
from litqeval_gui.gui.screens.evaluation.table import (
    ComparisonModel,
    comparison_view,
    fit_columns,
    rows_height,
)
from litqeval_gui.gui.screens.evaluation.tabs import (
    DecayTab,
    LandscapeTab,
    OverlapTab,
    ThresholdTab,
)
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

PAUSE_MS = 400  # after the last parameter change, evaluate
NO_CORE = ("This topic has no core set yet — import one (File ▸ Import…, role “core set”), "
           "then evaluate.")
NO_LISTS = ("This topic has no result lists yet — import a search export (File ▸ Import… or "
            "drop the file on the window), then evaluate.")
FIRST_RUN = ("Computing the topic's vectors and its 2D map in the background (the first time "
             "takes a while; later evaluations reuse them)…")
RECALL_FIRST = ("Recall is counted; the semantic precisions (…) wait for the topic's vectors "
                "and its 2D map, computed in the background (the first time takes a while).")
STALE = ("The topic's records changed since this evaluation: its map and these numbers are "
         "stale.")
TABLE_FILTER = "CSV table (*.csv);;Excel workbook (*.xlsx)"
REPORT_FILTER = "HTML report (*.html)"
NOTES_LINES = 4  # the notes below the table: at most this many lines, then they scroll
MISSED_LINES = 6  # the missed core below the table keeps at least this many lines


class NotesArea(QScrollArea):
    """The notes below the comparison: as tall as their text, at most
    :data:`NOTES_LINES` lines (then they scroll), so they never take the table's room."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self.setWidget(label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def fit(self) -> None:
        """As tall as the label's text at this width, up to :data:`NOTES_LINES` lines."""
        width = max(self.viewport().width(), 100)
        text = self.label.heightForWidth(width)
        most = NOTES_LINES * self.label.fontMetrics().lineSpacing() + 4
        self.setFixedHeight(max(0, min(text, most)) + 2 * self.frameWidth())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit()


class EvaluationView(TopicTarget, QWidget):
    """One topic's evaluation (module docstring)."""

    key = "evaluation"

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.topic = topic
        self.topic_id = session.project.topic_id(topic)
        self.data: ScreenData | None = None
        self.shown: list[ListEvaluation] | list[ListRecall] = []  # the table's lists
        self.stored = load_settings(session.project, topic)
        self.job = None
        self._job_settings: EvaluationSettings = self.stored  # what the running job uses
        self._again = False  # parameters changed while a job ran: evaluate once more
        self._settings = Settings()
        self._timer = QTimer(self, singleShot=True, interval=PAUSE_MS)
        self._timer.timeout.connect(self.evaluate)

        self.badge = FidelityBadge()
        self.problem = QLabel(wordWrap=True)
        self.problem.setStyleSheet("color: #a40000")
        self.stale = QLabel(STALE, wordWrap=True)
        self.stale_button = QPushButton("Re-evaluate")
        self.stale_button.clicked.connect(self.evaluate)
        self.progress_label = QLabel()
        self.progress = QProgressBar(maximumWidth=240, textVisible=False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.message = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        self.evaluate_button = QPushButton("Evaluate")
        self.evaluate_button.clicked.connect(self.evaluate)

        self.model = ComparisonModel(self)
        self.table = comparison_view(self.model)
        self.notes = QLabel(wordWrap=True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.notes_area = NotesArea(self.notes)
        self.landscape = LandscapeTab()
        self.landscape.record_clicked.connect(self.show_record)
        self.threshold = ThresholdTab()
        self.threshold.theta_chosen.connect(self.use_theta)
        self.decay = DecayTab()
        self.overlap = OverlapTab()
        self.tabs = QTabWidget(documentMode=True)
        self.tabs.addTab(self._comparison_page(), "Comparison")
        for widget, name in ((self.landscape, "Landscape"), (self.threshold, "Threshold"),
                             (self.decay, "Decay"), (self.overlap, "Overlap")):
            self.tabs.addTab(widget, name)
        self.pages = QStackedWidget()
        self.pages.addWidget(self._message_page())
        self.pages.addWidget(self.tabs)

        self.evaluate_action = make_action(self, "Evaluate Again", self.evaluate,
                                           shortcut="F5", scoped=True)
        self.export_table_action = make_action(self, "Export Table…", self.export_table,
                                               scoped=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.parameters = ParameterBar(self.stored)
        self.parameters.changed.connect(self._timer.start)
        layout.addWidget(self.parameters)
        layout.addLayout(self._status_bar())
        layout.addWidget(self.pages, 1)
        self._set_running(False)
        self.stale.hide()
        self.stale_button.hide()
        self.start()

    # -- the screen protocol ---------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Evaluation: {self.topic}"

    @property
    def tooltip(self) -> str:
        return f"Recall and semantic precision of {self.topic}'s result lists"

    def screen_actions(self) -> list[QAction]:
        return [self.evaluate_action, self.export_table_action]  # the report: File menu

    def save_state(self, settings: Settings) -> None:
        """Nothing beyond the project's own parameters is kept."""

    def restore_state(self, settings: Settings) -> None:
        self._settings = settings

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """A rename follows the topic; records or lists changing make the shown evaluation
        stale (flagged, evaluated again on request: a new map can take a while)."""
        if not self.follow_topic(changes):
            return
        if changes.records or changes.lists or changes.works:
            if self.data is not None:
                self.stale.show()
                self.stale_button.show()
            elif self.job is None:
                self.start()

    # -- building ------------------------------------------------------------------
    def use_theta(self, theta: float) -> None:
        """Adopt ``theta`` for SP cos (from the threshold analysis) and evaluate."""
        self.parameters.set_theta(theta)
        self.evaluate()

    def _status_bar(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for widget in (self.problem, self.stale, self.stale_button, self.progress_label):
            row.addWidget(widget)
        row.addStretch(1)
        for widget in (self.progress, self.cancel_button):
            row.addWidget(widget)
        return row

    def _message_page(self) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        column.addStretch(1)
        column.addWidget(self.message)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.evaluate_button)
        row.addStretch(1)
        column.addLayout(row)
        column.addStretch(2)
        font = self.message.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.message.setFont(font)
        return page

    def _comparison_page(self) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        top = QHBoxLayout()
        self.summary = QLabel(wordWrap=True)
        top.addWidget(self.summary, 1)
        top.addWidget(self.badge)
        self.export_button = QPushButton("Export Table…")
        self.export_button.clicked.connect(self.export_table)
        top.addWidget(self.export_button)
        column.addLayout(top)
        self.missed = QTextBrowser(openExternalLinks=True)
        self.missed.setPlaceholderText("Select a list to see the core works it missed.")
        self.split = QSplitter(Qt.Orientation.Vertical, childrenCollapsible=False)
        self.split.addWidget(self.table)
        self.split.addWidget(self.missed)
        self.split.setStretchFactor(1, 1)
        self.split.installEventFilter(self)  # its height: the table's room
        self.table.horizontalHeader().sectionResized.connect(self._fit_table)
        column.addWidget(self.split, 1)
        column.addWidget(self.notes_area)
        self.table.selectionModel().currentRowChanged.connect(self._show_missed)
        return page

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.split and event.type() == QEvent.Type.Resize:
            self._fit_table()
        return super().eventFilter(watched, event)

    def _fit_table(self, *_args: object) -> None:
        """The table as tall as its header and every row (the missed core below takes the
        rest), unless that would leave the missed core fewer than :data:`MISSED_LINES`
        lines: then the table scrolls."""
        room = self.split.height() - self.split.handleWidth() - (
            MISSED_LINES * self.missed.fontMetrics().lineSpacing() + 12)
        header = self.table.horizontalHeader().sizeHint().height()
        least = header + 2 * self.table.verticalHeader().defaultSectionSize()
        height = max(least, min(rows_height(self.table), room))
        if self.table.minimumHeight() != height:
            self.table.setFixedHeight(height)
        rest = self.split.height() - self.split.handleWidth() - height
        if self.split.sizes()[0] != height and rest > 0:
            self.split.setSizes([height, rest])

    def _show_missed(self, current) -> None:
        if not self.shown or not current.isValid():
            self.missed.clear()
            return
        row = self.table.model().mapToSource(current).row()
        self.missed.setHtml(missed_html(self.shown[row]))

    # -- evaluating ----------------------------------------------------------------
    def _empty_reason(self) -> str | None:
        project = self.session.project
        if queries.core_size(project, self.topic_id) == 0:
            return NO_CORE
        if not any(i.role == "results" for i in queries.lists(project, self.topic)):
            return NO_LISTS
        return None

    def start(self) -> None:
        """The empty state when there is nothing to evaluate, else evaluate."""
        reason = self._empty_reason()
        if reason is not None:
            self._show_message(reason, button=False)
            return
        self.evaluate()

    def evaluate(self) -> None:
        """Evaluate with the controls' settings in the background (once more after the
        running job when one runs)."""
        self._timer.stop()
        if self.job is not None:
            self._again = True
            return
        try:
            settings = self.parameters.settings()
        except LitqError as exc:
            self.problem.setText(str(exc))
            return
        self.problem.clear()
        if self._empty_reason() is not None:
            self.start()
            return
        first = readiness(self.session.project, self.topic, settings) != "ready"
        self.progress_label.setText(FIRST_RUN if first else "Evaluating…")
        if self.data is None:
            self._show_message(FIRST_RUN if first else "Evaluating…", button=False)
            self.show_recall(recall_report(self.session.project, self.topic))
        self._set_running(True)
        self._job_settings = settings
        self.job = self.session.jobs.run(
            f"Evaluating {self.topic}",
            evaluation_job(self.session.worker_project, self.topic, settings),
            on_success=self._succeeded,  # bound methods: dropped once the tab is deleted
            on_failure=self._failed, on_cancelled=self._cancelled,
            on_progress=self._progressed)

    def cancel(self) -> None:
        self._again = False
        if self.job is not None:
            self.job.cancel()
            self.progress_label.setText("Cancelling…")

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.progress.setRange(0, max(total, 0))
        self.progress.setValue(min(done, total) if total else 0)
        if message:
            self.progress_label.setText(message[:1].upper() + message[1:] + "…")

    def _set_running(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.progress_label.setVisible(running)
        if running:
            self.progress.setRange(0, 0)

    def _ended(self) -> None:
        self.job = None
        self._set_running(False)
        if self._again:
            self._again = False
            self.evaluate()

    def _succeeded(self, data: ScreenData) -> None:
        settings = self._job_settings
        if settings != self.stored:
            self.stored = settings
            self.session.write(save_settings_op(self.topic, settings), initiator=self)
        self.show_data(data)
        self._ended()

    def show_recall(self, report: RecallReport) -> None:
        """Before the first evaluation: each list's recall (set counts, at once) with its
        missed core, the semantic columns waiting and the other tabs disabled."""
        self.shown = report.lists
        self._fill_table([recall_row(item) for item in report.lists], low_fidelity=False)
        self.badge.hide()  # no map yet
        self.export_button.setEnabled(False)  # nothing evaluated to export
        self.summary.setText(f"{len(report.lists)} result lists against "
                             f"{report.lists[0].core} core works. {RECALL_FIRST}")
        self.notes_area.hide()
        for tab in range(1, self.tabs.count()):
            self.tabs.setTabEnabled(tab, False)
        self.tabs.setCurrentIndex(0)
        self.pages.setCurrentIndex(1)

    def _fill_table(self, rows: list, *, low_fidelity: bool) -> None:
        """Show ``rows`` (of :attr:`shown`), keeping the chosen row, the missed core of
        the chosen list below the table."""
        chosen = self.table.currentIndex()
        chosen = self.table.model().mapToSource(chosen).row() if chosen.isValid() else 0
        self.model.set_rows(rows, low_fidelity=low_fidelity)
        at = self.table.model().mapFromSource(self.model.index(
            min(chosen, len(rows) - 1), 0))
        self.table.setCurrentIndex(at)
        self._show_missed(at)
        fit_columns(self.table)
        self._fit_table()  # the missed core gets the rest

    def _failed(self, exc: BaseException) -> None:
        if self.data is None:
            self._show_message(f"The evaluation failed: {exc}", button=True)
        else:
            show_error(self, "The evaluation failed", exc)
        self._ended()

    def _cancelled(self) -> None:
        if self.data is None:
            self._show_message("The evaluation was cancelled; nothing shown yet. Evaluate "
                               "to start again (what was computed is kept).", button=True)
        self._ended()

    def _show_message(self, text: str, *, button: bool) -> None:
        self.message.setText(text)
        self.evaluate_button.setVisible(button)
        self.pages.setCurrentIndex(0)

    def show_data(self, data: ScreenData) -> None:
        """Fill the table and the tabs from one evaluation."""
        self.data = data
        evaluation = data.evaluation
        self.badge.set_fidelity(data.fidelity)
        self.badge.show()
        self.export_button.setEnabled(True)
        self.shown = evaluation.lists
        self._fill_table([table_row(item) for item in evaluation.lists],
                         low_fidelity=self.badge.low)
        for tab in range(1, self.tabs.count()):
            self.tabs.setTabEnabled(tab, True)
        theta = cos_theta(evaluation)
        if evaluation.settings.theta is None and theta is not None:
            self.parameters.show_theta(theta)
        info = evaluation.backend
        self.summary.setText(
            f"{len(evaluation.lists)} result lists against {evaluation.lists[0].core} core "
            f"works · {info.name} vectors ({info.model}) · {evaluation.map.method.upper()} map"
            f" · SP cos θ = {'—' if theta is None else f'{theta:.3f}'}"
            f"{' (from core)' if evaluation.settings.theta is None else ''}")
        self.notes.setText("\n".join(notes(evaluation)))
        self.notes_area.setVisible(bool(notes(evaluation)))
        self.notes_area.fit()
        for tab in (self.landscape, self.threshold, self.decay, self.overlap):
            tab.set_data(data)
        self.stale.hide()
        self.stale_button.hide()
        self.pages.setCurrentIndex(1)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the tab stops its evaluation (what was computed is kept); its answer,
        if it still comes, goes nowhere (the slots are this deleted widget's methods)."""
        self._timer.stop()
        if self.job is not None:
            self.job.cancel()
        super().closeEvent(event)

    # -- records and exports ---------------------------------------------------------
    def show_record(self, record_id: int) -> None:
        self.landscape.detail.setHtml(detail_html(record_detail(self.session.project,
                                                                record_id)))

    def _save_path(self, title: str, name: str, filters: str) -> Path | None:
        start = str(folders.save_folder(self._settings, self.session.project.path) / name)
        path, _ = QFileDialog.getSaveFileName(self, title, start, filters)
        return Path(path) if path else None

    def export_table(self) -> Path | None:
        """Write the comparison table as CSV or XLSX (by the suffix chosen)."""
        if self.data is None:
            return None
        path = self._save_path("Export Table", f"{self.topic} evaluation.csv", TABLE_FILTER)
        if path is None:
            return None
        if path.suffix.lower() not in (".csv", ".xlsx"):
            path = path.with_suffix(".csv")
        write = comparison.write_xlsx if path.suffix.lower() == ".xlsx" else comparison.write_csv
        return self._write(path, lambda: write(self.data.evaluation, path))

    def export_report(self) -> Path | None:
        """Write the self-contained HTML report of the evaluation shown."""
        if self.data is None:
            return None
        path = self._save_path("Export Evaluation Report", f"{self.topic} evaluation.html",
                               REPORT_FILTER)
        if path is None:
            return None
        if path.suffix.lower() not in (".html", ".htm"):
            path = path.with_suffix(".html")
        lists = queries.lists(self.session.project, self.topic)  # their queries, databases
        clauses = query_report.list_queries(self.session.project, self.topic)
        return self._write(path, lambda: report_html.write_report(self.data.evaluation, path,
                                                                  lists, clauses))

    def _write(self, path: Path, write) -> Path | None:
        try:
            check_target(path, self.session.project.path)
            write()
        except (LitqError, OSError) as exc:
            show_error(self, "Cannot export", exc)
            return None
        self._settings.last_dir = path.parent
        return path
