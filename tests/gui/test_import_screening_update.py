"""The import summary offers to add a search update to a running screening (issue 28 §4):
it says how many works are new, already screened and already queued, adds the new ones
as the next round, and ranks the screening again by the current model."""

from PySide6.QtCore import Qt

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import screening_features
from litqeval_gui.core.screening.ranking.retrain import retrain, stored_ranking
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping import phases
from litqeval_gui.gui.import_wizard.state import WizardState
from litqeval_gui.gui.import_wizard.summary import SummaryPage
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.support.screening import labelled_records, write_labelled_csv
from tests.support.screening_screen import settle


def test_the_summary_adds_the_update_as_a_new_round_and_ranks_it(tmp_path, qtbot, shot):
    records, labels = labelled_records(60, seed=3)
    first = write_labelled_csv(records[:40], labels[:40], tmp_path / "L.csv")
    update = write_labelled_csv(records[20:], labels[20:], tmp_path / "U.csv")
    project = Project.create(tmp_path / "p.litq")
    run_job(ingest.import_file(project, first, topic="T", role="results", name="L"))
    screening = store.create_screening(project, "T", "s", ["L"])
    core = ScreeningSession(project, screening, "ann")
    items = store.items(project, screening.id)
    for index, record in enumerate(items[20:30]):  # 20 and 21 included
        core.decide("include" if index < 2 else "exclude", record_id=record)
    run_job(retrain(project, screening, run_job(screening_features(project, screening))))
    summary = run_job(ingest.import_file(project, update, topic="T", role="results", name="U"))
    session = ProjectSession(project)
    settings = Settings()
    settings.reviewer = "Ann"
    state = WizardState(session, settings, summaries={(update, None): summary})
    page = SummaryPage(state)
    qtbot.addWidget(page)
    page.resize(760, 560)
    page.initializePage()
    page.show()
    offers = page.updates
    assert offers.isVisible() and len(offers.lines) == 1
    label, button = offers.lines[0]
    assert "20 of its 40 works are new to screening “s” (10 already screened" in label.text()
    assert "10 already in its queue" in label.text()
    shot(page, "issue28_import_summary_offer")

    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(qtbot, session)
    qtbot.waitUntil(lambda: button.text() == "Added")
    assert "20 new added as round 2" in label.text() and not button.isEnabled()
    round_ = phases.current_round(project, screening.id)
    assert (round_.number, len(round_.items)) == (2, 20)
    assert project.db.execute("SELECT reviewer FROM screening_rounds").fetchone() == ("Ann",)
    qtbot.waitUntil(lambda: session.jobs.active() == [], timeout=60_000)
    ranking = stored_ranking(project, screening.id)
    assert set(round_.items) <= set(ranking.records)  # ranked by the model again
    page.initializePage()  # the list is part of the screening now: nothing to offer
    assert not offers.isVisible() and offers.lines == []
    page.close()
    assert session.close()
