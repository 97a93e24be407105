"""The pooling screen's Simulation tab: SPEC §4 on the topic's imported TREC runs and
qrels. The grid (the thesis' 500 settings or the presets), MAP or recall@1000 and the
full depth are chosen here; the job (:func:`~litqeval_gui.core.trec.simulate.simulate_job`)
runs in the background with progress and Cancel. Shown: τ vs effort and RMS vs effort
with the frontier settings highlighted, and a sortable table of every setting; the table
exports CSV, the plots PNG or SVG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import CancelToken
from litqeval_gui.core.pooling.simulation import (
    collection_lists,
    topic_collection,
    write_settings_csv,
)
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.trec.simulate import simulate_job
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plot_saving import ask_and_save_plot
from litqeval_gui.gui.plots.curves import FrontierPlot
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.metrics.pool_simulation import DEFAULT_LOW_YIELD

GRIDS = {"thesis": "All 500 settings (thesis grid)", "presets": "The two presets",
         "aggressive": "Aggressive only", "relaxed": "Relaxed only"}
MEASURES = {"map": "MAP", "recall@1000": "Recall@1000"}
# (header, key, digits): digits None = an integer parameter, "flag" = a frontier flag
COLUMNS = (("w", "w", None), ("W", "W", None), ("t", "t", 2), ("l", "l", None),
           ("E", "E", 3), ("R", "R", 3), ("τ", "tau", 3), ("τ_AP", "tau_ap", 3),
           ("RMS", "rms", 4), ("τ frontier", "frontier_tau", "flag"),
           ("RMS frontier", "frontier_rms", "flag"))


def setting_label(row: dict) -> str:
    return (f"w={row['w']}, W={row['W']}, t={row['t']:g}, l={row['l']}: E {row['E']:.3f}, "
            f"R {row['R']:.3f}, τ {row['tau']:.3f}, RMS {row['rms']:.4f}")


class _Number(QTableWidgetItem):
    """A cell sorted by its value (NaN last), shown rounded."""

    def __init__(self, value, digits) -> None:
        number = float("nan") if value is None else float(value)
        text = "–" if number != number else (f"{number:.{digits}f}" if digits else f"{number:g}")
        super().__init__(text)
        self.value = number
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        mine, theirs = self.value, getattr(other, "value", 0.0)
        if mine != mine:
            return False
        return theirs != theirs or mine < theirs


class SimulationTab(QWidget):
    """The tab; ``rows`` holds the last result's settings (empty before a run)."""

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.topic = session, topic
        self.rows: list[dict] = []
        self.job: JobHandle | None = None
        self.grid = QComboBox()
        for key, text in GRIDS.items():
            self.grid.addItem(text, key)
        self.measure = QComboBox(toolTip="The measure runs are ranked by, under reduced and "
                                         "full judgements")
        for key, text in MEASURES.items():
            self.measure.addItem(text, key)
        self.depth = QSpinBox(minimum=1, maximum=10_000, value=100, toolTip="The full depth")
        self.low_yield = QCheckBox("&Low-yield rule", checked=True)
        self.low_yield.setToolTip(f"Pool to the full depth when nrels({DEFAULT_LOW_YIELD.depth})"
                                  f" / pool size ≤ {DEFAULT_LOW_YIELD.max_ratio:g}")
        self.run_button = QPushButton("&Run simulation")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.csv_button = QPushButton("Export table…")
        self.csv_button.clicked.connect(self._ask_csv)
        self.plots_button = QPushButton("Save plots…")
        self.plots_button.clicked.connect(self._ask_plots)
        self.status = QLabel(wordWrap=True)
        self.tau_plot = FrontierPlot(title="Kendall's τ vs effort", y_label="Kendall's τ")
        self.rms_plot = FrontierPlot(title="RMS error vs effort", y_label="RMS error",
                                     legend="top right")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([c[0] for c in COLUMNS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSortingEnabled(True)
        for plot in (self.tau_plot, self.rms_plot):
            plot.setting_clicked.connect(self.select_setting)

        bar = QHBoxLayout()
        for text, box in (("Se&ttings", self.grid), ("Rank runs &by", self.measure),
                          ("&Depth", self.depth)):
            label = QLabel(text)
            label.setBuddy(box)
            bar.addWidget(label)
            bar.addWidget(box)
        bar.addWidget(self.low_yield)
        bar.addStretch(1)
        actions = QHBoxLayout()  # a row of its own: the screen fits 1200 px wide
        actions.addWidget(self.run_button)
        actions.addWidget(self.progress)
        actions.addWidget(self.cancel_button)
        actions.addStretch(1)
        actions.addWidget(self.csv_button)
        actions.addWidget(self.plots_button)
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.addWidget(self.tau_plot)
        plots.addWidget(self.rms_plot)
        self.results = QSplitter(Qt.Orientation.Vertical)
        self.results.addWidget(plots)
        self.results.addWidget(self.table)
        self.results.setSizes([420, 300])
        self.empty = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.results)
        self.stack.addWidget(self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(actions)
        layout.addWidget(self.status)
        layout.addWidget(self.stack, 1)
        self._set_running(False)
        self.refresh()

    def refresh(self) -> None:
        """Show the empty state when the topic has no runs or qrels to simulate on."""
        try:
            collection_lists(self.session.project, self.topic)
        except LitqError as exc:
            text = str(exc)
            self.empty.setText(f"{text[:1].upper()}{text[1:]} (File ▸ Import…).")
            self.stack.setCurrentWidget(self.empty)
            self.run_button.setEnabled(False)
            return
        self.run_button.setEnabled(self.job is None)
        if self.rows:
            self.stack.setCurrentWidget(self.results)
            return
        self.empty.setText("Run the simulation to pool the topic's imported runs against its "
                           "complete qrels under every setting chosen, and to see each "
                           "setting's effort, Kendall's τ and RMS error.")
        self.stack.setCurrentWidget(self.empty)

    # -- running ---------------------------------------------------------------------

    def run(self) -> None:
        if self.job is not None:
            return
        try:
            runs, _judged = collection_lists(self.session.project, self.topic)
        except LitqError as exc:
            self.status.setText(str(exc))
            return
        if self.low_yield.isChecked() and self.depth.value() < DEFAULT_LOW_YIELD.depth:
            self.status.setText(f"The low-yield rule needs a depth of at least "
                                f"{DEFAULT_LOW_YIELD.depth}: raise the depth or turn the "
                                "rule off.")
            return
        options = {"depth": self.depth.value(), "grid": self.grid.currentData(),
                   "measure": self.measure.currentData(),
                   "low_yield": self.low_yield.isChecked()}
        self._set_running(True)
        self.status.setText(f"Simulating {len(runs)} runs…")
        if not self.rows:
            self.empty.setText("Simulating…")
        topic = self.topic

        def job(project: Project, token: CancelToken):  # the runs are read on the job's thread
            files, qrels = topic_collection(project, topic)
            return (yield from simulate_job(files, qrels, token=token, **options))

        self.job = self.session.jobs.run(
            f"Pool simulation · {topic}", self.session.worker_job(job),
            on_success=self._succeeded, on_failure=self._failed,
            on_cancelled=self._cancelled, on_progress=self._progressed)

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.status.setText("Cancelling…")

    def _set_running(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.run_button.setEnabled(not running)
        for widget in (self.grid, self.measure, self.depth, self.low_yield):
            widget.setEnabled(not running)
        has_rows = bool(self.rows) and not running
        self.csv_button.setEnabled(has_rows)
        self.plots_button.setEnabled(has_rows)
        if running:
            self.progress.setRange(0, 0)

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.progress.setRange(0, max(total, 0))
        self.progress.setValue(min(done, total) if total else 0)

    def _ended(self) -> None:
        self.job = None
        self._set_running(False)
        self.refresh()

    def _succeeded(self, document: dict) -> None:
        self.show_result(document)
        self._ended()

    def _failed(self, exc: BaseException) -> None:
        self._ended()
        self.status.setText(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    def _cancelled(self) -> None:
        self._ended()
        self.status.setText("Simulation cancelled; nothing was changed.")

    # -- showing ---------------------------------------------------------------------

    def show_result(self, document: dict) -> None:
        rows = document["settings"]
        self.rows = rows
        measure = MEASURES[document["measure"]]
        effort = [r["E"] for r in rows]
        labels = [setting_label(r) for r in rows]
        self.tau_plot.set_points(effort, [r["tau"] for r in rows],
                                 [r["frontier_tau"] for r in rows], labels=labels)
        self.rms_plot.set_points(effort, [r["rms"] for r in rows],
                                 [r["frontier_rms"] for r in rows], labels=labels)
        self.tau_plot.setLabel("left", f"Kendall's τ ({measure})")
        self.rms_plot.setLabel("left", f"RMS error of {measure}")
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, (_, key, digits) in enumerate(COLUMNS):
                if digits == "flag":
                    item = QTableWidgetItem("yes" if row[key] else "")
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                else:
                    item = _Number(row[key], digits)
                if c == 0:
                    item.setData(Qt.ItemDataRole.UserRole, r)
                self.table.setItem(r, c, item)
        self.table.setSortingEnabled(True)
        self.table.sortItems(4, Qt.SortOrder.AscendingOrder)  # cheapest settings first
        self.table.resizeColumnsToContents()
        self.stack.setCurrentWidget(self.results)
        on_tau = sum(r["frontier_tau"] for r in rows)
        on_rms = sum(r["frontier_rms"] for r in rows)
        self.status.setText(
            f"{len(rows)} settings · {document['runs']} runs ranked by {measure} · depth "
            f"{document['depth']} · {on_tau} on the effort/τ frontier, {on_rms} on the "
            "effort/RMS frontier (click a point to find its row)")
        self._set_running(self.job is not None)

    def select_setting(self, index: int) -> None:
        """Select the table row of setting ``index`` (a plot point was clicked)."""
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) == index:
                self.table.selectRow(r)
                self.table.scrollToItem(self.table.item(r, 0))
                return

    # -- exporting -------------------------------------------------------------------

    def export_csv(self, path: Path) -> Path:
        return write_settings_csv(self.rows, path)

    def export_plots(self, path: Path) -> list[Path]:
        """τ vs effort to ``path``, RMS vs effort beside it (``-rms``), PNG or SVG."""
        path = Path(path)
        return [self.tau_plot.save(path),
                self.rms_plot.save(path.with_name(f"{path.stem}-rms{path.suffix}"))]

    def _ask_csv(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Export settings table",
                                              f"pool-simulation-{self.topic}.csv",
                                              "CSV table (*.csv)")
        if name:
            try:
                self.export_csv(Path(name))
            except LitqError as exc:
                show_error(self, "The table was not saved", exc)

    def _ask_plots(self) -> None:
        ask_and_save_plot(self, f"pool-simulation-{self.topic}", self.export_plots, "Save Plots")
