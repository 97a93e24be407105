"""The import wizard: files → preview and column mapping → list settings → import → summary.

Every file access runs off the GUI thread through the session's :class:`JobRunner`: the
preview is ``read_records(limit=20)``; the import is ``ingest.import_file`` on a sibling
connection (``session.worker_project()``) that the job closes whatever its outcome.
Several files are imported one after another with the same settings; each import is all
or nothing (the core guarantees it), so a cancelled or refused file leaves no trace.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from litqeval_gui.core import catalog, ingest
from litqeval_gui.core.errors import LitqError, UnknownLayoutError
from litqeval_gui.core.importing import FORMATS, ParseResult, read_records
from litqeval_gui.core.importing.tabular import FIELDS
from litqeval_gui.core.ingest import ImportSummary
from litqeval_gui.core.jobs import CancelToken
from litqeval_gui.core.records import Record
from litqeval_gui.gui.jobs import JobFactory, JobHandle
from litqeval_gui.gui.notify import describe, show_error
from litqeval_gui.gui.session import IMPORTS, ProjectSession
from litqeval_gui.gui.views.matches_dialog import MatchesDialog

PREVIEW_ROWS = 20
TABLE_FORMATS = ("csv", "tsv", "xlsx")
NOT_MAPPED = "(not mapped)"
FIELD_LABELS = {"doi": "DOI", "pmid": "PMID", "pmcid": "PMCID", "scopus_eid": "Scopus EID",
                "wos_ut": "WoS UT", "openalex": "OpenAlex ID", "dimensions": "Dimensions ID",
                "lens": "Lens ID", "docid": "Document ID"}
ROLE_LABELS = {
    "core": "Core set: publications known to be relevant",
    "results": "Search results: the result list of one query",
    "other": "Other list",
}
_ERROR_STYLE = ("QLabel { color: #8a1010; background: #fdecea; border: 1px solid #f1b0ad;"
                " border-radius: 3px; padding: 6px; }")


@dataclass
class FileState:
    """One file of the wizard: the user's choices and its latest preview."""

    path: Path
    fmt: str = "auto"
    mapping: dict[str, str] = field(default_factory=dict)  # field -> column ("" = unmapped)
    result: ParseResult | None = None
    error: str = ""
    columns: list[str] = field(default_factory=list)  # table columns seen so far
    tabular: bool = False
    busy: bool = False
    generation: int = 0  # bumped per preview; stale results are ignored
    handle: JobHandle | None = None

    @property
    def ready(self) -> bool:
        return self.result is not None and not self.busy and not self.error


@dataclass(frozen=True)
class ImportSettings:
    """Page 3's answers, shared by every file of the wizard."""

    role: str
    topic: str
    names: dict[Path, str]
    database: str
    query: str


def failure_text(parent: QWidget | None, title: str, exc: BaseException) -> str:
    """The readable text of ``exc`` for the page; unexpected errors also go to show_error."""
    if not isinstance(exc, LitqError):
        show_error(parent, title, exc)
    return describe(exc)[0]


def table_columns(result: ParseResult, known: Iterable[str] = ()) -> list[str]:
    """Columns of a table seen in a preview: ``known`` first, then mapped, then raw ones."""
    seen = dict.fromkeys(known)
    seen.update(dict.fromkeys(result.columns.values()))
    for record in result.records:
        seen.update(dict.fromkeys(record.raw))
    return list(seen)


def _message_label(error: bool = False) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if error:
        label.setStyleSheet(_ERROR_STYLE)
        label.hide()
    return label


