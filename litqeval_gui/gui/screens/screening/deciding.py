"""What the screening screen does with a key (:class:`Deciding`, mixed into
:class:`~litqeval_gui.gui.screens.screening.view.ScreeningView`): it asks what a dialog
must ask (the reviewer's name, a reason in the quick picker the full text uses, a note in
a box that wraps, a tag) and hands the action to the
screen's :class:`~litqeval_gui.core.screening.session.ScreeningSession`, which holds the
state and queues the op on the session's write path; then the screen shows the result.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.reason_picker import pick_reason
from litqeval_gui.gui.screens.screening.history import AuditDialog
from litqeval_gui.gui.screens.screening.note import ask_note
from litqeval_gui.gui.screens.screening.start import ask_reviewer


class Deciding:
    """Deciding and moving; the view provides ``core`` (the screening session) and
    :meth:`show_current`."""

    core: ScreeningSession

    def _reviewer_known(self) -> bool:
        """Whether the action has a name to carry (asked the first time). The window's
        screens follow the name given (their ``reviewer_changed``): when that puts another
        record on screen (their own decisions read in), this key acts on nothing."""
        if self.core.reviewer:
            return True
        shown = self.core.shown
        self.core.reviewer = ask_reviewer(self.settings, self)
        return bool(self.core.reviewer) and self.core.shown == shown

    def decide(self, label: str, reason: str = "") -> None:
        """Decide (or change) the shown record; the next one appears at once."""
        if self.core.shown is None or not self._reviewer_known():
            return
        self.core.decide(label, reason)
        self.show_current()
        self.since_retrain += 1
        if self._prioritised() and self.since_retrain >= self.retrain_every.value():
            self.start_ranking()

    def not_stored(self, exc: BaseException) -> None:
        """A write failed: show why and read the state back from the project."""
        show_error(self, "The decision was not saved", exc)
        self.core.reload(self.core.queue.ordering)
        self.show_current()

    def exclude_with_reason(self) -> None:
        """Pick (or type) an exclusion reason in the quick picker
        (:class:`~litqeval_gui.gui.reason_picker.ReasonPicker`, as at full text) and
        exclude the shown record with it."""
        if self.core.shown is None:
            return
        reason = pick_reason(self.core.screening.reasons, self,
                             prompt="Exclude this record for a reason:")
        if reason:
            self.core.add_reason(reason)
            self.decide(self.core.exclusion_label(), reason)

    def edit_note(self) -> None:
        """A note for the shown record, stored with its next decision (at once when decided;
        an emptied note removes it)."""
        record_id = self.core.shown
        if record_id is None:
            return
        note, ok = ask_note(self.core.note_of(record_id), self)
        if ok and (record_id not in self.core.labels or self._reviewer_known()):
            self.core.set_note(note)
            self.show_current()

    # -- tags -----------------------------------------------------------------------------
    def add_tag(self) -> None:
        """Ask for a tag (one already used, or a new one) and put it on the shown record."""
        if self.core.shown is None:
            return
        tag, ok = QInputDialog.getItem(self, "Tag this record", "Tag:", self.core.known_tags,
                                       0, True)
        tag = " ".join(tag.split())
        if ok and tag and tag not in self.core.shown_tags():
            self._set_tags((*self.core.shown_tags(), tag))

    def remove_tag(self, tag: str | None = None) -> None:
        """Take ``tag`` off the shown record (asked for when it has several)."""
        tags = self.core.shown_tags()
        if tag is None and len(tags) > 1:
            tag, ok = QInputDialog.getItem(self, "Remove a tag", "Tag:", list(tags), 0, False)
            if not ok:
                return
        tag = tag if tag is not None else (tags[0] if tags else None)
        if tag in tags:
            self._set_tags(tuple(t for t in tags if t != tag))

    def _set_tags(self, tags: tuple[str, ...]) -> None:
        if self.core.shown in self.core.labels and not self._reviewer_known():
            return
        self.core.set_tags(tags)
        self.show_current()

    # -- undo, redo and moving ----------------------------------------------------------------
    def undo(self) -> None:
        if self._reviewer_known():
            self.core.take_back(then=self.show_current)

    def redo(self) -> None:
        if self._reviewer_known():
            self.core.take_back(redo=True, then=self.show_current)

    def back(self) -> None:
        self.core.back()
        self.show_current()

    def forward(self) -> None:
        self.core.forward()
        self.show_current()

    def go_to(self, record_id: int) -> None:
        """Show a decided record from the history list (a key then changes its decision)."""
        self.core.go_to(record_id)
        self.show_current()

    def show_audit(self) -> AuditDialog | None:
        record_id = self.core.shown
        if record_id is None:
            return None
        dialog = AuditDialog(self.title_of(record_id), store.record_history(
            self.session.project, self.core.screening.id, record_id), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog
