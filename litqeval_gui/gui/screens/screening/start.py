"""Starting to screen a topic: open one of its screenings or create one — over one list,
the union of several, or a filtered selection of them (title/abstract text, year range;
the count to screen is shown as the filter is typed), or, at full text, from a
title/abstract screening's included (and, if chosen, maybe) records (issue 26 §1:
:func:`~litqeval_gui.core.screening.fulltext.create_fulltext_screening`; "Start
Full-Text Screening…" opens the dialog so) — and know the reviewer (asked once, kept in
:class:`~litqeval_gui.gui.settings.Settings`). An existing screening chosen shows its
stored settings in the form, greyed (what was typed for a new one comes back when "New
screening…" is chosen again)."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening.fulltext import (
    DEFAULT_REASONS,
    create_fulltext_screening,
    parent_of,
    passed_on,
)
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import FULL_TEXT, GRADED, IEM, PHASES
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.selection import selection_size, years
from litqeval_gui.gui.checklist import add_checkable, checked_values
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.settings import Settings

SCHEME_TEXT = {IEM: "Include / exclude / maybe", GRADED: "Graded relevance 0–3"}
PHASE_TEXT = {"title_abstract": "Title and abstract", "full_text": "Full text"}
NEW = "New screening…"
ANY_YEAR = "any"
COUNT_DELAY_MS = 250  # the count follows typing after this pause


def ask_reviewer(settings: Settings, parent: QWidget | None) -> str:
    """The reviewer's name from the settings; asked (and kept) the first time."""
    if settings.reviewer:
        return settings.reviewer
    name, ok = QInputDialog.getText(parent, "Who is screening?",
                                    "Your name (every decision records it):")
    if ok and name.strip():
        settings.reviewer = name
        settings.save()
    return settings.reviewer


def with_maybe_records(project: Project, screening: Screening,
                       parent: Screening | None) -> bool:
    """Whether full-text ``screening`` of ``parent`` holds records the parent marked maybe
    (it was made, or given late records, with "Maybe records too")."""
    if parent is None:
        return False
    maybe = set(passed_on(project, parent, with_maybe=True)) - set(passed_on(project, parent))
    return bool(maybe) and not maybe.isdisjoint(store.items(project, screening.id))


