"""A topic's PRISMA 2020 flow diagram (:mod:`litqeval_gui.core.screening.prisma.flow`), drawn
from the project and redrawn when decisions, lists or the entered numbers change, with
buttons to save it (SVG, PNG, PDF), save its counts (CSV) and enter the numbers no
import gives (records removed before import, the other-methods column). A click on a
number of the databases-and-registers column lists its records
(:meth:`~litqeval_gui.core.screening.prisma.flow.Flow.records`). A screening that grew with
search updates is drawn round by round (its newest round first, in PRISMA 2020's
template for updated reviews; a box above the diagram picks another round).

The diagram is a document for a report: it keeps its white page in the dark theme.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtSvgWidgets import QSvgWidget
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.prisma.diagram import counted_lines, prisma_svg, write_prisma_csv
from litqeval_gui.core.screening.prisma.entered import (
    Entered,
    entered_op,
    source_labels,
    source_labels_op,
)
from litqeval_gui.core.screening.prisma.flow import (
    PrismaCounts,
    diagram_round,
    prisma_counts,
    prisma_flow,
    round_numbers,
)
from litqeval_gui.core.screening.prisma.r_package import write_r_csv
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens import LiveTopicScreen
from litqeval_gui.gui.screens.prisma.render import save_diagram
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.tables import fill_table, read_only_table

DIAGRAM_FILTER = "SVG image (*.svg);;PNG image (*.png);;PDF document (*.pdf)"
COUNTS_FILTER = "CSV (*.csv)"
R_FILTER = "PRISMA2020 R package / Shiny app (*.csv)"
MAX_COUNT = 10**9
HEADINGS = {"identified": "Records identified", "duplicates_removed": "Duplicate records "
            "removed", "removed_automation": "Records marked as ineligible by automation "
            "tools", "removed_other": "Records removed for other reasons",
            "screened": "Records screened", "excluded_screening": "Records excluded",
            "sought": "Reports sought for retrieval", "not_retrieved": "Reports not retrieved",
            "assessed": "Reports assessed for eligibility",
            "excluded_fulltext": "Reports excluded", "included": "Studies included",
            "previous_included": "Studies included in the previous version",
            "total_included": "Total studies included"}


class Diagram(QSvgWidget):
    """The diagram, drawn at its own size; ``clicked`` gives where (in SVG units)."""

    clicked = Signal(QPointF)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 — Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(event.position())
        super().mousePressEvent(event)


class PrismaView(LiveTopicScreen, QWidget):
    """A :class:`~litqeval_gui.gui.screens.Screen` opened on a topic."""

    key = "prisma"
    refresh_on = ("lists", "records", "works", "decisions", "parameters")

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.topic = session, topic
        self.topic_id = session.project.topic_id(topic)
        self.counts: PrismaCounts | None = None
        self.numbers_dialog: NumbersDialog | None = None
        self.records_dialog: RecordsDialog | None = None
        self.svg = ""
        self.round: int | None = None  # the round drawn (None: the whole flow)
        self.round_box = QComboBox()
        self.round_box.setToolTip("The search round the diagram shows: a later round is "
                                  "drawn as an update of the review (PRISMA 2020's template "
                                  "for updated reviews), the earlier rounds as its previous "
                                  "version")
        self.round_box.activated.connect(lambda _: self.refresh())
        self.diagram = Diagram()
        self.diagram.setToolTip("The PRISMA 2020 flow diagram of the topic, counted from "
                                "its lists and screenings; click a number to list its "
                                "records")
        self.diagram.clicked.connect(self.number_clicked)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.diagram)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.source = QLabel()
        self.source.setWordWrap(True)
        buttons = QHBoxLayout()
        for text, tip, slot in (
                ("Save Diagram…", "Save the diagram as SVG, PNG or PDF", self.save_diagram),
                ("Save Counts…", "Save every count of the diagram as CSV, or as the PRISMA2020 "
                 "R package and Shiny app read them", self.save_counts),
                ("Enter Numbers…", "Records removed before import, and the other-methods "
                 "column (citation searching, websites…)", self.enter_numbers)):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.round_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.source)
        layout.addWidget(self.scroll, 1)
        self.refresh()

    # -- the screen protocol ---------------------------------------------------------
    @property
    def title(self) -> str:
        return f"PRISMA: {self.topic}"

    @property
    def tooltip(self) -> str:
        return f"The PRISMA 2020 flow diagram of topic {self.topic}"

    # -- showing ---------------------------------------------------------------------
    def refresh(self) -> None:
        """Count again and redraw (the round chosen in the box; the newest when the
        screening grew since, or when none is chosen)."""
        project = self.session.project
        numbers = round_numbers(project, self.topic)
        shown = [self.round_box.itemData(i) for i in range(self.round_box.count())]
        chosen = self.round_box.currentData()
        self.round = chosen if shown == numbers and chosen in numbers else \
            diagram_round(project, self.topic)  # a new round is shown when it comes
        if shown != numbers:
            self.round_box.clear()
            for number in numbers if len(numbers) > 1 else []:
                self.round_box.addItem(f"Round {number}" + (
                    " (first searches)" if number == 1 else " (search update)"), number)
        if self.round is not None:
            self.round_box.setCurrentIndex(numbers.index(self.round))
        self.round_box.setVisible(self.round is not None)
        self.counts = prisma_counts(project, self.topic, round_number=self.round)
        self.svg = prisma_svg(self.counts)
        self.diagram.load(self.svg.encode("utf-8"))
        self.diagram.setFixedSize(self.diagram.renderer().defaultSize())
        c = self.counts
        self.source.setText(
            f"Title/abstract screening: <b>{c.screening or 'none'}</b>; full text: "
            f"<b>{c.fulltext or 'none (what passed is sought, pending)'}</b>. The newest "
            "title/abstract screening is counted, with the full text started from it." + (
                f" Search round <b>{c.round}</b> of {len(numbers)}: earlier rounds are "
                "the previous version of the review." if c.round else "")
            + "".join(f"<br>{html.escape(note)}" for note in c.notes())
            + "".join(f"<br><b>Not conserved</b>: {html.escape(problem)}"
                      for problem in c.unbalanced()))

    # -- the records behind a number -------------------------------------------------
    def count_at(self, point: QPointF) -> tuple[str, str] | None:
        """The (count, detail) of the counted line at ``point``, or None."""
        renderer = self.diagram.renderer()
        for element, count in counted_lines(self.svg).items():
            if renderer.boundsOnElement(element).adjusted(-2, -2, 2, 2).contains(point):
                return count
        return None

    def number_clicked(self, point: QPointF) -> RecordsDialog | None:
        """List the records of the number at ``point`` (None when there is none)."""
        found = self.count_at(point)
        if found is None:
            return None
        count, detail = found
        project = self.session.project
        record_ids = prisma_flow(project, self.topic, round_number=self.round).records(
            count, detail)
        records = queries.records_by_id(project, record_ids)
        if self.records_dialog is None:
            self.records_dialog = RecordsDialog(self)
        heading = HEADINGS.get(count, count) + (f": {detail}" if detail else "")
        self.records_dialog.show_records(heading, [(r, records[r]) for r in record_ids
                                                   if r in records])
        self.records_dialog.open()
        return self.records_dialog

    # -- exports and entered numbers -------------------------------------------------
    def _ask(self, title: str, suffix: str, filters: str) -> tuple[str, str]:
        start = Path(self.session.project.path).parent / f"PRISMA {self.topic}{suffix}"
        return QFileDialog.getSaveFileName(self, title, str(start), filters)

    def save_diagram(self) -> None:
        name, chosen = self._ask("Save Diagram", ".svg", DIAGRAM_FILTER)
        if name:
            target = Path(name)
            if target.suffix.lower() not in (".svg", ".png", ".pdf"):
                target = target.with_suffix("." + chosen.split("(*.")[1].rstrip(")"))
            self._saving(lambda: save_diagram(self.svg, target,
                                              project=self.session.project.path))

    def save_counts(self) -> None:
        name, chosen = self._ask("Save Counts", ".csv", ";;".join((COUNTS_FILTER, R_FILTER)))
        if not name:
            return
        project = self.session.project.path
        if chosen == R_FILTER and self.counts is not None:  # the diagram shown
            counts = self.counts
            self._saving(lambda: write_r_csv(counts, name, project=project))
        else:  # the whole screening's, with each round's (as litqeval prisma --csv)
            counts = prisma_counts(self.session.project, self.topic)
            self._saving(lambda: write_prisma_csv(counts, name, project=project))

    def _saving(self, save) -> None:
        try:
            save()
        except (OSError, LitqError) as exc:
            show_error(self, "Nothing was saved", exc)

    def enter_numbers(self) -> QDialog:
        """The dialog of the entered numbers (opened, not run: the caller may drive it); one
        dialog, filled again each time (a child of the screen, deleted with it)."""
        if self.numbers_dialog is None:
            self.numbers_dialog = NumbersDialog(self)
            self.numbers_dialog.accepted.connect(
                lambda: self._store(self.numbers_dialog.numbers()))
        self.numbers_dialog.fill(self.counts.entered if self.counts else Entered(),
                                 self._labels())
        self.numbers_dialog.open()
        return self.numbers_dialog

    def _labels(self) -> dict[str, str]:
        """The lists' labels by list name."""
        names = {info.id: info.name for info in queries.lists(self.session.project, self.topic)}
        return {names[i]: label for i, label in
                source_labels(self.session.project, self.topic).items() if i in names}

    def _store(self, numbers: Entered | str) -> None:
        """Store the dialog's numbers and labels (labels no longer listed are dropped)."""
        labels = self.numbers_dialog.labels() if self.numbers_dialog else {}
        problem = numbers if isinstance(numbers, str) else labels if isinstance(
            labels, str) else None
        if problem is not None:
            show_error(self, "The numbers were not stored", problem)
            return
        project = self.session.project
        try:
            ops = [entered_op(project, self.topic, numbers), source_labels_op(
                project, self.topic, {name: "" for name in self._labels()} | labels)]
        except LitqError as exc:
            show_error(self, "The numbers were not stored", exc)
            return
        for op in ops:
            self.session.write(op, initiator=self)


class RecordsDialog(QDialog):
    """The records behind one number of the diagram."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Records Behind a Number")
        self.heading = QLabel()
        self.table = read_only_table(["Title", "Year", "DOI", "Record"],
                                     "Each record counted in this number")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(760, 420)

    def show_records(self, heading: str, records: list[tuple[int, Record]]) -> None:
        """Show ``records`` (id, record) under ``heading``."""
        self.heading.setText(f"<b>{html.escape(heading)}</b> ({len(records):,} records; "
                             "databases and registers)")
        fill_table(self.table, [(r.title or "(no title)", str(r.year or ""), r.doi, record_id)
                                for record_id, r in records])


class NumbersDialog(QDialog):
    """The numbers of the diagram that no import gives; "NAME = n" lines for the
    other methods' sources and reasons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("PRISMA Numbers")
        self.removed_other, self.sought, self.not_retrieved = (self._spin() for _ in range(3))
        self.sources = self._lines("Citation searching = 4")
        self.reasons = self._lines("wrong outcome = 1")
        self.list_labels = self._lines("pubmed-update = PubMed")
        form = QFormLayout(self)
        form.addRow("Lists counted under another name (list = name a line):",
                    self.list_labels)
        form.addRow("Records removed before import for other reasons:", self.removed_other)
        form.addRow(QLabel("<b>Identification via other methods</b>"))
        form.addRow("Records identified (one source = n a line):", self.sources)
        form.addRow("Reports sought for retrieval:", self.sought)
        form.addRow("Reports not retrieved:", self.not_retrieved)
        form.addRow("Reports excluded (one reason = n a line):", self.reasons)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _spin(self) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setRange(0, MAX_COUNT)
        return spin

    def _lines(self, example: str) -> QPlainTextEdit:
        edit = QPlainTextEdit(self)
        edit.setPlaceholderText(example)
        edit.setFixedHeight(80)
        return edit

    def fill(self, numbers: Entered, labels: dict[str, str]) -> None:
        """Show ``numbers`` and the lists' ``labels`` (the stored ones)."""
        self.list_labels.setPlainText("\n".join(f"{name} = {label}"
                                                for name, label in labels.items()))
        self.removed_other.setValue(numbers.removed_other)
        self.sought.setValue(numbers.other_sought)
        self.not_retrieved.setValue(numbers.other_not_retrieved)
        for edit, counts in ((self.sources, numbers.other_identified),
                             (self.reasons, numbers.other_excluded)):
            edit.setPlainText("\n".join(f"{name} = {n}" for name, n in counts.items()))

    def labels(self) -> dict[str, str] | str:
        """List name → label as entered, or a line saying which line cannot be read."""
        labels = {}
        for line in self.list_labels.toPlainText().splitlines():
            if line.strip():
                name, sep, label = line.rpartition("=")
                if not sep or not name.strip() or not label.strip():
                    return f"{line.strip()!r}: write a list's name, '=' and a name for it"
                labels[name.strip()] = label.strip()
        return labels

    def numbers(self) -> Entered | str:
        """The numbers as entered, or a line saying which one cannot be read."""
        mappings = []
        for edit in (self.sources, self.reasons):
            counts: dict[str, int] = {}
            for line in edit.toPlainText().splitlines():
                if not line.strip():
                    continue
                name, sep, value = line.rpartition("=")
                if not sep or not name.strip() or not value.strip().isdigit():
                    return f"{line.strip()!r}: write a name, '=' and a whole number"
                counts[name.strip()] = int(value)
            mappings.append(counts)
        return Entered(removed_other=self.removed_other.value(),
                       other_identified=mappings[0], other_sought=self.sought.value(),
                       other_not_retrieved=self.not_retrieved.value(),
                       other_excluded=mappings[1])
