"""Screenings and their decision event log (tables of migration ``_screenings``).

A screening covers a topic's chosen lists (one, or their union), optionally narrowed by
a :class:`~litqeval_gui.core.records.queries.RecordFilter`: one item per de-duplicated work (its
first record in list order then rank; ``position`` = that order), so a work is screened
once whatever list it came from.

Decisions are events, each committed by its own write op the moment it is made:
``decide`` (a new or changed label), ``undo`` (takes back the latest effective decision
of the screening) and ``redo`` (puts back the latest undone one, until the next
decision). A decide event is *effective* while it has as many redo as undo events
targeting it; a record's current decision is its latest effective event (the views
``screening_effective`` and ``screening_current``). Undo and redo form one stack per
screening: the effective events, in id order, are exactly the decisions not taken back
(whoever made them, merged colleagues' included). Team screening (merged colleagues' events, resolutions, blind
screenings) is read through :mod:`~litqeval_gui.core.screening.reviewers.team` and the ``reviewer`` of the readers here.

Reviewer names and exclusion reasons are plain one-line text
(:func:`~litqeval_gui.core.records.lists.plain_name`, as list names are): every op here
that stores one makes it so (:func:`plain_text`), and refuses one that is then empty.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

from litqeval_gui.core.errors import LitqError, find_named
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import DamagedDataError, read_json, read_strings
from litqeval_gui.core.projectfile.writes import Done, Op, chunks
from litqeval_gui.core.records import collection
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.records.queries import RecordFilter, find_list
from litqeval_gui.core.screening.log.labels import IEM, PHASES, SCHEMES, check_decision
from litqeval_gui.core.screening.log.plain import plain_reasons, plain_text

DECISIONS = Changes(decisions=True)


@dataclass(frozen=True)
class Screening:
    """One screening of a topic; ``lists`` are import ids, ``size`` the number of items."""

    id: int
    topic_id: int
    name: str
    phase: str
    scheme: str
    lists: tuple[int, ...]
    record_filter: RecordFilter
    reasons: tuple[str, ...]
    created: str
    size: int
    uuid: str = ""  # stable identity, kept by copies of the project file
    blind: bool = False  # created blind and not unblinded since

    @property
    def labels(self) -> tuple[str, ...]:
        return SCHEMES[self.scheme]


@dataclass(frozen=True)
class Event:
    """One row of the event log (``label`` … ``tags`` are empty for undo and redo)."""

    id: int
    screening_id: int
    record_id: int
    kind: str  # decide | undo | redo
    target: int | None
    label: str
    reason: str
    note: str
    tags: tuple[str, ...]
    reviewer: str
    at: str
    phase: str
    ordering: str
    position: int | None
    model: str


@dataclass(frozen=True)
class Context:
    """Who decided and where the record stood: the ordering's name, the record's 1-based
    position in it, and the model that ranked it ("" when none)."""

    reviewer: str
    ordering: str = ""
    position: int | None = None
    model: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)


_EVENT_COLUMNS = ("id, screening_id, record_id, kind, target, COALESCE(label, ''), "
                  "COALESCE(reason, ''), COALESCE(note, ''), COALESCE(tags, '[]'), reviewer, "
                  "at, phase, COALESCE(ordering, ''), position, COALESCE(model, '')")


def _event(row: Sequence) -> Event:
    values = list(row)
    values[8] = tuple(read_strings(values[8], f"the stored decision {values[0]}", "tags"))
    return Event(*values)


def _reviewer(context: Context, needed: str = "every decision needs the reviewer's name"
              ) -> Context:
    return dataclasses.replace(context, reviewer=plain_text(context.reviewer, needed))


def _stamp() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# -- screenings --------------------------------------------------------------------------

def create_screening(project: Project, topic: str, name: str, lists: Sequence[str], *,
                     phase: str = "title_abstract", scheme: str = IEM,
                     record_filter: RecordFilter | None = None,
                     reasons: Sequence[str] = (),
                     records: Sequence[int] | None = None, blind: bool = False,
                     parent: int | None = None) -> Screening:
    """Create screening ``name`` of ``topic`` over the named lists (a write); ``blind``:
    each reviewer sees only their own decisions until it is unblinded (:mod:`~litqeval_gui.core.screening.reviewers.team`);
    ``parent``: the screening it continues (a full text's title/abstract screening,
    :mod:`.fulltext`).

    ``records``: exactly these items, in this order, instead of every work of the lists
    (a pool starts its screening empty and grows it with :func:`append_items`).
    """
    if not name.strip():
        raise LitqError("a screening needs a name")
    if phase not in PHASES:
        raise LitqError(f"unknown phase {phase!r}; use one of {', '.join(PHASES)}")
    if scheme not in SCHEMES:
        raise LitqError(f"unknown label scheme {scheme!r}; use one of {', '.join(SCHEMES)}")
    if not lists:
        raise LitqError("a screening needs at least one list")
    reasons = plain_reasons(reasons)
    topic_id = project.topic_id(topic)
    import_ids = [find_list(project, topic, list_name).id for list_name in lists]
    chosen = record_filter or RecordFilter()
    source = json.dumps({"lists": import_ids, "filter": asdict(chosen)})
    chosen_ids = (representatives(project, import_ids, chosen) if records is None
                  else list(dict.fromkeys(records)))  # read before the write
    if records is None and not chosen_ids and chosen != RecordFilter():
        raise LitqError("no record of the chosen lists passes the filter")

    def op(p: Project) -> Changes:
        db = p.db
        if db.execute("SELECT 1 FROM screenings WHERE topic_id = ? AND name = ?",
                      [topic_id, name]).fetchone():
            raise LitqError(f"topic {topic!r} already has a screening named {name!r}")
        screening_id = db.execute(
            "INSERT INTO screenings (topic_id, name, phase, scheme, source, reasons, created, "
            "blind, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [topic_id, name, phase, scheme, source, json.dumps(reasons), now(),
             int(blind), parent]).lastrowid
        rows = [(screening_id, record, position) for position, record in enumerate(chosen_ids, 1)]
        for chunk in chunks(rows, 10_000):
            db.conn.executemany("INSERT INTO screening_items (screening_id, record_id, position) "
                                "VALUES (?, ?, ?)", chunk)
        return DECISIONS

    project.write(op)
    return find_screening(project, topic, name)


def append_items(project: Project, screening_id: int, record_ids: Iterable[int],
                 round_: int = 1) -> int:
    """Append the records not yet in the screening after its last item, in order, as
    items of round ``round_`` (:mod:`~litqeval_gui.core.screening.stopping.phases`); runs inside the caller's write op (so it
    commits with what the caller changes). Returns how many were added."""
    db = project.db
    present = {row[0] for row in db.execute(
        "SELECT record_id FROM screening_items WHERE screening_id = ?", [screening_id])}
    last = db.execute("SELECT COALESCE(MAX(position), 0) FROM screening_items "
                      "WHERE screening_id = ?", [screening_id]).fetchone()[0]
    new = [r for r in dict.fromkeys(record_ids) if r not in present]
    db.conn.executemany("INSERT INTO screening_items (screening_id, record_id, position, "
                        "round) VALUES (?, ?, ?, ?)",
                        [(screening_id, r, last + i, round_) for i, r in enumerate(new, 1)])
    return len(new)


def representatives(project: Project, import_ids: Sequence[int],
                     record_filter: RecordFilter) -> list[int]:
    """The first record of each work over the lists in order (list, then rank)."""
    where, params = record_filter.sql()
    seen: set[int] = set()
    chosen: list[int] = []
    for import_id in import_ids:
        for record_id, work_id in project.db.execute(
                f"SELECT r.id, r.work_id FROM live_records r WHERE r.import_id = ?{where} "
                "ORDER BY r.rank, r.id", [import_id, *params]):
            if work_id not in seen:
                seen.add(work_id)
                chosen.append(record_id)
    return chosen


_SCREENING_SQL = ("SELECT s.id, s.topic_id, s.name, s.phase, s.scheme, s.source, s.reasons, "
                  "s.created, (SELECT COUNT(*) FROM screening_items i "
                  "WHERE i.screening_id = s.id), s.uuid, s.blind AND NOT EXISTS "
                  "(SELECT 1 FROM screening_unblinds u WHERE u.screening_id = s.id) "
                  "FROM screenings s")


def _screening(row: Sequence) -> Screening:
    """The screening of a row of :data:`_SCREENING_SQL`, its stored JSON checked."""
    what = f"the stored screening {row[2]!r}"
    source = read_json(row[5], what, dict, part="source")
    try:
        lists = tuple(source["lists"])
        record_filter = RecordFilter(**source["filter"])
        if not isinstance(record_filter.text, str) or not all(
                type(value) is int for value in lists) or not all(
                value is None or type(value) is int
                for value in (record_filter.year_min, record_filter.year_max)):
            raise TypeError
    except (KeyError, TypeError):
        raise DamagedDataError(what, "a field is missing or of the wrong type",
                               "source") from None
    return Screening(id=row[0], topic_id=row[1], name=row[2], phase=row[3], scheme=row[4],
                     lists=lists, record_filter=record_filter,
                     reasons=tuple(read_strings(row[6], what, "reasons")),
                     created=row[7], size=row[8], uuid=row[9], blind=bool(row[10]))


def screenings(project: Project, topic: str) -> list[Screening]:
    """The screenings of ``topic``, oldest first."""
    rows = project.db.execute(f"{_SCREENING_SQL} WHERE s.topic_id = ? ORDER BY s.id",
                              [project.topic_id(topic)])
    return [_screening(row) for row in rows]


def find_screening(project: Project, topic: str, name: str) -> Screening:
    """Screening ``name`` of ``topic``; a clear error names those that exist."""
    return find_named(screenings(project, topic), name, topic, "screening", "screenings")


def get_screening(project: Project, screening_id: int) -> Screening:
    row = project.db.execute(f"{_SCREENING_SQL} WHERE s.id = ?", [screening_id]).fetchone()
    if row is None:
        raise LitqError(f"no screening with id {screening_id}")
    return _screening(row)


def items(project: Project, screening_id: int) -> list[int]:
    """Record ids of the screening's items in list order (``position``)."""
    return [row[0] for row in project.db.execute(
        "SELECT record_id FROM screening_items WHERE screening_id = ? ORDER BY position",
        [screening_id])]