def _show_error(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


# --------------------------------------------------------------------------- page 1


class FilesPage(QWizardPage):
    """Choose the file(s) to import."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle("Choose files")
        self.setSubTitle("Search exports: RIS, BibTeX, CSV/TSV, Excel, PubMed/MEDLINE, "
                         "TREC run or qrels. Several files become several lists.")
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
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
        return [Path(self.list.item(i).text()) for i in range(self.list.count())]

    def add_paths(self, paths: Iterable[Path | str]) -> None:
        known = set(self.paths())
        for path in map(Path, paths):
            if path not in known:
                known.add(path)
                self.list.addItem(str(path))
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return self.list.count() > 0

    def _browse(self) -> None:
        chosen, _ = QFileDialog.getOpenFileNames(self, "Choose search exports")
        self.add_paths(chosen)

    def _remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.completeChanged.emit()


# --------------------------------------------------------------------------- page 2


class ColumnMappingEditor(QGroupBox):
    """Field → column combo boxes for a table; ``changed(field, column)`` fires on edits
    (column "" = not mapped)."""

    changed = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Column mapping: which column holds each field", parent)
        grid = QGridLayout(self)
        self.combos: dict[str, QComboBox] = {}
        for i, name in enumerate(FIELDS):
            combo = QComboBox()
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
            label = QLabel(FIELD_LABELS.get(name, name.capitalize()) + ":")
            label.setBuddy(combo)
            row, col = divmod(i, 3)
            grid.addWidget(label, row, 2 * col, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(combo, row, 2 * col + 1)
            combo.currentIndexChanged.connect(
                lambda _index, name=name: self.changed.emit(name, self.column(name)))
            self.combos[name] = combo
        for col in (1, 3, 5):
            grid.setColumnStretch(col, 1)

    def set_state(self, columns: list[str], chosen: dict[str, str]) -> None:
        """Offer ``columns`` and select ``chosen`` (field -> column) without signalling."""
        for name, combo in self.combos.items():
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(NOT_MAPPED, "")
            for column in columns:
                combo.addItem(column, column)
            combo.setCurrentIndex(max(0, combo.findData(chosen.get(name, ""))))
            combo.blockSignals(False)

    def column(self, name: str) -> str:
        """The column chosen for field ``name`` ("" = not mapped)."""
        return self.combos[name].currentData() or ""

    def choose(self, name: str, column: str) -> None:
        """Map field ``name`` to ``column`` as the user would."""
        combo = self.combos[name]
        combo.setCurrentIndex(combo.findData(column))


class PreviewTable(QTableWidget):
    """The first records of a file, read-only."""

    HEADERS = ("Title", "Year", "Authors", "DOI", "Source")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(self.HEADERS), parent)
        self.setHorizontalHeaderLabels(self.HEADERS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col, width in ((1, 50), (2, 160), (3, 170), (4, 130)):
            self.setColumnWidth(col, width)

    def show_records(self, records: list[Record]) -> None:
        self.setRowCount(len(records))
        for row, rec in enumerate(records):
            authors = "; ".join(rec.authors[:3]) + (" et al." if len(rec.authors) > 3 else "")
            for col, text in enumerate((rec.title, str(rec.year or ""), authors, rec.doi,
                                        rec.venue)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.setItem(row, col, item)

    def titles(self) -> list[str]:
        return [self.item(row, 0).text() for row in range(self.rowCount())]


class PreviewPage(QWizardPage):
    """Detected format and encoding, the column mapping of tables, the first records."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self._owner = wizard
        self.setTitle("Check how the files are read")
        self.setSubTitle(f"The first {PREVIEW_ROWS} records of each file. Fix the format or "
                         "the column mapping here if something looks wrong.")
        self.file_combo = QComboBox()
        self.file_combo.currentIndexChanged.connect(self.refresh)
        self.format_combo = QComboBox()
        self.format_combo.addItem("Automatic (detected)", "auto")
        for fmt in FORMATS:
            self.format_combo.addItem(fmt.upper() if len(fmt) <= 4 else fmt, fmt)
        self.format_combo.activated.connect(self._format_chosen)
        self.info_label = _message_label()
        self.error_label = _message_label(error=True)
        self.notes_label = _message_label()
        self.mapping_toggle = QPushButton("Edit column &mapping")
        self.mapping_toggle.setCheckable(True)
        self.mapping_toggle.toggled.connect(self.refresh)
        self.mapping_editor = ColumnMappingEditor()
        self.mapping_editor.changed.connect(self._mapping_changed)
        self.table = PreviewTable()

        form = QFormLayout()
        self._file_row_label = QLabel("&File:")
        self._file_row_label.setBuddy(self.file_combo)
        form.addRow(self._file_row_label, self.file_combo)
        format_row = QHBoxLayout()
        format_row.addWidget(self.format_combo, 1)
        format_row.addWidget(self.mapping_toggle)
        format_label = QLabel("Read &as:")
        format_label.setBuddy(self.format_combo)
        form.addRow(format_label, format_row)
        form.addRow("Detected:", self.info_label)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.mapping_editor)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes_label)

    # -- state ---------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 — Qt override
        states = self._owner.sync_files()
        self.file_combo.blockSignals(True)
        self.file_combo.clear()
        for state in states:
            self.file_combo.addItem(state.path.name, str(state.path))
        self.file_combo.blockSignals(False)
        several = len(states) > 1
        self.file_combo.setVisible(several)
        self._file_row_label.setVisible(several)
        for state in states:
            if state.result is None and not state.busy and not state.error:
                self.preview(state)
        self.refresh()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return bool(self._owner.files) and all(s.ready for s in self._owner.files)

    def current(self) -> FileState | None:
        index = self.file_combo.currentIndex()
        files = self._owner.files
        return files[index] if 0 <= index < len(files) else None

    # -- background preview ------------------------------------------------------------
    def preview(self, state: FileState) -> None:
        """(Re)read the first records of ``state.path`` with its current choices."""
        if state.handle is not None:
            state.handle.cancel()
        state.generation += 1
        generation, path = state.generation, state.path
        fmt, mapping = state.fmt, dict(state.mapping) or None
        state.busy, state.error = True, ""

        def make(token: CancelToken):
            return read_records(path, fmt=fmt, mapping=mapping, token=token, limit=PREVIEW_ROWS)

        state.handle = self._owner.session.jobs.run(
            f"Preview {path.name}", make,
            on_success=lambda result: self._previewed(state, generation, result, None),
            on_failure=lambda exc: self._previewed(state, generation, None, exc),
            on_cancelled=lambda: self._previewed(state, generation, None, None))
        self.refresh()
        self.completeChanged.emit()

    def _previewed(self, state: FileState, generation: int, result: ParseResult | None,
                   exc: BaseException | None) -> None:
        if generation != state.generation:
            return  # a newer preview of this file is on its way
        state.busy, state.handle, state.result = False, None, result
        if result is not None:
            state.error = ""
            state.tabular = result.format in TABLE_FORMATS
            state.columns = table_columns(result, state.columns) if state.tabular else []
        elif exc is None:
            state.error = "The preview was cancelled."
        else:
            state.error = failure_text(self, f"Reading {state.path.name} failed", exc)
            if isinstance(exc, UnknownLayoutError):
                state.tabular = True
                state.columns = list(dict.fromkeys([*state.columns, *exc.columns]))
            else:
                state.tabular = state.tabular and bool(state.mapping)
        self.refresh()
        self.completeChanged.emit()

    def _format_chosen(self) -> None:
        state = self.current()
        if state is not None:
            state.fmt = self.format_combo.currentData()
            state.mapping, state.columns, state.tabular = {}, [], False
            self.preview(state)

    def _mapping_changed(self, name: str, column: str) -> None:
        state = self.current()
        if state is not None:
            state.mapping[name] = column  # the user's choices add up; detection does the rest
            self.preview(state)

    # -- showing -------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the chosen file's state."""
        state = self.current()
        if state is None:
            return
        result = state.result
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(state.fmt)))
        if state.busy:
            self.info_label.setText(f"reading the first records of {state.path.name}…")
        elif result is not None:
            self.info_label.setText(
                f"format <b>{result.format}</b>, encoding <b>{result.encoding}</b>, database "
                f"<b>{html.escape(result.database) or 'not recognised'}</b>")
        else:
            self.info_label.setText("the file could not be read (see below)")
        error = state.error
        if error and state.tabular and state.columns:
            error += "\n\nChoose below which column holds the title (or the abstract)."
        _show_error(self.error_label, error)
        if state.tabular and result is None:  # the user must map: keep the editor open
            self.mapping_toggle.blockSignals(True)
            self.mapping_toggle.setChecked(True)
            self.mapping_toggle.blockSignals(False)
        self.mapping_toggle.setVisible(state.tabular and result is not None)
        self.mapping_editor.setVisible(state.tabular and self.mapping_toggle.isChecked())
        if state.tabular:
            detected = result.columns if result is not None else {}
            self.mapping_editor.set_state(state.columns, {**detected, **state.mapping})
        records = result.records if result is not None else []
        self.table.show_records(records)
        notes = list(result.notes) if result is not None else []
        self.notes_label.setText("\n".join(f"Note: {n}" for n in notes))


