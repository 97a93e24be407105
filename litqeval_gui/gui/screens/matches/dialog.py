"""Review a topic's uncertain matches one pair at a time: accept, reject, skip or go back;
or list the verdicts given before and change one ("Past verdicts").

Each side shows title, year, DOI, authors, venue and the start of the abstract, with
the differences marked.

Each verdict is queued at once on the session's write path
(:func:`litqeval_gui.core.records.matches.decide` as an op) and the next pair is shown without
waiting; the session announces what it changed, and a verdict that could not be
stored is shown and forgotten.
Bulk actions (issue 24): the pairs shown can be limited to those touching the core set
and sorted by similarity, highest or lowest first, and every pair of one reason
("found by subtitle") among those shown can be rejected at once
(:func:`~litqeval_gui.core.records.matches.decide_many`, one write).
The keys A / R / S / → / ← belong to this dialog (a :class:`Shortcuts`): they are
bound when it is shown and removed when it is hidden or closed; holding one fires once.
"""

from __future__ import annotations

import html
from difflib import SequenceMatcher

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.records import matches as core_matches
from litqeval_gui.core.records.matches import Match, MatchSide
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.shortcuts import KeysWhileShown, Shortcuts

EMPTY_TEXT = "No uncertain matches — nothing to review"
NO_VERDICTS_TEXT = "No verdicts yet — the matches you accept or reject appear here"
ABSTRACT_CHARS = 400
SHOWN_AUTHORS = 4
PENDING, DECIDED = "Awaiting review", "Past verdicts"
ALL_PAIRS, CORE_PAIRS = "All pairs", "Only pairs with a core record"
HIGHEST, LOWEST = "Highest similarity first", "Lowest similarity first"
_MARK = '<span style="background-color:#ffd54f; color:#000000; font-weight:600">{}</span>'


def highlight_differences(a: str, b: str) -> tuple[str, str]:
    """HTML of ``a`` and ``b`` with the words that differ marked (case-insensitive match)."""
    words_a, words_b = a.split(), b.split()
    matcher = SequenceMatcher(a=[w.casefold() for w in words_a],
                              b=[w.casefold() for w in words_b], autojunk=False)
    out_a: list[str] = []
    out_b: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for words, lo, hi, out in ((words_a, i1, i2, out_a), (words_b, j1, j2, out_b)):
            if hi > lo:
                chunk = html.escape(" ".join(words[lo:hi]))
                out.append(chunk if tag == "equal" else _MARK.format(chunk))
    return " ".join(out_a), " ".join(out_b)


def _marked_pair(a: str, b: str, empty: str = "—") -> tuple[str, str]:
    """Whole values, both marked when they differ."""
    shown = [html.escape(v) if v else empty for v in (a, b)]
    if a != b:
        return _MARK.format(shown[0]), _MARK.format(shown[1])
    return shown[0], shown[1]


def authors_text(authors: list[str]) -> str:
    """The first :data:`SHOWN_AUTHORS` authors, then "et al. (n)"."""
    shown = "; ".join(authors[:SHOWN_AUTHORS])
    return shown + (f"; et al. ({len(authors)})" if len(authors) > SHOWN_AUTHORS else "")