def set_reasons_op(screening_id: int, reasons: Iterable[str]) -> Op:
    """Replace the screening's list of exclusion reasons (:func:`plain_reasons`: one
    emptied by its control characters refused)."""
    text = json.dumps(plain_reasons(reasons))
    return lambda p: p.db.execute(
        "UPDATE screenings SET reasons = ? WHERE id = ?", [text, screening_id]) and DECISIONS


# -- the event log -----------------------------------------------------------------------

def decide_op(screening: Screening, record_id: int, label: str, context: Context, *,
              reason: str = "", note: str = "") -> Op:
    """Record ``label`` for ``record_id`` (new or changed) as one event; the op's value is
    the stored :class:`Event`; a label of the phase, a full-text exclusion with one of
    the screening's reasons (:func:`~litqeval_gui.core.screening.log.labels.check_decision`).
    The reviewer's name and the reason are stored as plain text (module docstring)."""
    reason = plain_name(reason)
    check_decision(screening.scheme, screening.phase, screening.reasons, label, reason)
    context = _reviewer(context)

    def op(p: Project) -> Done[Event]:
        if p.db.execute("SELECT 1 FROM screening_items WHERE screening_id = ? AND record_id = ?",
                        [screening.id, record_id]).fetchone() is None:
            raise LitqError(f"record {record_id} is not in screening {screening.name!r}")
        return Done(DECISIONS, event(p, _insert(p, screening, record_id, "decide", None,
                                                context, label=label, reason=reason,
                                                note=note)))
    return op


