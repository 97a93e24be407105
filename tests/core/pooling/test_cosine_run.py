"""The evaluation's cosine-to-core ranking as a pool run, against plain numpy."""

import json

import numpy as np
import pytest

from litqeval_gui.cli import main
from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.vector_store import embed_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.pooling import store
from litqeval_gui.core.pooling.runs import cosine_ranking
from litqeval_gui.core.projectfile.project import Project
from tests.support.topics import TOPIC, build_topic


def numpy_ranking(project: Project, list_name: str) -> list[int]:
    """Cosine of each list record to the mean of the unit core vectors (one per core work:
    its first record with a vector), best first, ties in list order, vectorless last."""
    db = project.db
    vectors = {rid: np.frombuffer(data, np.dtype(dtype)).astype(np.float64)
               for rid, dtype, data in db.execute(
                   "SELECT record_id, dtype, data FROM vectors WHERE data IS NOT NULL")}
    first_core: dict[int, int] = {}
    for rid, work in db.execute(
            "SELECT r.id, r.work_id FROM records r JOIN imports i ON i.id = r.import_id "
            "WHERE i.role = 'core' ORDER BY r.id"):
        if rid in vectors and work not in first_core:
            first_core[work] = rid
    core = np.array([vectors[r] / np.linalg.norm(vectors[r]) for r in first_core.values()])
    centroid = core.mean(axis=0)
    records = [rid for (rid,) in db.execute(
        "SELECT r.id FROM records r JOIN imports i ON i.id = r.import_id WHERE i.name = ? "
        "ORDER BY r.rank, r.id", [list_name])]
    scored = [(-(vectors[r] @ centroid) / (np.linalg.norm(vectors[r]) * np.linalg.norm(centroid)),
               position, r) for position, r in enumerate(records) if r in vectors]
    rest = [r for r in records if r not in vectors]
    return [r for _, _, r in sorted(scored)] + rest


@pytest.fixture
def topic_project(tmp_path):
    path = build_topic(tmp_path / "cos.litq", n_core=12, found=8, extra=40, noise=30)
    return path


def test_cosine_ranking_equals_numpy(topic_project):
    with Project.open(topic_project) as project:
        with pytest.raises(LitqError, match="has no embeddings yet.*evaluate the topic first"):
            cosine_ranking(project, TOPIC, "noisy")
        run_job(embed_topic(project, TOPIC, LsaBackend()))
        for name in ("clean", "noisy"):
            ranking = cosine_ranking(project, TOPIC, name)
            assert ranking == numpy_ranking(project, name)
        # the list's own order is not the cosine order (the test can tell them apart)
        listed = [r for (r,) in project.db.execute(
            "SELECT r.id FROM records r JOIN imports i ON i.id = r.import_id "
            "WHERE i.name = 'noisy' ORDER BY r.rank, r.id")]
        assert sorted(ranking) == sorted(listed) and ranking != listed


def test_cosine_run_fixed_at_creation_through_the_cli(topic_project, capsys):
    with Project.open(topic_project) as project:
        run_job(embed_topic(project, TOPIC, LsaBackend()))
        expected = cosine_ranking(project, TOPIC, "noisy")
    code = main(["pool-create", str(topic_project), "--topic", TOPIC, "--pool", "P",
                 "--runs", "clean", "cosine:noisy", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["released_depth"] == 0
    with Project.open(topic_project) as project:
        runs = store.runs(project, store.find_pool(project, TOPIC, "P"))
        assert [(r.name, r.source) for r in runs] == [("clean", "list:clean"),
                                                     ("cosine: noisy", "cosine:noisy")]
        assert list(runs[1].records) == expected


def test_cosine_run_needs_current_vectors(topic_project, capsys):
    code = main(["pool-create", str(topic_project), "--topic", TOPIC, "--pool", "P",
                 "--runs", "cosine:clean"])
    _, err = capsys.readouterr()
    assert code == 2 and "evaluate the topic first" in err and err.count("\n") == 1
    with Project.open(topic_project, readonly=True) as project:
        assert store.pools(project, TOPIC) == []
