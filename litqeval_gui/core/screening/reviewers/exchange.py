"""Decisions files: one reviewer's screening events carried between copies of a project.

A decisions file is JSON lines: a header line ``{"format": "litqeval-decisions",
"version": 1, "project": …, "screening": {"uuid", "name", "topic", "scheme", "phase"},
"reviewer": …, "events": n, "unblinds": [{"reviewer", "at"}, …]}``, then one line per event of that reviewer (decide, undo,
redo, resolve) with its fields, the record's fingerprint ``{"doi", "pmid", "title",
"year"}`` (normalised identifiers and title) and, for undo/redo, the target's ``{"reviewer",
"at"}``. Never the records themselves: the fingerprint's ``"abstract"`` is a digest of the
normalised abstract (16 hex digits of its SHA-256), which tells apart records that share
a title and have no identifier.

:func:`merge_decisions` (a job) brings such a file, or every shared screening of another
``.litq`` copy, in. An event is identified by (reviewer, ``at``, kind), so merging is
idempotent and order-independent (a reviewer's current decision is their latest by
``at``, see :mod:`~litqeval_gui.core.screening.reviewers.team`); records are matched by DOI, then PMID, then a normalised
title (with the abstract's digest, with its year, then alone) unique in the screening, whatever their ids or import order; what matches nothing
is reported, not stored. Every event is checked, its names and reason made plain, as
:mod:`.decisions_file` says, and a reason must be on the screening's list. A decisions
file adds only its own reviewer's events (their decisions, undos and redos of them,
their resolutions): one naming anyone else is refused whole
(:func:`~.decisions_file.only_its_reviewer`). A copy adds only the events of the
reviewers the merge names — by default the copy's only reviewer; a copy of several
needs naming them (:class:`WhoseDecisions`) — and leaves out, counting them, everyone
else's events not here yet (:func:`_choose`). The screening's unblind events come
along (unblinding is the screening's state, not a reviewer's decision). An undo/redo
whose target has not arrived yet keeps the target's key (``target_key``) and is tied to
it when it does. All of a merge is one write: a failure or a kill midway changes
nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import LitqError, listing
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import read_json, read_strings
from litqeval_gui.core.projectfile.writes import Done
from litqeval_gui.core.records.exporting import check_target, write_whole
from litqeval_gui.core.records.model import normalise_doi, normalise_pmid, normalise_title
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import phase_labels
from litqeval_gui.core.screening.log.plain import plain_text
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.decisions_file import (
    FORMAT,
    VERSION,
    Entry,
    fault,
    header_screening,
    only_its_reviewer,
    plain_event,
    plain_unblinds,
    read_file,
    shown,
)

_SQLITE_MAGIC = b"SQLite format 3\x00"
EXAMPLES = 5


# -- export ------------------------------------------------------------------------------

def abstract_digest(abstract: str | None) -> str:
    """16 hex digits of the SHA-256 of the normalised abstract; "" without one."""
    text = normalise_title(abstract)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16] if text else ""


def _fingerprints(project: Project, screening_id: int) -> dict[int, dict[str, Any]]:
    """record id → {"doi", "pmid", "title", "year", "abstract"} for the screening's items."""
    return {rid: {"doi": normalise_doi(doi), "pmid": normalise_pmid(pmid),
                  "title": title_norm or normalise_title(title), "year": year,
                  "abstract": abstract_digest(abstract)}
            for rid, doi, pmid, title_norm, title, year, abstract in project.db.execute(
                "SELECT r.id, r.doi, r.pmid, r.title_norm, r.title, r.year, r.abstract "
                "FROM screening_items i "
                "JOIN records r ON r.id = i.record_id WHERE i.screening_id = ?",
                [screening_id])}


