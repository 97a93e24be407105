"""A large RIS import (worker processes) run as a GUI job: finishes, or cancels cleanly."""

import pytest

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest, queries
from litqeval_gui.core.records.importing import parallel
from litqeval_gui.gui.jobs import JobRunner
from tests.support import synthetic


@pytest.fixture
def big_ris(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 10_000)  # take the worker path
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 200)
    records, _ = synthetic.generate(3000, dup_rate=0.0, seed=3)
    path = tmp_path / "big.ris"
    exporting.export_records(records, path, "ris")
    return path


def _import(project, path, token):
    """The import on a connection of the job's own thread (as the wizard runs it)."""
    sibling = project.sibling()
    try:
        return (yield from ingest.import_file(sibling, path, topic="T", role="results",
                                              token=token))
    finally:
        sibling.close()


def _run(qtbot, project, path, cancel_at=None):
    runner, outcome = JobRunner(), []
    handle = None

    def progressed(done, total, message):
        if cancel_at and message == cancel_at:
            handle.cancel()

    with qtbot.waitSignal(runner.ended, timeout=60_000):
        handle = runner.run(
            "import", lambda token: _import(project, path, token),
            on_success=outcome.append, on_cancelled=lambda: outcome.append("cancelled"),
            on_progress=progressed)
    return outcome


def test_worker_import_from_a_gui_thread(qtbot, tmp_path, big_ris):
    with Project.create(tmp_path / "p.litq") as project:
        [summary] = _run(qtbot, project, big_ris)
        assert (summary.read, summary.new, summary.rejected) == (3000, 3000, 0)
        assert queries.find_list(project, "T", "big").records == 3000


def test_cancelling_a_worker_import_changes_nothing(qtbot, tmp_path, big_ris):
    with Project.create(tmp_path / "p.litq") as project:
        assert _run(qtbot, project, big_ris, cancel_at="reading RIS records") == ["cancelled"]
        assert queries.lists(project) == []
        assert project.db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
        [summary] = _run(qtbot, project, big_ris)  # and the next import runs normally
        assert summary.read == 3000