# --------------------------------------------------------------------------- page 3


class SettingsPage(QWizardPage):
    """Role, topic, list names, database and query of the lists to create."""

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self._owner = wizard
        self._topics: dict[str, catalog.TopicInfo] = {}
        self._role_touched = False
        self.setTitle("Describe the lists")
        self.setSubTitle("Every file becomes one list of the topic.")
        self.setButtonText(QWizard.WizardButton.NextButton, "&Import")
        self.role_combo = QComboBox()
        for role in ingest.ROLES:
            self.role_combo.addItem(ROLE_LABELS[role], role)
        self.role_combo.activated.connect(self._role_chosen)
        self.topic_combo = QComboBox()
        self.topic_combo.setEditable(True)
        self.topic_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.topic_combo.lineEdit().setPlaceholderText("an existing topic or a new name")
        self.topic_combo.currentTextChanged.connect(self._suggest_role)
        self.names_box = QGroupBox("List names")
        self.names_form = QFormLayout(self.names_box)
        self.name_edits: dict[Path, QLineEdit] = {}
        self.database_edit = QLineEdit()
        self.query_edit = QPlainTextEdit()
        self.query_edit.setTabChangesFocus(True)
        self.query_edit.setPlaceholderText("the search string that produced these results")
        self.query_edit.setFixedHeight(90)
        self.error_label = _message_label(error=True)

        form = QFormLayout()
        form.addRow("&Topic:", self.topic_combo)
        form.addRow("&Role:", self.role_combo)
        form.addRow("&Database:", self.database_edit)
        form.addRow("&Query:", self.query_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.names_box)
        layout.addWidget(self.error_label)
        layout.addStretch(1)

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        self._topics = {t.name: t for t in catalog.topics(self._owner.session.project)}
        typed = self.topic_combo.currentText()
        self.topic_combo.clear()
        self.topic_combo.addItems(list(self._topics))
        self.topic_combo.setCurrentText(typed or next(iter(self._topics), ""))
        self._build_names()
        databases = {s.result.database for s in self._owner.files if s.result is not None}
        if not self.database_edit.text():
            self.database_edit.setText(databases.pop() if len(databases) == 1 else "")
        self.database_edit.setPlaceholderText("as detected for each file")
        self._suggest_role()
        _show_error(self.error_label, "")

    def _build_names(self) -> None:
        old = {path: edit.text() for path, edit in self.name_edits.items()}
        while self.names_form.rowCount():
            self.names_form.removeRow(0)
        self.name_edits = {}
        for state in self._owner.files:
            edit = QLineEdit(old.get(state.path) or state.path.stem)
            self.names_form.addRow(f"{state.path.name}:", edit)
            self.name_edits[state.path] = edit

    def _role_chosen(self) -> None:
        self._role_touched = True

    def _suggest_role(self) -> None:
        """Until the user picks a role: core for a topic without core set, else results."""
        if self._role_touched:
            return
        info = self._topics.get(self.topic_combo.currentText().strip())
        role = "results" if info is not None and info.core else "core"
        self.role_combo.setCurrentIndex(self.role_combo.findData(role))

    def settings(self) -> ImportSettings:
        return ImportSettings(
            role=self.role_combo.currentData(), topic=self.topic_combo.currentText().strip(),
            names={path: edit.text().strip() for path, edit in self.name_edits.items()},
            database=self.database_edit.text().strip(),
            query=self.query_edit.toPlainText().strip())

    def validatePage(self) -> bool:  # noqa: N802 — Qt override
        problem = self._problem(self.settings())
        _show_error(self.error_label, problem)
        return not problem

    def _problem(self, settings: ImportSettings) -> str:
        if not settings.topic:
            return "Name the topic these lists belong to."
        names = list(settings.names.values())
        if not all(names):
            return "Every list needs a name."
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            return f"Two files would get the same list name {repeated[0]!r}; rename one."
        if settings.topic in self._topics:
            taken = {i.name for i in catalog.lists(self._owner.session.project, settings.topic)}
            clash = [n for n in names if n in taken]
            if clash:
                return (f"Topic {settings.topic!r} already has a list named {clash[0]!r}; "
                        "choose another name.")
        return ""


