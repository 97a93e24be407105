"""Bring a review made in another tool into a project: its records as lists of a topic,
its decisions as the decision events of one screening (docs/interop.md).

:func:`import_review` (a job) imports each records file through the normal import
(linked to the topic's works, so a decision lands on the work whatever list holds it),
or reuses the list a file already became; then it creates — or, the second time,
finds — the screening over those lists and adds the decisions in one write. A
decision's record is its file's entry: the entry's rank among the accepted records of
that file (an entry the importer rejected is reported unmatched, with its reason).
Decisions with a time stamp are identified by (reviewer, time, kind), as merged ones
are; one without (Rayyan, Covidence) is new only when it differs from the reviewer's
current decision on that work. So importing twice adds nothing. Full-text decisions
go to a full-text screening under the title/abstract one. Whatever stops the job
midway removes what it created.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from litqeval_gui.core.errors import ImportRefused, LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, scaled
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.imports import delete_import
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Done
from litqeval_gui.core.records import ingest
from litqeval_gui.core.screening import fulltext
from litqeval_gui.core.screening.foreign.review import Decision, Review
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import FULL_TEXT
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import (
    INSERT_EVENT,
    MergeReport,
    plan_events,
)

EXAMPLES = 10
PRIOR = "prior knowledge"  # the ordering of a decision the tool was given before ranking


@dataclass
class ReviewImport:
    """What :func:`import_review` did: the lists imported (``imports``) or found again
    (``reused``), the screening(s) the decisions became, per reviewer the decisions in
    the file and those added, those already there, the unmatched ones (why, the first
    few), the conflicts the screening holds now."""

    tool: str
    topic: str
    screening: str
    fulltext: str = ""
    imports: list[ingest.ImportSummary] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    in_file: dict[str, int] = field(default_factory=dict)
    added: dict[str, int] = field(default_factory=dict)
    present: int = 0
    unmatched: int = 0
    unmatched_examples: list[str] = field(default_factory=list)
    conflicts: int = 0
    note: str = ""
    priors: int = 0  # decisions the tool was given before it ranked (ASReview's priors)

    def as_dict(self) -> dict[str, Any]:
        document = asdict(self)
        document["imports"] = [s.as_dict() for s in self.imports]
        return document

    def report(self) -> str:
        """The plain-text summary the command line prints."""
        lines = [s.report().rstrip("\n") for s in self.imports]
        lines += [f"list {name!r} was already imported; its records were reused"
                  for name in self.reused]
        where = f"screening {self.screening!r}" + (
            f" and its full text {self.fulltext!r}" if self.fulltext else "")
        lines.append(f"{self.tool} decisions into {where} of topic {self.topic!r}: "
                     f"{sum(self.added.values())} added"
                     + (f" ({self.priors} priors in the file)" if self.priors else "")
                     + f", {self.present} already there, "
                     f"{self.unmatched} unmatched; {self.conflicts} conflict(s) open")
        lines += [f"  {who}: {n} in the file, {self.added.get(who, 0)} added"
                  for who, n in self.in_file.items()]
        lines += [f"  unmatched: {text}" for text in self.unmatched_examples]
        if self.note:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines) + "\n"


def origin_parameter(screening: store.Screening) -> parameters.Parameter[str]:
    """Where ``screening`` came from ("ASReview LAB 1.6 project …, model nb + tfidf"),
    stored under its uuid; empty for a screening made here."""
    return parameters.Parameter(f"screening.{screening.uuid}.origin", str, "")


def import_review(project: Project, review: Review, *, topic: str, name: str | None = None,
                  token: CancelToken = NEVER) -> Generator[Progress, None, ReviewImport]:
    """Import ``review`` into ``topic`` as screening ``name`` (default: the review's own
    name), a job returning the :class:`ReviewImport` (module docstring)."""
    name = name or review.name
    result = ReviewImport(tool=review.tool, topic=topic, screening=name, note=review.note,
                          in_file=review.reviewers,
                          priors=sum(d.prior for d in review.decisions))
    created_imports: list[int] = []
    created_screenings: list[int] = []
    try:
        lists: list[str] = []
        for index, records in enumerate(review.files):
            found = _imported(project, topic, records.path)
            if found is not None:
                result.reused.append(found)
                lists.append(found)
                continue
            summary = yield from scaled(ingest.import_file(
                project, records.path, topic=topic, role="results",
                name=_free_name(project, topic, records.name), database=records.database,
                token=token), 60 * index / len(review.files), 60 * (index + 1) / len(review.files))
            created_imports.append(summary.import_id)
            result.imports.append(summary)
            lists.append(summary.name)
        yield Progress(60, 100, "matching decisions to records")
        works = _rank_works(project, topic, lists)
        for text in review.unmatched:
            _unmatched(result, text)
        title_abstract = [d for d in review.decisions if d.phase != FULL_TEXT]
        screening = _screening(project, topic, name, lists, review, created_screenings)
        _add(project, screening, review, title_abstract, works, result)
        full = [d for d in review.decisions if d.phase == FULL_TEXT]
        if full:
            child = _fulltext(project, screening, review, created_screenings)
            result.fulltext = child.name
            _add(project, child, review, full, works, result)
        result.conflicts = len([c for c in team.conflicts(project, screening.id)
                                if c.resolution is None])
    except BaseException:
        _remove(project, created_screenings, created_imports)
        raise
    yield Progress(100, 100, "done")
    return result


def _imported(project: Project, topic: str, path) -> str | None:
    """The list of ``topic`` that file ``path`` already became (same content), if any."""
    sha256, _ = ingest.file_digest(path)
    row = project.db.execute(
        "SELECT i.name FROM imports i JOIN topics t ON t.id = i.topic_id WHERE t.name = ? "
        "AND i.sha256 = ? AND i.role = 'results' AND i.state = 'done'", [topic, sha256]
    ).fetchone()
    return row[0] if row else None


def _free_name(project: Project, topic: str, wanted: str) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``… when ``topic`` has a list of that name."""
    taken = {row[0] for row in project.db.execute(
        "SELECT i.name FROM imports i JOIN topics t ON t.id = i.topic_id WHERE t.name = ?",
        [topic])}
    number, candidate = 1, wanted
    while candidate in taken:
        number += 1
        candidate = f"{wanted} ({number})"
    return candidate


