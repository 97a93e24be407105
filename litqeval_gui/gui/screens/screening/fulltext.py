"""The full-text screener (issue 26 §1): in a ``full_text`` screening the record's PDF is
shown under its title and abstract (:class:`FullTextPane`), an exclusion asks for a
reason from the screening's list (:func:`~litqeval_gui.gui.reason_picker.pick_reason`), and "Report
not retrieved" is a decision of its own (key U). A record without a PDF says so, with
an Attach… button and room to drop a PDF file; a missing file says where it was; a
changed one is shown with a warning line.

The screen is laid out for reading the PDF (:meth:`FullTextDeciding.full_text_columns`):
the record's details over the PDF, which takes most of the height, the decision keys
under it, and beside it the counts, this record's decision and the exclusion reasons
with how often each was given (:class:`ReasonTally`).

:class:`FullTextDeciding` is mixed into the screening view before
:class:`~.deciding.Deciding`; it changes nothing in a title/abstract screening.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records.attachments import Attachment, attachment
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.log.labels import (
    EXCLUSION,
    FULL_TEXT,
    NOT_RETRIEVED,
    phase_labels,
)
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.gui.actions import make_action
from litqeval_gui.gui.pdf import PdfReader
from litqeval_gui.gui.reason_picker import pick_reason
from litqeval_gui.gui.screens.screening.attach import (
    PdfActions,
    attach_one,
    choose_pdf,
    detach_one,
    looked_up,
)
from litqeval_gui.gui.screens.screening.late_records import LateRecordsControl
from litqeval_gui.gui.screens.screening.record import RecordPane
from litqeval_gui.gui.screens.screening.start import start_fulltext

NO_PDF = "No PDF attached to this record."
DROP_HINT = "Attach one with the button, or drop a PDF file here."
KEYS = " · U not retrieved · PgUp up · Ctrl+F search · Ctrl+=/Ctrl+−/Ctrl+0 zoom"


def dropped_pdf(paths: Sequence[Path]) -> Path | None:
    """The one local PDF file among dropped ``paths`` (None unless exactly one)."""
    pdfs = [p for p in paths if p.suffix.lower() == ".pdf" and p.is_file()]
    return pdfs[0] if len(pdfs) == 1 else None


class FullTextPane(QWidget):
    """The record (title, metadata, abstract) above its PDF; ``attach_requested`` gives
    a PDF chosen or dropped for the shown record (and whether to copy it), also from
    Replace PDF…; ``detach_requested`` is Detach PDF… (both on the reader's bar)."""

    attach_requested = Signal(Path, bool)
    detach_requested = Signal()

    def __init__(self, lookup: Callable[[], Attachment | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lookup = lookup
        self.attached: Attachment | None = None
        self.abstract = RecordPane()
        self.reader = PdfReader()
        self.reader.failed.connect(lambda line: self._show_missing(line, "Attach another…"))
        self.pdf_actions = PdfActions()
        self.pdf_actions.replace_button.clicked.connect(self.choose)
        self.pdf_actions.detach_button.clicked.connect(self.detach_requested)
        self.reader.toolbar.layout().addWidget(self.pdf_actions)
        self.warning = QLabel(wordWrap=True, visible=False)
        self.warning.setStyleSheet("color: palette(bright-text)")
        self.missing = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.missing.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.attach_button = QPushButton("Attach PDF…")
        self.attach_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.attach_button.clicked.connect(self.choose)
        self.copy_box = QCheckBox("Copy it into the project's files folder", checked=True,
                                  toolTip="Unticked: the project keeps the file's path "
                                  "(a link) and notices when it moves or changes")
        self.copy_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        no_pdf = QWidget()
        column = QVBoxLayout(no_pdf)
        column.addStretch(1)
        column.addWidget(self.missing)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.attach_button)
        row.addStretch(1)
        column.addLayout(row)
        column.addWidget(self.copy_box, 0, Qt.AlignmentFlag.AlignHCenter)
        column.addStretch(2)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.reader)
        self.stack.addWidget(no_pdf)
        full_text = QWidget()
        below = QVBoxLayout(full_text)
        below.setContentsMargins(0, 0, 0, 0)
        below.addWidget(self.warning)
        below.addWidget(self.stack, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.abstract)
        self.splitter.addWidget(full_text)
        self.splitter.setSizes([150, 600])
        self.splitter.setStretchFactor(1, 1)  # a taller window makes the PDF taller
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setFocusProxy(self.reader.scroll)  # the pages take the focus, and the keys
        self.setAcceptDrops(True)

    # -- what the screener calls (as on RecordPane) ---------------------------------------
    def show_record(self, record: Record, include: Sequence[str], exclude: Sequence[str],
                    lists: Sequence[tuple[str, int]] = (), text_from: str = "") -> None:
        """The record above, its PDF below (looked up again: a file may have moved)."""
        self.abstract.show_record(record, include, exclude, lists, text_from)
        self.reader.set_terms(include, exclude)
        self.show_attachment(self.lookup())

    def clear(self) -> None:
        self.abstract.clear()
        self.attached = None
        self.warning.hide()
        self.reader.show_message("")
        self.stack.setCurrentWidget(self.reader)

    def page_down(self) -> None:
        """Space: down one view of the PDF (else of the abstract)."""
        if self.reader.page_total:
            self.reader.next_screen()
        else:
            self.abstract.page_down()

    # -- the PDF ----------------------------------------------------------------------------
    def show_attachment(self, attached: Attachment | None) -> None:
        """Show ``attached`` (or say there is none, or that it is missing)."""
        same = (attached is not None and self.attached is not None
                and (attached.path, attached.sha256) == (self.attached.path,
                                                         self.attached.sha256)
                and self.reader.path == attached.path)
        self.attached = attached
        self.warning.setVisible(attached is not None and attached.status == "changed")
        if attached is None:
            self._show_missing(f"<b>{NO_PDF}</b><br>{DROP_HINT}", "Attach PDF…")
        elif attached.status == "missing":
            self._show_missing(f"<b>The attached PDF is missing</b> (moved or deleted):<br>"
                               f"{attached.path}<br>{DROP_HINT}", "Attach again…")
        else:
            self.warning.setText(f"⚠ {attached.path.name} changed since it was attached "
                                 "(its checksum differs); attach it again to accept it.")
            self.stack.setCurrentWidget(self.reader)
            if not same:
                self.reader.open(attached.path)

    def _show_missing(self, text: str, button: str) -> None:
        self.reader.show_message("")
        self.missing.setText(text)
        self.attach_button.setText(button)
        self.stack.setCurrentIndex(1)

    def choose(self) -> None:
        """Attach… : a file dialog for one PDF."""
        path = choose_pdf(self)
        if path is not None:
            self.attach_requested.emit(path, self.copy_box.isChecked())

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 — Qt override
        if dropped_pdf(looked_up(event.mimeData().urls())) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 — Qt override
        path = dropped_pdf(looked_up(event.mimeData().urls()))
        if path is not None:
            event.acceptProposedAction()
            self.attach_requested.emit(path, self.copy_box.isChecked())


class ReasonTally(QGroupBox):
    """The screening's exclusion reasons, numbered as the picker numbers them, each with
    how many records the reviewer excluded for it (a reason no longer listed while an
    exclusion still has it, too)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Exclusion reasons", parent)
        self.table = QLabel(textFormat=Qt.TextFormat.RichText, wordWrap=True)
        hint = QLabel("E or R opens the picker: 1–9 picks a reason, or type a new one",
                      wordWrap=True)
        hint.setStyleSheet("color: palette(placeholder-text)")
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(hint)

    def show_reasons(self, reasons: Sequence[str], used: Mapping[str, int]) -> None:
        """``reasons`` in order with their counts in ``used`` (reason → exclusions)."""
        quiet = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        listed = [(str(n) if n <= 9 else "", r) for n, r in enumerate(reasons, 1)]
        listed += [("", r) for r in used if r not in reasons]
        rows = "".join(
            f"<tr><td style='color:{quiet}; padding-right:8px'>{number}</td>"
            f"<td width='100%'>{html.escape(reason or 'no reason given')}</td>"
            f"<td align='right'>" + (f"<b>{used[reason]:,}</b>" if used.get(reason) else
                                     f"<span style='color:{quiet}'>0</span>") + "</td></tr>"
            for number, reason in listed)
        self.table.setText(f"<table width='100%' cellspacing='0' cellpadding='2'>{rows}"
                           "</table>")


class FullTextDeciding:
    """The full-text phase's keys and layout, mixed into the screening view (which
    provides ``core``, ``session``, ``record``, ``shortcuts``, ``_button``,
    ``show_current`` and the widgets :meth:`full_text_columns` places)."""

    _attached: tuple[int, Attachment | None] | None = None  # (record, its PDF) last looked up

    @property
    def full_text(self) -> bool:
        return self.screening.phase == FULL_TEXT

    @property
    def counted_labels(self) -> tuple[str, ...]:
        """The labels the progress counts name: the phase's (not retrieved at full text)."""
        return phase_labels(self.screening.scheme, self.screening.phase)

    def record_pane(self) -> QWidget:
        """The pane the screener shows records in: with the PDF at full text."""
        if not self.full_text:
            return RecordPane()
        pane = FullTextPane(self.shown_attachment)
        pane.attach_requested.connect(self.attach_pdf)
        pane.detach_requested.connect(self.detach_pdf)
        self.session.changed.connect(self._attachments_changed)
        return pane

    def _attachments_changed(self, changes: Changes, _initiator: object) -> None:
        """PDFs attached (one, or a folder's): the shown record's may be among them."""
        if changes.attachments and self.core.shown is not None:
            self._attached = None
            self.record.show_attachment(self.shown_attachment())

    def add_full_text(self, decide_row: QHBoxLayout) -> None:
        """Before full text, the Topic menu's Start Full-Text Screening…; at full text the
        Not retrieved button (U), the offer of late records, the reader's keys and their
        names in the key map."""
        if not self.full_text:
            self._actions.append(make_action(
                self, "Start &Full-Text Screening…", self.start_full_text, scoped=True,
                tip="A full-text screening of the records this screening included (and, "
                "if you choose, those marked maybe)"))
            return
        self._button(decide_row, NOT_RETRIEVED, "Not retrieved (U)", "U",
                     self.report_not_retrieved)
        self.late_records = LateRecordsControl(self, self)
        self._actions.append(self.late_records.action)
        self.reason_tally = ReasonTally()
        self.buttons["reason"].hide()  # E asks for the reason at full text (R still does)
        self.buttons[NOT_RETRIEVED].setToolTip(
            "Report not retrieved: the full text could not be obtained (PRISMA counts it)")
        for key, slot in self.record.reader.keys():
            if key != "PgDown":  # already the screener's scroll key
                self.shortcuts.add(key, slot)
        self.key_map.setText(self.key_map.text() + KEYS)

    def full_text_columns(self, decide_row: QHBoxLayout, tool_rows: Sequence[QHBoxLayout],
                          tag_row: QHBoxLayout, terms: QFormLayout) -> tuple[QWidget, QWidget]:
        """The record's details over its PDF (most of the height) with the decision keys
        under them; beside it the counts, the limit, this record's decision, tags, note
        and moves, the exclusion reasons, the keys and the terms."""
        main = QWidget()
        left = QVBoxLayout(main)
        left.addWidget(self.header)
        left.addWidget(self.late_records.bar)
        left.addWidget(self.single_line)
        left.addWidget(self.record, 1)
        left.addLayout(decide_row)
        page = QWidget()
        side = QVBoxLayout(page)
        side.addWidget(self.progress)
        limit = QFormLayout()  # narrow: a long row goes under its label
        limit.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        limit.addRow("Limit to", self.team_limit)
        side.addLayout(limit)
        this_record = QGroupBox("This record")
        column = QVBoxLayout(this_record)
        column.addWidget(self.decision_label)
        column.addLayout(tag_row)
        for row in tool_rows:
            column.addLayout(row)
        side.addWidget(this_record)
        side.addWidget(self.reason_tally)
        side.addWidget(self.key_map)
        side.addStretch(1)
        side.addLayout(terms)
        return main, page

    def show_reasons(self) -> None:
        """The reasons' tally, from the reviewer's current exclusions."""
        core = self.core
        excluded = core.exclusion_label()
        self.reason_tally.show_reasons(self.screening.reasons, Counter(
            core.reasons.get(r, "") for r, label in core.labels.items() if label == excluded))

    def start_full_text(self) -> Screening | None:
        """Start Full-Text Screening… of this screening, opened in a tab of its own."""
        made = start_fulltext(self.session.project, self.screening, self)
        window = self.window()
        if made is not None and hasattr(window, "open_screen"):
            window.open_screen("screening", made)
        return made

    def decide(self, label: str, reason: str = "") -> None:
        """At full text an exclusion needs a reason: asked for when not given."""
        if self.full_text and label == EXCLUSION[self.screening.scheme] and not reason:
            if self.core.shown is None:
                return
            reason = pick_reason(self.screening.reasons, self)
            if not reason:
                return
            self.core.add_reason(reason)
        super().decide(label, reason)

    def exclude_with_reason(self) -> None:
        """R: at full text the same quick picker as the exclusion key."""
        if self.full_text:
            self.decide(EXCLUSION[self.screening.scheme])
        else:
            super().exclude_with_reason()

    def report_not_retrieved(self) -> None:
        """U: the report could not be obtained (a decision of its own)."""
        self.decide(NOT_RETRIEVED)

    def shown_attachment(self) -> Attachment | None:
        """The shown record's PDF, its status checked when the record comes on screen
        (the file is read for its checksum once, not at every redraw of the record)."""
        record_id = self.core.shown
        if record_id is None:
            return None
        if self._attached is None or self._attached[0] != record_id:
            self._attached = (record_id, attachment(self.session.project, record_id))
        return self._attached[1]

    def attach_pdf(self, path: Path, copy: bool) -> None:
        """Attach ``path`` to the shown record (a job; shown once its write commits)."""
        if self.core.shown is not None:
            attach_one(self.session, self.core.shown, path, copy, self)

    def detach_pdf(self) -> None:
        """Detach PDF…: the shown record's PDF taken off once the user confirms (a job;
        the record then says it has none)."""
        attached = self.shown_attachment()
        if self.core.shown is not None and attached is not None:
            detach_one(self.session, self.core.shown, attached, self)
