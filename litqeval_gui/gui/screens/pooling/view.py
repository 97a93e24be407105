"""The pooling screen (opened on a topic), two tabs.

*Pool*: one of the topic's pools by depth, each run's contribution, static pools for
comparison, and effort vs relevant found across every pool of the project; "Advance
one depth" sends the next depth's unjudged records to the pool's screening through the
write path, "New pool…" opens :class:`.create.CreatePoolDialog`. Everything shown is
:func:`~litqeval_gui.core.pooling.state.pool_state`, re-read when decisions change.
*Simulation*: :class:`.simulation.SimulationTab` (SPEC §4 on the imported runs, qrels).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.pooling import state, store
from litqeval_gui.core.pooling.state import PoolState
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plot_saving import ask_and_save_plot
from litqeval_gui.gui.plots.curves import DepthPlot, integer_axes
from litqeval_gui.gui.plots.effort import EffortPlot
from litqeval_gui.gui.screens import LiveTopicScreen
from litqeval_gui.gui.screens.pooling.create import create_pool_dialog
from litqeval_gui.gui.screens.pooling.simulation import SimulationTab
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.tables import fill_table, read_only_table


def status_text(found: PoolState) -> str:
    """What the pool has done, each number named: depths released and judged, records
    judged, relevant and waiting, the critical depth and where the stop rule stops (and,
    when depths past it were released before the rule could tell, that it is so)."""
    d = found.decision
    k_cr = "not determined yet" if d.k_cr is None else f"depth {d.k_cr}"
    if found.finished:
        end = (f"the stop rule stops the pool at depth {d.stop_depth} ({found.why()}), "
               f"decided once depth {found.judged_depth} was judged")
        if found.released > d.stop_depth:
            end += (f"; depths {d.stop_depth + 1}–{found.released} were released before "
                    "it could decide")
    else:
        end = f"the stop rule waits: {found.why()}"
    return (f"{found.pool.settings.params.label()} · released depth {found.released}, "
            f"judged depth {found.judged_depth} · {found.effort} records judged, "
            f"{found.relevant} relevant, {len(found.pending)} waiting in screening "
            f"“pool: {found.pool.name}” · critical depth k_cr: {k_cr} · {end}")


class PoolingView(LiveTopicScreen, QWidget):
    key = "pooling"
    refresh_on = ("decisions", "lists")

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.topic = topic
        self.topic_id = session.project.topic_id(topic)
        self.states: list[PoolState] = []
        self.pool_box = QComboBox(toolTip="The topic's pools")
        self.pool_box.currentIndexChanged.connect(lambda _i: self.show_pool())
        self.advance_button = QPushButton("Advance one depth")
        self.advance_button.setToolTip("Send the next depth's unjudged records to the pool's "
                                       "screening")
        self.advance_button.clicked.connect(self.advance)
        self.while_judged_button = QPushButton("Advance while judged")
        self.while_judged_button.setToolTip(
            "Release depth after depth as long as nothing released waits for a judgement "
            "(e.g. with complete qrels), until the stop rule stops the pool or the runs end")
        self.while_judged_button.clicked.connect(self.advance_while_judged)
        self._advances: list[state.Advance] | None = None  # while advancing while judged
        self.new_button = QPushButton("New pool…")
        self.new_button.setToolTip("Pool some of the topic's runs: choose them, the "
                                   "judgements, the stop rule and the screening it feeds")
        self.new_button.clicked.connect(self.new_pool)
        self.new_action = QAction("New Pool…", self)
        self.new_action.triggered.connect(self.new_pool)
        self.export_button = QPushButton("Save plots…")
        self.export_button.clicked.connect(self._ask_export)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.depth_plot = DepthPlot()
        self.effort_plot = EffortPlot()
        integer_axes(self.effort_plot.getPlotItem(), "left", "bottom")  # records, counts
        self.effort_plot.apply_palette()
        self.contributions = read_only_table(["Run", "Relevant", "Only this run"])
        self.contributions.setToolTip("Per run: relevant records in its top ranks up to the "
                                      "released depth, and those no other run found there")
        self.static = read_only_table(["Static pool", "Size", "Relevant"])
        self.static.setToolTip("Static pools of the same runs and effort, for comparison "
                               "(relevant records known so far)")
        self.advance_action = QAction("Advance Pool One Depth", self)
        self.advance_action.triggered.connect(self.advance)
        self.while_judged_action = QAction("Advance Pool While Judged", self)
        self.while_judged_action.triggered.connect(self.advance_while_judged)
        side = QSplitter(Qt.Orientation.Vertical)
        side.addWidget(self.contributions)
        side.addWidget(self.static)
        side.addWidget(self.effort_plot)
        side.setSizes([200, 150, 350])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.depth_plot)
        self.splitter.addWidget(side)
        self.splitter.setSizes([600, 400])
        bar = QHBoxLayout()
        label = QLabel("P&ool")
        label.setBuddy(self.pool_box)
        bar.addWidget(label)
        bar.addWidget(self.pool_box, 1)
        bar.addWidget(self.advance_button)
        bar.addWidget(self.while_judged_button)
        bar.addWidget(self.new_button)
        bar.addWidget(self.export_button)
        self.empty = QWidget()
        empty_layout = QVBoxLayout(self.empty)
        empty_layout.addStretch(1)
        self.empty_text = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        empty_layout.addWidget(self.empty_text)
        self.empty_button = QPushButton("Create a pool…")
        self.empty_button.clicked.connect(self.new_pool)
        empty_layout.addWidget(self.empty_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_layout.addStretch(2)
        self.body = QStackedWidget()
        self.body.addWidget(self.splitter)
        self.body.addWidget(self.empty)
        pool_tab = QWidget()
        pool_layout = QVBoxLayout(pool_tab)
        pool_layout.setContentsMargins(0, 4, 0, 0)
        pool_layout.addLayout(bar)
        pool_layout.addWidget(self.status)
        pool_layout.addWidget(self.body, 1)
        self.simulation = SimulationTab(session, topic)
        self.tabs = QTabWidget()
        self.tabs.addTab(pool_tab, "&Pool")
        self.tabs.addTab(self.simulation, "&Simulation")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tabs, 1)
        self.refresh()

    # -- the screen protocol ---------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Pooling: {self.topic}"

    @property
    def tooltip(self) -> str:
        return f"Incremental pooling of topic {self.topic}"

    def screen_actions(self) -> list[QAction]:
        return [self.new_action, self.advance_action, self.while_judged_action]

    def project_changed(self, changes: Changes, initiator: object) -> None:
        if not self.follow_topic(changes):
            return
        self.simulation.topic = self.topic  # renamed, maybe
        if changes.lists or changes.records:
            self.simulation.refresh()
        self.refresh_if_touched(changes)

    def save_state(self, settings: Settings) -> None:
        settings.set_splitter_sizes(self.key, self.splitter.sizes())

    def restore_state(self, settings: Settings) -> None:
        sizes = settings.splitter_sizes(self.key)
        if sizes:
            self.splitter.setSizes(sizes)
        self.splitter.splitterMoved.connect(lambda *_: self.save_state(settings))

    # -- showing ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read every pool of the project (the effort plot spans topics)."""
        project = self.session.project
        self.states = [state.pool_state(project, pool) for pool in store.pools(project)]
        mine = [s.pool.name for s in self.states if s.pool.topic == self.topic]
        chosen = self.pool_box.currentText()
        self.pool_box.blockSignals(True)
        self.pool_box.clear()
        self.pool_box.addItems(mine)
        if chosen in mine:
            self.pool_box.setCurrentText(chosen)
        self.pool_box.blockSignals(False)
        self.effort_plot.set_curves({
            f"{s.pool.topic} / {s.pool.name}": (s.sizes[:s.judged_depth], s.nrels)
            for s in self.states})
        self.show_pool()

    def current(self) -> PoolState | None:
        name = self.pool_box.currentText()
        return next((s for s in self.states
                     if s.pool.topic == self.topic and s.pool.name == name), None)

    def show_pool(self) -> None:
        found = self.current()
        self.advance_button.setEnabled(found is not None and found.can_advance
                                       and self._advances is None)
        self.while_judged_button.setEnabled(self.advance_button.isEnabled()
                                            and not found.pending)
        self.advance_action.setEnabled(self.advance_button.isEnabled())
        self.while_judged_action.setEnabled(self.while_judged_button.isEnabled())
        self.body.setCurrentWidget(self.splitter if found else self.empty)
        self.pool_box.setEnabled(self.pool_box.count() > 0)
        self.status.setVisible(found is not None)
        self.export_button.setEnabled(found is not None)
        if found is None:
            self.empty_text.setText(
                f"Topic {self.topic} has no pool yet. A pool takes the topic's ranked runs "
                "(result lists, imported TREC runs, a screening's ranking or the cosine to "
                "the core set) and releases them depth by depth into a screening, until "
                "too few new relevant records turn up.")
            return
        d = found.decision
        params = found.pool.settings.params
        needs = params.window + params.rate_window
        shown = max(found.released, 1)
        depths = np.arange(1, shown + 1)
        nrels = np.full(shown, np.nan)
        nrels[:found.judged_depth] = found.nrels
        self.depth_plot.set_data(depths, nrels, found.sizes[:shown], found.rate,
                                 threshold=params.threshold,
                                 l_run=found.l_run, k_cr=d.k_cr,
                                 judged=found.judged_depth or None,
                                 rate_note=f"ŕ(1) needs depths 1–{needs} judged (w + W); "
                                           f"judged to {found.judged_depth}")
        self.status.setText(status_text(found))
        fill_table(self.contributions, [(c.run, c.relevant, c.only) for c in found.contributions()])
        fill_table(self.static, [(name, size, rel) for name, (size, rel)
                            in found.static_pools().items()])

    # -- acting ----------------------------------------------------------------------

    def new_pool(self) -> None:
        """Ask for a new pool of the topic and show it."""
        made = create_pool_dialog(self.session, self.topic, self)
        if made is not None:
            self.refresh()
            self.pool_box.setCurrentText(made.name)

    def advance(self) -> None:
        """Release the next depth of the shown pool through the write path."""
        found = self.current()
        if found is None:
            return
        try:
            depth, records = state.next_release(self.session.project, found.pool)
        except LitqError as exc:
            self.status.setText(str(exc))
            return
        self.advance_button.setEnabled(False)
        self.session.write(store.release_op(found.pool, depth, records), initiator=self,
                           on_success=lambda done: self._advanced(depth, done.value),
                           on_failure=self._failed)

    def advance_while_judged(self) -> None:
        """Advance one depth after another while nothing released waits for a judgement
        (each depth one write; :func:`~litqeval_gui.core.pooling.state.advance_while_judged`
        is the same loop on one connection, for the command line)."""
        self._advances = []
        self.advance()

    def _advanced(self, depth: int, added: int) -> None:
        done = state.Advance(depth, added)
        if self._advances is not None:
            self._advances.append(done)
        self.refresh()
        found = self.current()
        if (self._advances is not None and found is not None and found.can_advance
                and not found.pending):
            added = sum(a.added for a in self._advances)
            self.status.setText(f"Advancing while judged: depth {depth} of at most "
                                f"{found.max_depth} released, {added} new record"
                                f"{'' if added == 1 else 's'} so far…")
            self.advance()
            return
        if self._advances is not None and len(self._advances) > 1:
            added = sum(a.added for a in self._advances)
            message = (f"advanced {len(self._advances)} depths "
                       f"({self._advances[0].depth}–{depth}): {added} new "
                       f"record{'' if added == 1 else 's'}"
                       + (" to screen: every released record was already judged (by the "
                          "qrels or earlier decisions)" if not added else ""))
        else:
            message = done.message()
        self._advances = None
        self.show_pool()
        self.status.setText(f"{message} · {self.status.text()}")

    def _failed(self, exc: BaseException) -> None:
        self._advances = None
        self.refresh()
        show_error(self, "The pool was not advanced", exc)

    def export_plots(self, path: Path) -> list[Path]:
        """The depth plot to ``path`` and the effort plot beside it (``-effort``), PNG or
        SVG by the suffix."""
        path = Path(path)
        return [self.depth_plot.save(path),
                self.effort_plot.save(path.with_name(f"{path.stem}-effort{path.suffix}"))]

    def _ask_export(self) -> None:
        ask_and_save_plot(self, f"pool-{self.topic}", self.export_plots, "Save Plots")

    # -- reopened with the project (main window) ---------------------------------------
    def descriptor(self) -> dict:
        return {**super().descriptor(), "pool": self.pool_box.currentText()}

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict) -> PoolingView | None:
        """The topic's screen showing the pool it showed (the first when that is gone)."""
        view = super().from_descriptor(session, descriptor)
        if view is not None and view.pool_box.findText(descriptor.get("pool", "")) >= 0:
            view.pool_box.setCurrentText(descriptor["pool"])
        return view
