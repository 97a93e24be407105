"""What to screen next: an :class:`Ordering` of the items and its :class:`Queue` (the
screening session that drives them: :mod:`~litqeval_gui.core.screening.session`).

Orderings: ``list`` (the items' list order), ``random`` (a seeded permutation) and
``model`` (a stored ranking of a retrain, :mod:`~litqeval_gui.core.screening.ranking.retrain`).
The queue's next record is the first undecided one in the ordering; deciding,
undoing and switching orderings cost O(1) amortised (no re-read of the project).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import filterfalse

import numpy as np


@dataclass(frozen=True)
class Ordering:
    """Record ids in screening order; ``name`` says how (``list``, ``random:SEED``,
    ``model``) and ``model``/``ranked_at`` which model ranked them and when."""

    name: str
    records: tuple[int, ...]
    model: str = ""
    ranked_at: str = ""

    @cached_property
    def index(self) -> dict[int, int]:
        """Each record's 0-based position, built once per ordering (at 100 000 records
        ~15 ms: a ranking job builds it on its own thread, not the screen's)."""
        return {record: position for position, record in enumerate(self.records)}


def list_order(items: Sequence[int]) -> Ordering:
    return Ordering("list", tuple(items))


def first_of(ordering: Ordering, items: Sequence[int], first: Sequence[int] = ()) -> Ordering:
    """``ordering`` completed by the ``items`` it lacks (added since it was made; at the
    end, in the order given) and with the records of ``first`` before the others (each
    part keeping its order); ``ordering`` itself when nothing changes."""
    missing = list(filterfalse(ordering.index.__contains__, items))
    if not missing and not first:
        return ordering
    records = [*ordering.records, *missing]
    if first:
        front = set(first)
        records = [r for r in records if r in front] + [r for r in records if r not in front]
    return Ordering(ordering.name, tuple(records), ordering.model, ordering.ranked_at)


def random_order(items: Sequence[int], seed: int = 0) -> Ordering:
    """A permutation of ``items`` fixed by ``seed`` (numpy's PCG64)."""
    permutation = np.random.default_rng(seed).permutation(len(items))
    return Ordering(f"random:{seed}", tuple(int(items[i]) for i in permutation))


class Queue:
    """The records of an ordering with the decided ones skipped."""

    def __init__(self, ordering: Ordering, decided: Iterable[int] = ()) -> None:
        self.ordering = ordering
        self._position = ordering.index  # shared, never changed
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

    def upcoming(self, count: int) -> list[int]:
        """The next ``count`` undecided records in order (fewer near the end)."""
        found: list[int] = []
        for record in self.ordering.records[self._cursor:]:
            if len(found) == count:
                break
            if record not in self._decided:
                found.append(record)
        return found

    def mark(self, record_id: int, decided: bool) -> None:
        if decided:
            self._decided.add(record_id)
        else:
            self._decided.discard(record_id)
            self._cursor = min(self._cursor, self._position[record_id])

    def decided(self) -> set[int]:
        return set(self._decided)