def undo_op(screening: Screening, context: Context) -> Op:
    """Take back the reviewer's latest effective decision (an undo event); the op's value is that
    event, or None when there is nothing to undo."""
    return _take_op(screening, context, "undo")


def redo_op(screening: Screening, context: Context) -> Op:
    """Put back the latest undone decision (a redo event); the op's value is that event,
    or None when nothing can be redone."""
    return _take_op(screening, context, "redo")


def _take_op(screening: Screening, context: Context, kind: str) -> Op:
    context = _reviewer(context)

    def op(p: Project) -> Done[Event | None]:
        target = (_undo_target if kind == "undo" else _redo_target)(p, screening.id,
                                                                      context.reviewer)
        if target is None:
            return Done(Changes(), None)
        record_id = p.db.execute("SELECT record_id FROM screening_events WHERE id = ?",
                                 [target]).fetchone()[0]
        return Done(DECISIONS, event(p, _insert(p, screening, record_id, kind, target,
                                                context)))
    return op


def resolve_op(screening: Screening, record_id: int, label: str, resolver: str, *,
               reason: str = "", note: str = "") -> Op:
    """Settle ``record_id``'s final decision as ``label`` (a ``resolve`` event by
    ``resolver``, a named third reviewer or "consensus"); the value is the event."""
    reason = plain_name(reason)
    check_decision(screening.scheme, screening.phase, screening.reasons, label, reason)
    context = _reviewer(Context(resolver), "a resolution needs the resolver's name "
                                           "(or 'consensus')")

    def op(p: Project) -> Done[Event]:
        if p.db.execute("SELECT 1 FROM screening_items WHERE screening_id = ? AND record_id = ?",
                        [screening.id, record_id]).fetchone() is None:
            raise LitqError(f"record {record_id} is not in screening {screening.name!r}")
        event_id = _insert(p, screening, record_id, "resolve", None, context, label=label,
                           reason=reason, note=note)
        return Done(DECISIONS, event(p, event_id))
    return op


