"""A screening that grows with a search update (issue 28 §4): works the screening holds
keep their decisions (matched through the linkage), the new ones are a new round that
the queue serves first and the stopping panel evaluates apart."""

from __future__ import annotations

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping import phases
from litqeval_gui.core.screening.stopping.panel import screening_panel
from litqeval_gui.core.screening.stopping.updates import (
    RoundCount,
    add_update,
    preview_update,
    round_counts,
    updatable,
)
from tests.support.screening import labelled_records, write_labelled_csv


@pytest.fixture
def grown(tmp_path):
    """List L holds records 0–39, the update U records 20–59 (20–39 the same works);
    screening "s" of L has records 20–29 decided (20 and 21 included)."""
    records, labels = labelled_records(60, seed=3)
    first = write_labelled_csv(records[:40], labels[:40], tmp_path / "L.csv")
    update = write_labelled_csv(records[20:], labels[20:], tmp_path / "U.csv")
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, first, topic="T", role="results", name="L"))
        screening = store.create_screening(project, "T", "s", ["L"])
        session = ScreeningSession(project, screening, "ann")
        items = store.items(project, screening.id)
        for index, record in enumerate(items[20:30]):
            session.decide("include" if index < 2 else "exclude", record_id=record)
        run_job(ingest.import_file(project, update, topic="T", role="results", name="U"))
    return path


def test_an_update_adds_only_new_works_as_a_new_round(grown):
    with Project.open(grown) as project:
        screening = store.find_screening(project, "T", "s")
        before = store.current_decisions(project, screening.id)
        import_id = find_list(project, "T", "U").id
        preview = preview_update(project, screening, import_id)
        report = add_update(project, screening, import_id, "ann")
        assert preview == report
        assert (report.works, report.added, report.already_screened, report.already_queued,
                report.round) == (40, 20, 10, 10, 2)
        assert "20 new added as round 2; 10 already screened" in report.text()
        screening = store.find_screening(project, "T", "s")
        assert screening.size == 60 and screening.lists == (find_list(project, "T", "L").id,
                                                            import_id)
        assert store.current_decisions(project, screening.id) == before  # kept
        round_ = phases.current_round(project, screening.id)
        assert (round_.number, len(round_.items)) == (2, 20)
        u_records = {r for (r,) in project.db.execute(
            "SELECT id FROM records WHERE import_id = ?", [import_id])}
        assert set(round_.items) <= u_records
        assert project.db.execute("SELECT round, added, already_screened, already_queued, "
                                  "reviewer FROM screening_rounds").fetchall() == \
            [(2, 20, 10, 10, "ann")]

        assert round_counts(project, screening) == [RoundCount(1, None, 40, 10, 2),
                                                    RoundCount(2, "U", 20, 0, 0)]
        panel = screening_panel(project, screening)  # round 2 on its own
        assert (panel.round.number, panel.n_total, panel.screened) == (2, 20, 0)
        session = ScreeningSession(project, screening, "ann")
        served = [session.queue.next()]
        for _ in range(4):
            session.decide("exclude")
            served.append(session.shown)
        assert set(served) <= set(round_.items)  # the new round is served first
        panel = screening_panel(project, screening)
        assert (panel.n_total, panel.screened, panel.found) == (20, 4, 0)
        assert panel.estimate is None  # no round-1 record counts in round 2


def test_a_bad_update_changes_nothing(grown, tmp_path):
    with Project.open(grown) as project:
        screening = store.find_screening(project, "T", "s")
        import_id = find_list(project, "T", "U").id
        with pytest.raises(LitqError, match="already part of screening"):
            add_update(project, screening, find_list(project, "T", "L").id, "ann")
        records, labels = labelled_records(5, seed=9)
        other = write_labelled_csv(records, labels, tmp_path / "O.csv")
        run_job(ingest.import_file(project, other, topic="T2", role="results", name="O"))
        with pytest.raises(LitqError, match="not of the topic"):
            add_update(project, screening, find_list(project, "T2", "O").id, "ann")
        with pytest.raises(LitqError, match="reviewer"):
            add_update(project, screening, import_id, " ")
        assert store.find_screening(project, "T", "s") == screening
        assert phases.current_round(project, screening.id).number == 1
        add_update(project, screening, import_id, "ann")
        with pytest.raises(LitqError, match="already part of screening"):
            add_update(project, store.find_screening(project, "T", "s"), import_id, "ann")
        assert [s.name for s in updatable(project, "T")] == ["s"]


def test_an_update_of_known_works_only_adds_no_round(grown, tmp_path):
    records, labels = labelled_records(60, seed=3)
    again = write_labelled_csv(records[25:35], labels[25:35], tmp_path / "A.csv")
    with Project.open(grown) as project:
        run_job(ingest.import_file(project, again, topic="T", role="results", name="A"))
        screening = store.find_screening(project, "T", "s")
        report = add_update(project, screening, find_list(project, "T", "A").id, "ann")
        assert (report.added, report.already_screened, report.already_queued,
                report.round) == (0, 5, 5, None)
        assert "nothing new added" in report.text()
        assert phases.current_round(project, screening.id).number == 1


def test_each_round_has_its_own_random_phase_and_stopping_evidence(grown):
    with Project.open(grown) as project:
        screening = store.find_screening(project, "T", "s")
        session = ScreeningSession(project, screening, "ann")
        session.start_random(seed=2)  # round 1 switches after its 10 decisions
        for _ in range(5):
            session.decide("exclude")
        add_update(project, screening, find_list(project, "T", "U").id, "ann")
        screening = store.find_screening(project, "T", "s")
        session.refresh()  # the update, read in as the screen does
        assert session.round.number == 2 and not session.random_phase
        assert session.queue.ordering.name == "list"  # round 2 is ranked, in list order
        assert session.shown == session.round.items[0]
        for _ in range(6):
            session.decide("exclude")
        panel = screening_panel(project, screening)
        rule = next(v for v in panel.verdicts if v.name == "random_sample").decision
        # round 2 alone: N = 20, 6 screened, none relevant (round 1's 2 includes do not
        # count): K_tar = ⌊0/0.95⌋ + 1 = 1, p = (14 − n)/14 < 0.05 only for n = 14
        assert (panel.n_total, panel.screened, panel.found, panel.random_from) == \
            (20, 6, 0, None)
        assert rule.evidence["phase"] == "ranked"
        assert rule.evidence["random_needed_if_none_relevant"] == 14
        session.start_random(seed=4)
        round_ = phases.current_round(project, screening.id)
        assert (round_.number, round_.random.seed) == (2, 4)
        assert project.db.execute("SELECT round, seed FROM screening_random_phases "
                                  "ORDER BY round").fetchall() == [(1, 2), (2, 4)]
        assert session.shown in round_.items and session.shown not in session.labels
        session.decide("exclude")
        panel = screening_panel(project, screening)
        assert (panel.random_from, panel.screened) == (6, 7)