# --------------------------------------------------------------------------- page 4


def import_job(session: ProjectSession, state: FileState, settings: ImportSettings) -> JobFactory:
    """The background import of one file on its own connection, closed in every outcome."""
    path, fmt, mapping = state.path, state.fmt, dict(state.mapping) or None

    def make(token: CancelToken):
        project = session.worker_project()
        try:
            return (yield from ingest.import_file(
                project, path, topic=settings.topic, role=settings.role,
                name=settings.names[path], query=settings.query,
                database=settings.database or None, fmt=fmt, mapping=mapping, token=token))
        finally:
            project.close()

    return make


class RunPage(QWizardPage):
    """Runs the imports one after another, with progress and Cancel."""

    stopped = Signal()

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self._owner = wizard
        self.setTitle("Importing")
        self.setSubTitle("Each file is imported completely or not at all.")
        self.setButtonText(QWizard.WizardButton.CommitButton, "Show &summary")
        self.summaries: dict[Path, ImportSummary] = {}
        self.failures: dict[Path, str] = {}
        self.cancelled = False
        self._queue: list[FileState] = []
        self._handle: JobHandle | None = None
        self.heading = QLabel()
        self.progress = QProgressBar()
        self.phase_label = QLabel()
        self.cancel_button = QPushButton("&Cancel import")
        self.cancel_button.clicked.connect(self.cancel)
        self.retry_button = QPushButton("&Try again")
        self.retry_button.clicked.connect(self.start)
        self.status_label = _message_label()
        self.error_label = _message_label(error=True)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.progress)
        layout.addWidget(self.phase_label)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)
        layout.addStretch(1)

    @property
    def running(self) -> bool:
        return self._handle is not None

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        self.start()

    def isComplete(self) -> bool:  # noqa: N802 — Qt override
        return not self.running and bool(self.summaries)

    def start(self) -> None:
        """Import every file not imported yet."""
        self._settings = self._owner.settings()
        self._queue = [s for s in self._owner.files if s.path not in self.summaries]
        for state in self._queue:
            self.failures.pop(state.path, None)
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
        state = self._queue.pop(0)
        total = len(self._owner.files)
        number = total - len(self._queue)
        self.heading.setText(f"Importing <b>{html.escape(state.path.name)}</b> as list "
                             f"<b>{html.escape(self._settings.names[state.path])}</b>"
                             + (f" ({number} of {total})" if total > 1 else "") + "…")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.phase_label.setText("starting")
        self._handle = self._owner.session.jobs.run(
            f"Import {state.path.name}", import_job(self._owner.session, state, self._settings),
            on_success=lambda summary: self._imported(state, summary),
            on_failure=lambda exc: self._failed(state, exc),
            on_cancelled=self._was_cancelled,
            on_progress=self._progressed)
        self.completeChanged.emit()

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.phase_label.setText(message)

    def _imported(self, state: FileState, summary: ImportSummary) -> None:
        self.summaries[state.path] = summary
        self._owner.session.notify_changed(IMPORTS)
        self._handle = None
        self._next()

    def _failed(self, state: FileState, exc: BaseException) -> None:
        self.failures[state.path] = failure_text(self, f"Import of {state.path.name} failed",
                                                 exc)
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
        imported_all = len(self.summaries) == len(self._owner.files)
        self.progress.setValue(100 if imported_all else 0)
        self.progress.setVisible(imported_all)
        self.phase_label.setText("")
        self.heading.setText("All files imported." if imported_all else "")
        self.retry_button.setVisible(not imported_all)
        self._owner.settings_page.setCommitPage(bool(self.summaries))
        self.setCommitPage(bool(self.summaries))
        self._show_outcomes()
        self.completeChanged.emit()
        closing = self._owner.closing
        self.stopped.emit()
        if imported_all and not closing and self._owner.currentPage() is self:
            self._owner.next()

    def _show_outcomes(self) -> None:
        lines = []
        if self.cancelled:
            lines.append("<b>Import cancelled — the project is unchanged</b>"
                         + (" apart from the lists imported before." if self.summaries else "."))
        for state in self._owner.files:
            name = html.escape(state.path.name)
            if state.path in self.summaries:
                lines.append(f"✔ {name}: imported ({self.summaries[state.path].read} read)")
            elif state.path in self.failures:
                lines.append(f"✘ {name}: not imported")
        self.status_label.setText("<br>".join(lines))
        _show_error(self.error_label, "\n\n".join(self.failures.values()))