def unblind_op(screening: Screening, reviewer: str) -> Op:
    """Unblind a blind screening, recorded as who did it and when."""
    reviewer = plain_text(reviewer, "unblinding needs the reviewer's name")

    def op(p: Project) -> Done[None]:
        p.db.execute("INSERT INTO screening_unblinds (screening_id, reviewer, at) "
                     "VALUES (?, ?, ?)", [screening.id, reviewer, _stamp()])
        return Done(DECISIONS, None)
    return op


def _undo_target(project: Project, screening_id: int, reviewer: str) -> int | None:
    """The reviewer's latest effective decision: a reviewer takes back their own, never a
    colleague's merged one."""
    return project.db.execute("SELECT MAX(id) FROM screening_effective WHERE screening_id = ? "
                              "AND reviewer = ?", [screening_id, reviewer]).fetchone()[0]


def can_redo(project: Project, screening_id: int, reviewer: str) -> bool:
    """Whether the reviewer has an undone decision to put back."""
    return _redo_target(project, screening_id, reviewer) is not None


def _redo_target(project: Project, screening_id: int, reviewer: str) -> int | None:
    """Top of the reviewer's redo stack: their undos since their last decide, minus their
    redos since."""
    stack: list[int] = []
    for kind, target in project.db.execute(
            "SELECT kind, target FROM screening_events WHERE screening_id = ? AND reviewer = ? "
            "AND kind IN ('undo', 'redo') AND id > "
            "COALESCE((SELECT MAX(id) FROM screening_events WHERE screening_id = ? "
            "AND reviewer = ? AND kind = 'decide'), 0) ORDER BY id",
            [screening_id, reviewer, screening_id, reviewer]):
        if kind == "undo":
            stack.append(target)
        elif stack:
            stack.pop()
    return stack[-1] if stack else None


def _insert(project: Project, screening: Screening, record_id: int, kind: str,
            target: int | None, context: Context, *, label: str | None = None,
            reason: str = "", note: str = "") -> int:
    return int(project.db.execute(
        "INSERT INTO screening_events (screening_id, record_id, kind, target, label, reason, "
        "note, tags, reviewer, at, phase, ordering, position, model) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [screening.id, record_id, kind, target, label, reason or None, note or None,
         json.dumps(list(context.tags)) if kind == "decide" and context.tags else None,
         context.reviewer, _stamp(), screening.phase, context.ordering or None,
         context.position, context.model or None]).lastrowid)


def event(project: Project, event_id: int) -> Event:
    row = project.db.execute(f"SELECT {_EVENT_COLUMNS} FROM screening_events WHERE id = ?",
                             [event_id]).fetchone()
    if row is None:
        raise LitqError(f"no screening event with id {event_id}")
    return _event(row)


def events(project: Project, screening_id: int, kind: str | None = None) -> list[Event]:
    """The whole log of a screening (only its events of ``kind`` when given), oldest first."""
    where, params = (" AND kind = ?", [kind]) if kind is not None else ("", [])
    return [_event(row) for row in project.db.execute(
        f"SELECT {_EVENT_COLUMNS} FROM screening_events WHERE screening_id = ?{where} "
        "ORDER BY id", [screening_id, *params])]


def record_history(project: Project, screening_id: int, record_id: int) -> list[Event]:
    """The audit view: every event about one record, oldest first."""
    return [_event(row) for row in project.db.execute(
        f"SELECT {_EVENT_COLUMNS} FROM screening_events WHERE screening_id = ? "
        "AND record_id = ? ORDER BY id", [screening_id, record_id])]


def current_decisions(project: Project, screening_id: int,
                      reviewer: str | None = None) -> list[Event]:
    """Each decided record's current decision, in screening order: by when the record was
    first decided among its effective events (a changed label keeps its place).

    ``reviewer``: who reads. In a blind screening they see only their own decisions (their
    latest effective one per record, by time stamp) until it is unblinded."""
    if reviewer is not None and is_blind(project, screening_id):
        return reviewer_decisions(project, screening_id, reviewer)
    return [_event(row) for row in project.db.execute(
        f"SELECT {_EVENT_COLUMNS} FROM (SELECT c.*, f.first FROM screening_current c "
        "JOIN (SELECT record_id, MIN(id) AS first FROM screening_effective "
        "WHERE screening_id = ? GROUP BY record_id) f ON f.record_id = c.record_id "
        "WHERE c.screening_id = ?) ORDER BY first", [screening_id, screening_id])]


