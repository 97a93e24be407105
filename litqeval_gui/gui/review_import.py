"""File ▸ Import Review from Another Tool…: an ASReview LAB project, a Rayyan export or
Covidence's export files, with their decisions, into a topic as a screening
(:mod:`litqeval_gui.core.screening.foreign`; docs/interop.md).

The files are asked, then the topic, the screening's name and — where the tool names
no one — who decided (:class:`ReviewImportDialog`); the import runs as a job on the
session (progress in the status bar) and ends in :class:`ReviewSummaryDialog`: the
lists, the screening, per reviewer the decisions in the file and those added, what
matched nothing and why; or in one line saying why nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.foreign import detect_tool, import_files
from litqeval_gui.core.screening.foreign.intake import ReviewImport
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.notify import show_error

TITLE = "Import Review"
FILTER = ("Reviews from other tools (*.asreview *.csv *.ris *.txt *.tsv);;"
          "ASReview LAB project (*.asreview);;All files (*)")
TOOL_NAMES = {"asreview": "an ASReview LAB project", "rayyan": "a Rayyan export",
              "covidence": "Covidence's export files"}


class ReviewImportDialog(QDialog):
    """Where a review goes: its topic (one of ``topics`` or a new name), the screening's
    name (empty: the review's own) and who decided where the tool names no one."""

    def __init__(self, paths: Sequence[Path], tool: str, topics: Sequence[str],
                 topic: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle=TITLE)
        names = ", ".join(plain_name(p.name) for p in paths)
        about = QLabel(f"{names}: {TOOL_NAMES.get(tool, tool)}. Its records become a list "
                       "of the topic, its decisions a screening of it.")
        about.setWordWrap(True)
        self.topic = QComboBox(editable=True)
        self.topic.addItems(list(topics))
        self.topic.setCurrentText(topic or (topics[0] if topics else "review"))
        self.screening = QLineEdit(placeholderText="the review's own name")
        self.reviewer = QLineEdit(placeholderText="the names the tool stores")
        self.reviewer.setToolTip("Who decided, where the tool stores no name: an ASReview "
                                 "project without users, Covidence's final decisions")
        form = QFormLayout()
        form.addRow("&Topic:", self.topic)
        form.addRow("&Screening:", self.screening)
        form.addRow("&Decided by:", self.reviewer)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.import_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.import_button.setText("&Import")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.topic.currentTextChanged.connect(
            lambda text: self.import_button.setEnabled(bool(plain_name(text))))
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(480)

    def values(self) -> tuple[str, str | None, str]:
        """(topic, screening name or None, reviewer) as given."""
        return (plain_name(self.topic.currentText()),
                plain_name(self.screening.text()) or None, plain_name(self.reviewer.text()))


def import_review_into_project(window: Any, paths: Sequence[str | Path] | None = None
                               ) -> ReviewImportDialog | None:
    """Ask for the files (when ``paths`` is None), then where they go (the dialog, opened
    and kept as ``window.review_dialog``), whose Import runs the job; its summary opens
    when it ends. None when nothing was asked."""
    if window.session is None:
        return None
    if paths is None:
        names, _ = QFileDialog.getOpenFileNames(window, TITLE, str(window.settings.last_dir),
                                                FILTER)
        if not names:
            return None
        paths = names
        window.settings.last_dir = Path(names[0]).parent
        window.settings.save()
    files = [Path(p) for p in paths]
    try:
        tool = detect_tool(files)
    except LitqError as exc:
        show_error(window, "Nothing was imported", exc)
        return None
    if tool is None:
        show_error(window, "Nothing was imported", f"{', '.join(p.name for p in files)}: no "
                   "ASReview project, Rayyan or Covidence export with decisions; import "
                   "plain records with File ▸ Import…")
        return None
    dialog = ReviewImportDialog(files, tool, window.sidebar.topic_names(),
                                window.sidebar.current_topic(), window)
    dialog.accepted.connect(lambda: start_import(window, files, tool, *dialog.values()))
    dialog.open()
    window.review_dialog = dialog
    return dialog


def offer_review_import(window: Any, paths: Sequence[str | Path]) -> bool:
    """Files given to the import wizard that are another tool's review: an ASReview
    project goes to the review import; for a Rayyan or Covidence export, asked whether
    its decisions come too. Whether the review import took them."""
    files = [Path(p) for p in paths]
    try:
        tool = detect_tool(files)
    except LitqError:
        return False  # the wizard says what is wrong with the file
    if tool is None:
        return False
    if tool != "asreview":
        answer = QMessageBox.question(
            window, TITLE, f"{', '.join(p.name for p in files)}: {TOOL_NAMES[tool]} with "
            "screening decisions.\n\nImport its decisions too, as a screening of the topic? "
            "(No: its records only.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            return False
    import_review_into_project(window, files)
    return True


def start_import(window: Any, files: Sequence[Path], tool: str, topic: str,
                 name: str | None, reviewer: str) -> JobHandle:
    """Run the import of ``files`` as a job; its summary (or the refusal) when it ends."""
    window.review_summary = None
    return window.session.jobs.run(
        TITLE, window.session.worker_job(lambda project, token: import_files(
            project, files, topic=topic, tool=tool, reviewer=reviewer, name=name,
            token=token)),
        on_success=lambda result: show_summary(window, result),
        on_failure=lambda exc: show_error(window, "Nothing was imported", exc))


class ReviewSummaryDialog(QDialog):
    """What an import of another tool's review did (:class:`ReviewImport`); "Open
    Screening" opens it."""

    def __init__(self, result: ReviewImport, parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Review Imported")
        self.result = result
        lines = [f"{plain_name(s.name)}: {s.read:,} records read, {s.new:,} new works, "
                 f"{s.duplicate:,} duplicates, {s.rejected:,} rejected" for s in result.imports]
        lines += [f"{plain_name(n)}: imported before; its records reused"
                  for n in result.reused]
        where = f"screening <b>{_html(result.screening)}</b>" + (
            f" and its full text <b>{_html(result.fulltext)}</b>" if result.fulltext else "")
        head = QLabel(f"{_html(result.tool)} decisions into {where} of topic "
                      f"<b>{_html(result.topic)}</b>:<br>"
                      f"{sum(result.added.values()):,} added"
                      + (f" ({result.priors:,} of them priors)" if result.priors else "")
                      + f", {result.present:,} already "
                      f"there, {result.unmatched:,} unmatched; {result.conflicts:,} "
                      "conflict(s) open.<br>" + "<br>".join(map(_html, lines)))
        head.setWordWrap(True)
        head.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(len(result.in_file), 3)
        self.table.setHorizontalHeaderLabels(["Reviewer", "In the file", "Added"])
        for row, (who, count) in enumerate(result.in_file.items()):
            for column, value in enumerate((who, f"{count:,}",
                                            f"{result.added.get(who, 0):,}")):
                item = QTableWidgetItem(value)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.resizeColumnsToContents()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, header.ResizeMode.Stretch)
        shown_rows = min(max(self.table.rowCount(), 1), 8)  # the table as tall as its rows
        self.table.setFixedHeight(header.height() + 2 * self.table.frameWidth()
                                  + shown_rows * self.table.verticalHeader().defaultSectionSize())
        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(self.table)
        if result.note:
            note = QLabel(f"Note kept with the screening: {_html(result.note)}")
            note.setWordWrap(True)
            layout.addWidget(note)
        if result.unmatched_examples:
            shown = QLabel("Not matched to a record:<br>" + "<br>".join(
                _html(t) for t in result.unmatched_examples))
            shown.setWordWrap(True)
            layout.addWidget(shown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = QPushButton("&Open Screening")
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)


def _html(text: str) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def show_summary(window: Any, result: ReviewImport) -> ReviewSummaryDialog:
    """The summary (opened, not run; kept as ``window.review_summary``); its "Open
    Screening" opens the screening in a tab."""
    dialog = ReviewSummaryDialog(result, window)

    def open_it() -> None:
        screening = store.find_screening(window.session.project, result.topic,
                                         result.screening)
        window.open_screen("screening", screening)

    dialog.accepted.connect(open_it)
    dialog.open()
    window.review_summary = dialog
    return dialog
