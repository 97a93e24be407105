"""The screener: one record at a time, decided by a key, every decision an event committed
on the session's write path (the next record is shown at once, never waiting for it).

The screen drives a :class:`~litqeval_gui.core.screening.session.ScreeningSession`
(``view.core``: the queue, the current labels, tags and notes, the actions on them — the
same session the CLI and the benchmarks drive), whose ops it queues on the project
session's write path; a write that fails reloads the state from the project (the keys
are :class:`~.deciding.Deciding`'s). ←/→ step through the decided records (a key there
changes the decision); a record undone, or shown when a new ranking arrives, stays on
screen until decided. After
decisions commit, the stopping panel is read in the background
(:class:`~.panel_reader.PanelReader`); a ranking job runs after every ``retrain every``
decisions ("Ordering": :class:`~.ordering_choice.OrderingChoice`). "Simulate…" replays
the screening with known labels (:class:`~.simulation.SimulationDialog`); the decision
line names whose each label is (:mod:`.decision_line`). A full-text screening neither
ranks nor stops early: it shows no ordering, question, retraining, stopping panel or
random sampling, and gives the PDF most of the screen (:mod:`.fulltext`). A screening
set to single screening says so in one line under the header.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.pooling.state import pool_rule
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records.collection import ROLE as COLLECTION
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.queries import record_detail
from litqeval_gui.core.screening.export import ASREVIEW, decided_records, export_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import FULL_TEXT, GRADED
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.retrain import Ranking, stored_ranking
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.state import StateCounts, state_counts
from litqeval_gui.core.screening.stopping.panel import Panel
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens import ScreeningTarget
from litqeval_gui.gui.screens.screening.deciding import Deciding
from litqeval_gui.gui.screens.screening.decision_line import decision_text
from litqeval_gui.gui.screens.screening.export_filter import ask_labels
from litqeval_gui.gui.screens.screening.fulltext import FullTextDeciding
from litqeval_gui.gui.screens.screening.history import HistoryList
from litqeval_gui.gui.screens.screening.ordering_choice import OrderingChoice
from litqeval_gui.gui.screens.screening.panel_reader import PanelReader
from litqeval_gui.gui.screens.screening.progress import ProgressPanel
from litqeval_gui.gui.screens.screening.ranking import Prioritiser
from litqeval_gui.gui.screens.screening.simulation import SimulationDialog
from litqeval_gui.gui.screens.screening.tags import TagBar
from litqeval_gui.gui.screens.screening.team_limit import TeamLimit
from litqeval_gui.gui.screens.screening.title_abstract import RankingSide
from litqeval_gui.gui.screens.screening.writer import QueuedWriter
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.shortcuts import KeysWhileShown, Shortcuts

LEAVE_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)
KEY_OF = {"include": "I", "exclude": "E", "maybe": "M", "0": "0", "1": "1", "2": "2", "3": "3"}


def _terms(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


class ScreeningView(KeysWhileShown, ScreeningTarget, OrderingChoice, RankingSide,
                    FullTextDeciding, Deciding, QWidget):
    """A :class:`~litqeval_gui.gui.screens.Screen` opened on a :class:`Screening`."""

    key = "screening"

    def __init__(self, session: ProjectSession, screening: Screening,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.target_gone = False
        self.settings = Settings()  # the window's in restore_state
        project = session.project
        self.include = parameters.get(project, parameters.HIGHLIGHT_INCLUDE)
        self.exclude = parameters.get(project, parameters.HIGHLIGHT_EXCLUDE)
        question = parameters.get(project, parameters.SCREENING_QUESTION)
        self.prioritiser = Prioritiser(session, screening, question, self,
                                       reviewer=lambda: self.core.reviewer)
        self.prioritiser.ranked.connect(self._ranked)
        self.prioritiser.busy.connect(lambda _running: self.show_current())
        self.ranking: Ranking | None = (None if screening.phase == FULL_TEXT
                                        else stored_ranking(project, screening.id))
        self.writer = QueuedWriter(session, self, self.not_stored,
                                   self._take_in_others)
        self.core = ScreeningSession(project, screening, self.settings.reviewer,
                                     self.ranking.ordering() if self.ranking else None,
                                     write=self.writer)
        self.since_retrain = 0
        self._titles: dict[int, str] = {}
        self.panel_reader = PanelReader(session, screening, self,
                                        reviewer=lambda: self.core.reviewer)
        self.panel_reader.ready.connect(self.show_panel)
        self.panel_reader.failed.connect(
            lambda exc: show_error(self, "The stopping panel could not be read", exc))
        self.simulation: SimulationDialog | None = None
        self.states: StateCounts | None = None  # the latest reading of the item states

        self.header = QLabel(wordWrap=True)
        self.single_line = QLabel(
            "Single screening: a record another reviewer decided is not served to you; "
            "check a sample with Limit to: Seen by one other reviewer.", wordWrap=True)
        self.record = self.record_pane()  # a click takes the focus, Tab never does
        self.decision_label = QLabel(wordWrap=True)
        self.tag_bar = TagBar(self.remove_tag)
        self.include_edit = QLineEdit(", ".join(self.include), toolTip=(
            "Include terms, comma-separated; robot* matches every word starting with robot"))
        self.exclude_edit = QLineEdit(", ".join(self.exclude), toolTip="Exclude terms")
        for edit in (self.include_edit, self.exclude_edit):
            edit.editingFinished.connect(self.save_terms)
        self.shortcuts = Shortcuts(self)
        self.buttons: dict[str, QPushButton] = {}
        self._actions: list[QAction] = []
        decide_row, tag_row = QHBoxLayout(), QHBoxLayout()
        edit_row, move_row = QHBoxLayout(), QHBoxLayout()  # two rows: fits 1200 px wide
        for label in screening.labels:
            text = f"Grade {label}" if screening.scheme == GRADED else label.capitalize()
            self._button(decide_row, label, f"{text} ({KEY_OF[label]})", KEY_OF[label],
                         lambda lab=label: self.decide(lab))
        self._button(decide_row, "reason", "Exclude with reason… (R)", "R", self.exclude_with_reason)
        for row, name, text, key, slot in (
                (edit_row, "undo", "Undo (Z)", "Z", self.undo),
                (edit_row, "redo", "Redo (Shift+Z)", "Shift+Z", self.redo),
                (edit_row, "note", "Note… (N)", "N", self.edit_note),
                (move_row, "back", "◀ Back (←)", "Left", self.back),
                (move_row, "forward", "Forward ▶ (→)", "Right", self.forward),
                (move_row, "audit", "Record history…", "", self.show_audit)):
            self._button(row, name, text, key, slot)
        tag_row.addWidget(self.tag_bar, 1)
        self._button(tag_row, "tag", "Add tag… (T)", "T", self.add_tag)
        self._button(tag_row, "untag", "Remove tag (Shift+T)", "Shift+T", self.remove_tag)
        self.shortcuts.add("Space", self.record.page_down)
        self.shortcuts.add("PgDown", self.record.page_down)
        self.key_map = QLabel(self._key_map_text(), wordWrap=True)
        self.key_map.setStyleSheet("color: palette(placeholder-text)")
        self.add_full_text(decide_row)  # the PDF's keys, not retrieved (gui/.../fulltext.py)
        if not self.full_text:
            self._add_ranking(question)
        self.progress = ProgressPanel(stopping=not self.full_text)
        if not self.full_text:
            self.progress.guarantee_asked.connect(self._ask_guarantee)
        self.team_limit = TeamLimit(self)  # limited to conflicts or records one has seen
        self.history = HistoryList(self.go_to)
        self._layout(decide_row, (edit_row, move_row), tag_row)
        self.show_current()
        self.refresh_panel()

    # -- building ---------------------------------------------------------------------
    def _button(self, row: QHBoxLayout, name: str, text: str, key: str, slot) -> None:
        button = QPushButton(text)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space scrolls, never clicks
        button.clicked.connect(self.record.setFocus)  # a click leaves a text field too
        button.clicked.connect(lambda checked=False: slot())
        row.addWidget(button)
        self.buttons[name] = button
        if key:
            self.shortcuts.add(key, slot)

    def _key_map_text(self) -> str:
        labels = "0–3 grade" if self.screening.scheme == GRADED else " · ".join(
            f"{KEY_OF[lab]} {lab}" for lab in self.screening.labels)
        return (f"Keys: {labels} · R exclude with reason · Z undo · Shift+Z redo · N note · "
                "T tag · Shift+T untag · ←/→ history · Space/PgDn scroll")

    def _layout(self, decide_row: QHBoxLayout, tool_rows: tuple[QHBoxLayout, ...],
                tag_row: QHBoxLayout) -> None:
        """The record's column and the side's tabs (the progress, or at full text the
        record's decision and reasons; the history) in a splitter."""
        terms = QFormLayout()
        terms.addRow("Include terms", self.include_edit)
        terms.addRow("Exclude terms", self.exclude_edit)
        if self.full_text:
            main, page = self.full_text_columns(decide_row, tool_rows, tag_row, terms)
            tab, stretch, sizes = "Screening", (1, 0), [880, 400]  # the PDF takes the width
            edits, others = [self.include_edit, self.exclude_edit], []
        else:
            main, page = self._columns(decide_row, tool_rows, tag_row, terms)
            tab, stretch, sizes = "Progress", (3, 2), [700, 450]
            edits = [self.include_edit, self.exclude_edit, self.question_edit,
                     self.retrain_every]
            others = [self.ordering, self.retrain_button, self.simulate_button,
                      self.seed_button]
        scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(page)  # a low window scrolls the side, never clips it
        scroll.setMinimumWidth(page.minimumSizeHint().width()
                               + scroll.verticalScrollBar().sizeHint().width())
        self.side = QTabWidget()
        self.side.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.side.addTab(scroll, tab)
        self.side.addTab(self.history, "History")
        self.side.currentChanged.connect(lambda _index: self.refresh_history())
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(main)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, stretch[0])
        self.splitter.setStretchFactor(1, stretch[1])
        self.splitter.setSizes(sizes)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)
        for widget in (*edits, *others):
            widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a click on the background too
        for edit in edits:
            edit.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 — Qt override
        """Enter or Escape in a text field hands the focus back to the record, where the
        screen's keys work again (a text field being edited keeps its letters)."""
        if event.type() == QEvent.Type.KeyPress and event.key() in LEAVE_KEYS:
            self.record.setFocus(Qt.FocusReason.OtherFocusReason)
        return super().eventFilter(watched, event)

    # -- the screen protocol --------------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Screening: {self.screening.name}"

    @property
    def tooltip(self) -> str:
        topic = self.session.project.topic_name(self.screening.topic_id)
        return (f"{self.screening.name} of topic {topic}: {self.screening.size:,} records, "
                f"{self.screening.phase.replace('_', ' ')}")

    @property
    def screening(self) -> Screening:
        return self.core.screening

    def screen_actions(self) -> list[QAction]:
        return self._actions

    def _kept_splitters(self) -> dict[str, QSplitter]:
        """The splitters whose sizes the settings keep, by name: a full-text screening's
        own (a narrower side, the record's details over its PDF)."""
        if not self.full_text:
            return {self.key: self.splitter}
        return {f"{self.key}.full_text": self.splitter,
                f"{self.key}.full_text.pdf": self.record.splitter}

    def save_state(self, settings: Settings) -> None:
        for name, splitter in self._kept_splitters().items():
            settings.set_splitter_sizes(name, splitter.sizes())

    def restore_state(self, settings: Settings) -> None:
        self.settings = settings
        if settings.reviewer:  # the window's (a switch since these were read, say)
            self.reviewer_changed(settings.reviewer)
        for name, splitter in self._kept_splitters().items():
            sizes = settings.splitter_sizes(name)
            if sizes:
                splitter.setSizes(sizes)
            splitter.splitterMoved.connect(lambda *_: self.save_state(settings))

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """Gone with its topic; after decisions commit, the stopping panel is read again
        (in the background); decisions someone else wrote (a merge, a pool, a job) are
        read into the screen once its own queued writes have committed."""
        if changes.topics:
            self.target_gone = self.session.project.topic_name(self.screening.topic_id) is None
        if changes.decisions and not self.target_gone:
            self.writer.decisions_changed(initiator)
            self.refresh_panel()

    def reviewer_changed(self, reviewer: str) -> None:
        """Screen as ``reviewer`` (File ▸ Switch Reviewer…): decisions made from now on
        carry the name; once the screen's queued writes have committed, the screening is
        read again as they see it (a blind screening: their own decisions)."""
        if reviewer != self.core.reviewer:
            self.core.reviewer = reviewer
            self.writer.when_idle(self._read_as_reviewer)

    def _read_as_reviewer(self) -> None:
        core = self.core
        core.known_tags = store.tags_used(self.session.project, self.screening.id,
                                          core.reviewer)
        core.reload(core.requested)
        self.team_limit.start()  # its work list as they see it; shows the record
        self.refresh_panel()

    # -- state ------------------------------------------------------------------------------
    def _take_in_others(self) -> None:
        self.core.refresh()
        self.show_current()

    @property
    def shown(self) -> int | None:
        """The record on screen."""
        return self.core.shown

    @property
    def labels(self) -> dict[int, str]:
        return self.core.labels

    def title_of(self, record_id: int) -> str:
        if record_id not in self._titles:
            self._titles[record_id] = store.record_title(self.session.project, record_id)
        return self._titles[record_id]

    # -- showing ------------------------------------------------------------------------------
    def show_current(self) -> None:
        core = self.core
        record_id = core.shown
        screened, total = core.screened, self.screening.size
        self.progress.show_counts(screened, total, self.label_counts(), self.counted_labels)
        if self.full_text:
            self.show_reasons()
        else:
            self._show_ranking()
        for name in ("undo", "back"):
            self.buttons[name].setEnabled(bool(core.order))
        self.buttons["redo"].setEnabled(store.can_redo(self.session.project, self.screening.id,
                                                       core.reviewer))
        self.buttons["forward"].setEnabled(core.back_at is not None)
        self.team_limit.show_mode()
        self.single_line.setVisible(core.single_screening and not core.screening.blind)
        if record_id is None:
            self.record.clear()
            self.header.setText("<b>Every record of this screening is decided.</b> "
                                "Z undoes the last decision; ← steps back through them.")
            self.decision_label.clear()
            self.tag_bar.show_tags(())
            self.buttons["untag"].setEnabled(False)
            return
        detail = record_detail(self.session.project, record_id)
        self._titles[record_id] = detail.record.title or "(no title)"
        self.record.show_record(detail.record, self.include, self.exclude,
                                [(o.list_name, o.rank) for o in detail.occurrences
                                 if o.role != COLLECTION],
                                detail.text_from.list_name if detail.text_from else "")
        if core.back_at is not None:  # its place in today's queue is no count of it
            self.header.setText(f"<b>Your decision {core.back_at + 1:,} of "
                                f"{len(core.order):,}</b> (in the order decided) — a "
                                "decision key changes it, → goes forward")
        else:
            where = self._where(record_id, screened + 1, total)
            self.header.setText(f"<b>Record {screened + 1:,} of {total:,}</b>{where}")
        label = core.labels.get(record_id)
        self.tag_bar.show_tags(core.shown_tags())
        self.buttons["untag"].setEnabled(bool(core.shown_tags()))
        project, screening_id = self.session.project, self.screening.id
        decided = {} if store.is_blind(project, screening_id) else {
            who: e.label for who, e in team.record_decisions(project, screening_id,
                                                             record_id).items()}
        self.decision_label.setText(decision_text(label, decided, core.reviewer,
                                                  core.note_of(record_id)))

    def _where(self, record_id: int, number: int, of: int) -> str:
        """" · list order", and the record's rank in that order only where it differs
        from the counter ``number`` of ``of`` (e.g. a record pinned in a prioritised
        order)."""
        queue = self.core.queue
        if record_id not in queue:
            return ""
        place = (queue.position(record_id), len(queue))
        shown = "" if place == (number, of) else \
            f", which ranks it {place[0]:,} of {place[1]:,}"
        return f" · {queue.ordering.name.split(':')[0]} order{shown}"

    def label_counts(self) -> Mapping[str, int]:
        """Records per final decision and in conflict: the latest reading of the item
        states (:mod:`~litqeval_gui.core.screening.state`, what the exports and PRISMA
        count) once it has read every decision on screen, else the screen's own (the
        same until reviewers disagree or a conflict is resolved)."""
        states = self.states
        if states is not None and states.screened == self.core.screened:
            return states.states
        return Counter(self.core.labels.values())

    def show_states(self, states: StateCounts | None) -> None:
        """A new reading of the item states: the counts show it."""
        self.states = states
        self.progress.show_counts(self.core.screened, self.screening.size,
                                  self.label_counts(), self.counted_labels)

    def refresh_panel(self) -> None:
        """Ask for each rule's verdict and the recall curve from the committed decisions;
        they are read in the background and shown by :meth:`show_panel`. A full-text
        screening has no stopping panel: its history is shown again at once."""
        if self.full_text:
            self.show_states(state_counts(self.session.project, self.screening,
                                          self.core.reviewer or None))
            self.late_records.refresh()
            self.refresh_history()
        else:
            self.panel_reader.request()

    def _ask_guarantee(self, asked: bool) -> None:
        """Store whether the panel recommends the certified rule, then read it again."""
        self.session.write(parameters.set_value_op(parameters.STOP_GUARANTEE, asked),
                           on_success=lambda _done: self.refresh_panel())

    def show_panel(self, panel: Panel) -> None:
        self.progress.show_panel(panel, pool_rule(self.session.project, self.screening.id))
        self.random_phase.show_advice(panel)
        self.round_finish.show_panel(panel)
        self.progress.show_finished(self.round_finish.status)
        self.show_states(panel.counts)
        self.refresh_history()

    def refresh_history(self) -> None:
        """The history list, rebuilt only while its tab is shown."""
        if self.side.currentWidget() is self.history:
            core = self.core
            self.history.show_history([(r, core.labels[r], self.title_of(r),
                                        core.tags.get(r, ())) for r in core.order])

    # -- terms and question ------------------------------------------------------------------
    def save_terms(self) -> None:
        include, exclude = _terms(self.include_edit.text()), _terms(self.exclude_edit.text())
        if (include, exclude) == (self.include, self.exclude):
            return
        self.include, self.exclude = include, exclude
        self.session.write(parameters.set_values_op(
            [(parameters.HIGHLIGHT_INCLUDE, include), (parameters.HIGHLIGHT_EXCLUDE, exclude)]),
            initiator=self)
        self.show_current()

    # -- File ▸ Export… (gui/list_actions.py) ---------------------------------------------
    def export_source(self) -> tuple[str, Callable[[], list[Record]]]:
        """The screening's records in list order."""
        return self.screening.name, lambda: decided_records(self.session.project,
                                                            self.screening)[0]

    export_formats = {ASREVIEW: "ASReview LAB labelled dataset (*.csv)"}

    def export_options(self, parent: QWidget) -> dict[str, list[str]] | None:
        """Asked before the file: which decisions to export (:mod:`.export_filter`), as
        :meth:`export_writer`'s keywords; None when cancelled."""
        labels = ask_labels(self.screening, parent)
        return None if labels is None else {"labels": labels}

    def export_writer(self, target: Path, fmt: str, labels: list[str] | None = None) -> int:
        """The records with their decision columns (CSV, XLSX; see core.screening.export),
        as the reviewer reads them (a blind screening: their own decisions only); only
        those whose decision is one of ``labels``, when given."""
        return export_screening(self.session.project, self.screening, target, fmt,
                                labels=labels, reviewer=self.core.reviewer)

    def closeEvent(self, event) -> None:  # noqa: N802 — Qt override
        self.prioritiser.stop()  # a ranking arriving later is dropped
        self.panel_reader.stop()
        if self.simulation is not None:
            self.simulation.close()
        super().closeEvent(event)
