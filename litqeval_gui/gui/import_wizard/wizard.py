"""The import wizard: files → preview and column mapping → list settings → import → summary.

Pages 2, 3 and 5 live in :mod:`.preview`, :mod:`.list_settings` and :mod:`.summary`;
this module holds the files page, the import run and the wizard, which hands every page
its :class:`~.state.WizardState` (pages never import this module).
Every file access runs off the GUI thread through the session's :class:`JobRunner`: the
import is ``ingest.import_file`` on a sibling connection (``session.worker_project()``)
that the job closes whatever its outcome. Several files are imported one after another
with the same settings (a TREC file once per topic, into the project topic of that id:
those need no topic name); each import is all or nothing (the core guarantees it), so a
cancelled or refused file leaves no trace.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.importing import formats
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.import_wizard.list_settings import SettingsPage
from litqeval_gui.gui.import_wizard.messages import failure_text, message_label, show_error_text
from litqeval_gui.gui.import_wizard.preview import PreviewPage
from litqeval_gui.gui.import_wizard.state import (
    FileState,
    ImportKey,
    ImportSettings,
    WizardState,
    describe_import,
)
from litqeval_gui.gui.import_wizard.summary import SummaryPage
from litqeval_gui.gui.jobs import JobFactory, JobHandle
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings


class FilesPage(QWizardPage):
    """Choose the file(s) to import."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Choose files")
        self.setSubTitle(f"Search exports: {formats.labels()}. "
                         "Several files become several lists.")
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        add = QPushButton("&Add files…")
        remove = QPushButton("&Remove")
        add.clicked.connect(self._browse)
        remove.clicked.connect(self._remove_selected)
        buttons = QVBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

    def paths(self) -> list[Path]:
        """The chosen files, in list order."""
        return [Path(self.list.item(i).text()) for i in range(self.list.count())]

    def add_paths(self, paths: Iterable[Path | str]) -> None:
        """Add ``paths`` that are not listed yet."""
        known = set(self.paths())
        for path in map(Path, paths):
            if path not in known:
                known.add(path)
                self.list.addItem(str(path))
                self.list.item(self.list.count() - 1).setToolTip(str(path))
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return self.list.count() > 0

    def _browse(self) -> None:
        """Choose files, starting in the folder the app's file dialogs used last."""
        settings = self.wizard().state.app_settings
        chosen, _ = QFileDialog.getOpenFileNames(self, "Choose search exports",
                                                 str(settings.last_dir),
                                                 f"{formats.open_filter()};;All files (*)")
        if chosen:
            settings.last_dir = Path(chosen[0]).parent
            settings.save()
        self.add_paths(chosen)

    def _remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.completeChanged.emit()


def import_job(session: ProjectSession, state: FileState, settings: ImportSettings,
               trec_topic: str | None = None) -> JobFactory:
    """The background import of one file (or of one topic of a TREC file, into the project
    topic of that id) on its own connection, closed in every outcome."""
    path, fmt, mapping = state.path, state.fmt, dict(state.mapping) or None
    where = {k: v for k, v in state.where.items() if k and v} or None
    topic = trec_topic or settings.topic  # the importer keeps a TREC file's lines of it

    return session.worker_job(lambda project, token: ingest.import_file(
        project, path, topic=topic, role=settings.roles[path], name=settings.names[path],
        query=settings.query, database=settings.database or None, fmt=fmt, mapping=mapping,
        where=where, token=token))


