"""SPEC §4's simulation on a topic's imported TREC runs and qrels (the pooling screen's
Simulation tab): the lists become a :class:`~litqeval_gui.core.trec.files.RunFile` per
run and one :class:`~litqeval_gui.core.trec.files.Qrels`, then
:func:`~litqeval_gui.core.trec.simulate.simulate_job` computes the grid. Documents are
works (a work's records are one document; a qrels work takes its highest grade), so a
run and the qrels match wherever the import linked their records.
"""

from __future__ import annotations

import csv
from pathlib import Path

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.exporting import check_target, write_whole
from litqeval_gui.core.records.queries import ListInfo
from litqeval_gui.core.trec.files import Qrels, RunFile
from litqeval_gui.core.trec.simulate import SETTING_COLUMNS

TREC_RUN, QRELS = "trec-run", "qrels"
CSV_COLUMNS = SETTING_COLUMNS  # the keys of each settings row, in order


def _documents(project: Project, list_id: int) -> list[tuple[str, int | None]]:
    """(work as a docid, grade) of the list's records in rank order."""
    return [(str(work if work is not None else f"r{record}"), score)
            for record, work, score in project.db.execute(
                "SELECT id, work_id, score FROM live_records WHERE import_id = ? "
                "ORDER BY rank, id", [list_id])]


def collection_lists(project: Project, topic: str) -> tuple[list[ListInfo], list[ListInfo]]:
    """The topic's imported TREC runs and qrels lists (cheap: their infos only); a clear
    error naming what to import when either is missing."""
    lists = queries.lists(project, topic)
    runs = [i for i in lists if i.format == TREC_RUN]
    judged = [i for i in lists if i.format == QRELS]
    missing = [(noun, files) for noun, files, found in (
        ("imported TREC runs", "TREC run files", runs), ("qrels", "a qrels file", judged))
        if not found]
    if missing:
        raise LitqError(f"topic {topic!r} has no {' and no '.join(n for n, _ in missing)}: "
                        f"import {' and '.join(f for _, f in missing)} of this topic to "
                        "simulate pooling")
    return runs, judged


def topic_collection(project: Project, topic: str) -> tuple[list[RunFile], Qrels]:
    """The topic's imported runs and its qrels (every qrels list, merged), read in full;
    :func:`collection_lists`' error when either is missing."""
    runs, judged = collection_lists(project, topic)
    grades: dict[str, int] = {}
    for info in judged:
        for doc, grade in _documents(project, info.id):
            grades[doc] = max(grades.get(doc, 0), int(grade or 0))
    files = [RunFile(info.name, {topic: list(dict.fromkeys(d for d, _ in
                                                           _documents(project, info.id)))})
             for info in runs]
    return files, Qrels({topic: grades})


def write_settings_csv(rows: list[dict], path: str | Path) -> Path:
    """The simulation's settings table as CSV (one row per setting, :data:`CSV_COLUMNS`);
    refuses to overwrite a folder or an SQLite database (a project)."""
    check_target(Path(path))

    def write(partial: Path) -> None:
        with partial.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(CSV_COLUMNS)
            out.writerows([row[c] for c in CSV_COLUMNS] for row in rows)

    return write_whole(path, write, "the table")
