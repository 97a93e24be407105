"""What the screening screen does with a key: decide, exclude with a reason, note, tag,
undo, redo, and move through the decided records (:class:`Deciding`, mixed into
:class:`~litqeval_gui.gui.screens.screening.view.ScreeningView`).

Every action is queued on the session's write path and applied to the screen's
in-memory state at once (the queue, ``labels``, ``tags``, ``notes``), so the next
record shows without waiting for the commit; a write that fails reloads the state
from the project. A note or tags given to an undecided record wait for its decision;
given to a decided one they are stored at once as the same decision again (the event
log keeps both). Changing a decided record's label keeps its note and tags.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.labels import GRADED
from litqeval_gui.core.screening.store import DECISIONS, Context, Screening
from litqeval_gui.gui.notify import show_error
from litqeval_gui.gui.screens.screening.history import AuditDialog
from litqeval_gui.gui.screens.screening.start import ask_reviewer


def decide_op(screening: Screening, record_id: int, label: str, context: Context,
              reason: str, note: str) -> Callable[[Project], Changes]:
    def op(p: Project) -> Changes:
        store.decide(p, screening, record_id, label, context, reason=reason, note=note)
        return DECISIONS
    return op


class Deciding:
    """Deciding and moving; the view provides the state and :meth:`show_current`."""

    # -- deciding -----------------------------------------------------------------------
    def _reviewer_known(self) -> bool:
        if not self.reviewer:
            self.reviewer = ask_reviewer(self.settings, self)
        return bool(self.reviewer)

    def _context(self, record_id: int, tags: tuple[str, ...]) -> Context | None:
        if not self._reviewer_known():
            return None
        ordering = self.queue.ordering
        position = self.queue.position(record_id) if record_id in self.queue else None
        return Context(self.reviewer, ordering.name, position, ordering.model, tags)

    def decide(self, label: str, reason: str = "", *, stay: bool = False) -> None:
        """Decide (or change) the shown record; the next one appears at once (``stay``:
        the same record stays, e.g. after tagging it)."""
        record_id = self.shown
        if record_id is None:
            return
        decided = record_id in self.labels
        tags = self.tags.get(record_id, ()) if decided else self._pending_tags
        note = self.note_of(record_id)
        context = self._context(record_id, tags)
        if context is None:
            return
        self.session.write(decide_op(self.screening, record_id, label, context, reason, note),
                           initiator=self, on_failure=self._not_stored)
        if not decided:
            self.order.append(record_id)
        self.labels[record_id], self.tags[record_id] = label, tags
        self.notes[record_id], self.reasons[record_id] = note, reason
        self.queue.mark(record_id, True)
        self._pending_note, self._pending_tags = None, ()
        if stay:  # a decided record is on screen only while stepping back: it stays there
            self.show_current()
            return
        if self._back is not None:
            self.forward()
        else:
            self.show_current()
        self.since_retrain += 1
        if self.since_retrain >= self.retrain_every.value() and self._prioritised():
            self.start_ranking()

    def _not_stored(self, exc: BaseException) -> None:
        show_error(self, "The decision was not saved", exc)
        self._load()
        self.show_current()

    def exclude_with_reason(self) -> None:
        """Pick (or type) an exclusion reason and exclude the shown record with it."""
        if self.shown is None:
            return
        reasons = list(self.screening.reasons)
        reason, ok = QInputDialog.getItem(self, "Exclusion reason", "Reason:", reasons, 0, True)
        reason = reason.strip()
        if not ok or not reason:
            return
        if reason not in reasons:
            reasons.append(reason)
            self.screening = dataclasses.replace(self.screening, reasons=tuple(reasons))
            screening_id = self.screening.id
            self.session.write(lambda p: store.set_reasons(p, screening_id, reasons),
                               initiator=self)
        self.decide("0" if self.screening.scheme == GRADED else "exclude", reason)

    def note_of(self, record_id: int) -> str:
        """The note ``record_id`` goes with: the one being written, else its stored one."""
        if self._pending_note is not None:
            return self._pending_note
        return self.notes.get(record_id, "") if record_id in self.labels else ""

    def edit_note(self) -> None:
        """A note for the shown record, stored with its next decision (at once when decided;
        an emptied note removes it)."""
        record_id = self.shown
        if record_id is None:
            return
        note, ok = QInputDialog.getMultiLineText(self, "Note", "Note on this record:",
                                                 self.note_of(record_id))
        if not ok:
            return
        self._pending_note = note.strip()
        if record_id in self.labels and self._pending_note != self.notes.get(record_id, ""):
            self.decide(self.labels[record_id], self.reasons.get(record_id, ""))
        else:
            self.show_current()

    # -- tags -----------------------------------------------------------------------------
    def shown_tags(self) -> tuple[str, ...]:
        record_id = self.shown
        return self.tags.get(record_id, ()) if record_id in self.labels else self._pending_tags

    def add_tag(self) -> None:
        """Ask for a tag (one already used, or a new one) and put it on the shown record."""
        if self.shown is None:
            return
        tag, ok = QInputDialog.getItem(self, "Tag this record", "Tag:", self.known_tags, 0, True)
        tag = " ".join(tag.split())
        if ok and tag and tag not in self.shown_tags():
            self._set_tags((*self.shown_tags(), tag))

    def remove_tag(self, tag: str | None = None) -> None:
        """Take ``tag`` off the shown record (asked for when it has several)."""
        tags = self.shown_tags()
        if tag is None and len(tags) > 1:
            tag, ok = QInputDialog.getItem(self, "Remove a tag", "Tag:", list(tags), 0, False)
            if not ok:
                return
        tag = tag if tag is not None else (tags[0] if tags else None)
        if tag in tags:
            self._set_tags(tuple(t for t in tags if t != tag))

    def _set_tags(self, tags: tuple[str, ...]) -> None:
        record_id = self.shown
        for tag in tags:
            if tag not in self.known_tags:
                self.known_tags.append(tag)
        if record_id in self.labels:
            self.tags[record_id] = tags
            self.decide(self.labels[record_id], self.reasons.get(record_id, ""), stay=True)
        else:
            self._pending_tags = tags
            self.show_current()

    # -- undo and redo ----------------------------------------------------------------------
    def undo(self) -> None:
        self._take(store.undo)

    def redo(self) -> None:
        self._take(store.redo)

    def _take(self, action) -> None:
        """Undo or redo on the write path; the record it touched is then shown."""
        if not self._reviewer_known():
            return
        screening, reviewer, found = self.screening, self.reviewer, []

        def op(p: Project) -> Changes:
            made = action(p, screening, Context(reviewer))
            if made is None:
                return Changes()
            found.append((made.record_id,
                          store.current_label(p, screening.id, made.record_id)))
            return DECISIONS

        self.session.write(op, initiator=self, on_success=lambda _c: self._taken(found))

    def _taken(self, found: list[tuple[int, str | None]]) -> None:
        if not found:
            return
        record_id, label = found[0]
        self._read_decisions()
        self.queue.mark(record_id, label is not None)
        self._back = self.order.index(record_id) if label is not None else None
        self._pinned = None if label is not None else record_id
        self.show_current()

    # -- moving -------------------------------------------------------------------------------
    def back(self) -> None:
        if self.order:
            self._back = len(self.order) - 1 if self._back is None else max(0, self._back - 1)
            self.show_current()

    def forward(self) -> None:
        if self._back is not None:
            self._back += 1
            if self._back >= len(self.order):
                self._back = None
            self.show_current()

    def go_to(self, record_id: int) -> None:
        """Show a decided record from the history list (a key then changes its decision)."""
        if record_id in self.labels:
            self._back = self.order.index(record_id)
            self.show_current()

    def show_audit(self) -> AuditDialog | None:
        record_id = self.shown
        if record_id is None:
            return None
        dialog = AuditDialog(self.title_of(record_id), store.record_history(
            self.session.project, self.screening.id, record_id), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog
