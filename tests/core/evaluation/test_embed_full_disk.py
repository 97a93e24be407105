"""Embedding on a full disk (issue 27 §6): the message says which vectors the earlier
commits kept (not "the project is unchanged"), the write-ahead log gives its space back
after the failed write, and the next run goes on from the kept vectors.

The full disk is SQLite's own: ``PRAGMA max_page_count`` lets the file grow by about
two commits of vectors, then every write fails with SQLITE_FULL ("database or disk is
full"), as on a real full disk.
"""

import re
from pathlib import Path

import pytest

from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.vector_store import embed_topic, latest_set, set_status
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from tests.support.topics import TOPIC, build_topic, copy_project


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    return build_topic(tmp_path_factory.mktemp("full") / "p.litq", n_core=20, found=15,
                       extra=1200, noise=300)


def test_a_full_disk_says_what_was_kept_and_the_next_run_goes_on(topic_file, tmp_path):
    path = copy_project(topic_file, tmp_path)
    with Project.open(path) as project:
        pages = project.db.execute("PRAGMA page_count").fetchone()[0]
        project.db.execute(f"PRAGMA max_page_count = {pages + 300}")  # ~2 commits of vectors
        with pytest.raises(ProjectError) as caught:
            run_job(embed_topic(project, TOPIC, backend_by_name("lsa")))
        message = str(caught.value)
        found = re.search(r"(\d[\d,]*) of (\d[\d,]*) records' lsa vectors are stored", message)
        assert message.startswith("the disk is full") and found, message
        assert "unchanged" not in message
        stored, total = (int(n.replace(",", "")) for n in found.groups())
        topic_id = project.topic_id(TOPIC)
        emb = latest_set(project.db, topic_id, "lsa")
        assert emb is not None and emb.state == "pending"
        assert 0 < stored < total
        assert stored == project.db.execute("SELECT COUNT(*) FROM vectors WHERE set_id = ?",
                                            [emb.id]).fetchone()[0]
        assert Path(f"{path}-wal").stat().st_size == 0  # the failed write's log is given back
        project.db.execute("PRAGMA max_page_count = 1073741823")
        run_job(embed_topic(project, TOPIC, backend_by_name("lsa")))
        assert set_status(project.db, topic_id, "lsa") == "ready"
        assert project.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == total