def is_blind(project: Project, screening_id: int) -> bool:
    """Whether the screening is blind now (created blind, not unblinded since)."""
    row = project.db.execute(
        "SELECT blind AND NOT EXISTS (SELECT 1 FROM screening_unblinds u "
        "WHERE u.screening_id = s.id) FROM screenings s WHERE s.id = ?",
        [screening_id]).fetchone()
    return bool(row and row[0])


def effective_events(project: Project, screening_id: int, reviewer: str | None = None,
                     record_id: int | None = None) -> list[Event]:
    """The effective decide events (of ``reviewer``, or everyone's; of ``record_id``, or
    every record's) by time stamp, then id: merged events get ids in arrival order, their
    stamps keep each reviewer's order."""
    where, params = "", []
    for column, value in (("reviewer", reviewer), ("record_id", record_id)):
        if value is not None:
            where, params = f"{where}AND {column} = ? ", [*params, value]
    return [_event(row) for row in project.db.execute(
        f"SELECT {_EVENT_COLUMNS} FROM screening_effective WHERE screening_id = ? {where}"
        "ORDER BY at, id", [screening_id, *params])]


def reviewer_decisions(project: Project, screening_id: int, reviewer: str) -> list[Event]:
    """``reviewer``'s own current decisions (their latest effective decide per record),
    in the order they first decided each record."""
    first: dict[int, str] = {}
    latest: dict[int, Event] = {}
    for event in effective_events(project, screening_id, reviewer):
        first.setdefault(event.record_id, event.at)
        latest[event.record_id] = event
    return [latest[record] for record in sorted(latest, key=lambda r: (first[r], latest[r].id))]


def current_label(project: Project, screening_id: int, record_id: int,
                  reviewer: str | None = None) -> str | None:
    """The record's current label in the screening, or None when it is undecided
    (``reviewer``: as for :func:`current_decisions`)."""
    if reviewer is not None and is_blind(project, screening_id):
        own = [e for e in effective_events(project, screening_id, reviewer)
               if e.record_id == record_id]
        return own[-1].label if own else None
    row = project.db.execute("SELECT label FROM screening_current WHERE screening_id = ? "
                             "AND record_id = ?", [screening_id, record_id]).fetchone()
    return row[0] if row else None


def record_title(project: Project, record_id: int) -> str:
    """The record's title (its work's, when it has no text), or ``(no title)``."""
    record_id = collection.text_sources(project.db, [record_id]).get(record_id, record_id)
    row = project.db.execute("SELECT title FROM records WHERE id = ?", [record_id]).fetchone()
    return (row[0] if row else "") or "(no title)"


def tags_used(project: Project, screening_id: int, reviewer: str | None = None) -> list[str]:
    """Every tag any decision of the screening has carried, sorted case-insensitively
    (in a blind screening only ``reviewer``'s, when given)."""
    only = reviewer is not None and is_blind(project, screening_id)
    found: set[str] = set()
    for (text,) in project.db.execute(
            "SELECT tags FROM screening_events WHERE screening_id = ? AND tags IS NOT NULL"
            + (" AND reviewer = ?" if only else ""), [screening_id, *([reviewer] if only else [])]):
        found.update(read_strings(text, f"a decision of screening {screening_id}", "tags"))
    return sorted(found, key=str.casefold)


def overview(project: Project, topic: str) -> list[dict]:
    """``topic``'s screenings for ``litqeval info``: name, phase, scheme, items, per
    reviewer the records they have decided now, and where it came from (another
    tool's review; empty when made here)."""
    found = []
    for screening in screenings(project, topic):
        reviewers = dict(project.db.execute(
            "SELECT reviewer, COUNT(DISTINCT record_id) FROM screening_effective "
            "WHERE screening_id = ? GROUP BY reviewer ORDER BY reviewer", [screening.id]))
        origin = project.db.execute("SELECT value FROM parameters WHERE key = ?",
                                    [f"screening.{screening.uuid}.origin"]).fetchone()
        found.append({"name": screening.name, "phase": screening.phase,
                      "scheme": screening.scheme, "items": screening.size,
                      "reviewers": reviewers,
                      "origin": read_json(origin[0], "a screening's origin", str)
                      if origin else ""})
    return found
