"""Where each item of a screening stands: the one reading every count of a screening takes
(the screener's panel, ``screen-status``, the exports, the overview, PRISMA).

An item's state is its final decision (:func:`~litqeval_gui.core.screening.reviewers.team.final_events`: the latest
resolution where reviewers conflicted, else their common label), :data:`CONFLICT` while
its reviewers disagree unresolved, or :data:`UNDECIDED` when nobody decided it. In a
blind screening read by a reviewer, it is that reviewer's own decision (blind mode
wins). A record is *screened* when its state is not :data:`UNDECIDED`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.log.store import Event, Screening
from litqeval_gui.core.screening.reviewers import team

UNDECIDED = "undecided"
CONFLICT = "conflict"


class ItemState(NamedTuple):
    """One item: its record, round, state and the event carrying its final decision
    (None for a conflict or an undecided item); ``reviewers`` who decided it. (A named
    tuple: a screening of 900 000 items makes as many, and a frozen dataclass took
    three times as long to build them.)"""

    record_id: int
    round: int
    state: str
    event: Event | None = None
    reviewers: tuple[str, ...] = ()

    @property
    def screened(self) -> bool:
        return self.state != UNDECIDED


def item_states(project: Project, screening: Screening,
                reviewer: str | None = None) -> list[ItemState]:
    """Every item of the screening in list order with its state (module docstring)."""
    final = {e.record_id: e for e in team.final_events(project, screening.id, reviewer)}
    blind_reader = reviewer is not None and store.is_blind(project, screening.id)
    disputed = {} if blind_reader else {
        c.record_id: tuple(c.decisions) for c in team.conflicts(project, screening.id)
        if c.resolution is None}
    who: dict[int, set[str]] = {}
    if not blind_reader:
        for name, decided in team.by_reviewer(project, screening.id).items():
            for record_id in decided:
                who.setdefault(record_id, set()).add(name)
    found = []
    for record_id, number in project.db.execute(
            "SELECT record_id, round FROM screening_items WHERE screening_id = ? "
            "ORDER BY position", [screening.id]):
        event = final.get(record_id)
        if event is not None:
            names = tuple(sorted(who.get(record_id, {event.reviewer})))
            found.append(ItemState(record_id, number, event.label, event, names))
        elif record_id in disputed:
            found.append(ItemState(record_id, number, CONFLICT, None, disputed[record_id]))
        else:
            found.append(ItemState(record_id, number, UNDECIDED))
    return found


@dataclass(frozen=True)
class StateCounts:
    """How many items are in each state (``states``: a label, conflict or undecided), of
    ``total`` items; ``relevant``: final decisions that count as relevant."""

    total: int
    states: dict[str, int]
    relevant: int

    @property
    def screened(self) -> int:
        return self.total - self.states.get(UNDECIDED, 0)

    @property
    def conflicts(self) -> int:
        return self.states.get(CONFLICT, 0)


def count_states(screening: Screening, states: list[ItemState]) -> StateCounts:
    """The :class:`StateCounts` of ``states``."""
    return StateCounts(len(states), dict(Counter(s.state for s in states)),
                       sum(s.event is not None and is_relevant(screening.scheme, s.state)
                           for s in states))


def state_counts(project: Project, screening: Screening,
                 reviewer: str | None = None) -> StateCounts:
    """The screening's counts now (:func:`item_states`, :func:`count_states`)."""
    return count_states(screening, item_states(project, screening, reviewer))
