"""Matches found by record linkage, and the user's verdicts on uncertain ones.

A verdict is stored on the link (``confirmed`` / ``rejected``) with both records'
fingerprints, so later imports respect it (the linker receives the verdicts).
Confirming an uncertain match merges the two works; rejecting keeps them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import read_strings
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records import works


@dataclass(frozen=True)
class MatchSide:
    record_id: int
    list_name: str
    role: str
    title: str
    year: int | None
    doi: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    abstract: str = ""


@dataclass(frozen=True)
class Match:
    id: int
    method: str
    score: float
    status: str  # auto | uncertain | confirmed | rejected
    a: MatchSide
    b: MatchSide

    def as_dict(self) -> dict:
        return asdict(self)


_SQL = """
SELECT l.id, l.method, l.score, l.status,
       ra.id, ia.name, ia.role, ra.title, ra.year, COALESCE(ra.doi, ''),
       ra.authors, COALESCE(ra.venue, ''), COALESCE(ra.abstract, ''),
       rb.id, ib.name, ib.role, rb.title, rb.year, COALESCE(rb.doi, ''),
       rb.authors, COALESCE(rb.venue, ''), COALESCE(rb.abstract, '')
FROM links l
JOIN records ra ON ra.id = l.a JOIN live_imports ia ON ia.id = ra.import_id
JOIN records rb ON rb.id = l.b JOIN live_imports ib ON ib.id = rb.import_id
WHERE {where}
ORDER BY l.score DESC, l.id
"""


def matches(project: Project, topic: str, *, uncertain: bool = False,
            decided: bool = False) -> list[Match]:
    """Links of ``topic``: all, only those awaiting the user's verdict (``uncertain``),
    or only those the user decided (``decided``: confirmed or rejected)."""
    where = "l.topic_id = ?"
    if uncertain:
        where += " AND l.status = 'uncertain'"
    if decided:
        where += " AND l.status IN ('confirmed', 'rejected')"
    return _query(project, where, project.topic_id(topic))


def _side(r: tuple) -> MatchSide:
    return MatchSide(record_id=r[0], list_name=r[1], role=r[2], title=r[3] or "", year=r[4],
                     doi=r[5], authors=read_strings(r[6] or "[]", f"the stored record {r[0]}",
                                                    "authors"), venue=r[7],
                     abstract=r[8])


def _query(project: Project, where: str, value: int) -> list[Match]:
    rows = project.db.execute(_SQL.format(where=where), [value])
    return [Match(id=r[0], method=r[1], score=r[2], status=r[3], a=_side(r[4:13]),
                  b=_side(r[13:22])) for r in rows]


def decide_op(link_id: int, accept: bool) -> Op:
    """Record the user's verdict on a match; accepting merges the two works.

    Rejecting recomputes the topic's works when the two records share a work (through
    this link or through other records); otherwise it changes no work.
    """
    def op(p: Project) -> Changes:
        db = p.db
        row = db.execute("SELECT topic_id, status, a, b FROM links WHERE id = ?",
                         [link_id]).fetchone()
        if row is None:
            raise ProjectError(f"no match with id {link_id}")
        topic_id, status, a, b = row
        db.execute("UPDATE links SET status = ?, decided_at = ? WHERE id = ?",
                   ["confirmed" if accept else "rejected", now(), link_id])
        if accept and status not in ("auto", "confirmed"):
            works.merge(db, topic_id, a, b)
        elif not accept and _same_work(db, a, b):
            works.regroup(db, topic_id)  # the rejection splits their work
        else:
            return Changes(verdicts=True)
        return Changes(verdicts=True, works=True)

    return op


def decide_many_op(link_ids: Sequence[int], accept: bool) -> Op:
    """One verdict on many matches in one op (the review's bulk actions); the topic's
    works are recomputed once, not per match. An unknown id changes nothing."""
    ids = list(dict.fromkeys(link_ids))

    def op(p: Project) -> Changes:
        db = p.db
        rows = []
        for start in range(0, len(ids), 500):
            some = ids[start:start + 500]
            rows += db.execute("SELECT id, topic_id, status, a, b FROM links WHERE id IN "
                               f"({','.join('?' * len(some))})", some).fetchall()
        if len(rows) != len(ids):
            missing = sorted(set(ids) - {row[0] for row in rows})
            raise ProjectError(f"no match with id {missing[0]}")
        decided = now()
        db.conn.executemany("UPDATE links SET status = ?, decided_at = ? WHERE id = ?",
                            [("confirmed" if accept else "rejected", decided, row[0])
                             for row in rows])
        if accept:
            joined = [row for row in rows if row[2] not in ("auto", "confirmed")]
            for _id, topic_id, _status, a, b in joined:
                works.merge(db, topic_id, a, b)
            changed = bool(joined)
        else:
            split = {row[1] for row in rows if _same_work(db, row[3], row[4])}
            for topic_id in split:
                works.regroup(db, topic_id)
            changed = bool(split)
        return Changes(verdicts=True, works=changed)

    return op


def match(project: Project, link_id: int) -> Match:
    """The match with id ``link_id``."""
    found = _query(project, "l.id = ?", link_id)
    if not found:
        raise ProjectError(f"no match with id {link_id}")
    return found[0]


def _same_work(db, a: int, b: int) -> bool:
    return db.execute("SELECT COUNT(DISTINCT work_id) FROM records WHERE id IN (?, ?)",
                      [a, b]).fetchone()[0] == 1