# --------------------------------------------------------------------------- page 5


class SummaryPage(QWizardPage):
    """What each import did, the rejected records, the uncertain matches, the report."""

    ROWS = (("read", "Read"), ("new", "New works"), ("duplicate", "Duplicates merged"),
            ("matched", "Matched to core"), ("rejected", "Rejected"),
            ("uncertain", "Uncertain matches"))

    def __init__(self, wizard: ImportWizard) -> None:
        super().__init__(wizard)
        self._owner = wizard
        self.setTitle("Summary")
        self.setSubTitle("What the import did. Save the report to keep it with your review.")
        self.headline = _message_label()
        self.counts = QTableWidget(len(self.ROWS), 0)
        self.counts.setVerticalHeaderLabels([label for _, label in self.ROWS])
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
        self.failures_label = _message_label(error=True)
        self.matches_button = QPushButton("Review &uncertain matches…")
        self.matches_button.clicked.connect(self.review_matches)
        self.save_button = QPushButton("Save &report…")
        self.save_button.clicked.connect(self._save_clicked)
        self.matches_dialog: MatchesDialog | None = None
        buttons = QHBoxLayout()
        buttons.addWidget(self.matches_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.counts)
        layout.addWidget(self.failures_label)
        layout.addWidget(self.problems_box, 1)
        layout.addStretch(0)
        layout.addLayout(buttons)

    def summaries(self) -> list[ImportSummary]:
        return list(self._owner.run_page.summaries.values())

    def initializePage(self) -> None:  # noqa: N802 — Qt override
        summaries = self.summaries()
        topic = self._owner.settings().topic
        self.headline.setText(f"{len(summaries)} list(s) imported into topic "
                              f"<b>{html.escape(topic)}</b>.")
        self.counts.setColumnCount(len(summaries))
        self.counts.setHorizontalHeaderLabels([s.name for s in summaries])
        for col, summary in enumerate(summaries):
            for row, (key, _) in enumerate(self.ROWS):
                item = QTableWidgetItem(f"{getattr(summary, key):,}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.counts.setItem(row, col, item)
        failures = self._owner.run_page.failures
        _show_error(self.failures_label, "\n".join(
            f"Not imported: {path.name}: {reason}" for path, reason in failures.items()))
        lines = [f"{s.name}: {p}" for s in summaries for p in s.problems]
        lines += [f"{s.name}: note: {n}" for s in summaries for n in s.notes]
        self.problems.setPlainText("\n".join(lines))
        self.problems_box.setVisible(bool(lines))
        uncertain = sum(s.uncertain for s in summaries)
        self.matches_button.setEnabled(uncertain > 0)
        self.matches_button.setText(f"Review {uncertain} &uncertain match(es)…" if uncertain
                                    else "No uncertain matches")

    def count(self, name: str, key: str) -> int:
        """The number shown for list ``name`` in row ``key`` (e.g. "matched")."""
        col = [s.name for s in self.summaries()].index(name)
        row = [k for k, _ in self.ROWS].index(key)
        return int(self.counts.item(row, col).text().replace(",", ""))

    def report_text(self) -> str:
        text = "\n".join(s.report() for s in self.summaries())
        failures = self._owner.run_page.failures
        return text + "".join(f"not imported: {p}: {why}\n" for p, why in failures.items())

    def save_report(self, path: Path) -> None:
        try:
            Path(path).write_text(self.report_text(), encoding="utf-8")
        except OSError as exc:
            show_error(self, "Could not save the report", f"{path}: {exc.strerror}")

    def _save_clicked(self) -> None:
        first = next(iter(self.summaries()), None)
        default = f"import-report-{first.name if first else 'lists'}.txt"
        chosen, _ = QFileDialog.getSaveFileName(self, "Save import report", default,
                                                "Text files (*.txt);;All files (*)")
        if chosen:
            self.save_report(Path(chosen))

    def review_matches(self) -> None:
        """Open the uncertain-matches dialog for the topic."""
        self.matches_dialog = MatchesDialog(self._owner.session, self._owner.settings().topic,
                                            self)
        self.matches_dialog.open()


# --------------------------------------------------------------------------- the wizard


class ImportWizard(QWizard):
    """Import one or more search exports as lists of a topic (Ctrl+I, drag and drop)."""

    FILES, PREVIEW, SETTINGS, RUN, SUMMARY = range(5)

    def __init__(self, session: ProjectSession, paths: list[Path] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.files: list[FileState] = []
        self._close_when_stopped = False
        self.setWindowTitle("Import search results")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage)
        self.files_page = FilesPage()
        self.preview_page = PreviewPage(self)
        self.settings_page = SettingsPage(self)
        self.run_page = RunPage(self)
        self.summary_page = SummaryPage(self)
        for page_id, page in ((self.FILES, self.files_page), (self.PREVIEW, self.preview_page),
                              (self.SETTINGS, self.settings_page), (self.RUN, self.run_page),
                              (self.SUMMARY, self.summary_page)):
            self.setPage(page_id, page)
        self.run_page.stopped.connect(self._run_stopped)
        if paths:
            self.files_page.add_paths(paths)
            self.setStartId(self.PREVIEW)
        self.resize(940, 680)

    def sync_files(self) -> list[FileState]:
        """File states for the chosen paths, keeping what is known of each."""
        known = {s.path: s for s in self.files}
        self.files = [known.get(p) or FileState(p) for p in self.files_page.paths()]
        return self.files

    def settings(self) -> ImportSettings:
        return self.settings_page.settings()

    def reject(self) -> None:
        """Esc / Cancel: a running import is cancelled first, then the wizard closes."""
        if self.run_page.running:
            self._close_when_stopped = True
            self.run_page.cancel()
            return
        super().reject()

    def done(self, result: int) -> None:
        for state in self.files:
            state.generation += 1  # late preview results are ignored
            if state.handle is not None:
                state.handle.cancel()
                state.handle = None
            state.busy = False
        super().done(result)

    @property
    def closing(self) -> bool:
        """The user asked to close while an import was running."""
        return self._close_when_stopped

    def _run_stopped(self) -> None:
        if self._close_when_stopped:
            self._close_when_stopped = False
            super().reject()