def abstract_start(text: str) -> str:
    """The first :data:`ABSTRACT_CHARS` characters of an abstract, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= ABSTRACT_CHARS:
        return text
    return text[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " …"


class _SidePanel(QGroupBox):
    """One record of the pair: title, year, DOI, authors, venue, the start of its
    abstract and the list it comes from."""

    def __init__(self, heading: str, parent: QWidget | None = None) -> None:
        super().__init__(heading, parent)
        self.title = self._label()
        self.title.setStyleSheet("font-size: 11pt;")
        self.year = self._label()
        self.doi = self._label()
        self.authors = self._label()
        self.venue = self._label()
        self.abstract = self._label()
        self.abstract.setTextFormat(Qt.TextFormat.PlainText)
        self.source = self._label()
        form = QFormLayout(self)
        form.addRow("Title:", self.title)
        form.addRow("Year:", self.year)
        form.addRow("DOI:", self.doi)
        form.addRow("Authors:", self.authors)
        form.addRow("Venue:", self.venue)
        form.addRow("Abstract:", self.abstract)
        form.addRow("List:", self.source)

    @staticmethod
    def _label() -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def show_side(self, side: MatchSide, title: str, year: str, doi: str, authors: str,
                  venue: str) -> None:
        self.title.setText(title or "<i>(no title)</i>")
        self.year.setText(year)
        self.doi.setText(doi)
        self.authors.setText(authors)
        self.venue.setText(venue)
        self.abstract.setText(abstract_start(side.abstract) or "—")
        self.source.setText(f"{html.escape(side.list_name)} ({html.escape(side.role)})")


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
        self._verdicts: dict[int, bool] = {}  # link id -> accepted
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

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """Matches changed elsewhere (an import, the CLI): re-read them, keeping the place."""
        if initiator is self or not (changes.verdicts or changes.records):
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

    def _fill_reasons(self, found: list[Match]) -> None:
        """The reasons of the undecided pairs shown, with their counts, for the bulk reject."""
        counts: dict[str, int] = {}
        for m in found:
            if m.id not in self._verdicts and m.status == "uncertain":
                counts[m.method] = counts.get(m.method, 0) + 1
        chosen = self.reason.currentData()
        self.reason.clear()
        for method, n in sorted(counts.items(), key=lambda item: -item[1]):
            self.reason.addItem(f"found by {method} ({n})", method)
        if chosen is not None and self.reason.findData(chosen) >= 0:
            self.reason.setCurrentIndex(self.reason.findData(chosen))
        self.reject_reason_button.setEnabled(bool(counts) and not self._decided)

    def reject_reason(self, method: str | None = None) -> int:
        """Reject every undecided pair shown found by ``method`` (default: the reason
        chosen) in one write; returns how many."""
        method = method if method is not None else self.reason.currentData()
        chosen = [m for m in self._matches if m.method == method and m.status == "uncertain"
                  and m.id not in self._verdicts]
        if not chosen or self._decided:
            return 0
        ids = [m.id for m in chosen]
        self._session.write(core_matches.decide_many_op(ids, False), initiator=self,
                            on_failure=lambda exc: self._bulk_not_stored(ids, exc))
        for m in chosen:
            self._verdicts[m.id] = False
        current = self.current
        self._matches = [m for m in self._matches if m.id not in set(ids)]
        ids_left = [m.id for m in self._matches]
        self._index = ids_left.index(current.id) if current and current.id in ids_left \
            else min(self._index, len(ids_left))
        self._fill_reasons(self._matches)
        self._show_current()
        return len(chosen)

    def _bulk_not_stored(self, ids: list[int], exc: BaseException) -> None:
        for link_id in ids:
            self._verdicts.pop(link_id, None)
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
        self.progress_label = QLabel()
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        top = QHBoxLayout()
        top.addWidget(intro)
        top.addWidget(self.mode)
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
        self.reject_reason_button = QPushButton("Reject all of this reason")
        self.reject_reason_button.setToolTip(
            "Mark every undecided pair shown that was found this way as different works, "
            "in one step (Past verdicts lists them, to change one)")
        self.reject_reason_button.setAutoDefault(False)
        self.reject_reason_button.clicked.connect(lambda: self.reject_reason())
        bulk = QHBoxLayout()
        bulk.addWidget(QLabel("Show:"))
        bulk.addWidget(self.scope)
        bulk.addWidget(self.order)
        bulk.addStretch(1)
        bulk.addWidget(self.reason)
        bulk.addWidget(self.reject_reason_button)

        self.side_a = _SidePanel("Record A")
        self.side_b = _SidePanel("Record B")
        sides = QHBoxLayout()
        sides.addWidget(self.side_a, 1)
        sides.addWidget(self.side_b, 1)
        self.method_label = QLabel()
        self.method_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
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
                       self.skip_button):
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
        self.resize(900, 520)  # room for the abstracts

    # -- reviewing ------------------------------------------------------------------
    @property
    def current(self) -> Match | None:
        return self._matches[self._index] if self._index < len(self._matches) else None

    def decide(self, accept: bool) -> None:
        """Store the verdict on the current pair and move to the next one."""
        match = self.current
        if match is None:
            return
        self._session.write(core_matches.decide_op(match.id, accept), initiator=self,
                            on_failure=lambda exc: self._not_stored(match, exc))
        self._verdicts[match.id] = accept
        self._index += 1
        self._show_current()

    def _not_stored(self, match: Match, exc: BaseException) -> None:
        self._verdicts.pop(match.id, None)
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

    def _show_current(self) -> None:
        total = len(self._matches)
        match = self.current
        self.back_button.setEnabled(self._index > 0)
        if not total:
            self.progress_label.setText("")
            self._show_message(NO_VERDICTS_TEXT if self._decided else EMPTY_TEXT)
            return
        if match is None:
            self.progress_label.setText(f"{total} of {total}")
            accepted = sum(self._verdicts.values())
            rejected = len(self._verdicts) - accepted
            self._show_message(
                f"All {total} matches seen: {accepted} accepted, {rejected} rejected, "
                f"{total - len(self._verdicts)} left undecided.\n"
                "Press ← to go back, or Close.")
            return
        self.stack.setCurrentIndex(0)
        self.progress_label.setText(f"{self._index + 1} of {total}")
        title_a, title_b = highlight_differences(match.a.title, match.b.title)
        year_a, year_b = _marked_pair(str(match.a.year or ""), str(match.b.year or ""))
        doi_a, doi_b = _marked_pair(match.a.doi, match.b.doi)
        authors_a, authors_b = highlight_differences(authors_text(match.a.authors),
                                                     authors_text(match.b.authors))
        venue_a, venue_b = _marked_pair(match.a.venue, match.b.venue)
        self.side_a.show_side(match.a, title_a, year_a, doi_a, authors_a or "—", venue_a)
        self.side_b.show_side(match.b, title_b, year_b, doi_b, authors_b or "—", venue_b)
        self.method_label.setText(f"<b>Are these the same publication?</b> Found by "
                                  f"{match.method}, similarity {match.score:.2f}; "
                                  "differences are highlighted")
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
