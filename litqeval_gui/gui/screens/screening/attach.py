"""Attaching PDFs from the app (issue 26 §1): one file to the record shown (a file
dialog or a drop; :func:`attach_one`), or a whole folder matched to a topic's works
(:class:`FolderAttacher`): :func:`~litqeval_gui.core.records.attachments.match_folder`
runs as a job with progress, then :class:`MatchDialog` lists the certain matches
(ticked) and the uncertain ones (to tick), each record with its id, year, first authors
and DOI beside the PDF's own title, with the PDFs it could not match or read, and the
choice to copy the files beside the project or link them where they are; the ticked
pairs are attached in one write (:func:`~litqeval_gui.core.records.attachments.attach_matches`).
The PDF shown can be replaced or detached (:class:`PdfActions`, :func:`detach_one`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressDialog,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.attachments import (
    Attachment,
    Candidate,
    FolderMatch,
    attach_file,
    attach_matches,
    candidates,
    copy_notice,
    detach,
    match_folder,
)
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.list_actions import confirm
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

PDF_FILTER = "PDF files (*.pdf)"
MATCH_TITLE = "Matching PDFs"
ATTACH_TITLE = "Attaching PDFs"
DETACH_TITLE = "Detaching a PDF"
COLUMNS = ("Attach", "PDF", "Title in the PDF", "Record", "Year", "First authors", "DOI",
           "Record title", "Matched by")


def looked_up(urls: Iterable[QUrl]) -> list[Path]:
    """The local files among dropped ``urls``."""
    return [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]


def choose_pdf(parent: QWidget) -> Path | None:
    """One PDF file chosen in a file dialog (starting in the last folder used)."""
    settings = Settings()
    name, _ = QFileDialog.getOpenFileName(parent, "Attach PDF", str(settings.last_dir),
                                          PDF_FILTER)
    if not name:
        return None
    settings.last_dir = Path(name).parent
    settings.save()
    return Path(name)


def large_copies_confirmed(session: ProjectSession, paths: Iterable[Path],
                           parent: QWidget) -> bool:
    """Whether the user goes on with copying these files when some are large (core's
    :func:`~litqeval_gui.core.records.attachments.copy_notice` says which; asked once)."""
    notices = [n for n in (copy_notice(session.project, p) for p in paths) if n]
    return not notices or confirm(parent, "Large PDF", "\n".join(notices[:5]) + (
        " …" if len(notices) > 5 else "") + "\n\nLink a file instead of copying it to "
        "keep it where it is.", "Copy")


def attach_one(session: ProjectSession, record_id: int, path: Path, copy: bool,
               parent: QWidget) -> JobHandle | None:
    """Attach ``path`` to ``record_id``'s work as a job (the copy off the interface's
    thread, the write on the write path, whose ``changed`` says ``attachments``); one
    line when refused (nothing changed). A large copy is asked about first (None when
    the user declines)."""
    if copy and not large_copies_confirmed(session, [path], parent):
        return None

    def job(project, _token):
        yield Progress(0, 1, f"Attaching {path.name}")
        return attach_file(project, record_id, path, copy=copy)

    return session.jobs.run(
        ATTACH_TITLE, session.worker_job(job),
        on_failure=lambda exc: show_error(parent, "The PDF was not attached", exc))


def detach_one(session: ProjectSession, record_id: int, attached: Attachment,
               parent: QWidget) -> JobHandle | None:
    """Detach PDF…: once the user confirms, take ``attached`` off ``record_id``'s work as
    a job (the project's copy deleted, a linked file left alone); None when cancelled."""
    text = ("Detach the PDF from this record? The project's copy of it is deleted (the "
            "file you attached it from is not touched)." if attached.mode == "copy" else
            f"Detach {attached.path.name} from this record? The file itself stays where "
            f"it is: {attached.path}")
    if not confirm(parent, "Detach PDF", text, "Detach"):
        return None

    def job(project, _token):
        yield Progress(0, 1, "Detaching the PDF")
        return detach(project, record_id)

    return session.jobs.run(
        DETACH_TITLE, session.worker_job(job),
        on_failure=lambda exc: show_error(parent, "The PDF was not detached", exc))


class PdfActions(QWidget):
    """Replace PDF… and Detach PDF… for the PDF shown (on the reader's bar)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replace_button = QPushButton("Replace PDF…", toolTip="Attach another PDF to "
                                          "this record in place of the one shown")
        self.detach_button = QPushButton("Detach PDF…", toolTip="Take the PDF off this record "
                                         "(a linked file is left where it is)")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for button in (self.replace_button, self.detach_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            row.addWidget(button)


class MatchDialog(QDialog):
    """The matches of a folder to confirm: :meth:`pairs` (the ticked ones) and
    :meth:`copy` after ``accept``. Every row shows what tells its record apart; of the
    candidates of one PDF at most one is ticked."""

    def __init__(self, match: FolderMatch, records: dict[int, Candidate], folder: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle="Attach PDFs from Folder")
        self.rows: list[tuple[int, Path]] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        titles = match.pdf_titles
        for record_id, path, _score, how in sorted(match.uncertain, key=lambda m: -m[2]):
            self._add(records[record_id], path, titles.get(path, ""), how, False)  # first
        for record_id, path, how in match.certain:
            self._add(records[record_id], path, titles.get(path, ""), how, True)
        self.table.resizeColumnsToContents()
        for column in (2, 5, 7):
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), 320))
        self.table.itemChanged.connect(self._one_per_pdf)
        pdfs = {path for _, path, *_ in match.certain + match.uncertain}
        unsure = {path for _, path, *_ in match.uncertain}
        summary = QLabel(
            f"<b>{len(pdfs):,}</b> of the PDFs in {folder} match a record: "
            f"{len(unsure):,} uncertain (first, likeliest on top) — tick the record each "
            f"is the full text of — and {len(match.certain):,} certain (ticked).",
            wordWrap=True)
        self.left_out = QLabel(self._left_out_text(match), wordWrap=True)
        self.left_out.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QRadioButton("Copy them into the project's files folder "
                                        "(moves with the project)", checked=True)
        self.link_button = QRadioButton("Link them where they are (the project keeps "
                                        "their paths and notices a moved or changed file)")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Attach Ticked")
        buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(pdfs))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.left_out)
        layout.addWidget(self.copy_button)
        layout.addWidget(self.link_button)
        layout.addWidget(buttons)
        self.resize(900, 520)

    @staticmethod
    def _left_out_text(match: FolderMatch) -> str:
        parts = []
        if match.unmatched:
            names = ", ".join(p.name for p in match.unmatched[:10])
            more = f" and {len(match.unmatched) - 10:,} more" if len(match.unmatched) > 10 else ""
            parts.append(f"No record found for {len(match.unmatched):,}: {names}{more}.")
        if match.refused:
            parts.append(f"Not readable ({len(match.refused):,}): "
                         + "; ".join(line for _, line in match.refused[:5])
                         + (" …" if len(match.refused) > 5 else ""))
        return " ".join(parts)

    def _add(self, record: Candidate, path: Path, pdf_title: str, how: str,
             ticked: bool) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        tick = QTableWidgetItem()
        tick.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
        tick.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        self.table.setItem(row, 0, tick)
        for column, text in enumerate((path.name, pdf_title, f"#{record.record_id}",
                                       str(record.year or ""), record.first_authors(),
                                       record.doi, record.title or "(no title)", how), 1):
            item = QTableWidgetItem(text)
            item.setToolTip(str(path) if column == 1 else
                            ", ".join(record.authors) if column == 5 else text)
            self.table.setItem(row, column, item)
        self.rows.append((record.record_id, path))

    def _one_per_pdf(self, item: QTableWidgetItem) -> None:
        """A candidate ticked: the other records offered for the same PDF are unticked."""
        if item.column() != 0 or item.checkState() != Qt.CheckState.Checked:
            return
        path = self.rows[item.row()][1]
        for row, (_, other) in enumerate(self.rows):
            if other == path and row != item.row():
                self.table.item(row, 0).setCheckState(Qt.CheckState.Unchecked)

    def pairs(self) -> list[tuple[int, Path]]:
        """The ticked (record id, PDF) pairs."""
        return [pair for row, pair in enumerate(self.rows)
                if self.table.item(row, 0).checkState() == Qt.CheckState.Checked]

    def copy(self) -> bool:
        return self.copy_button.isChecked()


class FolderAttacher(QObject):
    """Attach PDFs from Folder… for ``topic``: :meth:`start` matches a folder (a job,
    its progress shown), ``matched`` gives the :class:`MatchDialog` (opened for the
    user), and the ticked pairs are attached (``attached`` gives how many)."""

    progressed = Signal(int, int, str)
    matched = Signal(object)
    attached = Signal(int)

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.session, self.topic, self.parent_widget = session, topic, parent
        self.dialog: MatchDialog | None = None
        self.progress = QProgressDialog(f"Matching the PDFs to {topic}…", "Cancel", 0, 0,
                                        parent)
        self.progress.setWindowTitle(MATCH_TITLE)
        self.progress.setMinimumDuration(300)
        self.progress.reset()  # hidden until a job starts
        self.progressed.connect(self._progressed)

    def choose(self) -> JobHandle | None:
        """Ask for the folder, then :meth:`start`."""
        settings = Settings()
        folder = QFileDialog.getExistingDirectory(self.parent_widget, "Attach PDFs from Folder",
                                                  str(settings.last_dir))
        if not folder:
            return None
        settings.last_dir = Path(folder)
        settings.save()
        return self.start(Path(folder))

    def start(self, folder: Path) -> JobHandle:
        """Match the PDFs under ``folder`` in the background."""
        report = self.progressed.emit  # queued to the interface's thread

        def job(project, token):
            yield Progress(0, 0, f"Listing the PDFs in {folder.name}")
            found = match_folder(project, self.topic, folder, token,
                                 lambda p: report(p.done, p.total, p.message))
            return found, candidates(project, [record_id for record_id, *_ in
                                               found.certain + found.uncertain])

        self.progress.setValue(0)
        handle = self.session.jobs.run(
            MATCH_TITLE, self.session.worker_job(job),
            on_success=lambda result: self._matched(folder, *result),
            on_failure=lambda exc: self._failed("The folder could not be matched", exc),
            on_cancelled=self.progress.reset)
        self.progress.canceled.connect(handle.cancel)
        return handle

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.progress.setMaximum(total)
        self.progress.setValue(done)
        self.progress.setLabelText(message)

    def _failed(self, title: str, exc: BaseException) -> None:
        self.progress.reset()
        show_error(self.parent_widget, title, exc)

    def _matched(self, folder: Path, match: FolderMatch,
                 records: dict[int, Candidate]) -> None:
        self.progress.reset()
        self.dialog = MatchDialog(match, records, folder, self.parent_widget)
        self.dialog.accepted.connect(self._confirmed)
        self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog.open()
        self.matched.emit(self.dialog)

    def _confirmed(self) -> None:
        pairs, copy = self.dialog.pairs(), self.dialog.copy()
        if not pairs or copy and not large_copies_confirmed(
                self.session, [path for _, path in pairs], self.parent_widget):
            return

        def job(project, _token):
            yield Progress(0, len(pairs), f"Attaching {len(pairs):,} PDFs")
            return attach_matches(project, pairs, copy=copy)

        self.session.jobs.run(
            ATTACH_TITLE, self.session.worker_job(job), on_success=self.attached.emit,
            on_failure=lambda exc: self._failed("No PDF was attached", exc))


def attach_folder(session: ProjectSession, topic: str | None, parent: QWidget) -> FolderAttacher | None:
    """Attach PDFs from Folder… for ``topic`` (None: nothing to do)."""
    if topic is None:
        return None
    attacher = FolderAttacher(session, topic, parent)
    attacher.choose()
    return attacher
