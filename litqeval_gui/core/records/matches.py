"""Matches found by record linkage, and the user's verdicts on uncertain ones.

A verdict is stored on the link (``confirmed`` / ``rejected``) with both records'
fingerprints, so later imports respect it (the linker receives the verdicts).
Confirming an uncertain match merges the two works; rejecting keeps them apart.
:func:`match_counts` is the one count of a topic's matches by verdict: the review
dialog, the import summary and ``litqeval matches`` all show it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import read_json, read_strings
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records import works
from litqeval_gui.core.records.linkage import conflicting_kinds

ID_LABELS = {"doi": "DOI", "pmid": "PMID", "pmcid": "PMCID", "scopus_eid": "Scopus EID",
             "wos_ut": "WoS UT", "openalex": "OpenAlex", "dimensions": "Dimensions",
             "lens": "Lens", "docid": "ID"}


_ORDER = {kind: rank for rank, kind in enumerate(ID_LABELS)}


def id_label(kind: str) -> str:
    """How an identifier kind is named to the user ("Dimensions", "Scopus EID")."""
    return ID_LABELS.get(kind, kind)


def identifiers_text(identifiers: Mapping[str, str]) -> str:
    """``DOI 10.1/x · Dimensions pub.123``, or ``""`` without identifiers."""
    return " · ".join(f"{id_label(kind)} {value}" for kind, value in identifiers.items())


def conflicts_text(kinds: Sequence[str]) -> str:
    """Why two records' identifiers speak against one work: ``"their DOIs differ"``."""
    if not kinds:
        return ""
    names = [id_label(kind) + ("s" if kind in _PLURAL_S else " ids") for kind in kinds]
    return f"their {', '.join(names)} differ"


_PLURAL_S = frozenset({"doi", "pmid", "pmcid", "scopus_eid", "wos_ut"})  # "Scopus EIDs"


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
    identifiers: dict[str, str] = field(default_factory=dict)  # kind -> value, DOI first


@dataclass(frozen=True)
class Match:
    id: int
    method: str
    score: float
    status: str  # auto | uncertain | confirmed | rejected
    a: MatchSide
    b: MatchSide
    conflicts: list[str] = field(default_factory=list)  # id kinds whose values differ

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class MatchCounts:
    """A topic's matches by verdict: awaiting one, accepted, rejected."""

    uncertain: int
    confirmed: int
    rejected: int

    def as_dict(self) -> dict:
        return asdict(self)


_SQL = """
SELECT l.id, l.method, l.score, l.status,
       ra.id, ia.name, ia.role, ra.title, ra.year, COALESCE(ra.doi, ''),
       ra.authors, COALESCE(ra.venue, ''), COALESCE(ra.abstract, ''), ra.pmid, ra.ids,
       rb.id, ib.name, ib.role, rb.title, rb.year, COALESCE(rb.doi, ''),
       rb.authors, COALESCE(rb.venue, ''), COALESCE(rb.abstract, ''), rb.pmid, rb.ids
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
                     abstract=r[8], identifiers=_identifiers(r[0], r[5], r[9], r[10]))


def _identifiers(record_id: int, doi: str, pmid: str | None, ids: str | None) -> dict[str, str]:
    """Every identifier the stored record holds, in the order of :data:`ID_LABELS`."""
    found = {kind: value for kind, value in (("doi", doi), ("pmid", pmid or "")) if value}
    if ids:
        stored = read_json(ids, f"the stored record {record_id}", dict, part="ids")
        found.update((str(kind), str(value)) for kind, value in stored.items() if value)
    return dict(sorted(found.items(), key=lambda item: _ORDER.get(item[0], len(_ORDER))))


def _query(project: Project, where: str, value: int) -> list[Match]:
    rows = project.db.execute(_SQL.format(where=where), [value])
    out = []
    for r in rows:
        a, b = _side(r[4:15]), _side(r[15:26])
        out.append(Match(id=r[0], method=r[1], score=r[2], status=r[3], a=a, b=b,
                         conflicts=conflicting_kinds(a.identifiers.items(),
                                                     b.identifiers.items())))
    return out


def match_counts(project: Project, topic: str,
                 pending: Mapping[int, bool] | None = None) -> MatchCounts:
    """The matches of ``topic`` by verdict as stored, or as they will be once the
    verdicts ``pending`` (link id -> accepted; queued, perhaps not yet stored) are."""
    topic_id = project.topic_id(topic)
    counts = dict(project.db.execute(
        "SELECT status, COUNT(*) FROM links WHERE topic_id = ? GROUP BY status", [topic_id]))
    ids = list(pending or {})
    for start in range(0, len(ids), 500):
        some = ids[start:start + 500]
        for link_id, status in project.db.execute(
                f"SELECT id, status FROM links WHERE topic_id = ? AND id IN "
                f"({','.join('?' * len(some))})", [topic_id, *some]):
            verdict = "confirmed" if (pending or {})[link_id] else "rejected"
            if status != verdict:  # stored already, or still to move
                counts[status] -= 1
                counts[verdict] = counts.get(verdict, 0) + 1
    return MatchCounts(counts.get("uncertain", 0), counts.get("confirmed", 0),
                       counts.get("rejected", 0))


def uncertain_count(project: Project, topic: str) -> int:
    """How many matches of ``topic`` await the user's verdict now."""
    return match_counts(project, topic).uncertain


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


def decide_many_op(link_ids: Sequence[int], accept: bool, *,
                   pending_only: bool = False) -> Op:
    """One verdict on many matches in one op (the review's bulk actions); the topic's
    works are recomputed once, not per match. An unknown id changes nothing.
    ``pending_only``: only the matches still awaiting a verdict when the op runs are
    decided, so a verdict given by hand (even one queued just before) is kept."""
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
        if pending_only:
            rows = [row for row in rows if row[2] == "uncertain"]
            if not rows:
                return Changes()
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