def _rank_works(project: Project, topic: str, lists: list[str]
                ) -> dict[tuple[int, int], int]:
    """(file, rank) → the work of that record of the file's list."""
    mapped: dict[tuple[int, int], int] = {}
    for index, list_name in enumerate(lists):
        for rank, work in project.db.execute(
                "SELECT r.rank, r.work_id FROM records r JOIN imports i ON i.id = r.import_id "
                "JOIN topics t ON t.id = i.topic_id WHERE t.name = ? AND i.name = ?",
                [topic, list_name]):
            mapped[index, rank] = work
    return mapped


def _screening(project: Project, topic: str, name: str, lists: list[str], review: Review,
               created: list[int]) -> store.Screening:
    """Screening ``name``: found again (a later export of the same review; a decision on
    a work it does not hold is unmatched), its reasons completed, or new over ``lists``."""
    reasons = [r for d in review.decisions if d.phase != FULL_TEXT and d.reason
               for r in [d.reason]]
    try:
        screening = store.find_screening(project, topic, name)
    except LitqError:
        screening = store.create_screening(project, topic, name, lists,
                                           reasons=list(dict.fromkeys(reasons)))
        created.append(screening.id)
        note = review.note or review.tool
        project.write(parameters.set_value_op(origin_parameter(screening), note))
        return screening
    if screening.phase == FULL_TEXT:
        raise ImportRefused(f"screening {name!r} of topic {topic!r} is a full-text "
                            "screening; choose another name for this review's screening")
    _complete_reasons(project, screening, reasons)
    return store.get_screening(project, screening.id)


def _complete_reasons(project: Project, screening: store.Screening, reasons: list[str]
                      ) -> None:
    missing = [r for r in dict.fromkeys(reasons) if r not in screening.reasons]
    if missing:
        project.write(store.set_reasons_op(screening.id, [*screening.reasons, *missing]))


