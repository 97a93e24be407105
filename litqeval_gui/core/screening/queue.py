"""What to screen next: an :class:`Ordering` of the items and a :class:`Screener` session.

Orderings: ``list`` (the items' list order), ``random`` (a seeded permutation) and
``model`` (a stored ranking of a retrain, :mod:`~litqeval_gui.core.screening.retrain`).
The queue's next record is the first undecided one in the ordering; deciding,
undoing and switching orderings cost O(1) amortised (no re-read of the project).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.store import Context, Event, Screening


@dataclass(frozen=True)
class Ordering:
    """Record ids in screening order; ``name`` says how (``list``, ``random:SEED``,
    ``model``) and ``model``/``ranked_at`` which model ranked them and when."""

    name: str
    records: tuple[int, ...]
    model: str = ""
    ranked_at: str = ""


def list_order(items: Sequence[int]) -> Ordering:
    return Ordering("list", tuple(items))


def random_order(items: Sequence[int], seed: int = 0) -> Ordering:
    """A permutation of ``items`` fixed by ``seed`` (numpy's PCG64)."""
    permutation = np.random.default_rng(seed).permutation(len(items))
    return Ordering(f"random:{seed}", tuple(int(items[i]) for i in permutation))


class Queue:
    """The records of an ordering with the decided ones skipped."""

    def __init__(self, ordering: Ordering, decided: Iterable[int] = ()) -> None:
        self.ordering = ordering
        self._position = {record: index for index, record in enumerate(ordering.records)}
        self._decided = set(decided) & self._position.keys()
        self._cursor = 0  # no undecided record before this index

    def __len__(self) -> int:
        return len(self.ordering.records)

    def __contains__(self, record_id: int) -> bool:
        return record_id in self._position

    @property
    def remaining(self) -> int:
        return len(self) - len(self._decided)

    def position(self, record_id: int) -> int:
        """1-based position of ``record_id`` in the ordering."""
        return self._position[record_id] + 1

    def next(self) -> int | None:
        """The first undecided record, or None when all are decided."""
        records = self.ordering.records
        while self._cursor < len(records) and records[self._cursor] in self._decided:
            self._cursor += 1
        return records[self._cursor] if self._cursor < len(records) else None

    def mark(self, record_id: int, decided: bool) -> None:
        if decided:
            self._decided.add(record_id)
        else:
            self._decided.discard(record_id)
            self._cursor = min(self._cursor, self._position[record_id])

    def decided(self) -> set[int]:
        return set(self._decided)


class Screener:
    """One reviewer screening one screening: the queue plus decide / undo / redo.

    Each action is committed through ``project.write`` before it returns, so whatever
    the caller shows as made is in the file.
    """

    def __init__(self, project: Project, screening: Screening, reviewer: str,
                 ordering: Ordering | None = None) -> None:
        if not reviewer.strip():
            raise LitqError("screening needs the reviewer's name")
        self.project = project
        self.screening = screening
        self.reviewer = reviewer
        decided = [e.record_id for e in store.current_decisions(project, screening.id)]
        self.queue = Queue(ordering or list_order(store.items(project, screening.id)), decided)

    @property
    def current(self) -> int | None:
        return self.queue.next()

    def switch(self, ordering: Ordering) -> None:
        """Continue in ``ordering`` (e.g. a new model ranking), keeping what is decided."""
        self.queue = Queue(ordering, self.queue.decided())

    def _context(self, record_id: int, tags: Sequence[str] = ()) -> Context:
        ordering = self.queue.ordering
        position = self.queue.position(record_id) if record_id in self.queue else None
        return Context(self.reviewer, ordering.name, position, ordering.model, tuple(tags))

    def decide(self, label: str, *, record_id: int | None = None, reason: str = "",
               note: str = "", tags: Sequence[str] = ()) -> Event:
        """Decide the current record (or ``record_id``: a change from the history)."""
        target = self.current if record_id is None else record_id
        if target is None:
            raise LitqError("every record of this screening is decided")
        made = store.decide(self.project, self.screening, target, label,
                            self._context(target, tags), reason=reason, note=note)
        self.queue.mark(target, True)
        return made

    def undo(self) -> Event | None:
        """Take back the latest decision; its record becomes undecided unless an older
        decision of it remains."""
        return self._after(store.undo(self.project, self.screening, Context(self.reviewer)))

    def redo(self) -> Event | None:
        return self._after(store.redo(self.project, self.screening, Context(self.reviewer)))

    def _after(self, made: Event | None) -> Event | None:
        if made is not None:
            still = self.project.db.execute(
                "SELECT 1 FROM screening_current WHERE screening_id = ? AND record_id = ?",
                [self.screening.id, made.record_id]).fetchone() is not None
            self.queue.mark(made.record_id, still)
        return made
