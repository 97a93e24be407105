"""Query evaluation: result lists × the core set of a topic.

Recall = |C ∩ R| / |C| over de-duplicated works (SPEC §1): a core work is
retrieved when record linkage put one of the list's records in its work. A missed
core work is *pending review* when an uncertain match (awaiting the user's verdict)
joins one of its records to a record of a work the list holds: accepting it would
retrieve the core work.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import works
from litqeval_gui.core.records.queries import lists
from litqeval_gui.metrics.sets import recall as set_recall


@dataclass(frozen=True)
class MissedRecord:
    title: str
    year: int | None
    doi: str
    pending_review: bool = False  # an uncertain match would retrieve it if accepted


@dataclass(frozen=True)
class ListRecall:
    name: str
    size: int  # distinct works in the list
    core: int
    retrieved_core: int
    recall: float
    missed: list[MissedRecord] = field(default_factory=list)
    pending: int = 0  # missed core works pending review (see the module)


@dataclass(frozen=True)
class RecallReport:
    topic: str
    lists: list[ListRecall]

    def as_dict(self) -> dict:
        return asdict(self)


def recall_report(project: Project, topic: str, results: str | None = None) -> RecallReport:
    """Recall of every result list of ``topic`` (or only list ``results``)."""
    topic_id = project.topic_id(topic)
    core = works.core_works(project.db, topic_id)
    if not core:
        raise ProjectError(f"topic {topic!r} has no core set yet; import one with --role core")
    chosen = [info for info in lists(project, topic) if info.role == "results"
              and (results is None or info.name == results)]
    if not chosen:
        what = f"no result list named {results!r}" if results else "no result lists yet"
        raise ProjectError(f"topic {topic!r} has {what}")
    uncertain = project.db.execute(
        "SELECT ra.work_id, rb.work_id FROM links l JOIN live_records ra ON ra.id = l.a "
        "JOIN live_records rb ON rb.id = l.b WHERE l.topic_id = ? AND l.status = 'uncertain'",
        [topic_id]).fetchall()
    out = []
    for info in chosen:
        found = works.list_works(project.db, info.id)
        missed = core - found
        pending = ({a for a, b in uncertain if a in missed and b in found}
                   | {b for a, b in uncertain if b in missed and a in found})
        out.append(ListRecall(
            name=info.name, size=len(found), core=len(core), retrieved_core=len(core & found),
            recall=set_recall(found, core),
            missed=_describe(project, topic_id, sorted(missed), pending),
            pending=len(pending),
        ))
    return RecallReport(topic=topic, lists=out)


def _describe(project: Project, topic_id: int, work_ids: list[int],
              pending: set[int]) -> list[MissedRecord]:
    """One core record per missed work (the first imported), ordered by title; those
    of the works in ``pending`` marked as pending review."""
    if not work_ids:
        return []
    marks = ",".join("?" * len(work_ids))
    # with MIN(), SQLite takes the other columns from the row holding the minimum
    rows = project.db.execute(
        f"SELECT MIN(r.id), r.title, r.year, COALESCE(r.doi, ''), r.work_id FROM live_records r "
        f"JOIN imports i ON r.import_id = i.id "
        f"WHERE i.topic_id = ? AND i.role = 'core' "
        f"AND r.work_id IN ({marks}) GROUP BY r.work_id ORDER BY r.title",
        [topic_id, *work_ids],
    )
    return [MissedRecord(title=t or "", year=y, doi=d, pending_review=w in pending)
            for _, t, y, d, w in rows]
