"""What only a title/abstract screening has beside the record (a mixin of the screening
view, as :mod:`.fulltext` is for the full text): the ordering, the cold start's question,
retraining, Known relevant…, Simulate…, random sampling, Finish Screening Round… and the
side column that holds them with the stopping panel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.gui.screens.screening.random_phase import RandomPhaseControl
from litqeval_gui.gui.screens.screening.ranking import ORDERINGS
from litqeval_gui.gui.screens.screening.round_finish import RoundFinishControl
from litqeval_gui.gui.screens.screening.seeding import SeedDialog
from litqeval_gui.gui.screens.screening.simulation import SimulationDialog

RETRAIN_EVERY = 10


class RankingSide:
    """The title/abstract screener's ranking and stopping controls (module docstring)."""

    def _add_ranking(self, question: str) -> None:
        """What a title/abstract screening is ranked and stopped by: the ordering, the
        cold start's question, retraining, Known relevant…, Simulate… and random
        sampling (with their Topic-menu actions)."""
        self.ordering = QComboBox(toolTip="How the records are ordered")
        for key, text in ORDERINGS.items():
            self.ordering.addItem(text, key)
        self.question_edit = QLineEdit(question, placeholderText=(
            "Review question for the cold start (optional)"))
        self.retrain_every = QSpinBox(minimum=1, maximum=1000, value=RETRAIN_EVERY,
                                      toolTip="Retrain the model after this many decisions")
        self.retrain_button = QPushButton("Retrain now")
        self.retrain_button.clicked.connect(self.start_ranking)
        self.simulate_button = QPushButton("Simulate…", toolTip=(
            "Replay this screening with known labels: how soon would each model have found "
            "the relevant records, and where would each stopping rule have stopped?"))
        self.simulate_button.clicked.connect(self.open_simulation)
        self.seed_button = QPushButton("Known relevant…", toolTip=(
            "Search this screening for records you already know are relevant and include "
            "them, so the model has examples before the first include in the queue"))
        self.seed_button.clicked.connect(self.open_seeding)
        self.retrain_action = QAction("Retrain Ranking Now", self)
        self.retrain_action.triggered.connect(self.start_ranking)
        self._actions += [self.retrain_action]  # Simulate: the Topic menu's own entry
        self.random_phase = RandomPhaseControl(self, self)
        self.round_finish = RoundFinishControl(self, self)
        self._actions += [self.random_phase.action, self.round_finish.action]
        self.ordering.setCurrentIndex(self.ordering.findData(parameters.get(
            self.session.project, parameters.SCREENING_MODEL) if self.ranking else "list"))
        self.ordering.currentIndexChanged.connect(self.ordering_changed)
        self.question_edit.editingFinished.connect(self.question_changed)

    def _columns(self, decide_row: QHBoxLayout, tool_rows: tuple[QHBoxLayout, ...],
                 tag_row: QHBoxLayout, terms: QFormLayout) -> tuple[QWidget, QWidget]:
        """A title/abstract screening's columns: the record with its keys and terms; the
        ordering, retraining and the stopping panel."""
        main = QWidget()
        left = QVBoxLayout(main)
        left.addWidget(self.header)
        left.addWidget(self.single_line)
        left.addWidget(self.record, 1)
        left.addWidget(self.decision_label)
        left.addLayout(tag_row)
        left.addLayout(decide_row)
        for row in tool_rows:
            left.addLayout(row)
        left.addWidget(self.key_map)
        left.addLayout(terms)
        controls = QFormLayout()  # narrow: the labels go above their fields
        controls.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        controls.addRow("Ordering", self.ordering)
        controls.addRow("Limit to", self.team_limit)
        controls.addRow("Question", self.question_edit)
        retrain = QHBoxLayout()
        retrain.addWidget(self.retrain_every)
        retrain.addWidget(self.retrain_button)
        controls.addRow("Retrain every", retrain)
        tools = QHBoxLayout()
        tools.addWidget(self.seed_button)
        tools.addWidget(self.simulate_button)
        controls.addRow("", tools)
        controls.addRow("", self.random_phase.button)
        progress_tab = QWidget()
        side = QVBoxLayout(progress_tab)
        side.addLayout(controls)
        side.addWidget(self.progress, 1)
        return main, progress_tab

    def _show_ranking(self) -> None:
        """The ordering (retraining, the model's trust) and the random phase's control."""
        ordering = self.core.queue.ordering
        self.progress.show_ordering(ordering, self.prioritiser.running,
                                    self.ranking.trust if self.ranking and
                                    ordering.name == "model" else None)
        self.random_phase.refresh()

    def question_changed(self) -> None:
        question = self.question_edit.text().strip()
        if question != self.prioritiser.question:
            self.prioritiser.set_question(question)
            self.session.write(parameters.set_value_op(parameters.SCREENING_QUESTION, question),
                               initiator=self)

    def open_simulation(self) -> SimulationDialog:
        """The simulation window of this screening (one, keeping its last results)."""
        if self.simulation is None:
            self.simulation = SimulationDialog(self.session, self.screening, self,
                                               reviewer=lambda: self.core.reviewer)
        self.simulation.show()
        self.simulation.raise_()
        return self.simulation

    def open_seeding(self) -> SeedDialog | None:
        """The search for known relevant records (after asking the reviewer's name)."""
        if not self._reviewer_known():
            return None
        dialog = SeedDialog(self.core, self._seeded, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _seeded(self, count: int) -> None:
        self.show_current()
        if count and self._prioritised():
            self.start_ranking()