def _event_lines(project: Project, screening: store.Screening,
                 reviewer: str | None) -> list[dict[str, Any]]:
    """The screening's events (of ``reviewer``, or all) as decisions-file entries."""
    prints = _fingerprints(project, screening.id)
    keys = {eid: {"reviewer": who, "at": at} for eid, who, at in project.db.execute(
        "SELECT id, reviewer, at FROM screening_events WHERE screening_id = ? "
        "AND kind = 'decide'", [screening.id])}
    sql = ("SELECT id, record_id, kind, target, target_key, COALESCE(label, ''), "
           "COALESCE(reason, ''), COALESCE(note, ''), COALESCE(tags, '[]'), reviewer, at, "
           "phase, COALESCE(ordering, ''), position, COALESCE(model, '') "
           "FROM screening_events WHERE screening_id = ?")
    params: list[Any] = [screening.id]
    if reviewer is not None:
        sql += " AND reviewer = ?"
        params.append(reviewer)
    lines = []
    for (event_id, record_id, kind, target, target_key, label, reason, note, tags, who, at,
         phase, ordering, position, model) in project.db.execute(sql + " ORDER BY at, id",
                                                                 params):
        what = f"the stored decision {event_id}"
        if target is not None:
            target_ref = keys.get(target)
        else:
            target_ref = read_json(target_key, what, dict, "target_key") if target_key else None
        lines.append({"kind": kind, "reviewer": who, "at": at, "label": label,
                      "reason": reason, "note": note, "tags": read_strings(tags, what, "tags"),
                      "phase": phase, "ordering": ordering, "position": position,
                      "model": model, "record": prints.get(record_id, {}),
                      "target": target_ref})
    return lines


def export_decisions(project: Project, screening: store.Screening, reviewer: str,
                     path: str | Path) -> int:
    """Write ``reviewer``'s events of ``screening`` to the decisions file ``path`` (whole or
    not at all); returns how many. Refuses a reviewer with no event in the screening, and
    a target that is the project, one of its files or any SQLite database."""
    lines = _event_lines(project, screening, reviewer)
    if not lines:
        known = sorted(team.by_reviewer(project, screening.id))
        raise LitqError(f"{reviewer!r} has no decision in screening {screening.name!r}"
                        + (f"; reviewers: {', '.join(known)}" if known else ""))
    header = {"format": FORMAT, "version": VERSION,
              "project": {"created": project.meta("created") or ""},
              "screening": {"uuid": screening.uuid, "name": screening.name,
                            "topic": project.topic_name(screening.topic_id),
                            "scheme": screening.scheme, "phase": screening.phase},
              "reviewer": reviewer, "events": len(lines),
              "unblinds": _unblinds(project, screening.id)}
    target = Path(path)
    check_target(target, project.path)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in (header, *lines))
    write_whole(target, lambda partial: partial.write_text(text, encoding="utf-8"),
                "the decisions file")
    return len(lines)


def _unblinds(project: Project, screening_id: int) -> list[dict[str, str]]:
    return [{"reviewer": who, "at": at} for who, at in project.db.execute(
        "SELECT reviewer, at FROM screening_unblinds WHERE screening_id = ? ORDER BY at",
        [screening_id])]


# -- reading what to merge ---------------------------------------------------------------

Source = tuple[store.Screening, list[Entry], list[tuple[str, str]]]  # ours, events, unblinds


@dataclass
class MergeReport:
    """What a merge did, over the screenings merged into."""

    screenings: list[str] = field(default_factory=list)
    added: int = 0
    present: int = 0
    unmatched: int = 0
    examples: list[str] = field(default_factory=list)  # titles of unmatched records
    conflicts_before: int = 0
    conflicts_after: int = 0
    new_conflicts: list[int] = field(default_factory=list)  # record ids, screening order
    skipped_screenings: list[str] = field(default_factory=list)
    unblinded: bool = False  # the source brought an unblind event
    added_by: dict[str, int] = field(default_factory=dict)  # reviewer -> events added
    not_taken: dict[str, int] = field(default_factory=dict)  # a copy's, reviewer -> events

    def as_dict(self) -> dict[str, Any]:
        return {"screenings": self.screenings, "added": self.added, "present": self.present,
                "unmatched": self.unmatched, "unmatched_examples": self.examples,
                "conflicts_before": self.conflicts_before,
                "conflicts_after": self.conflicts_after,
                "new_conflicts": self.new_conflicts,
                "skipped_screenings": self.skipped_screenings, "unblinded": self.unblinded,
                "added_by": dict(sorted(self.added_by.items())),
                "not_taken": dict(sorted(self.not_taken.items()))}


class WhoseDecisions(LitqError):
    """A copy of the project holds events of several reviewers and the merge was not told
    whose to take; ``reviewers``: reviewer → their events not here yet."""

    def __init__(self, path: Path, reviewers: dict[str, int]) -> None:
        self.reviewers = reviewers
        counts = listing([f"{shown(name)}: {n or 'none'} new" for name, n in reviewers.items()])
        super().__init__(f"{path.name} holds the decisions of {len(reviewers)} reviewers "
                         f"({counts}); say whose to take")
        self.cli_hint = "with --reviewer NAME (once per reviewer)"


