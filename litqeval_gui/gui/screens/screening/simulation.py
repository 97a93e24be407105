"""Simulation mode (issue 14 §6): replay a screening's records with known labels, over
several seeds, as a background job (progress, Cancel; the window stays live), then show
the recall curve as a band over the seeds with its median, WSS@95, nP@95, snP@95 and
last_rel with their spread, and where each stopping rule would have stopped and the
recall then. Everything is computed by
:func:`~litqeval_gui.core.screening.simulation.simulation_band.simulate_screening`."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.models import MODELS
from litqeval_gui.core.screening.simulation.simulation_band import (
    MEASURES,
    Band,
    LabelSource,
    Spread,
    label_sources,
    simulate_screening,
)
from litqeval_gui.gui.jobs import JobFactory, JobHandle
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plot_saving import ask_and_save_plot
from litqeval_gui.gui.plots.simulation import SimulationBandPlot
from litqeval_gui.gui.screens.screening.progress import rule_name
from litqeval_gui.gui.session import ProjectSession

MODEL_TEXT = {"logistic": "Logistic regression", "svm": "Linear SVM", "nb": "Naive Bayes"}
BANDS = {"min–max over seeds": (0.0, 100.0), "10th–90th percentile": (10.0, 90.0),
         "25th–75th percentile": (25.0, 75.0)}


def simulation_job(session: ProjectSession, screening: Screening, source: LabelSource,
                   **settings) -> JobFactory:
    """The job: a :class:`Band` read and computed on the job's own connection."""

    return session.worker_job(lambda project, token: simulate_screening(
        project, screening, source, token=token, **settings))


def spread_text(value: Spread, digits: int = 3, *, whole: bool = False) -> str:
    """``median (min–max)``; "—" when no seed defines it."""
    if not value.defined:
        return "—"
    shown = (lambda v: f"{v:,.0f}") if whole else (lambda v: f"{v:.{digits}f}")
    if value.low == value.high:
        return shown(value.median)
    return f"{shown(value.median)} ({shown(value.low)}–{shown(value.high)})"


