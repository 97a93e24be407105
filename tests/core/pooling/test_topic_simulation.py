"""SPEC §4's simulation on a topic's imported runs and qrels, as a cancellable job."""

import csv

import pytest

from litqeval_gui.core.errors import JobCancelled, LitqError
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.pooling.simulation import (
    CSV_COLUMNS,
    topic_collection,
    write_settings_csv,
)
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.trec.files import Qrels, RunFile
from litqeval_gui.core.trec.simulate import simulate_collection, simulate_job
from tests.support.pooling import TOPIC, collection, pool_project


def test_job_on_imported_lists_equals_the_file_simulation(tmp_path):
    runs, grades = collection()
    path = pool_project(tmp_path, runs, grades)
    direct = simulate_collection([RunFile(n, {TOPIC: d}) for n, d in runs.items()],
                                 Qrels({TOPIC: grades}), depth=30, grid="thesis",
                                 low_yield=True)
    with Project.open(path, readonly=True) as project:
        files, qrels = topic_collection(project, TOPIC)
    assert [f.name for f in files] == ["A", "B", "C", "D"]
    seen = []
    found = run_job(simulate_job(files, qrels, depth=30, grid="thesis"), seen.append)
    assert found == direct and len(found["settings"]) == 500
    assert seen[-1].done == seen[-1].total == 500 and len(seen) == 1 + 500 // 20
    assert any(row["frontier_tau"] for row in found["settings"])
    out = write_settings_csv(found["settings"], tmp_path / "grid.csv")
    table = list(csv.reader(out.open(encoding="utf-8")))
    assert tuple(table[0]) == CSV_COLUMNS and len(table) == 501
    assert table[1][:4] == ["6", "2", "0.05", "3"]


def test_job_cancels_between_blocks(tmp_path):
    runs, grades = collection()
    files = [RunFile(n, {TOPIC: d}) for n, d in runs.items()]
    token = CancelToken(JobCancelled)
    job = simulate_job(files, Qrels({TOPIC: grades}), depth=30, token=token)
    next(job), next(job)
    token.cancel()
    with pytest.raises(JobCancelled):
        next(job)


def test_topic_without_qrels_names_what_to_import(tmp_path):
    runs, _ = collection()
    path = pool_project(tmp_path, runs)
    with Project.open(path, readonly=True) as project, pytest.raises(
            LitqError, match="has no qrels: import a qrels file of this topic to simulate"):
        topic_collection(project, TOPIC)


def test_the_settings_table_is_never_written_onto_a_project(tmp_path):
    runs, grades = collection()
    path = pool_project(tmp_path, runs, grades)
    size = path.stat().st_size
    row = dict.fromkeys(CSV_COLUMNS, 1)
    for target, says in ((path, "SQLite database"), (tmp_path, "is a folder")):
        with pytest.raises(LitqError, match=says):
            write_settings_csv([row], target)
    assert path.stat().st_size == size
    with Project.open(path, readonly=True) as project:  # still a project
        assert [f.name for f in topic_collection(project, TOPIC)[0]] == ["A", "B", "C", "D"]
