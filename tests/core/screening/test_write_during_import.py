"""A decision made while a large import or a retrain works in the background commits at
once, without waiting for them to finish, and both still succeed."""


import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import WritePath
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import screening_features
from litqeval_gui.core.screening.ranking.retrain import retrain, stored_ranking
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.paused import during_import, during_job
from tests.support.screening import screening_project


@pytest.mark.parametrize("phase", ["storing", "linking"])
def test_a_decision_during_an_import_commits_while_the_import_is_paused(
        tmp_path, monkeypatch, phase):
    path, _ = screening_project(tmp_path, 30)
    project = Project.open(path)
    project.writes = WritePath(project)
    screening = store.create_screening(project, "T", "s", ["L"])
    screener = ScreeningSession(project, screening, "Ada")

    def decide():
        record = screener.shown
        screener.decide("include", note="during the import")
        reader = project.sibling()  # another connection sees it committed
        try:
            [decided] = store.current_decisions(reader, screening.id)
        finally:
            reader.close()
        return record, decided

    try:
        try:
            (record, decided), outcome = during_import(project, tmp_path, monkeypatch, phase,
                                                       decide)
        finally:
            project.writes.close()
            project.writes = None
        assert (decided.record_id, decided.label) == (record, "include")
        assert "error" not in outcome, outcome.get("error")
        assert queries.find_list(project, "B", "big").records == 3000
    finally:
        project.close()


def test_a_decision_during_a_retrain_commits_and_the_ranking_is_stored_after(tmp_path):
    path, labels = screening_project(tmp_path, 200, 0.1, seed=2)
    project = Project.open(path)
    project.writes = WritePath(project)
    try:
        screening = store.create_screening(project, "T", "s", ["L"])
        features = run_job(screening_features(project, screening))
        screener = ScreeningSession(project, screening, "Ada")
        for record, label in list(zip(store.items(project, screening.id), labels,
                                      strict=True))[:40]:
            screener.decide("include" if label else "exclude", record_id=record)

        def decide():  # the retrain read 40 decisions and is training
            made = screener.decide("maybe")
            assert made.record_id in {e.record_id
                                      for e in store.current_decisions(project, screening.id)}

        _, outcome = during_job(project, lambda sibling: retrain(sibling, screening, features),
                                lambda p: p.message.startswith("training"), decide)
        assert "error" not in outcome, outcome.get("error")
        assert outcome["result"].labels == 40  # it ranked what it had read
        assert stored_ranking(project, screening.id).records == outcome["result"].records
    finally:
        project.writes.close()
        project.writes = None
        project.close()