class RunPage(QWizardPage):
    """Runs the imports one after another, with progress and Cancel."""

    stopped = Signal()

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self._owner = wizard
        self._state = wizard.state
        self.setTitle("Importing")
        self.setSubTitle("Each file is imported completely or not at all.")
        self.setButtonText(QWizard.WizardButton.CommitButton, "Show &summary")
        self.cancelled = False
        self._queue: list[tuple[FileState, str | None]] = []
        self._handle: JobHandle | None = None
        self.heading = QLabel()
        self.heading.setWordWrap(True)  # a long file name wraps, it does not widen the wizard
        self.progress = QProgressBar()
        self.phase_label = QLabel()
        self.cancel_button = QPushButton("&Cancel import")
        self.cancel_button.clicked.connect(self.cancel)
        self.retry_button = QPushButton("&Try again")
        self.retry_button.clicked.connect(self.start)
        self.status_label = message_label()
        self.error_label = message_label(error=True)
        outcomes = QWidget()  # one line per file, and the reasons: they scroll
        outcome_layout = QVBoxLayout(outcomes)
        outcome_layout.setContentsMargins(0, 0, 0, 0)
        outcome_layout.addWidget(self.status_label)
        outcome_layout.addWidget(self.error_label)
        outcome_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(outcomes)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.progress)
        layout.addWidget(self.phase_label)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)

    @property
    def running(self) -> bool:
        return self._handle is not None

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        self.start()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return not self.running and bool(self._state.summaries)

    def start(self) -> None:
        """Import every file not imported yet."""
        self._state.settings = self._owner.settings_page.settings()
        self._queue = [(s, t) for s, t in self._state.imports()
                       if (s.path, t) not in self._state.summaries]
        for state, topic in self._queue:
            self._state.failures.pop((state.path, topic), None)
        self.cancelled = False
        self.retry_button.hide()
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()
        self.progress.show()
        self._owner.settings_page.setCommitPage(True)  # no Back while importing
        self._show_outcomes()
        self._next()

    def cancel(self) -> None:
        """Ask the running import to stop; it rolls back."""
        if self._handle is not None:
            self._handle.cancel()
            self.cancel_button.setEnabled(False)
            self.phase_label.setText("Cancelling…")

    def _next(self) -> None:
        if self.cancelled or not self._queue:
            self._stop()
            return
        state, topic = self._queue.pop(0)
        key = (state.path, topic)
        total = len(self._state.imports())
        settings = self._state.settings
        number = total - len(self._queue)
        self.heading.setText(f"Importing <b>{html.escape(state.path.name)}</b> as list "
                             f"<b>{html.escape(settings.names[state.path])}</b>"
                             + (f" of topic <b>{html.escape(topic)}</b>" if topic else "")
                             + (f" ({number} of {total})" if total > 1 else "") + "…")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.phase_label.setText("starting")
        session = self._state.session
        self._handle = session.jobs.run(
            f"Import {state.path.name}", import_job(session, state, settings, topic),
            on_success=lambda summary: self._imported(key, summary),
            on_failure=lambda exc: self._failed(key, exc),
            on_cancelled=self._was_cancelled,
            on_progress=self._progressed)
        self.completeChanged.emit()

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.phase_label.setText(message)

    def _imported(self, key: ImportKey, summary: ImportSummary) -> None:
        self._state.summaries[key] = summary
        self._handle = None
        self._next()

    def _failed(self, key: ImportKey, exc: BaseException) -> None:
        self._state.failures[key] = failure_text(
            self, f"Import of {describe_import(key)} failed", exc)
        self._handle = None
        self._next()

    def _was_cancelled(self) -> None:
        self.cancelled = True
        self._handle = None
        self._stop()

    def _stop(self) -> None:
        self._handle = None
        self.cancel_button.hide()
        self.progress.setRange(0, 100)
        summaries = self._state.summaries
        imported_all = len(summaries) == len(self._state.imports())
        self.progress.setValue(100 if imported_all else 0)
        self.progress.setVisible(imported_all)
        self.phase_label.setText("")
        self.heading.setText("All files imported." if imported_all else "")
        self.retry_button.setVisible(not imported_all)
        self._owner.settings_page.setCommitPage(bool(summaries))
        self.setCommitPage(bool(summaries))
        self._show_outcomes()
        self.completeChanged.emit()
        closing = self._owner.closing
        self.stopped.emit()
        if imported_all and not closing and self._owner.currentPage() is self:
            self._owner.next()

    def _show_outcomes(self) -> None:
        summaries, failures = self._state.summaries, self._state.failures
        lines = []
        if self.cancelled:
            lines.append("<b>Import cancelled — the project is unchanged</b>"
                         + (" apart from the lists imported before." if summaries else "."))
        for state in self._state.files:  # a TREC file's topics on one line
            topics = state.trec_topics
            keys = [(state.path, t) for t in topics or [None]]
            name = html.escape(state.path.name)
            done = [summaries[k] for k in keys if k in summaries]
            failed = [html.escape(k[1] or "") for k in keys if k in failures]
            read = f"{sum(s.read for s in done):,} read"
            if not topics:
                if done:
                    lines.append(f"✔ {name}: imported ({read})")
                elif failed:
                    lines.append(f"✘ {name}: not imported")
                continue
            if done:
                lines.append(f"✔ {name}: {len(done)} of {len(keys)} topic(s) imported "
                             f"({read})")
            if failed:
                shown = ", ".join(failed[:8]) + (", …" if len(failed) > 8 else "")
                lines.append(f"✘ {name}: not imported into {len(failed)} topic(s) ({shown})")
        self.status_label.setText("<br>".join(lines))
        show_error_text(self.error_label, "\n\n".join(failures.values()))


class ImportWizard(QWizard):
    """Import one or more search exports as lists of a topic (Ctrl+I, drag and drop)."""

    FILES, PREVIEW, SETTINGS, RUN, SUMMARY = range(5)

    def __init__(self, session: ProjectSession, paths: list[Path] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the app's settings: the main window's (when it is the parent), else the file's
        self.state = WizardState(session, getattr(parent, "settings", None) or Settings())
        self._close_when_stopped = False
        self.setWindowTitle("Import search results")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage)
        self.files_page = FilesPage()
        self.preview_page = PreviewPage(self.state, self)
        self.settings_page = SettingsPage(self.state, self)
        self.run_page = RunPage(self)
        self.summary_page = SummaryPage(self.state, self)
        for page_id, page in ((self.FILES, self.files_page), (self.PREVIEW, self.preview_page),
                              (self.SETTINGS, self.settings_page), (self.RUN, self.run_page),
                              (self.SUMMARY, self.summary_page)):
            self.setPage(page_id, page)
        self.run_page.stopped.connect(self._run_stopped)
        if paths:
            self.files_page.add_paths(paths)
            self.setStartId(self.PREVIEW)
        self.resize(940, 680)

    def initializePage(self, page_id: int) -> None:  # noqa: N802 — Qt override
        """The preview page shows the files page's choice: sync the file states first."""
        if page_id == self.PREVIEW:
            self.state.sync_files(self.files_page.paths())
        super().initializePage(page_id)

    def reject(self) -> None:
        """Esc / Cancel: a running import is cancelled first, then the wizard closes."""
        if self.run_page.running:
            self._close_when_stopped = True
            self.run_page.cancel()
            return
        super().reject()

    def done(self, result: int) -> None:
        for state in self.state.files:
            state.cancel_jobs()  # late previews and counts are ignored
        super().done(result)

    @property
    def closing(self) -> bool:
        """The user asked to close while an import was running."""
        return self._close_when_stopped

    def _run_stopped(self) -> None:
        if self._close_when_stopped:
            self._close_when_stopped = False
            super().reject()
