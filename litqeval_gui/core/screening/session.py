"""One reviewer screening one screening, without Qt: the session the screen, the CLI,
the self-test and the benchmarks all drive.

:class:`ScreeningSession` keeps the queue (:class:`~litqeval_gui.core.screening.ranking.queue.Queue`) and the current
labels, tags, notes and reasons in memory and updates them the moment an action is
taken, so the next record is known at once; each action's op goes to ``write(op, then)``
— :func:`write_now` commits it before returning (the CLI, tests), the app queues it on
its write path — and ``then(result)`` runs once it is committed. A write that fails
leaves the caller to :meth:`~ScreeningSession.reload` from the project.

A note or tags given to an undecided record wait for its decision; given to a decided
one they are stored at once as the same decision again (the event log keeps both).
Waiting tags are kept in the project too (:func:`pending_tags_parameter`), so a restart
shows the tagged record again with its tags.
The queue serves the screening's current round first (:mod:`~litqeval_gui.core.screening.stopping.phases`: a search update's
records are a round of their own) and, once the round switched to random screening
(:meth:`~ScreeningSession.start_random`), the round's records in its seeded random order
whatever ordering is asked for; items an ordering lacks (added since it was made) come
after the ones it ranks.
In a team's dual screening (:func:`~litqeval_gui.core.screening.reviewers.team.screens_apart`) what counts as decided is the
reviewer's own decisions: their queue serves every record they have not decided
themselves, and ←/→ step through their own; a reviewer screening alone, or a screening
set to single screening, counts everyone's.
Changing a decided record's label keeps its note and tags. ←/→ (:meth:`back`,
:meth:`forward`) step through the decided records, where a decision changes the one
shown; a record undone, or shown when the ordering switches, stays shown until decided.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.changes import NOTHING
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import GRADED, is_relevant
from litqeval_gui.core.screening.log.store import DECISIONS, Context, Event, Screening
from litqeval_gui.core.screening.ranking.queue import Ordering, Queue, first_of, list_order
from litqeval_gui.core.screening.ranking.retrain import stored_ranking
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.stopping.phases import (
    RandomPhase,
    Round,
    current_round,
    new_seed,
    random_ordering,
    start_random_op,
)

Then = Callable[[Any], None]
Writer = Callable[[Op, Then | None], object]


def write_now(project: Project) -> Writer:
    """A writer that commits each op on ``project`` before it returns."""
    def write(op: Op, then: Then | None = None) -> None:
        result = project.write(op)
        if then is not None:
            then(result)
    return write


def take_back_op(screening: Screening, reviewer: str, redo: bool = False) -> Op:
    """Undo (or redo) the reviewer's latest decision; the op's value is the record it
    touched, or None when there was nothing to take back."""
    take = (store.redo_op if redo else store.undo_op)(screening, Context(reviewer))

    def op(p: Project) -> Done[int | None]:
        made = take(p).value
        return Done(NOTHING, None) if made is None else Done(DECISIONS, made.record_id)
    return op


def pending_tags_parameter(screening_id: int) -> parameters.Parameter[list]:
    """Where the tags of an undecided record wait for its decision: ``[record id, tag, …]``
    (``[]``: none wait)."""
    return parameters.Parameter(f"screening.{screening_id}.pending_tags", list, [])


class ScreeningSession:
    """The screening state of one reviewer and the actions on it (module docstring)."""

    def __init__(self, project: Project, screening: Screening, reviewer: str,
                 ordering: Ordering | None = None, write: Writer | None = None) -> None:
        self.project = project
        self.screening = screening
        self.reviewer = reviewer
        self.write = write or write_now(project)
        self.known_tags = store.tags_used(project, screening.id, self.reviewer)
        self.reload(ordering or list_order(store.items(project, screening.id)))

    @property
    def reviewer(self) -> str:
        """Who decides, as plain one-line text (:func:`plain_name`): the name the ops store."""
        return self._reviewer

    @reviewer.setter
    def reviewer(self, name: str) -> None:
        self._reviewer = plain_name(name)

    # -- state ----------------------------------------------------------------------------
    def reload(self, ordering: Ordering) -> None:
        """The committed decisions and rounds from the project and the queue in
        ``ordering`` (as the module docstring serves it); nothing is pinned, stepped back
        to or pending."""
        self._read_decisions()
        self._read_rounds()
        self.requested = ordering  # the ordering asked for; the queue serves it by round
        self.queue = Queue(self._served(ordering), self.labels)
        self.pinned: int | None = None  # shown until decided (undone, or ordering switched)
        self.back_at: int | None = None  # index into ``order`` while stepping back
        self.pending_note: str | None = None  # being written for the shown record
        waiting = parameters.get(self.project, pending_tags_parameter(self.screening.id))
        self.pending_for: int | None = None  # the undecided record the tags wait for
        self.pending_tags: tuple[str, ...] = ()
        if waiting and waiting[0] not in self.labels and waiting[0] in self.queue:
            self.pending_for, self.pending_tags = waiting[0], tuple(waiting[1:])
            self.pinned = self.pending_for  # shown again, with its tags

    def refresh(self) -> None:
        """Read the committed decisions again after someone else's (a merge, a pool's
        judgements, another connection), keeping the ordering — a list ordering takes in
        items added since — what is shown and what is pending."""
        self.screening = store.get_screening(self.project, self.screening.id)  # its size
        self._read_decisions()
        self._read_rounds()
        ordering = self.requested
        if ordering.name == "list":
            ordering = list_order(self.items)
        elif ordering.name == "model":  # a ranking stored since (e.g. of a search update)
            stored = stored_ranking(self.project, self.screening.id)
            if stored is not None and stored.created > ordering.ranked_at:
                ordering = stored.ordering()
        self.requested = ordering
        self.queue = Queue(self._served(ordering), self.labels)
        if self.back_at is not None and self.back_at >= len(self.order):
            self.back_at = None

    def _read_rounds(self) -> None:
        self.items = store.items(self.project, self.screening.id)
        self.round: Round = current_round(self.project, self.screening.id)

    def _served(self, ordering: Ordering) -> Ordering:
        """What the queue serves for ``ordering`` (module docstring)."""
        if self.round.random is not None:
            return first_of(random_ordering(self.round), self.items)
        return first_of(ordering, self.items, self.round.items if self.round.number > 1 else ())

    @property
    def random_phase(self) -> bool:
        """Whether the current round is screened in its random order."""
        return self.round.random is not None

    def _read_decisions(self) -> None:
        """The decisions that count as decided for the reviewer (module docstring) and
        whether the screening is single screening."""
        self.single_screening = team.is_single_screening(self.project, self.screening)
        if team.screens_apart(self.project, self.screening, self.reviewer):
            current = store.reviewer_decisions(self.project, self.screening.id, self.reviewer)
        else:
            current = store.current_decisions(self.project, self.screening.id, self.reviewer)
        self.order = [e.record_id for e in current]  # decided records, in decision order
        self.labels = {e.record_id: e.label for e in current}
        self.tags = {e.record_id: e.tags for e in current}
        self.notes = {e.record_id: e.note for e in current}
        self.reasons = {e.record_id: e.reason for e in current}

    @property
    def shown(self) -> int | None:
        """The record on screen: a decided one while stepping back, else the pinned one,
        else the queue's next; None when everything is decided."""
        if self.back_at is not None:
            return self.order[self.back_at]
        if self.pinned is not None and self.pinned not in self.labels:
            return self.pinned
        return self.queue.next()

    @property
    def screened(self) -> int:
        return len(self.labels)

    @property
    def relevant(self) -> int:
        """Decided records whose label counts as relevant."""
        return sum(is_relevant(self.screening.scheme, lab) for lab in self.labels.values())

    def note_of(self, record_id: int) -> str:
        """The note ``record_id`` goes with: the one being written, else its stored one."""
        if self.pending_note is not None:
            return self.pending_note
        return self.notes.get(record_id, "") if record_id in self.labels else ""

    def shown_tags(self) -> tuple[str, ...]:
        record_id = self.shown
        if record_id in self.labels:
            return self.tags.get(record_id, ())
        return self.pending_tags if record_id == self.pending_for else ()

    # -- deciding ---------------------------------------------------------------------------
    def decide(self, label: str, reason: str = "", *, stay: bool = False,
               record_id: int | None = None, note: str | None = None,
               tags: tuple[str, ...] | None = None) -> Event | None:
        """Decide (or change) the shown record, or ``record_id``, and move on (``stay``:
        the record stays shown); ``note`` and ``tags`` replace the record's own. Returns
        the stored event when the writer commits at once, else None."""
        record_id = self.shown if record_id is None else record_id
        if record_id is None:
            raise LitqError("every record of this screening is decided")
        if not self.reviewer.strip():
            raise LitqError("screening needs the reviewer's name")
        decided = record_id in self.labels
        waited = record_id == self.pending_for
        if tags is None:
            tags = self.tags.get(record_id, ()) if decided else \
                (self.pending_tags if waited else ())
        if note is None:
            note = self.note_of(record_id) if record_id == self.shown else \
                self.notes.get(record_id, "")
        queue = self.queue
        position = queue.position(record_id) if record_id in queue else None
        context = Context(self.reviewer, queue.ordering.name, position, queue.ordering.model,
                          tags)
        made: list[Event] = []
        self.write(store.decide_op(self.screening, record_id, label, context, reason=reason,
                                   note=note),
                   lambda done: made.append(done.value))
        if not decided:
            self.order.append(record_id)
        self.labels[record_id], self.tags[record_id] = label, tags
        self.notes[record_id], self.reasons[record_id] = note, reason
        queue.mark(record_id, True)
        self.pending_note = None
        if waited:
            self._keep_pending(None, ())
        if not stay and self.back_at is not None:
            self.forward()
        return made[0] if made else None

    def exclusion_label(self) -> str:
        return "0" if self.screening.scheme == GRADED else "exclude"

    def add_reason(self, reason: str) -> None:
        """Make ``reason`` one of the screening's exclusion reasons (stored at once)."""
        reasons = list(self.screening.reasons)
        if reason in reasons:
            return
        reasons.append(reason)
        self.screening = dataclasses.replace(self.screening, reasons=tuple(reasons))
        self.write(store.set_reasons_op(self.screening.id, reasons), None)

    def set_note(self, note: str) -> None:
        """A note for the shown record: with its next decision, or at once when decided."""
        record_id = self.shown
        if record_id is None:
            return
        self.pending_note = note.strip()
        if record_id in self.labels and self.pending_note != self.notes.get(record_id, ""):
            self.decide(self.labels[record_id], self.reasons.get(record_id, ""), stay=True)

    def set_tags(self, tags: tuple[str, ...]) -> None:
        """The shown record's tags: with its next decision, or at once when decided."""
        record_id = self.shown
        if record_id is None:
            return
        self.known_tags += [tag for tag in tags if tag not in self.known_tags]
        if record_id in self.labels:
            self.tags[record_id] = tags
            self.decide(self.labels[record_id], self.reasons.get(record_id, ""), stay=True)
        else:
            self._keep_pending(record_id, tags)

    def _keep_pending(self, record_id: int | None, tags: tuple[str, ...]) -> None:
        """Tags waiting for ``record_id``'s decision, in memory and in the project."""
        self.pending_for, self.pending_tags = (record_id, tags) if tags else (None, ())
        self.write(parameters.set_value_op(pending_tags_parameter(self.screening.id),
                                           [record_id, *tags] if tags else []), None)

    def take_back(self, redo: bool = False, then: Then | None = None) -> None:
        """Undo (or redo) the latest decision; once committed, the record it touched is
        shown (stepping back to it when it is still decided) and ``then()`` runs."""
        def taken(done: Done[int | None]) -> None:
            if done.value is not None:
                record_id = done.value
                self._read_decisions()
                decided = record_id in self.labels
                self.queue.mark(record_id, decided)
                self.back_at = self.order.index(record_id) if decided else None
                self.pinned = None if decided else record_id
            if then is not None:
                then()
        self.write(take_back_op(self.screening, self.reviewer, redo), taken)

    # -- moving -------------------------------------------------------------------------------
    def back(self) -> None:
        if self.order:
            self.back_at = len(self.order) - 1 if self.back_at is None else \
                max(0, self.back_at - 1)

    def forward(self) -> None:
        if self.back_at is not None:
            self.back_at += 1
            if self.back_at >= len(self.order):
                self.back_at = None

    def go_to(self, record_id: int) -> None:
        """Show a decided record (a decision then changes it)."""
        if record_id in self.labels:
            self.back_at = self.order.index(record_id)

    def switch(self, ordering: Ordering, *, keep_shown: bool = True) -> None:
        """Continue in ``ordering`` (e.g. a new model ranking), keeping what is decided;
        ``keep_shown``: the record on screen stays until decided (a reviewer may be
        reading it), else the next record is the ordering's first undecided one. In a
        random phase the queue keeps serving the random order."""
        if self.back_at is None:
            self.pinned = self.shown if keep_shown else None
        self.requested = ordering
        self.queue = Queue(self._served(ordering), self.labels)

    def start_random(self, seed: int | None = None, then: Then | None = None) -> None:
        """Switch the current round to random screening after the decisions made so far
        (:func:`~litqeval_gui.core.screening.stopping.phases.start_random_op`): the next record is the first undecided one of
        the round's random order (the one on screen is not kept: the sample is what the
        random order serves); ``then(round)`` once it is stored."""
        if self.random_phase:
            raise LitqError(f"round {self.round.number} already switched to random sampling")
        seed = new_seed() if seed is None else seed
        stored: list[Round] = []

        def done(result: Done[Round]) -> None:
            stored.append(result.value)
            self.round = result.value
            if then is not None:
                then(result.value)
        self.write(start_random_op(self.screening, self.reviewer, seed), done)
        if not stored:  # queued: the order is known now, the event it follows once stored
            self.round = dataclasses.replace(
                self.round, random=RandomPhase(-1, seed, "", self.reviewer))
        self.switch(self.requested, keep_shown=False)