class StartDialog(QDialog):
    """Pick an existing screening of ``topic`` or fill in a new one; :meth:`screening`
    gives the chosen one (creating it) after ``accept``. ``fulltext_of``: a new
    full-text screening of that title/abstract screening, filled in."""

    def __init__(self, project: Project, topic: str, parent: QWidget | None = None, *,
                 fulltext_of: Screening | None = None) -> None:
        super().__init__(parent, windowTitle=f"Screen {topic}")
        self.project, self.topic = project, topic
        self.existing = store.screenings(project, topic)
        self.choice = QComboBox()
        for found in self.existing:
            self.choice.addItem(f"{found.name} ({found.size:,} records)", found.id)
        self.choice.addItem(NEW, None)
        self.name = QLineEdit(placeholderText="e.g. title-abstract round 1")
        self.lists = QListWidget()
        self.list_ids: dict[str, int] = {}  # list name → its import id (a screening's lists)
        self._typed: dict[str, object] | None = None  # the new one's, while a stored is shown
        for info in queries.lists(project, topic):
            if info.role == "core":
                continue
            self.list_ids[info.name] = info.id
            add_checkable(self.lists, f"{info.name} ({info.size:,} works)", info.name,
                          self.lists.count() == 0)
        self.lists.setToolTip("One list, or several: their union, each work screened once")
        self.lists.setMaximumHeight(120)
        self.text_filter = QLineEdit(placeholderText="e.g. randomised (optional)")
        self.text_filter.setClearButtonEnabled(True)
        self.text_filter.setToolTip("Only records whose title or abstract contains this text "
                                    "(case-insensitive)")
        self.year_from, self.year_to = self._year_box(), self._year_box()
        self.count = QLabel()
        self._count_timer = QTimer(self, singleShot=True, interval=COUNT_DELAY_MS)
        self._count_timer.timeout.connect(self.update_count)
        self.phase = QComboBox()
        for key in PHASES:
            self.phase.addItem(PHASE_TEXT[key], key)
        self.scheme = QComboBox()
        for key, text in SCHEME_TEXT.items():
            self.scheme.addItem(text, key)
        self.reasons = QLineEdit(placeholderText="wrong population, wrong design, not English")
        self.reasons.setToolTip("Exclusion reasons, separated by commas (more can be added later)")
        self.source = QComboBox(toolTip="A full-text screening of a title/abstract "
                                "screening's included records, or of the ticked lists")
        self.source.addItem("The ticked lists", None)
        for found in self.existing:
            if found.phase != FULL_TEXT:
                self.source.addItem(f"Included in {found.name}", found.id)
        self._examples = {edit: edit.placeholderText()
                          for edit in (self.name, self.text_filter, self.reasons)}
        self.with_maybe = QCheckBox("Maybe records too")
        self.blind = QCheckBox("Blind: each reviewer sees only their own decisions")
        self.blind.setToolTip("For dual screening (issue 25): decisions, notes, counts, "
                              "the model and exports show only the current reviewer's "
                              "until it is unblinded (Unblind… in Topic ▸ Screening Conflicts…)")
        source_row = QHBoxLayout()
        source_row.addWidget(self.source, 1)
        source_row.addWidget(self.with_maybe)

        self.new_box = QGroupBox("New screening")
        form = QFormLayout(self.new_box)
        form.addRow("Name", self.name)
        form.addRow("Lists", self.lists)
        form.addRow("Title or abstract contains", self.text_filter)
        year_row = QHBoxLayout()
        year_row.addWidget(self.year_from)
        year_row.addWidget(QLabel("to"))
        year_row.addWidget(self.year_to)
        year_row.addStretch(1)
        form.addRow("Years", year_row)
        form.addRow("", self.count)
        form.addRow("Phase", self.phase)
        form.addRow("Full text of", source_row)
        form.addRow("Labels", self.scheme)
        form.addRow("Exclusion reasons", self.reasons)
        form.addRow("Team", self.blind)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        top = QFormLayout()
        top.addRow("Screening", self.choice)
        layout.addLayout(top)
        layout.addWidget(self.new_box)
        layout.addWidget(buttons)
        for signal in (self.phase.currentIndexChanged, self.source.currentIndexChanged,
                       self.with_maybe.toggled):
            signal.connect(lambda *_: self._source_changed())
        self.lists.itemChanged.connect(lambda _item: self._lists_changed())
        self.text_filter.textChanged.connect(lambda _text: self._count_timer.start())
        for box in (self.year_from, self.year_to):
            box.valueChanged.connect(lambda _value: self._count_timer.start())
        if fulltext_of is not None:
            self.choice.setCurrentIndex(self.choice.count() - 1)  # NEW
            self.phase.setCurrentIndex(self.phase.findData(FULL_TEXT))
            self.source.setCurrentIndex(self.source.findData(fulltext_of.id))
            self.name.setText(f"{fulltext_of.name} — full text")
        self._year_bounds()
        self._source_changed()
        self.choice.currentIndexChanged.connect(self._update)
        self._update()

    @staticmethod
    def _year_box() -> QSpinBox:
        """A year, or "any" at its minimum (no bound)."""
        box = QSpinBox(minimum=0, maximum=2100, value=0, specialValueText=ANY_YEAR)
        box.setToolTip("Publication year (inclusive); records without a year are left out "
                       "once a bound is set")
        return box

    def _update(self) -> None:
        """A stored screening chosen: its settings, greyed; "New screening…": the form
        as it was typed, to fill in."""
        chosen = self.choice.currentData()
        examples = self._examples
        for edit in examples:  # an empty stored field reads "none", not an example
            edit.setPlaceholderText(examples[edit] if chosen is None else "none")
        if chosen is None:
            self.new_box.setTitle("New screening")
            if self._typed is not None:
                self._fill(self._typed)
                self._typed = None
                self._source_changed()
        else:
            if self._typed is None:
                self._typed = self._fields()
            self._show_stored(store.get_screening(self.project, chosen))
        self.new_box.setEnabled(chosen is None)

    def _form_widgets(self) -> tuple[QWidget, ...]:
        return (self.name, self.lists, self.text_filter, self.year_from, self.year_to,
                self.phase, self.source, self.with_maybe, self.scheme, self.reasons,
                self.blind)

    def _fields(self) -> dict[str, object]:
        """What the form holds now (to put back with :meth:`_fill`)."""
        return {"name": self.name.text(), "lists": set(self.chosen_lists()),
                "text": self.text_filter.text(),
                "years": (self.year_from.value(), self.year_to.value()),
                "phase": self.phase.currentData(), "source": self.source.currentData(),
                "with_maybe": self.with_maybe.isChecked(),
                "scheme": self.scheme.currentData(), "reasons": self.reasons.text(),
                "blind": self.blind.isChecked()}

    def _fill(self, fields: dict[str, object]) -> None:
        """Put ``fields`` (as :meth:`_fields` gives them) in the form, no signal sent;
        a year at or below its box's minimum is "any"."""
        blockers = [QSignalBlocker(widget) for widget in self._form_widgets()]
        try:
            self._set_fields(fields)
        finally:
            for blocker in blockers:
                blocker.unblock()

    def _set_fields(self, fields: dict[str, object]) -> None:
        self.name.setText(fields["name"])
        for i in range(self.lists.count()):
            item = self.lists.item(i)
            item.setCheckState(Qt.CheckState.Checked
                               if item.data(Qt.ItemDataRole.UserRole) in fields["lists"]
                               else Qt.CheckState.Unchecked)
        self.text_filter.setText(fields["text"])
        self._year_bounds()
        for box, year in zip((self.year_from, self.year_to), fields["years"], strict=True):
            if year is None or year <= box.minimum():
                box.setValue(box.minimum())
                continue
            box.setMaximum(max(box.maximum(), year))  # a stored year outside today's lists
            box.setValue(year)
        for combo, key in ((self.phase, "phase"), (self.source, "source"),
                           (self.scheme, "scheme")):
            combo.setCurrentIndex(max(combo.findData(fields[key]), 0))
        self.with_maybe.setChecked(fields["with_maybe"])
        self.reasons.setText(fields["reasons"])
        self.blind.setChecked(fields["blind"])

    def _show_stored(self, screening: Screening) -> None:
        """``screening``'s stored settings in the form (which is greyed)."""
        parent = parent_of(self.project, screening)
        stored = set(screening.lists)
        chosen = screening.record_filter
        self._count_timer.stop()
        self._fill({"name": screening.name,
                    "lists": {name for name, id_ in self.list_ids.items() if id_ in stored},
                    "text": chosen.text, "years": (chosen.year_min, chosen.year_max),
                    "phase": screening.phase, "source": parent.id if parent else None,
                    "with_maybe": with_maybe_records(self.project, screening, parent),
                    "scheme": screening.scheme, "reasons": ", ".join(screening.reasons),
                    "blind": screening.blind})
        self.new_box.setTitle(f"{screening.name} — as stored (read-only)")
        self.count.setText(f"<b>{screening.size:,}</b> records in this screening")
        self.count.setToolTip("")

    def parent_screening(self) -> Screening | None:
        """The title/abstract screening a new full-text one continues (None: the lists)."""
        chosen = self.source.currentData() if self.phase.currentData() == FULL_TEXT else None
        return None if chosen is None else store.get_screening(self.project, chosen)

    def _source_changed(self) -> None:
        """At full text from a screening: its records, so no lists, filter or scheme of
        its own, and the default full-text reasons offered."""
        full_text = self.phase.currentData() == FULL_TEXT
        from_screening = self.parent_screening() is not None
        self.source.setEnabled(full_text)
        self.with_maybe.setEnabled(from_screening)
        for widget in (self.lists, self.text_filter, self.year_from, self.year_to,
                       self.scheme):
            widget.setEnabled(not from_screening)
        if full_text and not self.reasons.text().strip():
            self.reasons.setText(", ".join(DEFAULT_REASONS))
        self.update_count()

    def _lists_changed(self) -> None:
        """Year bounds within the chosen lists' years, then the count again after the
        same pause as typing (each count reads the whole selection)."""
        self._year_bounds()
        self._count_timer.start()

    def _year_bounds(self) -> None:
        span = years(self.project, self.topic, self.chosen_lists())
        for box in (self.year_from, self.year_to):
            box.blockSignals(True)
            value = box.value()
            box.setRange(span[0] - 1 if span else 0, span[1] if span else 2100)
            box.setValue(value if value >= box.minimum() + 1 else box.minimum())
            box.blockSignals(False)

    def record_filter(self) -> RecordFilter:
        """The filter as set: text, and years unless "any"."""
        low, high = (None if box.value() == box.minimum() else box.value()
                     for box in (self.year_from, self.year_to))
        return RecordFilter(self.text_filter.text().strip(), low, high)

    def update_count(self) -> None:
        """How many records the new screening would hold (nothing while a stored one is
        shown: its own count stays)."""
        if self.choice.currentData() is not None:
            return
        parent = self.parent_screening()
        if parent is not None:
            size = len(passed_on(self.project, parent, with_maybe=self.with_maybe.isChecked()))
            self.count.setText(f"<b>{size:,}</b> records to screen in full text")
            self.count.setToolTip(f"The records {parent.name} included"
                                  + (" or marked maybe" if self.with_maybe.isChecked() else ""))
            return
        chosen = self.chosen_lists()
        size = selection_size(self.project, self.topic, chosen, self.record_filter())
        narrowed = self.record_filter() != RecordFilter()
        self.count.setText(f"<b>{size:,}</b> records to screen" if chosen else
                           "Tick at least one list.")
        self.count.setToolTip("Works of the ticked lists" + (" passing the filter" if narrowed
                                                             else "") + ", each once")

    def hideEvent(self, event) -> None:  # noqa: N802 — Qt override
        self._count_timer.stop()  # no count after the dialog is gone
        super().hideEvent(event)

    def chosen_lists(self) -> list[str]:
        return checked_values(self.lists)

    def screening(self) -> Screening:
        """The chosen screening, created now when new (a clear error when it cannot be)."""
        chosen = self.choice.currentData()
        if chosen is not None:
            return store.get_screening(self.project, chosen)
        reasons = [r.strip() for r in self.reasons.text().split(",") if r.strip()]
        parent = self.parent_screening()
        if parent is not None:
            return create_fulltext_screening(
                self.project, parent, self.name.text().strip(),
                with_maybe=self.with_maybe.isChecked(), reasons=reasons or DEFAULT_REASONS,
                blind=self.blind.isChecked())
        return store.create_screening(
            self.project, self.topic, self.name.text().strip(), self.chosen_lists(),
            phase=self.phase.currentData(), scheme=self.scheme.currentData(),
            record_filter=self.record_filter(), reasons=reasons,
            blind=self.blind.isChecked())

    def accept(self) -> None:
        try:
            self.made = self.screening()
        except LitqError as exc:
            show_error(self, "Cannot start this screening", exc)
            return
        super().accept()


def choose_screening(project: Project, topic: str, settings: Settings,
                     parent: QWidget | None) -> Screening | None:
    """Ask which screening (and, once, who screens); None when cancelled."""
    if not ask_reviewer(settings, parent):
        return None
    dialog = StartDialog(project, topic, parent)
    return dialog.made if dialog.exec() == QDialog.DialogCode.Accepted else None


def start_fulltext(project: Project, screening: Screening,
                   parent: QWidget | None) -> Screening | None:
    """Start Full-Text Screening…: the new-screening dialog filled in for a full-text
    screening of ``screening``; the one made, or None when cancelled."""
    topic = project.topic_name(screening.topic_id)
    dialog = StartDialog(project, topic, parent, fulltext_of=screening)
    dialog.setWindowTitle(f"Start Full-Text Screening of {screening.name}")
    return dialog.made if dialog.exec() == QDialog.DialogCode.Accepted else None