def _by_uuid(project: Project, uuid: str) -> store.Screening | None:
    row = project.db.execute("SELECT id FROM screenings WHERE uuid = ?", [uuid]).fetchone()
    return store.get_screening(project, row[0]) if row else None


def _file_source(project: Project, path: Path, reviewers: set[str] | None) -> Source:
    """(our screening, the events, the unblind events) of a decisions file, refused
    whole unless every event is its reviewer's (and that reviewer is among
    ``reviewers``, when given)."""
    header, entries = read_file(path)
    screening = header_screening(path, header)
    ours = _by_uuid(project, screening["uuid"])
    if ours is None:
        raise LitqError(f"{path.name} holds decisions of screening "
                        f"{shown(screening.get('name'))} of topic {shown(screening.get('topic'))} "
                        "from another project; it merges only into a copy of that project")
    reviewer = only_its_reviewer(path, header, entries)
    if reviewers is not None and reviewer not in reviewers:
        raise LitqError(f"{path.name} holds only {shown(reviewer)}'s decisions; nothing was "
                        "merged")
    return ours, entries, plain_unblinds(path, header.get("unblinds") or [])


def _copy_sources(project: Project, path: Path, report: MergeReport) -> list[Source]:
    """(our screening, the events, the unblind events) of every screening a copy of the
    project shares with it, each event checked as a decisions file's are."""
    if path.resolve() == project.path.resolve():
        raise LitqError("a project cannot be merged into itself")
    found = []
    with Project.open(path, readonly=True) as other:
        for theirs in (s for row in other.db.execute("SELECT t.name FROM topics t")
                       for s in store.screenings(other, row[0])):
            ours = _by_uuid(project, theirs.uuid)
            if ours is None:
                report.skipped_screenings.append(theirs.name)
                continue
            entries = []
            for number, event in enumerate(_event_lines(other, theirs, None), 1):
                where = f"screening {shown(theirs.name)}, event {number}"
                wrong = fault(event)
                if wrong:
                    raise LitqError(f"{path.name}: {where} is damaged ({wrong})")
                entries.append((where, plain_event(f"{path.name}: {where}", event)))
            found.append((ours, entries, plain_unblinds(path, _unblinds(other, theirs.id))))
    if not found:
        raise LitqError(f"{path.name} shares no screening with this project (it is not a "
                        "copy of it)")
    return found


def _identity(event: dict[str, Any]) -> tuple[str, str, str]:
    return event["reviewer"], event["at"], event["kind"]


def _present(project: Project, screening_id: int) -> set[tuple[str, str, str]]:
    """The identities (reviewer, ``at``, kind) of the screening's events."""
    return set(project.db.execute(
        "SELECT reviewer, at, kind FROM screening_events WHERE screening_id = ?",
        [screening_id]))


def _choose(project: Project, path: Path, sources: list[Source],
            reviewers: set[str] | None, report: MergeReport) -> list[Source]:
    """A copy's events to merge: those of ``reviewers`` (their own decisions, their undos
    and redos of them, their resolutions) — by default of the copy's only reviewer — and
    those already here; every other is left out and counted in ``report.not_taken``. A
    copy of several reviewers and none named: :class:`WhoseDecisions`."""
    present = {ours.id: _present(project, ours.id) for ours, _, _ in sources}
    new: dict[str, int] = {}
    for ours, entries, _ in sources:
        for _, event in entries:
            fresh = _identity(event) not in present[ours.id]
            new[event["reviewer"]] = new.get(event["reviewer"], 0) + fresh
    if reviewers is None:
        if len(new) > 1:
            raise WhoseDecisions(path, dict(sorted(new.items())))
        reviewers = set(new)
    unknown = sorted(reviewers - set(new))
    if unknown:
        raise LitqError(f"{path.name} holds no event of {shown(unknown[0])}; its reviewers: "
                        f"{listing([shown(who) for who in sorted(new)]) or 'none'}")
    chosen = []
    for ours, entries, unblinds in sources:
        kept = []
        for where, event in entries:
            aimed = event["target"]["reviewer"] if event["target"] else event["reviewer"]
            if (event["reviewer"] in reviewers and aimed == event["reviewer"]) or \
                    _identity(event) in present[ours.id]:
                kept.append((where, event))
            else:
                report.not_taken[event["reviewer"]] = report.not_taken.get(
                    event["reviewer"], 0) + 1
        chosen.append((ours, kept, unblinds))
    return chosen


