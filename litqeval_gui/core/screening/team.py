"""Team screening (issue 25): each reviewer's own decisions, conflicts, resolutions,
agreement and blind mode.

A reviewer's current decision on a record is their latest effective decide event,
latest by (``at``, id): merged events get new ids in whatever order files arrive, the
time stamp is what a reviewer's own sequence is ordered by. A **conflict** is a record
two or more reviewers decided where the labels differ or any of them is ``maybe``
(graded: differing grades). A **resolution** is an event of its own (kind ``resolve``,
reviewer = who resolved: a named third reviewer or "consensus"; written by
:func:`store.resolve_op`); the record's final
decision is its latest resolution, else the reviewers' common label. Reviewers' own
decisions are never changed by it.

A **blind** screening shows each reviewer only their own decisions until someone
unblinds it (:func:`store.unblind_op`, an event in ``screening_unblinds``): every
reader given the reviewer (``store.current_decisions(…, reviewer)``, the session,
counts, stopping panel, training and exports) filters by it.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.labels import GRADED
from litqeval_gui.metrics.agreement import Kappa, kappa_agreement

CONSENSUS = "consensus"


def by_reviewer(project: Project, screening_id: int) -> dict[str, dict[int, store.Event]]:
    """reviewer → record id → that reviewer's current decision (latest effective decide
    by time stamp, then id)."""
    found: dict[str, dict[int, store.Event]] = defaultdict(dict)
    for event in store.effective_events(project, screening_id):
        found[event.reviewer][event.record_id] = event
    return dict(found)


# -- conflicts and resolution ------------------------------------------------------------

def resolutions(project: Project, screening_id: int) -> dict[int, store.Event]:
    """record id → its latest resolution."""
    return {e.record_id: e for e in sorted(
        (e for e in store.events(project, screening_id) if e.kind == "resolve"),
        key=lambda e: (e.at, e.id))}


def differ(labels: list[str]) -> bool:
    """Whether these reviewers' labels for one record conflict (module docstring)."""
    return len(labels) > 1 and (len(set(labels)) > 1 or "maybe" in labels)


@dataclass(frozen=True)
class Conflict:
    """A record whose reviewers disagree: their current decisions, and its resolution."""

    record_id: int
    decisions: dict[str, store.Event]
    resolution: store.Event | None


def conflicts(project: Project, screening_id: int, *,
              pair: tuple[str, str] | None = None) -> list[Conflict]:
    """Records (in screening order) whose reviewers' current decisions conflict, resolved
    or not; ``pair`` limits to two reviewers."""
    decided = by_reviewer(project, screening_id)
    if pair is not None:
        decided = {name: decided.get(name, {}) for name in pair}
    settled = resolutions(project, screening_id)
    found = []
    for record_id in store.items(project, screening_id):
        decisions = {name: d[record_id] for name, d in sorted(decided.items())
                     if record_id in d}
        if differ([e.label for e in decisions.values()]):
            found.append(Conflict(record_id, decisions, settled.get(record_id)))
    return found


def seen_by_one(project: Project, screening_id: int) -> list[int]:
    """Records (in screening order) exactly one reviewer has decided: what the second
    reviewer still has to screen, for a screener limited to them."""
    counts: dict[int, int] = defaultdict(int)
    for decisions in by_reviewer(project, screening_id).values():
        for record_id in decisions:
            counts[record_id] += 1
    return [r for r in store.items(project, screening_id) if counts.get(r) == 1]


def final_decisions(project: Project, screening_id: int) -> dict[int, str]:
    """record id → final label: the resolution where one exists, else the label every
    reviewer who decided it gave (no entry while a conflict is unresolved)."""
    labels: dict[int, list[str]] = defaultdict(list)
    for decisions in by_reviewer(project, screening_id).values():
        for record_id, event in decisions.items():
            labels[record_id].append(event.label)
    final = {record: given[0] for record, given in labels.items() if not differ(given)}
    final.update({record: e.label for record, e in resolutions(project, screening_id).items()})
    return final


# -- agreement ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PairAgreement:
    """Agreement of reviewers ``a`` and ``b`` over the records both decided (SPEC §6):
    κ (``weighted``: the grades' linear-weighted κ, None for include/exclude/maybe)."""

    a: str
    b: str
    kappa: Kappa
    weighted: Kappa | None


@dataclass(frozen=True)
class Agreement:
    """Every reviewer pair's agreement and the conflicts resolved / still open."""

    pairs: list[PairAgreement]
    resolved: int
    unresolved: int


def agreement(project: Project, screening: store.Screening) -> Agreement:
    """κ per reviewer pair over the records both decided (maybe its own category)."""
    decided = by_reviewer(project, screening.id)
    pairs = []
    for a, b in itertools.combinations(sorted(decided), 2):
        both = [r for r in decided[a] if r in decided[b]]
        la = [decided[a][r].label for r in both]
        lb = [decided[b][r].label for r in both]
        labels = screening.labels
        pairs.append(PairAgreement(
            a, b, kappa_agreement(la, lb, labels=labels),
            kappa_agreement(la, lb, labels=labels, weights="linear")
            if screening.scheme == GRADED else None))
    open_conflicts = conflicts(project, screening.id)
    resolved = sum(c.resolution is not None for c in open_conflicts)
    return Agreement(pairs, resolved, len(open_conflicts) - resolved)
