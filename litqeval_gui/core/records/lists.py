"""Renaming and deleting what was imported: a list (result list, core set, other) or a
whole topic.

Each change is an op (``…_op(...) -> Op``, run by :meth:`Project.write`): it commits
whole or not at all.
Deleting a list deletes its records and every match that touches them (the schema
cascades), the user's verdicts on those matches included, then regroups the topic's
works (a deleted record may have joined two others). Screening decisions on the deleted
records go too (their events; a screening loses those records). Deleting a topic's last
list deletes the topic (topics come into being by importing) and its screenings. :func:`deletion_impact`
says beforehand what a deletion takes with it, for the confirmation.
"""

from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass

from litqeval_gui.core.errors import ProjectError, listing
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.imports import delete_import
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records import works

_DELETED = Changes(topics=True, lists=True, records=True, works=True)


@dataclass(frozen=True)
class Deletion:
    """What deleting ``lists`` of ``topic`` takes with it.

    ``records``: stored entries; ``works``: works only these lists hold (they leave
    the topic); ``core_works``: of those, core works; ``matches``: links touching the
    records; ``verdicts``: the user's decisions among them (confirmed or rejected);
    ``decisions``: current screening decisions on the records; ``topic_goes``: no list of the topic remains. ``list`` is None when the whole
    topic is deleted.
    """

    topic: str
    list: str | None
    lists: list[str]
    records: int
    works: int
    core_works: int
    matches: int
    verdicts: int
    decisions: int
    topic_goes: bool

    def as_dict(self) -> dict:
        return asdict(self)

    def describe(self) -> str:
        """The consequences in a sentence or three, for a confirmation."""
        what = (f"list {self.list!r} of topic {self.topic!r}" if self.list is not None else
                f"topic {self.topic!r} with its {len(self.lists)} list(s) ({listing(self.lists)})")
        lines = [f"Deleting {what} removes {_n(self.records, 'record')}; "
                 f"{_n(self.works, 'work')} no other list holds leave the topic"
                 + (f", {self.core_works} of them core works." if self.core_works else ".")]
        if self.matches:
            lines.append(f"{_n(self.matches, 'match', 'matches')} between these records and "
                         f"others go, with {_n(self.verdicts, 'verdict')} you gave on them.")
        if self.decisions:
            lines.append(f"{_n(self.decisions, 'screening decision')} on these records go.")
        if self.topic_goes and self.list is not None:
            lines.append(f"It is the topic's only list: topic {self.topic!r} goes too.")
        lines.append("This cannot be undone.")
        return "\n".join(lines)


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def list_id(project: Project, topic: str, name: str) -> int:
    topic_id = project.topic_id(topic)
    row = project.db.execute("SELECT id FROM live_imports WHERE topic_id = ? AND name = ?",
                             [topic_id, name]).fetchone()
    if row is None:
        names = [r[0] for r in project.db.execute(
            "SELECT name FROM live_imports WHERE topic_id = ? ORDER BY id", [topic_id])]
        raise ProjectError(f"topic {topic!r} has no list named {name!r} "
                           f"(lists: {listing([repr(n) for n in names]) or 'none'})")
    return int(row[0])


def deletion_impact(project: Project, topic: str, name: str | None = None) -> Deletion:
    """What deleting list ``name`` of ``topic`` (or, without a name, the whole topic) takes."""
    db = project.db
    topic_id = project.topic_id(topic)
    everything = [(r[0], r[1]) for r in db.execute(
        "SELECT id, name FROM live_imports WHERE topic_id = ? ORDER BY id", [topic_id])]
    chosen = everything if name is None else [(list_id(project, topic, name), name)]
    ids = [i for i, _ in chosen]
    marks = ",".join("?" * len(ids))
    inside = f"SELECT id FROM records WHERE import_id IN ({marks})"
    records = db.execute(f"SELECT COUNT(*) FROM records WHERE import_id IN ({marks})",
                         ids).fetchone()[0]
    kept = set(works.core_works(db, topic_id))
    gone = {row[0] for row in db.execute(
        f"SELECT DISTINCT work_id FROM records WHERE import_id IN ({marks})", ids)}
    gone -= {row[0] for row in db.execute(
        f"SELECT DISTINCT work_id FROM live_records WHERE topic_id = ? "
        f"AND import_id NOT IN ({marks})", [topic_id, *ids])}
    matches, verdicts = db.execute(
        f"SELECT COUNT(*), COALESCE(SUM(status IN ('confirmed', 'rejected')), 0) FROM links "
        f"WHERE a IN ({inside}) OR b IN ({inside})", ids + ids).fetchone()
    decisions = db.execute(f"SELECT COUNT(*) FROM screening_current WHERE record_id IN ({inside})",
                           ids).fetchone()[0]
    return Deletion(topic=topic, list=name, lists=[n for _, n in chosen], records=records,
                    works=len(gone), core_works=len(gone & kept), matches=matches,
                    verdicts=verdicts, decisions=decisions,
                    topic_goes=len(chosen) == len(everything))