# -- merging -----------------------------------------------------------------------------

def _match_keys(doi: str, pmid: str, title: str, year: object,
                abstract: str = "") -> list[tuple[str, str]]:
    """A fingerprint's keys, most specific first: DOI, PMID, title with the abstract's
    digest (files written before it have none), title with year, title."""
    keys = [("doi", doi), ("pmid", pmid)]
    if title:
        keys += [("title_abstract", f"{title}|{abstract}" if abstract else ""),
                 ("title_year", f"{title}|{year or ''}"), ("title", title)]
    return [(kind, value) for kind, value in keys if value]


class _Matcher:
    """Finds a screening item by a record fingerprint: DOI, then PMID, then a normalised
    title (with the abstract's digest, with its year, then alone) that only one item of
    the screening has."""

    def __init__(self, prints: dict[int, dict[str, Any]]) -> None:
        self.by: dict[tuple[str, str], int | None] = {}
        for record_id, p in prints.items():
            for key in _match_keys(p["doi"], p["pmid"], p["title"], p["year"], p["abstract"]):
                self.by[key] = None if key in self.by else record_id  # ambiguous: None

    def find(self, fingerprint: dict[str, Any]) -> int | None:
        keys = _match_keys(normalise_doi(str(fingerprint.get("doi") or "")),
                           normalise_pmid(str(fingerprint.get("pmid") or "")),
                           normalise_title(str(fingerprint.get("title") or "")),
                           fingerprint.get("year"), str(fingerprint.get("abstract") or ""))
        return next((self.by[key] for key in keys if self.by.get(key) is not None), None)


def _key(reviewer: str, at: str) -> str:
    return json.dumps({"reviewer": reviewer, "at": at}, sort_keys=True)


def plan_events(project: Project, screening: store.Screening, entries: list[Entry],
                report: MergeReport, source: str,
                find: Callable[[dict[str, Any]], int | None] | None = None
                ) -> list[tuple[Any, ...]]:
    """The rows to insert (sorted by time stamp), counting present and unmatched events;
    a label the screening does not have, or a reason not on its list, refuses the merge
    (one line naming the first few). ``find``: the item an event's ``record`` names
    (default: by its fingerprint, :class:`_Matcher`)."""
    present = _present(project, screening.id)
    find = find or _Matcher(_fingerprints(project, screening.id)).find
    rows, seen = [], set()
    unlisted: dict[str, None] = {}  # reasons not on the screening's list, in order
    for event in sorted((e for _, e in entries), key=lambda e: (e["at"], e["reviewer"],
                                                                e["kind"])):
        identity = _identity(event)
        if identity in present or identity in seen:
            report.present += 1
            continue
        record_id = find(event["record"])
        if record_id is None:
            report.unmatched += 1
            title = str(event["record"].get("title") or event["record"].get("doi") or "?")
            if len(report.examples) < EXAMPLES and title not in report.examples:
                report.examples.append(title)
            continue
        label = str(event.get("label") or "")
        if event["kind"] in ("decide", "resolve"):
            if label not in phase_labels(screening.scheme, screening.phase):
                raise LitqError(f"label {shown(label)} of {shown(event['reviewer'])} is not "
                                f"a label of screening {screening.name!r}")
        target = event["target"]
        target_key = (_key(target["reviewer"], target["at"])
                      if event["kind"] in ("undo", "redo") and target is not None else None)
        if event["reason"] and event["reason"] not in screening.reasons:
            unlisted[event["reason"]] = None
        seen.add(identity)
        tags = event.get("tags") or []
        rows.append((screening.id, record_id, event["kind"], label or None,
                     event["reason"] or None, event.get("note") or None,
                     json.dumps(tags) if tags else None, event["reviewer"], event["at"],
                     event.get("phase") or screening.phase, event.get("ordering") or None,
                     event.get("position"), event.get("model") or None, target_key))
    if unlisted:
        raise _unlisted(source, screening, list(unlisted))
    return rows


