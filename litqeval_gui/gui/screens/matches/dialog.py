"""Review a topic's uncertain matches one pair at a time: accept, reject, skip or go back;
or list the verdicts given before and change one ("Past verdicts").

Each side shows title, year, every identifier, authors, venue and the start of the
abstract, with the differences marked (:mod:`.sides`); an identifier kind both records
hold with different values is marked and named under the pair, as the reason it was
not merged automatically.

Each verdict is queued at once on the session's write path
(:func:`~litqeval_gui.core.records.matches.decide_op`) and the next pair is shown without
waiting; the session announces what it changed, and a verdict that could not be
stored is shown and forgotten. The counter at the top is the topic's
:func:`~litqeval_gui.core.records.matches.match_counts` with the queued verdicts counted
in: it always equals the project's counts once they are stored.
Bulk actions: the pairs shown can be limited to those touching the core set and sorted
by similarity, highest or lowest first, and every pair of one reason ("found by
subtitle") among those shown can be accepted or rejected at once, after a confirmation
that says how many (:func:`~litqeval_gui.core.records.matches.decide_many_op`, one
write; only pairs still awaiting a verdict change).
The keys A / R / S / → / ← belong to this dialog (a :class:`Shortcuts`): they are
bound when it is shown and removed when it is hidden or closed; holding one fires once.
"""

from __future__ import annotations

import html

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records import matches as core_matches
from litqeval_gui.core.records.matches import Match, MatchCounts
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.matches.sides import (
    SidePanel,
    highlight_differences,
    show_pair,
)
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.shortcuts import KeysWhileShown, Shortcuts

__all__ = ["MatchesDialog", "highlight_differences", "open_matches_dialog"]

EMPTY_TEXT = "No uncertain matches — nothing to review"
NO_VERDICTS_TEXT = "No verdicts yet — the matches you accept or reject appear here"
PENDING, DECIDED = "Awaiting review", "Past verdicts"
ALL_PAIRS, CORE_PAIRS = "All pairs", "Only pairs with a core record"
HIGHEST, LOWEST = "Highest similarity first", "Lowest similarity first"


