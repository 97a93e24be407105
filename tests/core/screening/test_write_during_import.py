"""A decision made while a large import or a retrain works in the background commits at
once, without waiting for them to finish, and both still succeed."""

import threading

import pytest

from litqeval_gui.core import catalog, exporting, ingest
from litqeval_gui.core.importing import parallel
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.features import screening_features
from litqeval_gui.core.screening.queue import Screener
from litqeval_gui.core.screening.retrain import retrain, stored_ranking
from litqeval_gui.core.writes import WritePath
from tests.support import synthetic
from tests.support.screening import screening_project


@pytest.mark.parametrize("phase", ["storing", "linking"])
def test_a_decision_during_an_import_commits_while_the_import_is_paused(
        tmp_path, monkeypatch, phase):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 10_000)
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 200)
    path, _ = screening_project(tmp_path, 30)
    records, _ = synthetic.generate(3000, dup_rate=0.1, seed=5)
    big = tmp_path / "big.ris"
    exporting.export_records(records, big, "ris")
    project = Project.open(path)
    project.writes = WritePath(project)
    screening = store.create_screening(project, "T", "s", ["L"])
    screener = Screener(project, screening, "Ada")
    paused, resume, outcome = threading.Event(), threading.Event(), {}

    def pause_once(p):  # the import holds still mid-phase until the decision is checked
        in_phase = 10 < p.done < 50 if phase == "storing" else 55 < p.done < 90
        if in_phase and not paused.is_set():
            paused.set()
            resume.wait(30)

    def job():
        sibling = project.sibling()
        try:
            outcome["summary"] = run_job(
                ingest.import_file(sibling, big, topic="B", role="results"), pause_once)
        except Exception as exc:  # noqa: BLE001 — checked below
            outcome["error"] = exc
        finally:
            sibling.close()
            paused.set()

    worker = threading.Thread(target=job)
    worker.start()
    try:
        assert paused.wait(60)
        record = screener.current
        screener.decide("include", note="during the import")
        reader = project.sibling()  # another connection sees it committed
        try:
            [decided] = store.current_decisions(reader, screening.id)
        finally:
            reader.close()
        assert (decided.record_id, decided.label) == (record, "include")
        assert "summary" not in outcome  # the import has not finished
    finally:
        resume.set()
        worker.join(120)
        project.writes.close()
        project.writes = None
    try:
        assert "error" not in outcome, outcome.get("error")
        assert catalog.find_list(project, "B", "big").records == 3000
    finally:
        project.close()


def test_a_decision_during_a_retrain_commits_and_the_ranking_is_stored_after(tmp_path):
    path, labels = screening_project(tmp_path, 200, 0.1, seed=2)
    project = Project.open(path)
    project.writes = WritePath(project)
    try:
        screening = store.create_screening(project, "T", "s", ["L"])
        features = run_job(screening_features(project, screening))
        screener = Screener(project, screening, "Ada")
        for record, label in list(zip(store.items(project, screening.id), labels,
                                      strict=True))[:40]:
            screener.decide("include" if label else "exclude", record_id=record)
        paused, resume, outcome = threading.Event(), threading.Event(), {}

        def pause_in_training(p):
            if p.message.startswith("training") and not paused.is_set():
                paused.set()
                resume.wait(30)

        def job():
            sibling = project.sibling()
            try:
                outcome["ranking"] = run_job(retrain(sibling, screening, features),
                                             pause_in_training)
            finally:
                sibling.close()
                paused.set()

        worker = threading.Thread(target=job)
        worker.start()
        try:
            assert paused.wait(60)
            made = screener.decide("maybe")  # the retrain read 40 decisions and is training
            assert made.record_id in {e.record_id
                                      for e in store.current_decisions(project, screening.id)}
        finally:
            resume.set()
            worker.join(60)
        assert outcome["ranking"].labels == 40  # it ranked what it had read
        assert stored_ranking(project, screening.id).records == outcome["ranking"].records
    finally:
        project.writes.close()
        project.writes = None
        project.close()
