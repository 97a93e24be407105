"""The screener limited to a team's work list (issue 25 §3): the records in an open
conflict (:func:`~litqeval_gui.core.screening.reviewers.team.conflicts`: reconsider them, or decide
them as a further reviewer) or those only one other reviewer has seen
(:func:`~litqeval_gui.core.screening.reviewers.team.seen_by_one`, minus the reviewer's own).

:class:`TeamLimit` is the screener's "Limit to" choice. While it limits, it puts the
work list's records on screen one after the other — an undecided one pinned, one with a
decision stepped back to (a decision key changes it) — and, once a decision on the record
it put there has committed, the next one. A blind screening offers no limit: both lists
tell what another reviewer saw.

Beside it, :attr:`TeamLimit.single` sets the screening to single screening (a second
reviewer checks a sample: :func:`~litqeval_gui.core.screening.reviewers.team.single_screening_op`;
not while it is blind) or back to dual screening.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QVBoxLayout, QWidget

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import label_text
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui.notify import show_error

ALL, CONFLICTS, SEEN_BY_ONE = "all", "conflicts", "seen-by-one"
LIMITS = {ALL: "All records", CONFLICTS: "Open conflicts",
          SEEN_BY_ONE: "Seen by one other reviewer"}


class TeamLimit(QWidget):
    """The "Limit to" choice of the screener ``view`` (a ScreeningView) and its count."""

    def __init__(self, view: Any) -> None:
        super().__init__()
        self.view = view
        self.choice = QComboBox(toolTip=(
            "Screen only the records where reviewers disagree, or those only one other "
            "reviewer has seen (not offered in a blind screening)"))
        for key, text in LIMITS.items():
            self.choice.addItem(text, key)
        self.choice.setSizeAdjustPolicy(  # narrow: the side panel's width stays
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.choice.setMinimumContentsLength(10)
        self.status = QLabel(wordWrap=True)  # where in the list, and who decided what
        self.single = QCheckBox("Single screening", toolTip=(
            "One reviewer screens, a second checks a sample: a record anyone decided is not "
            "served to the others (check with Limit to: Seen by one other reviewer). Off "
            "(dual screening): each reviewer screens every record they have not decided"))
        self.single.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.single.toggled.connect(self._set_single)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.choice)
        layout.addWidget(self.status)
        layout.addWidget(self.single)
        self.status.hide()
        self.listed: list[int] = []
        self.decided: dict[int, dict[str, str]] = {}  # record → reviewer → label
        self.placed: int | None = None
        self.choice.currentIndexChanged.connect(lambda _index: self.start())
        view.session.changed.connect(self._changed)

    @property
    def kind(self) -> str:
        return self.choice.currentData()

    def limit_to(self, kind: str) -> None:
        """Choose ``kind`` (one of :data:`LIMITS`)."""
        self.choice.setCurrentIndex(self.choice.findData(kind))

    def work_list(self) -> list[int]:
        """The records of the chosen limit, in screening order (empty for all records or
        a blind screening); who decided them what is kept in ``decided``."""
        core = self.view.core
        project, screening_id = core.project, core.screening.id
        if self.kind == ALL or store.is_blind(project, screening_id):
            return []
        by_reviewer = team.by_reviewer(project, screening_id)
        self.decided = {}
        for reviewer, decisions in by_reviewer.items():
            for record_id, event in decisions.items():
                self.decided.setdefault(record_id, {})[reviewer] = event.label
        if self.kind == CONFLICTS:
            return [c.record_id for c in team.conflicts(project, screening_id,
                                                         decided=by_reviewer)
                    if c.resolution is None]
        own = by_reviewer.get(core.reviewer, {})
        return [r for r in team.seen_by_one(project, screening_id) if r not in own]

    def start(self) -> None:
        """Begin the chosen limit at its first record (all records: the queue again)."""
        core = self.view.core
        blind = store.is_blind(core.project, core.screening.id)
        if self.kind != ALL and blind:
            self._say("not in a blind screening")
            self.choice.blockSignals(True)
            self.choice.setCurrentIndex(0)
            self.choice.blockSignals(False)
            return
        self.listed, self.placed = self.work_list(), None
        if self.kind == ALL:
            self._say("")
            core.back_at, core.pinned = None, None
            self.view.show_current()
            return
        self._place(self.listed[0] if self.listed else None)

    def _place(self, record_id: int | None) -> None:
        """Put ``record_id`` on screen (None: the limit's list is done)."""
        core = self.view.core
        self.placed = record_id
        if record_id is None:
            self._say(f"{LIMITS[self.kind]}: none left")
            core.back_at, core.pinned = None, None
        else:
            labels = " · ".join(f"{html.escape(who)}: <b>{html.escape(label_text(label))}</b>"
                                for who, label in sorted(self.decided.get(record_id, {}).items()))
            self._say(f"{self.listed.index(record_id) + 1:,} of {len(self.listed):,} — {labels}")
            if record_id in core.labels:
                core.go_to(record_id)
            else:
                core.back_at, core.pinned = None, record_id
        self.view.show_current()

    def show_mode(self) -> None:
        """The single-screening box as the screening is set (not while it is blind)."""
        core = self.view.core
        self.single.blockSignals(True)
        self.single.setChecked(core.single_screening)
        self.single.blockSignals(False)
        self.single.setEnabled(not core.screening.blind)

    def _set_single(self, single: bool) -> None:
        """Store the choice; the screen reads its queue again once it has committed (a
        failure shows why and the box as stored)."""
        def failed(exc: BaseException) -> None:
            show_error(self, "The screening's setting was not saved", exc)
            self.show_mode()
        self.view.session.write(team.single_screening_op(self.view.core.screening, single),
                                initiator=self, on_failure=failed)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _changed(self, changes: Changes, _initiator: object) -> None:
        """After decisions commit: the next record once the one placed was decided."""
        if self.kind == ALL or not changes.decisions or self.placed is None:
            return
        if self.view.core.shown == self.placed:
            return  # not decided yet (another change)
        before = self.listed
        after = before[before.index(self.placed) + 1:] if self.placed in before else before
        self.listed = self.work_list()
        still = set(self.listed)
        self._place(next((r for r in after if r in still), None))