def delete_list_op(topic: str, name: str) -> Op:
    """Delete list ``name`` of ``topic`` with its records and their matches (one write)."""
    def op(p: Project) -> Changes:
        topic_id = p.topic_id(topic)
        inside = f"SELECT id FROM records WHERE import_id = {list_id(p, topic, name)}"
        verdicts = _has_verdicts(p, inside)
        decisions = p.db.execute(f"SELECT 1 FROM screening_events WHERE record_id IN ({inside})"
                                 ).fetchone() is not None  # they cascade with the records
        delete_import(p.db, list_id(p, topic, name))
        if p.db.execute("SELECT 1 FROM topics WHERE id = ?", [topic_id]).fetchone():
            works.regroup(p.db, topic_id)
        return Changes(verdicts=verdicts, decisions=decisions) | _DELETED

    return op


def delete_topic_op(topic: str) -> Op:
    """Delete topic ``topic`` with all its lists, records and matches (one write)."""
    def op(p: Project) -> Changes:
        topic_id = p.topic_id(topic)
        verdicts = _has_verdicts(p, f"SELECT id FROM records WHERE topic_id = {topic_id}")
        decisions = p.db.execute("SELECT 1 FROM screenings WHERE topic_id = ?",
                                 [topic_id]).fetchone() is not None  # they cascade
        for (import_id,) in p.db.execute("SELECT id FROM imports WHERE topic_id = ?",
                                         [topic_id]).fetchall():
            delete_import(p.db, import_id)  # the last one takes the topic with it
        return Changes(verdicts=verdicts, decisions=decisions) | _DELETED

    return op


def _has_verdicts(project: Project, records_sql: str) -> bool:
    return project.db.execute(
        f"SELECT 1 FROM links WHERE status IN ('confirmed', 'rejected') "
        f"AND (a IN ({records_sql}) OR b IN ({records_sql})) LIMIT 1").fetchone() is not None


_REPLACED = {"Cc": " ", "Cs": "\ufffd"}  # control characters; lone surrogates


def plain_name(text: str) -> str:
    """``text`` as a one-line name: control characters (a newline or a tab in a file
    name, a terminal's escape) become spaces, a lone surrogate (an undecodable byte of a
    file name or argument) U+FFFD, each run of white space one space, none at the ends.
    Names (lists, topics, reviewers) and exclusion reasons follow it."""
    return " ".join("".join(_REPLACED.get(unicodedata.category(c), c) for c in text).split())


def _new_name(new: str, what: str) -> str:
    name = plain_name(new)
    if not name:
        raise ProjectError(f"a {what} needs a name; the new name is empty")
    return name


def rename_list_op(topic: str, name: str, new: str) -> Op:
    """Rename list ``name`` of ``topic`` to ``new`` (unique within the topic)."""
    new = _new_name(new, "list")

    def op(p: Project) -> Changes:
        chosen = list_id(p, topic, name)
        if new != name and p.db.execute(
                "SELECT 1 FROM imports WHERE topic_id = ? AND name = ?",
                [p.topic_id(topic), new]).fetchone():
            raise ProjectError(f"topic {topic!r} already has a list named {new!r}")
        p.db.execute("UPDATE imports SET name = ? WHERE id = ?", [new, chosen])
        return Changes(lists=True)

    return op


def rename_topic_op(topic: str, new: str) -> Op:
    """Rename topic ``topic`` to ``new`` (unique within the project)."""
    new = _new_name(new, "topic")

    def op(p: Project) -> Changes:
        topic_id = p.topic_id(topic)
        if new != topic and p.db.execute("SELECT 1 FROM topics WHERE name = ?",
                                         [new]).fetchone():
            raise ProjectError(f"the project already has a topic named {new!r}")
        p.db.execute("UPDATE topics SET name = ? WHERE id = ?", [new, topic_id])
        return Changes(topics=True, lists=True)

    return op