def ask(parent: QWidget, title: str, text: str, verb: str) -> bool:
    """Ask before a bulk verdict; Cancel is the default."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text,
                      QMessageBox.StandardButton.Cancel, parent)
    go = box.addButton(verb, QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is go


def _pairs(n: int) -> str:
    return f"{n:,} pair{'s' if n != 1 else ''}"


def counts_text(counts: MatchCounts) -> str:
    """``12 awaiting a verdict · 20 accepted · 24 rejected``."""
    return (f"{counts.uncertain:,} awaiting a verdict · {counts.confirmed:,} accepted · "
            f"{counts.rejected:,} rejected")


class MatchesDialog(KeysWhileShown, QDialog):
    """The uncertain matches of ``topic``, reviewed with the keyboard or the buttons."""

    key = "matches"

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Uncertain matches — {topic}")
        self._session = session
        self._topic = topic
        self._decided = False  # showing past verdicts instead of the pending matches
        self._core_only = False  # only the pairs with a core record
        self._lowest_first = False
        self._matches: list[Match] = []
        self._verdicts: dict[int, bool] = {}  # link id -> accepted, given in this view
        self._queued: dict[int, bool] = {}  # verdicts sent but not yet answered
        self._index = 0
        self.shortcuts = Shortcuts(self)
        for key, slot in (("A", lambda: self.decide(True)), ("R", lambda: self.decide(False)),
                          ("S", self.skip), ("Right", self.skip), ("Left", self.go_back)):
            self.shortcuts.add(key, slot)
        session.changed.connect(self.project_changed)
        self._build()
        self._matches = self._read()
        self._show_current()

    @property
    def title(self) -> str:
        return self.windowTitle()

    def counts(self) -> MatchCounts:
        """The topic's matches by verdict, the verdicts queued here counted in."""
        return core_matches.match_counts(self._session.project, self._topic, self._queued)

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """Matches changed elsewhere (an import, the CLI): re-read them, keeping the place;
        a verdict of this dialog stored: the counter follows."""
        if not (changes.verdicts or changes.records):
            return
        if initiator is self:
            self._show_counts()
            return
        current = self.current
        self._matches = self._read()
        ids = [m.id for m in self._matches]
        self._index = ids.index(current.id) if current and current.id in ids else min(
            self._index, len(ids))
        self._show_current()

    def _read(self) -> list[Match]:
        """The matches shown: pending or decided, filtered and sorted as chosen."""
        if self._decided:
            found = core_matches.matches(self._session.project, self._topic, decided=True)
        else:
            found = core_matches.matches(self._session.project, self._topic, uncertain=True)
        if self._core_only:
            found = [m for m in found if "core" in (m.a.role, m.b.role)]
        found.sort(key=lambda m: (m.score if self._lowest_first else -m.score, m.id))
        self._fill_reasons(found)
        return found

    def set_view(self, core_only: bool, lowest_first: bool) -> None:
        """Show only the pairs with a core record (or all), by similarity ascending (or
        descending), from the first one."""
        self._core_only, self._lowest_first = core_only, lowest_first
        self.scope.setCurrentText(CORE_PAIRS if core_only else ALL_PAIRS)
        self.order.setCurrentText(LOWEST if lowest_first else HIGHEST)
        self._matches = self._read()
        self._index = 0
        self._show_current()

    def _undecided(self, found: list[Match], method: str | None = None) -> list[Match]:
        """The pairs of ``found`` still awaiting a verdict (of one reason, if given)."""
        return [m for m in found if m.status == "uncertain" and m.id not in self._verdicts
                and (method is None or m.method == method)]

    def _fill_reasons(self, found: list[Match]) -> None:
        """The reasons of the undecided pairs shown, with their counts, for the bulk
        verdicts."""
        counts: dict[str, int] = {}
        for m in self._undecided(found):
            counts[m.method] = counts.get(m.method, 0) + 1
        chosen = self.reason.currentData()
        self.reason.clear()
        for method, n in sorted(counts.items(), key=lambda item: -item[1]):
            self.reason.addItem(f"found by {method} ({n})", method)
        if chosen is not None and self.reason.findData(chosen) >= 0:
            self.reason.setCurrentIndex(self.reason.findData(chosen))
        for button in (self.accept_reason_button, self.reject_reason_button):
            button.setEnabled(bool(counts) and not self._decided)

    def accept_reason(self, method: str | None = None) -> int:
        """Accept every undecided pair shown found by ``method`` (default: the reason
        chosen), once confirmed; returns how many were sent."""
        return self._decide_reason(True, method)

    def reject_reason(self, method: str | None = None) -> int:
        """Reject every undecided pair shown found by ``method`` (default: the reason
        chosen), once confirmed; returns how many were sent."""
        return self._decide_reason(False, method)

    def _decide_reason(self, accept: bool, method: str | None) -> int:
        method = method if method is not None else self.reason.currentData()
        chosen = self._undecided(self._matches, method)
        if not chosen or self._decided:
            return 0
        n = len(chosen)
        pairs = _pairs(n)
        scope = " with a core record" if self._core_only else ""
        if accept:
            title, verb = "Accept all of this reason", f"Accept {pairs}"
            what = (f"Accept all {pairs}{scope} found by {method} as the same work? "
                    "Each pair's two records become one work.")
        else:
            title, verb = "Reject all of this reason", f"Reject {pairs}"
            what = (f"Reject all {pairs}{scope} found by {method} as different works? "
                    "Each pair's two records stay apart.")
        text = (f"{what}\n\nOnly pairs still awaiting a verdict change; verdicts you "
                "gave before are kept. Past verdicts lists them, to change one.")
        if not ask(self, title, text, verb):
            return 0
        ids = [m.id for m in chosen]
        for link_id in ids:
            self._verdicts[link_id] = self._queued[link_id] = accept
        self._session.write(core_matches.decide_many_op(ids, accept, pending_only=True),
                            initiator=self, on_success=lambda _done: self._answered(ids),
                            on_failure=lambda exc: self._bulk_not_stored(ids, exc))
        current = self.current
        gone = set(ids)
        self._matches = [m for m in self._matches if m.id not in gone]
        ids_left = [m.id for m in self._matches]
        self._index = ids_left.index(current.id) if current and current.id in ids_left \
            else min(self._index, len(ids_left))
        self._fill_reasons(self._matches)
        self._show_current()
        return n

    def _answered(self, ids: list[int]) -> None:
        """Verdicts stored: counted from the project from now on (nothing to show once
        the dialog is gone)."""
        if not shiboken6.isValid(self):
            return
        for link_id in ids:
            self._queued.pop(link_id, None)
        self._show_counts()

    def _bulk_not_stored(self, ids: list[int], exc: BaseException) -> None:
        for link_id in ids:
            self._verdicts.pop(link_id, None)
            self._queued.pop(link_id, None)
        show_error(self, "Could not record the verdicts", exc)
        self._matches = self._read()
        self._show_current()

    def show_decided(self, decided: bool) -> None:
        """List the past verdicts (to change one), or the matches awaiting review."""
        self._decided = decided
        self.mode.setCurrentText(DECIDED if decided else PENDING)
        self._verdicts = {}
        self._matches = self._read()
        self._index = 0
        self._show_current()

    # -- layout -----------------------------------------------------------------
    def _build(self) -> None:
        intro = QLabel(f"Matches of topic <b>{html.escape(self._topic)}</b>:")
        self.mode = QComboBox()
        self.mode.addItems([PENDING, DECIDED])
        self.mode.setToolTip("Review the matches awaiting a verdict, or see and change "
                             "the verdicts you gave before")
        self.mode.activated.connect(lambda row: self.show_decided(row == 1))
        self.counts_label = QLabel()
        self.counts_label.setToolTip("The topic's matches by verdict (all pairs, whatever "
                                     "is shown)")
        self.progress_label = QLabel()
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        top = QHBoxLayout()
        top.addWidget(intro)
        top.addWidget(self.mode)
        top.addSpacing(12)
        top.addWidget(self.counts_label)
        top.addStretch(1)
        top.addWidget(self.progress_label)

        self.scope = QComboBox()
        self.scope.addItems([ALL_PAIRS, CORE_PAIRS])
        self.scope.setToolTip("Pairs of two result records change no recall: review the "
                              "pairs with a core record first")
        self.order = QComboBox()
        self.order.addItems([HIGHEST, LOWEST])
        self.order.setToolTip("The order of the pairs by the similarity of their titles")
        self.scope.activated.connect(lambda row: self.set_view(row == 1, self._lowest_first))
        self.order.activated.connect(lambda row: self.set_view(self._core_only, row == 1))
        self.reason = QComboBox()
        self.reason.setToolTip("How the pairs were found; the counts are those shown and "
                               "undecided")
        self.accept_reason_button = QPushButton("Accept all of this reason…")
        self.accept_reason_button.setToolTip(
            "Mark every undecided pair shown that was found this way as the same work, in "
            "one step, after saying how many (Past verdicts lists them, to change one)")
        self.accept_reason_button.clicked.connect(lambda: self.accept_reason())
        self.reject_reason_button = QPushButton("Reject all of this reason…")
        self.reject_reason_button.setToolTip(
            "Mark every undecided pair shown that was found this way as different works, "
            "in one step, after saying how many (Past verdicts lists them, to change one)")
        self.reject_reason_button.clicked.connect(lambda: self.reject_reason())
        bulk = QHBoxLayout()
        bulk.addWidget(QLabel("Show:"))
        bulk.addWidget(self.scope)
        bulk.addWidget(self.order)
        bulk.addStretch(1)
        bulk.addWidget(self.reason)
        bulk.addWidget(self.accept_reason_button)
        bulk.addWidget(self.reject_reason_button)

        self.side_a = SidePanel("Record A")
        self.side_b = SidePanel("Record B")
        sides = QHBoxLayout()
        sides.addWidget(self.side_a, 1)
        sides.addWidget(self.side_b, 1)
        self.method_label = QLabel()
        self.method_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.method_label.setWordWrap(True)
        self.verdict_label = QLabel()
        self.verdict_label.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.back_button = QPushButton("← &Back")
        self.accept_button = QPushButton("&Accept: same work  (A)")
        self.reject_button = QPushButton("&Reject: different works  (R)")
        self.skip_button = QPushButton("&Skip  (S, →)")
        self.back_button.clicked.connect(self.go_back)
        self.accept_button.clicked.connect(lambda: self.decide(True))
        self.reject_button.clicked.connect(lambda: self.decide(False))
        self.skip_button.clicked.connect(self.skip)
        for button in (self.back_button, self.accept_button, self.reject_button,
                       self.skip_button, self.accept_reason_button,
                       self.reject_reason_button):
            button.setAutoDefault(False)
        actions = QHBoxLayout()
        actions.addWidget(self.back_button)
        actions.addStretch(1)
        actions.addWidget(self.accept_button)
        actions.addWidget(self.reject_button)
        actions.addWidget(self.skip_button)

        review = QWidget()
        box = QVBoxLayout(review)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(sides)
        box.addWidget(self.method_label)
        box.addWidget(self.verdict_label)
        box.addStretch(1)
        box.addLayout(actions)

        self.message_label = QLabel()
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet("font-size: 12pt;")
        self.stack = QStackedWidget()
        self.stack.addWidget(review)
        self.stack.addWidget(self.message_label)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(bulk)
        layout.addWidget(self.stack, 1)
        layout.addWidget(buttons)
        self.resize(1100, 560)  # room for the abstracts and the identifiers

    # -- reviewing ------------------------------------------------------------------
    @property
    def current(self) -> Match | None:
        return self._matches[self._index] if self._index < len(self._matches) else None

    def decide(self, accept: bool) -> None:
        """Store the verdict on the current pair and move to the next one."""
        match = self.current
        if match is None:
            return
        self._verdicts[match.id] = self._queued[match.id] = accept
        self._session.write(core_matches.decide_op(match.id, accept), initiator=self,
                            on_success=lambda _done: self._answered([match.id]),
                            on_failure=lambda exc: self._not_stored(match, exc))
        self._index += 1
        self._show_current()

    def _not_stored(self, match: Match, exc: BaseException) -> None:
        self._verdicts.pop(match.id, None)
        self._queued.pop(match.id, None)
        show_error(self, "Could not record the verdict", exc)
        self._show_current()

    def skip(self) -> None:
        if self.current is not None:
            self._index += 1
            self._show_current()

    def go_back(self) -> None:
        if self._index > 0:
            self._index -= 1
            self._show_current()

    def _show_counts(self) -> None:
        """The counter, and the closing message when every pair has been seen."""
        counts = self.counts()
        self.counts_label.setText(counts_text(counts))
        total = len(self._matches)
        if total and self.current is None:
            self._show_message(
                f"All {_pairs(total)} seen. Topic {self._topic} now has "
                f"{counts.confirmed:,} accepted, {counts.rejected:,} rejected, "
                f"{counts.uncertain:,} left undecided.\nPress ← to go back, or Close.")

    def _show_current(self) -> None:
        total = len(self._matches)
        match = self.current
        self.back_button.setEnabled(self._index > 0)
        self._show_counts()
        if not total:
            self.progress_label.setText("")
            self._show_message(NO_VERDICTS_TEXT if self._decided else EMPTY_TEXT)
            return
        if match is None:
            self.progress_label.setText(f"{total} of {total}")
            return
        self.stack.setCurrentIndex(0)
        self.progress_label.setText(f"{self._index + 1} of {total}")
        show_pair(match, self.side_a, self.side_b)
        why = core_matches.conflicts_text(match.conflicts)
        self.method_label.setText(
            f"<b>Are these the same publication?</b> Found by {html.escape(match.method)}, "
            f"similarity {match.score:.2f}"
            + (f"; not merged automatically because {html.escape(why)}" if why else "")
            + "; differences are highlighted")
        verdict = self._verdicts.get(match.id)
        if verdict is None and match.status in ("confirmed", "rejected"):
            verdict = match.status == "confirmed"
        self.verdict_label.setText(
            "" if verdict is None
            else f"Your verdict: {'same work (accepted)' if verdict else 'different (rejected)'}"
                 " — you can change it")
        self.accept_button.setFocus()

    def _show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.stack.setCurrentIndex(1)


def open_matches_dialog(session: ProjectSession, topic: str, parent: QWidget) -> MatchesDialog:
    """Open the dialog over ``parent`` (window-modal); it is deleted when closed."""
    dialog = MatchesDialog(session, topic, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
