"""The conflicts screen (issue 25 §3): the records of a screening whose reviewers'
current decisions differ (:func:`~litqeval_gui.core.screening.reviewers.team.conflicts`), each
reviewer's decision, reason and note side by side, filtered by reviewer pair, resolved
from the keyboard; beside it the agreement panel (:mod:`.agreement_panel`).

Keys (live while the screen is shown): ↑/↓ or K/J move; a decision key (I, E, M; graded
0–3; U not retrieved at full text) resolves the record as the name in "Resolve as", Shift
with it as "consensus"; a full-text exclusion asks for its reason
(:func:`~litqeval_gui.gui.reason_picker.pick_reason`, a new one joins the list). A
resolution is a ``resolve`` event written on the project session's write path
(:func:`~litqeval_gui.core.screening.log.store.resolve_op`); the list is read again whenever
decisions change (a merge, a colleague's screen), and the next record is selected.
A blind screening shows no one's decisions until it is unblinded (a button here, which
asks first: unblinding cannot be undone).
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import (
    EXCLUSION,
    FULL_TEXT,
    GRADED,
    NOT_RETRIEVED,
    label_text,
    phase_labels,
)
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.reason_picker import pick_reason
from litqeval_gui.gui.screens import LiveTopicScreen, ScreeningTarget
from litqeval_gui.gui.screens.conflicts.agreement_panel import AgreementPanel
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.shortcuts import KeysWhileShown, Shortcuts
from litqeval_gui.gui.tables import fill_table, read_only_table

KEY_OF = {"include": "I", "exclude": "E", "maybe": "M", "0": "0", "1": "1", "2": "2", "3": "3",
          NOT_RETRIEVED: "U"}
ALL = "All reviewers"
OPEN, EVERY = "open", "all"
CELL = 'style="padding: 2px 8px" valign="top"'


class ConflictsView(KeysWhileShown, ScreeningTarget, LiveTopicScreen, QWidget):
    """A :class:`~litqeval_gui.gui.screens.Screen` opened on a :class:`Screening`."""

    key = "conflicts"
    refresh_on = ("decisions", "records")

    def __init__(self, session: ProjectSession, screening: Screening,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.screening = session, screening
        self.topic_id = screening.topic_id
        self.topic = session.project.topic_name(screening.topic_id) or ""
        self.found: list[team.Conflict] = []
        self.reviewers: list[str] = []
        self.settings = Settings()  # the window's in restore_state: who unblinds
        self.header = QLabel(wordWrap=True)
        self.pair = QComboBox(toolTip="Show the conflicts of one pair of reviewers")
        self.shown_kind = QComboBox(toolTip="Open conflicts only, or resolved ones too")
        self.shown_kind.addItem("Open conflicts", OPEN)
        self.shown_kind.addItem("All conflicts (resolved too)", EVERY)
        self.resolver = QLineEdit(placeholderText=team.CONSENSUS,
                                  toolTip="Who resolves: a named third reviewer; empty or "
                                  "Shift with a decision key: consensus")
        self.resolver.returnPressed.connect(self.setFocus)  # the keys resolve again
        self.unblind_button = QPushButton("Unblind…", toolTip=(
            "Let every reviewer see everyone's decisions (recorded as an event)"))
        self.unblind_button.clicked.connect(self.unblind)
        for widget in (self.pair, self.shown_kind, self.resolver, self.unblind_button):
            widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.table = read_only_table(["Record", "Title"], "The records whose reviewers' "
                                     "decisions differ; select one to see them side by side")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the screen's keys move it
        self.table.itemSelectionChanged.connect(self.show_selected)
        self.detail = QTextBrowser(openLinks=False)
        self.agreement = AgreementPanel()
        self.key_map = QLabel(wordWrap=True)
        self.key_map.setStyleSheet("color: palette(placeholder-text)")
        self.shortcuts = Shortcuts(self)
        for key in ("Up", "K"):
            self.shortcuts.add(key, lambda: self.move(-1))
        for key in ("Down", "J"):
            self.shortcuts.add(key, lambda: self.move(1))
        for label in self.labels:
            self.shortcuts.add(KEY_OF[label], lambda lab=label: self.resolve(lab))
            self.shortcuts.add(f"Shift+{KEY_OF[label]}",
                               lambda lab=label: self.resolve(lab, team.CONSENSUS))
        self._layout()
        self.pair.currentIndexChanged.connect(lambda _i: self.refresh())
        self.shown_kind.currentIndexChanged.connect(lambda _i: self.refresh())
        self.refresh()

    def _layout(self) -> None:
        filters = QHBoxLayout()
        for text, widget in (("Reviewers", self.pair), ("Show", self.shown_kind),
                             ("Resolve as", self.resolver)):
            filters.addWidget(QLabel(text))
            filters.addWidget(widget, 1 if widget is self.resolver else 0)
        filters.addWidget(self.unblind_button)
        decisions = QSplitter(Qt.Orientation.Vertical)
        decisions.addWidget(self.table)
        decisions.addWidget(self.detail)
        decisions.setSizes([220, 380])
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(decisions, 1)
        column.addWidget(self.key_map)
        self.side = QTabWidget()
        self.side.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.side.addTab(self.agreement, "Agreement")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.header)
        layout.addLayout(filters)
        layout.addWidget(self.splitter, 1)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        graded = self.screening.scheme == GRADED
        labels = " · ".join((["0–3"] if graded else []) + [
            f"{KEY_OF[label]} {label_text(label)}" for label in self.labels
            if not (graded and label.isdigit())])
        self.key_map.setText(f"Keys: ↑/↓ or K/J move · resolve {labels} as the name in "
                             "'Resolve as' · Shift+key: as consensus")

    # -- the screen protocol ------------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Conflicts: {self.screening.name} of {self.topic}"

    @property
    def tooltip(self) -> str:
        return (f"Where the reviewers of screening {self.screening.name} (topic "
                f"{self.topic}) disagree, and their agreement")

    def restore_state(self, settings: Settings) -> None:
        """Keep the window's settings: their reviewer (switched, maybe) unblinds."""
        self.settings = settings

    # -- showing ------------------------------------------------------------------------
    @property
    def labels(self) -> tuple[str, ...]:
        """The labels a resolution takes: the phase's (not retrieved at full text)."""
        return phase_labels(self.screening.scheme, self.screening.phase)

    @property
    def blind(self) -> bool:
        return store.is_blind(self.session.project, self.screening.id)

    def chosen_pair(self) -> tuple[str, str] | None:
        data = self.pair.currentData()
        return tuple(data) if data else None

    def refresh(self, select: int | None = None) -> None:
        """Read the conflicts and the agreement again; keep the selected record (or
        ``select``) selected where it is still listed."""
        project = self.session.project
        keep = next(r for r in (select, self._select_next, self.selected_record(), -1)
                    if r is not None)
        self._select_next = None
        blind = self.blind
        self.unblind_button.setVisible(blind)
        decided = {} if blind else team.by_reviewer(project, self.screening.id)
        self._fill_pairs(sorted(decided))
        everything = [] if blind else team.conflicts(project, self.screening.id,
                                                     pair=self.chosen_pair(), decided=decided)
        open_count = sum(c.resolution is None for c in everything)
        self.found = everything if self.shown_kind.currentData() == EVERY else [
            c for c in everything if c.resolution is None]
        self.reviewers = sorted({name for c in self.found for name in c.decisions}) or \
            list(self.chosen_pair() or sorted(decided))
        if blind:
            self.header.setText(f"<b>{html.escape(self.screening.name)} is blind</b>: each "
                                "reviewer sees only their own decisions until it is "
                                "unblinded, so no conflicts are shown.")
            self.agreement.show_blind()
        else:
            self.header.setText(
                f"<b>{len(everything):,}</b> conflict(s) in {html.escape(self.screening.name)}"
                f" between {', '.join(map(html.escape, sorted(decided))) or 'no reviewers'}"
                f": <b>{open_count:,}</b> open, {len(everything) - open_count:,} resolved.")
            self.agreement.show_agreement(project, self.screening,
                                          team.agreement(project, self.screening, decided))
        titles = queries.records_by_id(project, [c.record_id for c in self.found])
        headers = ["Record", *self.reviewers, "Resolution", "Title"]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        fill_table(self.table, [
            (c.record_id,
             *(label_text(c.decisions[name].label) if name in c.decisions else ""
               for name in self.reviewers),
             f"{label_text(c.resolution.label)} ({c.resolution.reviewer})" if c.resolution
             else "open",
             (titles[c.record_id].title or "(no title)")[:120])
            for c in self.found])
        rows = [c.record_id for c in self.found]
        self.table.blockSignals(True)
        self.table.clearSelection()
        self.table.blockSignals(False)
        if rows:
            self.table.selectRow(rows.index(keep) if keep in rows else 0)
        self.show_selected()

    def _fill_pairs(self, reviewers: list[str]) -> None:
        """The pair filter's choices (kept when they are the same)."""
        pairs = [(a, b) for i, a in enumerate(reviewers) for b in reviewers[i + 1:]]
        have = [self.pair.itemData(i) for i in range(1, self.pair.count())]
        if self.pair.count() and have == [list(p) for p in pairs]:
            return
        chosen = self.chosen_pair()
        self.pair.blockSignals(True)
        self.pair.clear()
        self.pair.addItem(ALL, None)
        for a, b in pairs:
            self.pair.addItem(f"{a} / {b}", [a, b])
        if chosen in pairs:
            self.pair.setCurrentIndex(pairs.index(chosen) + 1)
        self.pair.blockSignals(False)

    def selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def selected_record(self) -> int | None:
        row = self.selected_row()
        return None if row is None or row >= len(self.found) else self.found[row].record_id

    def selected(self) -> team.Conflict | None:
        row = self.selected_row()
        return None if row is None or row >= len(self.found) else self.found[row]

    def show_selected(self) -> None:
        """The selected record with every reviewer's decision side by side."""
        conflict = self.selected()
        if conflict is None:
            self.detail.setHtml("<p>No conflict to show.</p>" if not self.blind else "")
            return
        self.detail.setHtml(decisions_html(self.session.project, conflict, self.reviewers))

    # -- moving and resolving -------------------------------------------------------------
    def move(self, step: int) -> None:
        """Select the record ``step`` rows down (up when negative)."""
        if not self.found:
            return
        row = self.selected_row()
        target = 0 if row is None else min(max(row + step, 0), len(self.found) - 1)
        self.table.selectRow(target)

    def resolve(self, label: str, resolver: str | None = None) -> None:
        """Resolve the selected record as ``label`` by ``resolver`` (default: the name in
        "Resolve as", or consensus), then select the next record; a full-text exclusion
        with the reason picked (none picked: nothing is written)."""
        conflict = self.selected()
        if conflict is None:
            return
        reason = ""
        if self.screening.phase == FULL_TEXT and label == EXCLUSION[self.screening.scheme]:
            reason = pick_reason(self.screening.reasons, self)
            if not reason:
                return
            self._add_reason(reason)
        who = resolver or self.resolver.text().strip() or team.CONSENSUS
        row = self.selected_row() or 0
        listed = [c.record_id for c in self.found]
        still_listed = self.shown_kind.currentData() == EVERY
        after = listed[row + 1] if row + 1 < len(listed) else (
            conflict.record_id if still_listed else listed[row - 1] if row else None)
        try:
            op = store.resolve_op(self.screening, conflict.record_id, label, who,
                                  reason=reason)
        except LitqError as exc:
            show_error(self, "The record was not resolved", exc)
            return
        self._select_next = after  # selected when the change comes back (refresh_on)
        self.session.write(op, initiator=self, on_failure=lambda exc: show_error(
            self, "The record was not resolved", exc))

    _select_next: int | None = None

    def _add_reason(self, reason: str) -> None:
        """Make a newly typed ``reason`` one of the screening's (written before the
        resolution that names it, on the same write path)."""
        if reason not in self.screening.reasons:
            reasons = (*self.screening.reasons, reason)
            self.screening = dataclasses.replace(self.screening, reasons=reasons)
            self.session.write(store.set_reasons_op(self.screening.id, reasons),
                               initiator=self)

    def unblind(self) -> None:
        """Unblind the screening as the settings' reviewer (or consensus), once the user
        has confirmed what it does."""
        who = self.settings.reviewer or self.resolver.text().strip() or team.CONSENSUS
        answer = QMessageBox.question(
            self, "Unblind this screening?",
            f"Every reviewer of {self.screening.name} will then see everyone's decisions "
            "(and the conflicts and agreement here).\n\nUnblinding is recorded with who "
            f"({who}) and when, and cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.session.write(store.unblind_op(self.screening, who), initiator=self,
                           on_failure=lambda exc: show_error(
                               self, "The screening was not unblinded", exc))