def _fulltext(project: Project, parent: store.Screening, review: Review,
              created: list[int]) -> store.Screening:
    """The full-text screening under ``parent`` (found again, or new), every full-text
    reason of the review on its list."""
    reasons = [d.reason for d in review.decisions if d.phase == FULL_TEXT and d.reason]
    for child in store.screenings(project, project.db.execute(
            "SELECT name FROM topics WHERE id = ?", [parent.topic_id]).fetchone()[0]):
        if child.phase == FULL_TEXT and project.db.execute(
                "SELECT parent_id FROM screenings WHERE id = ?", [child.id]
        ).fetchone()[0] == parent.id:
            _complete_reasons(project, child, reasons)
            return store.get_screening(project, child.id)
    child = fulltext.create_fulltext_screening(
        project, parent, f"{parent.name} — full text", with_maybe=True,
        reasons=list(dict.fromkeys([*fulltext.DEFAULT_REASONS, *reasons])))
    created.append(child.id)
    return child


def _apart(stamp: str, reviewer: str, taken: set[tuple[str, str]]) -> str:
    """``stamp``, or the first microsecond after it at which ``reviewer`` has no decision
    of this file yet: an event is its reviewer and time, and a tool may stamp many
    decisions with one time (ASReview's priors of a labelled dataset)."""
    at, step = stamp, 0
    while (reviewer, at) in taken:
        step += 1
        at = (datetime.fromisoformat(stamp) + timedelta(microseconds=step)).isoformat(
            timespec="microseconds")
    taken.add((reviewer, at))
    return at


def _add(project: Project, screening: store.Screening, review: Review,
         decisions: list[Decision], works: dict[tuple[int, int], int],
         result: ReviewImport) -> None:
    """Add ``decisions`` to ``screening`` in one write (module docstring)."""
    work_item = dict(project.db.execute(
        "SELECT r.work_id, si.record_id FROM screening_items si "
        "JOIN records r ON r.id = si.record_id WHERE si.screening_id = ?", [screening.id]))
    current = team.by_reviewer(project, screening.id)
    report = MergeReport()
    entries = []
    start = datetime.now(timezone.utc)
    taken: set[tuple[str, str]] = set()
    for number, decision in enumerate(decisions):
        where = f"{review.files[decision.file].path.name}, record {decision.rank}"
        item = work_item.get(works.get((decision.file, decision.rank)))
        if item is None:
            _unmatched(result, f"{where}: not an item of screening {screening.name!r}")
            continue
        if not decision.at:
            now = current.get(decision.reviewer, {}).get(item)
            if now is not None and (now.label, now.reason) == (decision.label, decision.reason):
                result.present += 1
                continue
        stamp = _apart(decision.at or (start + timedelta(microseconds=number)).isoformat(
            timespec="microseconds"), decision.reviewer, taken)
        entries.append((where, {
            "kind": "decide", "reviewer": decision.reviewer, "at": stamp,
            "label": decision.label, "reason": decision.reason, "note": decision.note,
            "tags": list(decision.tags), "phase": screening.phase, "target": None,
            "ordering": PRIOR if decision.prior else review.tool, "position": None,
            "model": "", "record": {"item": item}}))
    rows = plan_events(project, screening, entries, report, review.tool,
                       find=lambda record: record["item"])
    result.present += report.present

    def op(p: Project) -> Done[None]:
        p.db.conn.executemany(INSERT_EVENT, rows)
        return Done(store.DECISIONS if rows else Changes(), None)

    project.write(op)
    for row in rows:
        result.added[row[7]] = result.added.get(row[7], 0) + 1


def _unmatched(result: ReviewImport, text: str) -> None:
    result.unmatched += 1
    if len(result.unmatched_examples) < EXAMPLES:
        result.unmatched_examples.append(text)


def _remove(project: Project, screenings: list[int], imports: list[int]) -> None:
    """Take back what a stopped intake created: its screenings, then its imports."""
    def op(p: Project) -> Changes:
        for screening_id in reversed(screenings):
            p.db.execute("DELETE FROM screenings WHERE id = ?", [screening_id])
        changes = store.DECISIONS if screenings else Changes()
        for import_id in imports:
            changes = changes | delete_import(p.db, import_id)
        return changes

    if screenings or imports:
        project.write(op)
