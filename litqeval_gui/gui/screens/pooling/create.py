"""Creating a pool of a topic in the app: its runs, judgements, stop preset and the
screening it feeds, made by :func:`~litqeval_gui.core.pooling.store.create_pool` (the
same core function as the command line, run as a job: a cosine run reads the topic's
vectors, which must not freeze the window; its writes go through the session's write
path). Bad input is refused with one line in the dialog, which stays open."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.pooling import store
from litqeval_gui.core.pooling.runs import COSINE
from litqeval_gui.core.pooling.simulation import QRELS, TREC_RUN
from litqeval_gui.core.pooling.store import Pool
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.ranking.retrain import has_ranking
from litqeval_gui.gui.checklist import add_checkable, checked_values
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.plots import style
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.metrics.pooling import DEFAULT_FULL_DEPTH, PRESETS


def run_choices(project: Project, topic: str) -> list[tuple[str, str, str]]:
    """(label, source, tip) of every run the topic offers, in the order shown."""
    lists = queries.lists(project, topic)
    found = [(f"{i.name} — result list", f"list:{i.name}", "The list in its export order")
             for i in lists if i.role == "results" and i.format not in (TREC_RUN, QRELS)]
    found += [(f"{i.name} — TREC run", f"list:{i.name}", "The imported run in rank order")
              for i in lists if i.format == TREC_RUN]
    found += [(f"{s.name} — screening ranking", f"ranking:{s.name}",
               "The screening's stored model ranking, copied now")
              for s in screening_store.screenings(project, topic)
              if has_ranking(project, s.id)]
    found += [(f"{i.name} — cosine to core", f"{COSINE}:{i.name}",
               "The list ranked by cosine to the core set (the evaluation's vectors), "
               "copied now")
              for i in lists if i.role == "results" and i.format not in (TREC_RUN, QRELS)]
    return found


class CreatePoolDialog(QDialog):
    """Fill in a new pool of ``topic``; "Create pool" makes it in a job (``job``), and
    the dialog closes when it is made (``made``) or says why not and stays open."""

    def __init__(self, session: ProjectSession, topic: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle=f"New pool · {topic}")
        project = session.project
        self.session, self.project, self.topic = session, project, topic
        self.made: Pool | None = None
        self.job: JobHandle | None = None
        taken = {p.screening_id for p in store.pools(project, topic)}
        self.name = QLineEdit(placeholderText="e.g. runs round 1")
        self.name.setText(self._free_name())
        self.runs = QListWidget()
        self.runs.setToolTip("The ranked runs to pool, best first in each; Space ticks one")
        for label, source, tip in run_choices(project, topic):
            add_checkable(self.runs, label, source, source.startswith("list:"), tip)
        self.qrels = QListWidget()
        self.qrels.setToolTip("Imported relevance judgements: grade 1 or more is relevant")
        for info in queries.lists(project, topic):
            if info.format == QRELS:
                add_checkable(self.qrels, f"{info.name} ({info.records:,} judged)", info.name,
                           True)
        self.screening = QComboBox()
        self.screening.addItem("", None)  # the new screening's name follows the pool's
        for s in screening_store.screenings(project, topic):
            if s.id not in taken:
                self.screening.addItem(f"{s.name} ({s.size:,} records)", s.name)
        self.screening.setToolTip("Each released depth adds its unjudged records here; the "
                                  "screening's decisions are the pool's judgements")
        self.preset = QComboBox()
        for key, params in PRESETS.items():
            self.preset.addItem(f"{key.capitalize()} ({params.label()})", key)
        self.preset.addItem("Custom", store.CUSTOM)
        self.w, self.big_w, self.l_run = (QSpinBox(minimum=1, maximum=100) for _ in range(3))
        self.t = QDoubleSpinBox(minimum=0.0, maximum=100.0, decimals=3, singleStep=0.05)
        self.w.setToolTip("w: depths in each smoothing window")
        self.big_w.setToolTip("W: windows averaged into the rate")
        self.t.setToolTip("t: the rate threshold")
        self.l_run.setToolTip("l: depths in a row below t that fix k_cr")
        custom = QHBoxLayout()
        for text, box in (("w", self.w), ("W", self.big_w), ("t", self.t), ("l", self.l_run)):
            label = QLabel(text)
            label.setBuddy(box)
            custom.addWidget(label)
            custom.addWidget(box, 1)
        self.full_depth = QSpinBox(minimum=1, maximum=100_000, value=DEFAULT_FULL_DEPTH)
        self.full_depth.setToolTip("The deepest depth a pool may reach")
        rule = store.LOW_YIELD
        self.low_yield = QCheckBox(f"Pool to the full depth when the first {rule.depth} depths "
                                   f"yield ≤ {rule.max_ratio * 100:g} % relevant")
        self.low_yield.setChecked(True)
        self.error = QLabel(wordWrap=True)
        self.error.setStyleSheet(f"color: {style.VERMILLION.name()}")
        self.error.hide()

        form = QFormLayout()
        form.addRow("&Name", self.name)
        form.addRow("&Runs", self.runs)
        form.addRow("&Qrels", self.qrels)
        form.addRow("", QLabel("Decisions in the screening it feeds always count as "
                               "judgements."))
        form.addRow("&Feeds", self.screening)
        stop = QGroupBox("Stop rule")
        stop_form = QFormLayout(stop)
        stop_form.addRow("&Preset", self.preset)
        stop_form.addRow("Custom", custom)
        stop_form.addRow("Full &depth", self.full_depth)
        stop_form.addRow("", self.low_yield)
        for label, box in ((form.labelForField(self.runs), self.runs),
                           (form.labelForField(self.qrels), self.qrels)):
            label.setBuddy(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        self._set_busy(False)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(stop)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.preset.currentIndexChanged.connect(self._preset_changed)
        self._preset_changed()
        self.name.textChanged.connect(self._name_changed)
        self._name_changed()
        for box in (self.runs, self.qrels):
            rows = max(box.count(), 2)
            box.setMaximumHeight(min(rows, 8) * box.sizeHintForRow(0) + 2 * box.frameWidth() + 4)
        self.resize(560, self.sizeHint().height())

    def _free_name(self) -> str:
        names = {p.name for p in store.pools(self.project, self.topic)}
        return next(f"pool {n}" for n in range(1, len(names) + 2) if f"pool {n}" not in names)

    def _name_changed(self) -> None:
        self.screening.setItemText(0, f"New screening “pool: {self.name.text().strip()}”")

    def _preset_changed(self) -> None:
        key = self.preset.currentData()
        custom = key == store.CUSTOM
        if not custom:
            p = PRESETS[key]
            self.w.setValue(p.window)
            self.big_w.setValue(p.rate_window)
            self.t.setValue(p.threshold)
            self.l_run.setValue(p.run_length)
        for box in (self.w, self.big_w, self.t, self.l_run):
            box.setEnabled(custom)

    def settings(self) -> store.Settings:
        custom = ((self.w.value(), self.big_w.value(), self.t.value(), self.l_run.value())
                  if self.preset.currentData() == store.CUSTOM else None)
        return store.settings(self.preset.currentData() if custom is None else store.CUSTOM,
                              custom=custom, full_depth=self.full_depth.value(),
                              low_yield=store.LOW_YIELD if self.low_yield.isChecked() else None)

    def refuse(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()

    def busy(self) -> bool:
        return self.job is not None and self.job.running

    def accept(self) -> None:
        """Create the pool in a job; the dialog closes once it is made."""
        if self.busy():
            return
        try:
            chosen = self.settings()
        except LitqError as exc:
            self.refuse(str(exc).splitlines()[0])
            return
        name, runs, qrels = self.name.text().strip(), checked_values(self.runs), checked_values(self.qrels)
        screening = self.screening.currentData()
        session, topic = self.session, self.topic

        def job(project: Project, _token):
            yield Progress(0, 0, "creating the pool")
            return store.create_pool(project, topic, name, runs, chosen, qrels=qrels,
                                     screening=screening)

        self.error.hide()
        self._set_busy(True)
        self.job = session.jobs.run(f"New pool · {topic}", session.worker_job(job), on_success=self._made,
                                    on_failure=self._not_made)

    def _set_busy(self, busy: bool) -> None:
        self.buttons.setEnabled(not busy)
        create = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        create.setText("Creating the pool…" if busy else "Create pool")

    def _made(self, pool: Pool) -> None:
        self.made = pool
        self._set_busy(False)
        super().accept()

    def _not_made(self, exc: BaseException) -> None:
        self._set_busy(False)
        if isinstance(exc, LitqError):
            self.refuse(str(exc).splitlines()[0])
        else:
            show_error(self, "The pool was not created", exc)

    def reject(self) -> None:
        """Cancel closes the dialog, except while the pool is being made."""
        if not self.busy():
            super().reject()


def create_pool_dialog(session: ProjectSession, topic: str,
                       parent: QWidget | None) -> Pool | None:
    """Ask for a new pool of ``topic``; the pool made, or None when cancelled."""
    dialog = CreatePoolDialog(session, topic, parent)
    return dialog.made if dialog.exec() == QDialog.DialogCode.Accepted else None