class SimulationDialog(QDialog):
    """The settings on the left, Run/Cancel with progress, the results on the right."""

    def __init__(self, session: ProjectSession, screening: Screening,
                 parent: QWidget | None = None,
                 reviewer: Callable[[], str | None] = lambda: None) -> None:
        super().__init__(parent, windowTitle=f"Simulate screening: {screening.name}")
        self.setWindowFlag(Qt.WindowType.Window)
        self.session, self.screening = session, screening
        self.reviewer = reviewer  # who reads another screening's labels (blind: their own)
        self.job: JobHandle | None = None
        self.band: Band | None = None
        self.sources = QComboBox(toolTip="Which records are truly relevant")
        for source in label_sources(session.project, screening):
            self.sources.addItem(source.text, source)
        self.model = QComboBox()
        for key in MODELS:
            self.model.addItem(MODEL_TEXT.get(key, key), key)
        self.prior_included = QSpinBox(minimum=1, maximum=10_000, value=1, toolTip=(
            "Relevant records known before screening starts (drawn at random per seed)"))
        self.prior_excluded = QSpinBox(minimum=1, maximum=10_000, value=1, toolTip=(
            "Irrelevant records known before screening starts (drawn at random per seed)"))
        self.seed = QSpinBox(minimum=0, maximum=1_000_000, value=0)
        self.runs = QSpinBox(minimum=1, maximum=100, value=5,
                             toolTip="Runs with seeds first, first + 1, …; several give a band")
        self.band_choice = QComboBox(toolTip="What the shaded band spans over the seeds")
        for text, qs in BANDS.items():
            self.band_choice.addItem(text, qs)
        self.band_choice.currentIndexChanged.connect(lambda _index: self._draw())
        self.run_button = QPushButton("Run simulation")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel", enabled=False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(textVisible=True)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel(wordWrap=True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.plot = SimulationBandPlot()
        self.plot.setMinimumSize(420, 260)
        self.save_button = QPushButton("Save plot…", enabled=False)
        self.save_button.clicked.connect(self.ask_save)
        self.measures = self._table(("Measure", "Median (min–max) over seeds"))
        self.stops = self._table(("Stopping rule", "Stopped at", "Recall then", "Seeds stopped"))
        for column, tip in ((1, "Records screened when the rule first said stop: median "
                                "(min–max) over the seeds where it did"),
                            (2, "Recall at that point: median (min–max)"),
                            (3, "In how many runs the rule said stop before the end")):
            self.stops.horizontalHeaderItem(column).setToolTip(tip)
        self._layout()
        if not self.sources.count():
            self.run_button.setEnabled(False)
            self.status.setText("No known labels for these records: import a list with a "
                                "label column (1/0, yes/no, …), add a core set, or finish "
                                "another screening of this topic.")
        self.resize(1150, 720)

    @staticmethod
    def _table(headers: tuple[str, ...]) -> QTableWidget:
        table = QTableWidget(0, len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.verticalHeader().setVisible(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        return table

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow("Labels from", self.sources)
        form.addRow("Model", self.model)
        form.addRow("Prior relevant", self.prior_included)
        form.addRow("Prior irrelevant", self.prior_excluded)
        form.addRow("First seed", self.seed)
        form.addRow("Runs (seeds)", self.runs)
        form.addRow("Band", self.band_choice)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        settings = QGroupBox(f"Replay “{self.screening.name}” "
                             f"({self.screening.size:,} records)")
        left = QVBoxLayout(settings)
        left.addLayout(form)
        left.addLayout(buttons)
        left.addWidget(self.progress)
        left.addWidget(self.status)
        left.addStretch(1)
        results = QWidget()
        right = QVBoxLayout(results)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.plot, 1)
        save_row = QHBoxLayout()
        save_row.addStretch(1)
        save_row.addWidget(self.save_button)
        right.addLayout(save_row)
        tables = QHBoxLayout()
        tables.addWidget(self.measures, 2)
        tables.addWidget(self.stops, 3)
        right.addLayout(tables)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(settings)
        splitter.addWidget(results)
        splitter.setSizes([330, 820])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    # -- running -----------------------------------------------------------------------
    def run(self) -> None:
        """Start the simulation in the background (the window stays usable)."""
        if self.job is not None or self.sources.currentData() is None:
            return
        settings = {"model": self.model.currentData(),
                    "prior_included": self.prior_included.value(),
                    "prior_excluded": self.prior_excluded.value(),
                    "seed": self.seed.value(), "runs": self.runs.value(),
                    "reviewer": self.reviewer()}
        self.job = self.session.jobs.run(
            f"Simulating {self.screening.name}",
            simulation_job(self.session, self.screening, self.sources.currentData(), **settings),
            on_success=self._done, on_failure=self._failed, on_cancelled=self._cancelled,
            on_progress=self._progressed)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.status.setText("Starting…")

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.status.setText("Cancelling…")

    def _progressed(self, done: int, total: int, message: str) -> None:
        if self.job is None:
            return
        self.progress.setRange(0, max(total, 0))
        self.progress.setValue(done)
        self.status.setText(message)

    def _ended(self, text: str) -> None:
        self.job = None
        self.run_button.setEnabled(self.sources.count() > 0)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if self.band is not None else 0)
        self.status.setText(text)

    def _done(self, band: Band) -> None:
        if self.job is None:  # the window was closed meanwhile
            return
        self.band = band
        self._ended(f"{len(band.seeds)} run(s) of {band.records:,} records with "
                    f"{band.relevant:,} relevant, {MODEL_TEXT.get(band.model, band.model)}; "
                    f"{sum(band.seconds):.1f} s in all.")
        self._draw()

    def _failed(self, exc: BaseException) -> None:
        if self.job is None:
            return
        self._ended("The simulation failed.")
        show_error(self, "The simulation failed", exc)

    def _cancelled(self) -> None:
        if self.job is not None:
            self._ended("Cancelled; the results shown (if any) are from the previous run.")

    # -- showing ------------------------------------------------------------------------
    def _draw(self) -> None:
        band = self.band
        if band is None:
            return
        low_q, high_q = self.band_choice.currentData()
        median, low, high = band.curve(low_q, high_q)
        stops = [(rule_name(title), band.stopped_at(name).median)
                 for name, title in band.rules.items() if band.stopped_at(name).defined]
        self.plot.set_band(band.screened, median, low, high,
                           band_label=self.band_choice.currentText(),
                           total_relevant=band.relevant, stops=stops)
        self.save_button.setEnabled(True)
        rows = [(text, spread_text(band.measure(name), 1 if name == "last_rel" else 3))
                for name, text in MEASURES.items()]
        self._fill(self.measures, rows)
        self._fill(self.stops, [(
            rule_name(title), spread_text(band.stopped_at(name), whole=True),
            spread_text(band.recall_then(name)),
            f"{band.stopped_at(name).defined} of {len(band.seeds)}")
            for name, title in band.rules.items()])
        for row, title in enumerate(band.rules.values()):
            self.stops.item(row, 0).setToolTip(f"Source: {title}")

    @staticmethod
    def _fill(table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
        """The rows, the table exactly as tall as they are (the plot takes the rest)."""
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(text))
        table.resizeRowsToContents()
        table.setFixedHeight(table.horizontalHeader().height() + 2 * table.frameWidth()
                             + sum(table.rowHeight(r) for r in range(len(rows))))

    def results_text(self) -> str:
        """The measures as shown, one ``name: value`` a line (the tests read it)."""
        return "\n".join(f"{self.measures.item(r, 0).text()}: {self.measures.item(r, 1).text()}"
                         for r in range(self.measures.rowCount()))

    def ask_save(self) -> None:
        ask_and_save_plot(self, f"simulation-{self.screening.name}", self.plot.save)

    def done(self, result: int) -> None:
        """Esc, a close button or the window's close (QDialog's closeEvent rejects): the
        job is cancelled and whatever it still reports is dropped."""
        job, self.job = self.job, None
        if job is not None:
            job.cancel()
        super().done(result)
