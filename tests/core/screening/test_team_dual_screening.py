"""Dual screening stays dual: once a second reviewer has decided (made in this project or
merged from a colleague's copy), each reviewer's queue serves every record they have not
decided themselves; a screening set to single screening skips what anyone decided, and a
blind screening serves each reviewer their own undecided records as it always did."""

import shutil

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening import screening_project


def _decide(project, screening, reviewer, records):
    session = ScreeningSession(project, screening, reviewer)
    for record_id in records:
        session.decide("exclude", record_id=record_id)


@pytest.fixture(params=["here", "merged"])
def two(request, tmp_path):
    """Ann decided items 1–10 and Bo items 11–20 of screening S (30 items, not blind):
    Bo's made in the same project, or in his copy and merged."""
    path, _ = screening_project(tmp_path, 30)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "S", ["L"])
        ids = store.items(project, screening.id)
    bo_copy = tmp_path / "bo.litq"
    shutil.copy(path, bo_copy)
    with Project.open(path) as project:
        _decide(project, screening, "Ann", ids[:10])
        if request.param == "here":
            _decide(project, screening, "Bo", ids[10:20])
        else:
            with Project.open(bo_copy) as theirs:
                _decide(theirs, screening, "Bo", ids[10:20])
                export_decisions(theirs, screening, "Bo", tmp_path / "bo.jsonl")
            run_job(merge_decisions(project, tmp_path / "bo.jsonl"))
        assert {who: len(d) for who, d in team.by_reviewer(project, screening.id).items()} == {
            "Ann": 10, "Bo": 10}
        yield project, store.get_screening(project, screening.id), ids


def test_each_reviewers_queue_serves_what_they_have_not_decided(two):
    project, screening, ids = two
    ann = ScreeningSession(project, screening, "Ann")
    assert ann.queue.upcoming(10) == ids[10:20] and ann.shown == ids[10]
    assert (ann.screened, ann.order) == (10, ids[:10])
    bo = ScreeningSession(project, screening, "Bo")
    assert bo.queue.upcoming(10) == ids[:10] and bo.shown == ids[0]
    assert (bo.screened, bo.order) == (10, ids[10:20])
    ann.decide("include")  # her own decision on Bo's first record: a second opinion
    assert ann.shown == ids[11] and ann.labels[ids[10]] == "include"
    assert team.record_decisions(project, screening.id, ids[10])["Bo"].label == "exclude"
    assert ScreeningSession(project, screening, "Ann").screened == 11


def test_undoing_a_record_a_colleague_decided_too_serves_it_again(two):
    project, screening, ids = two
    ann = ScreeningSession(project, screening, "Ann")
    ann.decide("include")  # on ids[10], which Bo decided too
    ann.take_back()
    assert ids[10] not in ann.labels and ann.shown == ids[10] and ann.back_at is None


def test_single_screening_skips_what_anyone_decided(two):
    project, screening, ids = two
    assert not team.is_single_screening(project, screening)
    project.write(team.single_screening_op(screening, True))
    for reviewer in ("Ann", "Bo"):
        session = ScreeningSession(project, screening, reviewer)
        assert session.single_screening and session.shown == ids[20]
        assert session.screened == 20
    project.write(team.single_screening_op(screening, False))  # dual again
    assert ScreeningSession(project, screening, "Ann").shown == ids[10]


def test_a_refreshed_session_takes_in_the_setting_and_a_second_reviewer(tmp_path):
    path, _ = screening_project(tmp_path, 20)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "S", ["L"])
        ids = store.items(project, screening.id)
        ann = ScreeningSession(project, screening, "Ann")
        for _ in range(3):
            ann.decide("exclude")
        _decide(project, screening, "Bo", ids[3:6])
        ann.refresh()
        assert ann.shown == ids[3] and ann.screened == 3  # Bo's are Ann's to screen too
        project.write(team.single_screening_op(screening, True))
        ann.refresh()
        assert ann.shown == ids[6] and ann.screened == 6


def test_an_unnamed_reader_counts_everyones(two):
    project, screening, ids = two
    assert ScreeningSession(project, screening, "").shown == ids[20]  # e.g. screen-status


def test_one_reviewer_alone_counts_as_before(tmp_path):
    path, _ = screening_project(tmp_path, 10)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "S", ["L"])
        ids = store.items(project, screening.id)
        _decide(project, screening, "Ann", ids[:4])
        assert not team.screens_apart(project, screening, "Ann")
        session = ScreeningSession(project, screening, "Ann")
        assert session.screened == 4 and session.shown == ids[4]


def test_a_blind_screening_serves_each_reviewer_their_own_as_before(tmp_path):
    path, _ = screening_project(tmp_path, 30)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "S", ["L"], blind=True)
        ids = store.items(project, screening.id)
        _decide(project, screening, "Ann", ids[:10])
        _decide(project, screening, "Bo", ids[10:20])
        project.write(team.single_screening_op(screening, True))  # no effect while blind
        ann = ScreeningSession(project, screening, "Ann")
        assert ann.queue.upcoming(10) == ids[10:20] and ann.labels.keys() == set(ids[:10])
        bo = ScreeningSession(project, screening, "Bo")
        assert bo.queue.upcoming(10) == ids[:10] and bo.labels.keys() == set(ids[10:20])
