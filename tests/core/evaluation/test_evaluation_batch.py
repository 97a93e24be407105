"""Every topic at once (``batch.evaluate_all``): serially, on local processes and on a
Dask cluster the same answers and the same stored rows; a failing topic is reported in
its row; an interrupt leaves a project the next run finishes."""

import json

import pytest
from dask import distributed

from litqeval_gui.core.evaluation import batch
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.settings import save_settings_op
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from tests.support.synthetic import topic_records
from tests.support.topics import PCA, TOPIC, build_topics, copy_project, import_list, write_list

# what the project stores for an evaluation, without the creation times
STORED = {
    "embedding_sets": "id, topic_id, backend, model, version, params, corpus, state, dim, notes",
    "vectors": "set_id, record_id, dtype, shape, data",
    "maps": "id, topic_id, set_id, method, params, corpus, fidelity, note, record_ids, coords",
    "evaluation_results": "list_id, method, key, outcome, relevant",
}


@pytest.fixture(scope="module")
def topics_file(tmp_path_factory):
    """Three topics: cardio (PCA map), linguistics (UMAP map), no-core (not evaluable)."""
    path = build_topics(tmp_path_factory.mktemp("batch") / "p.litq")
    with Project.open(path) as project:
        project.write(save_settings_op(TOPIC, PCA))
    return path


def stored_rows(path):
    with Project.open(path) as project:
        return {table: project.db.execute(
            f"SELECT {columns} FROM {table} ORDER BY 1, 2, 3").fetchall()
            for table, columns in STORED.items()}


def run_batch(path, **options):
    with Project.open(path) as project:
        outcomes = batch.evaluate_all(project, **options)
    return json.dumps([outcome.as_dict() for outcome in outcomes], sort_keys=True)


def test_serial_local_processes_and_dask_give_the_same_answers_and_stored_rows(
        topics_file, tmp_path):
    paths = [copy_project(topics_file, tmp_path, f"{mode}.litq")
             for mode in ("serial", "jobs", "dask")]
    serial = run_batch(paths[0])
    on_processes = run_batch(paths[1], jobs=2)
    # two topics at once on one worker's threads: the same bits as serially (every topic
    # computes on one BLAS thread, however the two overlap)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as c:
        on_dask = run_batch(paths[2], dask_address=c.scheduler_address)
    assert serial == on_processes == on_dask
    rows = [stored_rows(path) for path in paths]
    assert rows[0] == rows[1] == rows[2]
    assert len(rows[0]["evaluation_results"]) == 3 * 4  # cardio 2 lists, linguistics 1
    doc = json.loads(serial)
    assert [item["topic"] for item in doc] == ["cardio", "linguistics", "no-core"]
    assert {item["name"]: item["recall"] for item in doc[0]["lists"]} == {
        "clean": 0.75, "noisy": 0.75}
    assert doc[1]["lists"][0]["recall"] == 0.8
    assert doc[2] == {"topic": "no-core",
                      "reason": "topic 'no-core' has no core set yet; import one with --role core"}


def test_a_topic_is_evaluated_alike_alone_and_in_the_batch(topics_file, tmp_path):
    alone, together = copy_project(topics_file, tmp_path, "a.litq"), copy_project(topics_file, tmp_path)
    with Project.open(alone) as project:
        single = [run_job(evaluate_topic(project, name)).as_dict()
                  for name in ("cardio", "linguistics")]
    assert json.loads(run_batch(together))[:2] == json.loads(json.dumps(single))
    assert stored_rows(alone) == stored_rows(together)


def test_a_topic_whose_computing_fails_is_reported_and_the_others_go_on(topics_file,
                                                                       tmp_path):
    path = copy_project(topics_file, tmp_path)
    with Project.open(path) as project:  # 2 + 2 records: too few for a map
        tiny = topic_records("astronomy", 2, seed=7)
        import_list(project, write_list(tiny, tmp_path / "t.ris"), "core", "core", "tiny")
        import_list(project, write_list(tiny, tmp_path / "u.ris"), "results", "list", "tiny")
    doc = {item["topic"]: item for item in json.loads(run_batch(path, jobs=2))}
    assert doc["tiny"] == {"topic": "tiny",
                           "reason": "a map needs at least 5 records with vectors; there are 4"}
    assert "reason" not in doc["cardio"] and "reason" not in doc["linguistics"]
    assert "no core set" in doc["no-core"]["reason"]


class Interrupt:
    """A progress callback that raises KeyboardInterrupt (Ctrl-C) at a message."""

    def __init__(self, message):
        self.message = message

    def __call__(self, progress):
        if progress.message.startswith(self.message):
            raise KeyboardInterrupt


@pytest.mark.parametrize("at", ["computed 1", "stored cardio"])
def test_an_interrupt_leaves_a_consistent_project_and_the_next_run_finishes_it(
        topics_file, tmp_path, at):
    path, reference = copy_project(topics_file, tmp_path), copy_project(topics_file, tmp_path, "r.litq")
    with Project.open(path) as project, pytest.raises(KeyboardInterrupt):
        batch.evaluate_all(project, progress=Interrupt(at))
    with Project.open(path) as project:
        assert project.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        sets = project.db.execute("SELECT state FROM embedding_sets").fetchall()
        results = project.db.execute("SELECT COUNT(*) FROM evaluation_results").fetchone()[0]
    if at == "computed 1":  # computing writes nothing
        assert sets == [] and results == 0
    else:  # cardio stored whole, linguistics not begun
        assert sets == [("done",)] and results == 2 * 4
    assert run_batch(path) == run_batch(reference)
    assert stored_rows(path) == stored_rows(reference)
