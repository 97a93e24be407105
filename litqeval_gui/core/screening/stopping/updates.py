"""A screening that grows with search updates (issue 28 §4).

A search re-run (a living review, a second database) is imported as a list of the
screening's topic; :func:`add_update` then adds its works to a running title/abstract
screening. Works are matched through the linkage (a record's ``work_id``): a work the
screening already holds is not queued again — its decision, if it has one, stands
(``already_screened``), and an undecided one stays where it is (``already_queued``) —
and the list's other works (passing the screening's record filter) become the items of
a new round (:mod:`~litqeval_gui.core.screening.stopping.phases`), whose stopping evidence the panel reads apart from the
earlier rounds'. The list joins the screening's lists (so PRISMA counts its records as
identified). The new items are ranked by the current model once the screening is ranked
again (the CLI does it at once, the app in the background); until then the queue serves
them after the ranked ones of their round, in list order.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.log.store import DECISIONS, Screening

TITLE_ABSTRACT = "title_abstract"


@dataclass(frozen=True)
class UpdateReport:
    """What a search update did to a screening: of the list's ``works`` (after the
    screening's record filter), ``added`` new ones as round ``round`` (None: nothing new,
    no round), ``already_screened`` decided before and ``already_queued`` held undecided."""

    screening: str
    list_name: str
    works: int
    added: int
    already_screened: int
    already_queued: int
    round: int | None

    def text(self) -> str:
        """One line for the import summary and the CLI."""
        added = (f"{self.added:,} new added as round {self.round}" if self.round
                 else "nothing new added")
        return (f"{self.list_name} → screening {self.screening!r}: {self.works:,} works, "
                f"{added}; {self.already_screened:,} already screened (decisions kept), "
                f"{self.already_queued:,} already in its queue")

    def as_dict(self) -> dict:
        return asdict(self)


def updatable(project: Project, topic: str) -> list[Screening]:
    """The topic's screenings a search update can grow: title/abstract screenings that
    are not a pool's (a pool grows its own)."""
    pooled = {row[0] for row in project.db.execute("SELECT screening_id FROM pools")}
    return [s for s in store.screenings(project, topic)
            if s.phase == TITLE_ABSTRACT and s.id not in pooled]


def preview_update(project: Project, screening: Screening, import_id: int) -> UpdateReport:
    """What :func:`add_update` would do now (nothing is written)."""
    return _count(project, screening, import_id)[0]


def add_update(project: Project, screening: Screening, import_id: int,
               reviewer: str) -> UpdateReport:
    """Add the works of list ``import_id`` to ``screening`` (module docstring), one write;
    a bad request (another topic's list, a list the screening holds, a pool's or a
    full-text screening) changes nothing."""
    if not reviewer.strip():
        raise LitqError("adding a search update needs the reviewer's name")
    return project.write(add_update_op(screening, import_id, reviewer)).value


def add_update_op(screening: Screening, import_id: int, reviewer: str) -> Op:
    """The write of :func:`add_update`; its value is the :class:`UpdateReport`."""
    def op(p: Project) -> Done[UpdateReport]:
        report, new = _count(p, screening, import_id)
        if new:
            store.append_items(p, screening.id, new, report.round)
            p.db.execute("INSERT INTO screening_rounds (screening_id, round, import_id, at, "
                         "reviewer, added, already_screened, already_queued) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [screening.id, report.round, import_id, now(), reviewer,
                          report.added, report.already_screened, report.already_queued])
        stored = store.get_screening(p, screening.id)
        source = {"lists": [*stored.lists, import_id], "filter": asdict(stored.record_filter)}
        p.db.execute("UPDATE screenings SET source = ? WHERE id = ?",
                     [json.dumps(source), screening.id])
        return Done(DECISIONS, report)
    return op


def _count(project: Project, screening: Screening,
           import_id: int) -> tuple[UpdateReport, list[int]]:
    """The report and the records (one per new work, list order) of adding the list."""
    db = project.db
    stored = store.get_screening(project, screening.id)
    row = db.execute("SELECT name, topic_id FROM live_imports WHERE id = ?",
                     [import_id]).fetchone()
    if row is None:
        raise LitqError(f"no finished import with id {import_id}")
    name, topic_id = row
    if topic_id != stored.topic_id:
        raise LitqError(f"list {name!r} is not of the topic of screening {stored.name!r}")
    if stored.phase != TITLE_ABSTRACT:
        raise LitqError(f"screening {stored.name!r} is a {stored.phase.replace('_', ' ')} "
                        "screening: a search update is added to a title/abstract screening")
    if db.execute("SELECT 1 FROM pools WHERE screening_id = ?", [stored.id]).fetchone():
        raise LitqError(f"screening {stored.name!r} is a pool's: it grows with its pool")
    if import_id in stored.lists:
        raise LitqError(f"list {name!r} is already part of screening {stored.name!r}")
    held: dict[int, bool] = {}  # work → decided (by anyone)
    for work_id, decided in db.execute(
            "SELECT r.work_id, c.record_id IS NOT NULL FROM screening_items i "
            "JOIN records r ON r.id = i.record_id LEFT JOIN screening_current c "
            "ON c.screening_id = i.screening_id AND c.record_id = i.record_id "
            "WHERE i.screening_id = ?", [stored.id]):
        held[work_id] = held.get(work_id, False) or bool(decided)
    representatives = store.representatives(project, [import_id], stored.record_filter)
    works = dict(db.execute("SELECT id, work_id FROM live_records WHERE import_id = ?",
                            [import_id]).fetchall())
    new = [r for r in representatives if works[r] not in held]
    screened = sum(held.get(works[r], False) for r in representatives)
    next_round = db.execute("SELECT COALESCE(MAX(round), 1) + 1 FROM screening_items "
                            "WHERE screening_id = ?", [stored.id]).fetchone()[0]
    report = UpdateReport(stored.name, name, len(representatives), len(new), screened,
                          len(representatives) - len(new) - screened,
                          next_round if new else None)
    return report, new


@dataclass(frozen=True)
class RoundCount:
    """One round of a screening: the list that brought it (None for round 1, the
    screening's own lists), its items, those decided and those decided relevant."""

    round: int
    list_name: str | None
    items: int
    screened: int
    relevant: int


def round_counts(project: Project, screening: Screening,
                 reviewer: str | None = None) -> list[RoundCount]:
    """Each round's counts, oldest first (what PRISMA's update template counts per
    search; ``reviewer``'s own decisions in a blind screening)."""
    labels = {e.record_id: e.label
              for e in store.current_decisions(project, screening.id, reviewer)}
    names = dict(project.db.execute(
        "SELECT r.round, i.name FROM screening_rounds r LEFT JOIN imports i "
        "ON i.id = r.import_id WHERE r.screening_id = ?", [screening.id]).fetchall())
    per_round: dict[int, list[int]] = {}
    for record_id, number in project.db.execute(
            "SELECT record_id, round FROM screening_items WHERE screening_id = ? "
            "ORDER BY round, position", [screening.id]):
        per_round.setdefault(number, []).append(record_id)
    return [RoundCount(number, names.get(number), len(records),
                       sum(r in labels for r in records),
                       sum(is_relevant(screening.scheme, labels[r]) for r in records
                           if r in labels))
            for number, records in per_round.items()]
