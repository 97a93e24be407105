"""Query evaluation: result lists × the core set of a topic.

Recall = |C ∩ R| / |C| over de-duplicated works (SPEC §1): a core work is
retrieved when record linkage put one of the list's records in its work.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from litqeval_gui.core import works
from litqeval_gui.core.catalog import lists
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.project import Project
from litqeval_gui.metrics.sets import recall as set_recall


@dataclass(frozen=True)
class MissedRecord:
    title: str
    year: int | None
    doi: str


@dataclass(frozen=True)
class ListRecall:
    name: str
    size: int  # distinct works in the list
    core: int
    retrieved_core: int
    recall: float
    missed: list[MissedRecord] = field(default_factory=list)


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
    out = []
    for info in chosen:
        found = works.list_works(project.db, info.id)
        missed = sorted(core - found)
        out.append(ListRecall(
            name=info.name, size=len(found), core=len(core), retrieved_core=len(core & found),
            recall=set_recall(found, core), missed=_describe(project, topic_id, missed),
        ))
    return RecallReport(topic=topic, lists=out)


def _describe(project: Project, topic_id: int, work_ids: list[int]) -> list[MissedRecord]:
    """One core record per missed work (the first imported), ordered by title."""
    if not work_ids:
        return []
    marks = ",".join("?" * len(work_ids))
    # with MIN(), SQLite takes the other columns from the row holding the minimum
    rows = project.db.execute(
        f"SELECT MIN(r.id), r.title, r.year, COALESCE(r.doi, '') FROM live_records r "
        f"JOIN imports i ON r.import_id = i.id "
        f"WHERE i.topic_id = ? AND i.role = 'core' "
        f"AND r.work_id IN ({marks}) GROUP BY r.work_id ORDER BY r.title",
        [topic_id, *work_ids],
    )
    return [MissedRecord(title=t or "", year=y, doi=d) for _, t, y, d in rows]