def _unlisted(source: str, screening: store.Screening, reasons: list[str]) -> LitqError:
    """The refusal of reasons a screening does not list (the first three named)."""
    named = ", ".join(map(shown, reasons[:3])) + (f" and {len(reasons) - 3} more"
                                                  if len(reasons) > 3 else "")
    error = LitqError(f"{source} gives {len(reasons)} reason(s) that are not on the reason "
                      f"list of screening {screening.name!r} ({named}); add them to the list "
                      "first if they are right; nothing was merged")
    error.cli_hint = "(litqeval screen-reasons --add REASON)"
    return error


INSERT_EVENT = ("INSERT INTO screening_events (screening_id, record_id, kind, label, reason, note, "
           "tags, reviewer, at, phase, ordering, position, model, target_key) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _tie_targets(project: Project, screening_id: int) -> None:
    """Point every undo/redo still waiting for its target (``target_key``) at it, once
    the target's decide event is in the screening."""
    waiting = list(project.db.execute(
        "SELECT id, target_key FROM screening_events WHERE screening_id = ? "
        "AND target IS NULL AND target_key IS NOT NULL", [screening_id]))
    if not waiting:
        return
    decides = {_key(who, at): eid for eid, who, at in project.db.execute(
        "SELECT id, reviewer, at FROM screening_events WHERE screening_id = ? "
        "AND kind = 'decide'", [screening_id])}
    project.db.conn.executemany(
        "UPDATE screening_events SET target = ? WHERE id = ?",
        [(decides[key], eid) for eid, key in waiting if key in decides])


def merge_decisions(project: Project, source: str | Path, token: CancelToken = NEVER,
                    reviewers: Iterable[str] | None = None
                    ) -> Generator[Progress, None, MergeReport]:
    """Merge a decisions file or another copy's screenings into ``project`` (a job; the
    value is the :class:`MergeReport`); ``reviewers``: whose events to take
    (:func:`_choose`). Refuses, changing nothing, a file of another screening, a damaged
    file, an event not its reviewer's, a label the screening does not have or a reason
    not on its list."""
    path = Path(source)
    check_input(path)
    named = None if reviewers is None else {plain_text(
        r, "say whose decisions to take: a reviewer's name") for r in reviewers}
    report = MergeReport()
    yield Progress(0, 3, f"reading {path.name}")
    with open(path, "rb") as handle:
        is_project = handle.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    sources = (_choose(project, path, _copy_sources(project, path, report), named, report)
               if is_project else [_file_source(project, path, named)])
    token.raise_if_cancelled()
    yield Progress(1, 3, "matching records")
    plans = []
    for screening, entries, unblinds in sources:
        report.screenings.append(screening.name)
        before = {c.record_id for c in team.conflicts(project, screening.id)}
        report.conflicts_before += len(before)
        known = set(map(tuple, project.db.execute(
            "SELECT reviewer, at FROM screening_unblinds WHERE screening_id = ?",
            [screening.id])))
        new_unblinds = sorted(set(unblinds) - known)
        plans.append((screening, plan_events(project, screening, entries, report, path.name),
                      new_unblinds, before))
        token.raise_if_cancelled()
    yield Progress(2, 3, f"writing {sum(len(plan[1]) for plan in plans)} events")

    def op(p: Project) -> Done[None]:
        for screening, rows, new_unblinds, _ in plans:
            p.db.conn.executemany(INSERT_EVENT, rows)
            _tie_targets(p, screening.id)
            p.db.conn.executemany(
                "INSERT INTO screening_unblinds (screening_id, reviewer, at) VALUES (?, ?, ?)",
                [(screening.id, who, at) for who, at in new_unblinds])
        changed = any(rows or new for _, rows, new, _ in plans)
        return Done(store.DECISIONS if changed else Changes(), None)

    project.write(op)
    report.added = sum(len(rows) for _, rows, _, _ in plans)
    for _, rows, _, _ in plans:
        for row in rows:
            report.added_by[row[7]] = report.added_by.get(row[7], 0) + 1
    report.unblinded = any(new for _, _, new, _ in plans)
    for screening, _, _, before in plans:
        after = [c.record_id for c in team.conflicts(project, screening.id)]
        report.conflicts_after += len(after)
        report.new_conflicts += [r for r in after if r not in before]
    yield Progress(3, 3, "merged")
    return report
