"""Rounds and the random-sampling phase of a screening (issue 28 §3, §4; tables of
migration ``_screening_rounds``).

A screening's items form rounds: round 1 holds the items it was created with, each
search update added to it (:mod:`~litqeval_gui.core.screening.stopping.updates`) is the next round. The stopping panel
evaluates the current (latest) round on its own: its items are N and its decisions, in
screening order, the history (:func:`round_history`).

Each round can switch from ranked to random screening once (:func:`start_random_op`):
the switch is stored as the screening's latest event id then (``after_event``) and a
seed. From then on the queue serves the round's items in the seeded permutation of
:func:`random_ordering` (decided ones skipped). The random sample of Callaghan &
Müller-Hansen's test is the longest prefix of that permutation — without the records
decided before the switch — whose records are all decided now, in permutation order: a
record decided out of turn (picked by hand) is only part of it once the permutation
reaches it, and until then counts with the records screened before the sample (it
leaves the urn). So the sample is the first n records of a uniform random order of the
urn whatever else was decided, and an undone record re-opens the sample at its place.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.log.store import DECISIONS, Screening
from litqeval_gui.core.screening.ranking.queue import Ordering, random_order

RANDOM_SAMPLE = "random sample"  # the random phase's ordering is named "random sample:SEED"


@dataclass(frozen=True)
class RandomPhase:
    """A round's switch to random screening: after event ``after_event`` of the
    screening, in the order ``seed`` fixes; ``at`` and ``reviewer`` say when and who."""

    after_event: int
    seed: int
    at: str
    reviewer: str


@dataclass(frozen=True)
class Round:
    """Round ``number`` (1: the items the screening was created with): its item record
    ids in list order and its random phase, if it switched."""

    number: int
    items: tuple[int, ...]
    random: RandomPhase | None = None


def current_round(project: Project, screening_id: int, number: int | None = None) -> Round:
    """The screening's latest round (round 1 for a screening never updated), or round
    ``number``."""
    db = project.db
    if number is None:
        number = db.execute("SELECT COALESCE(MAX(round), 1) FROM screening_items "
                            "WHERE screening_id = ?", [screening_id]).fetchone()[0]
    items = tuple(row[0] for row in db.execute(
        "SELECT record_id FROM screening_items WHERE screening_id = ? AND round = ? "
        "ORDER BY position", [screening_id, number]))
    row = db.execute("SELECT after_event, seed, at, reviewer FROM screening_random_phases "
                     "WHERE screening_id = ? AND round = ?", [screening_id, number]).fetchone()
    return Round(number, items, RandomPhase(*row) if row else None)


def random_ordering(round_: Round) -> Ordering:
    """The round's items in its random phase's seeded order (numpy's PCG64)."""
    if round_.random is None:
        raise LitqError(f"round {round_.number} has not switched to random sampling")
    seed = round_.random.seed
    return Ordering(f"{RANDOM_SAMPLE}:{seed}", random_order(round_.items, seed).records)


def new_seed() -> int:
    """A seed for a random phase nobody chose."""
    return secrets.randbelow(2**31)


def start_random_op(screening: Screening, reviewer: str, seed: int) -> Op:
    """Switch the screening's current round to random screening after every decision
    committed so far (one write); ``seed`` fixes the order. The op's value is the
    :class:`Round` with its phase. Refused when the round already switched or every item
    of it is decided."""
    if not reviewer.strip():
        raise LitqError("switching to random sampling needs the reviewer's name")
    if not 0 <= seed < 2**63:
        raise LitqError(f"a seed is a whole number from 0 to 2^63 − 1, not {seed}")

    def op(p: Project) -> Done[Round]:
        round_ = current_round(p, screening.id)
        if round_.random is not None:
            raise LitqError(f"round {round_.number} of screening {screening.name!r} already "
                            f"switched to random sampling ({round_.random.at[:16]})")
        decided = {e.record_id for e in store.current_decisions(p, screening.id)}
        if decided.issuperset(round_.items):
            raise LitqError(f"every record of round {round_.number} of screening "
                            f"{screening.name!r} is decided: nothing is left to sample")
        after = p.db.execute("SELECT COALESCE(MAX(id), 0) FROM screening_events "
                             "WHERE screening_id = ?", [screening.id]).fetchone()[0]
        phase = RandomPhase(after, seed, now(), reviewer)
        p.db.execute("INSERT INTO screening_random_phases (screening_id, round, after_event, "
                     "seed, at, reviewer) VALUES (?, ?, ?, ?, ?, ?)",
                     [screening.id, round_.number, after, seed, phase.at, reviewer])
        return Done(DECISIONS, Round(round_.number, round_.items, phase))
    return op


@dataclass(frozen=True)
class RoundHistory:
    """The current round's relevance history (1/0) for the stopping rules: ``labels``
    of ``n_total`` items; with a random phase, the records counted before the sample
    first (``random_from`` of them) and the sample after, in its drawn order."""

    round: Round
    labels: np.ndarray
    n_total: int
    random_from: int | None = None


def round_history(project: Project, screening: Screening,
                  reviewer: str | None = None, number: int | None = None) -> RoundHistory:
    """The :class:`RoundHistory` of the screening's current round now, or of round
    ``number`` (``reviewer``'s own decisions in a blind screening)."""
    round_ = current_round(project, screening.id, number)
    members = set(round_.items)
    decided = [e for e in store.current_decisions(project, screening.id, reviewer)
               if e.record_id in members]
    relevant = {e.record_id: int(is_relevant(screening.scheme, e.label)) for e in decided}
    if round_.random is None:
        return RoundHistory(round_, np.array(list(relevant.values()), dtype=np.int64),
                            len(round_.items))
    first = _first_decided(project, screening.id, reviewer)
    before = {e.record_id for e in decided if first[e.record_id] <= round_.random.after_event}
    sample = []
    for record_id in random_ordering(round_).records:
        if record_id in before:
            continue
        if record_id not in relevant:
            break
        sample.append(record_id)
    drawn = set(sample)
    counted_before = [r for r in relevant if r not in drawn]  # screening order
    labels = [relevant[r] for r in counted_before] + [relevant[r] for r in sample]
    return RoundHistory(round_, np.array(labels, dtype=np.int64), len(round_.items),
                        len(counted_before))


def _first_decided(project: Project, screening_id: int, reviewer: str | None) -> dict[int, int]:
    """Record id → the id of its first effective decision (``reviewer``'s own in a blind
    screening)."""
    only = reviewer is not None and store.is_blind(project, screening_id)
    return dict(project.db.execute(
        "SELECT record_id, MIN(id) FROM screening_effective WHERE screening_id = ?"
        + (" AND reviewer = ?" if only else "") + " GROUP BY record_id",
        [screening_id, *([reviewer] if only else [])]).fetchall())