def decisions_html(project: Any, conflict: team.Conflict, reviewers: list[str]) -> str:
    """A conflict as rich text: the record, then one column per reviewer (decision,
    reason, note, tags, when) and its resolution."""
    record = queries.records_by_id(project, [conflict.record_id])[conflict.record_id]
    head = "".join(f"<th {CELL} align='left'>{html.escape(name)}</th>" for name in reviewers)
    rows = []
    for field, read in (("Decision", lambda e: f"<b>{html.escape(label_text(e.label))}</b>"),
                        ("Reason", lambda e: html.escape(e.reason)),
                        ("Note", lambda e: html.escape(e.note)),
                        ("Tags", lambda e: html.escape(", ".join(e.tags))),
                        ("When", lambda e: html.escape(e.at[:16].replace("T", " ")))):
        cells = "".join(f"<td {CELL}>{read(conflict.decisions[name])}</td>"
                        if name in conflict.decisions else f"<td {CELL}>—</td>"
                        for name in reviewers)
        rows.append(f"<tr><th {CELL} align='left'>{field}</th>{cells}</tr>")
    resolution = conflict.resolution
    settled = (f"<p>Resolved: <b>{html.escape(label_text(resolution.label))}</b> by "
               f"{html.escape(resolution.reviewer)} ({html.escape(resolution.at[:16])})"
               + (f" — {html.escape(resolution.reason)}" if resolution.reason else "")
               + "</p>") if resolution else "<p>Not resolved yet.</p>"
    meta = " · ".join(html.escape(str(v)) for v in (record.year, record.venue, record.doi) if v)
    return (f"<table border='1' cellspacing='0'><tr><th {CELL}></th>{head}</tr>"
            f"{''.join(rows)}</table>{settled}"
            f"<h3>{html.escape(record.title or '(no title)')}</h3><p>{meta}</p>"
            f"<p>{html.escape(record.abstract) or '<i>No abstract.</i>'}</p>")
