"""Merging a whole copy of the project takes only the events of the reviewers named
(by default the copy's only reviewer): a doctored copy cannot speak for anyone else.
Before, every reviewer's events of the copy came in, so an 'Ada' include planted in
Bob's copy turned Ada's exclude into include."""

import shutil

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import WhoseDecisions, merge_decisions
from tests.support.screening import screening_project


@pytest.fixture
def copies(tmp_path):
    """Ada's project (she excluded the first record) and Bob's copy of it, where Bob
    decided two records, undid nothing, and someone planted an 'Ada' include on the
    first record and an undo by Bob aimed at Ada's exclude."""
    ada, _ = screening_project(tmp_path, 12)
    with Project.open(ada) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        first, second, third = store.items(project, screening.id)[:3]
        project.write(store.decide_op(screening, first, "exclude", store.Context("Ada")))
    bob = tmp_path / "bob.litq"
    shutil.copy(ada, bob)
    with Project.open(bob) as project:
        screening = store.find_screening(project, "T", "s")
        for record in (second, third):
            project.write(store.decide_op(screening, record, "include", store.Context("Bob")))
        project.write(store.decide_op(screening, first, "include", store.Context("Ada")))
        ada_exclude = project.db.execute(
            "SELECT MIN(id) FROM screening_events WHERE reviewer = 'Ada'").fetchone()[0]
        project.write(lambda p: p.db.execute(
            "INSERT INTO screening_events (screening_id, record_id, kind, target, reviewer, at, "
            "phase) VALUES (?, ?, 'undo', ?, 'Bob', '2999-01-01T00:00:00+00:00', "
            "'title_abstract')", [screening.id, first, ada_exclude]) and store.DECISIONS)
    return ada, bob, first


def adas(path, record):
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "s")
        return team.by_reviewer(project, screening.id)["Ada"][record].label


def merge(path, source, reviewers=None):
    with Project.open(path) as project:
        return run_job(merge_decisions(project, source, reviewers=reviewers))


def count(path):
    with Project.open(path, readonly=True) as project:
        return project.db.execute("SELECT COUNT(*) FROM screening_events").fetchone()[0]


def test_a_copy_of_several_reviewers_asks_whose_decisions_to_take(copies):
    ada, bob, first = copies
    with pytest.raises(WhoseDecisions) as asked:
        merge(ada, bob)
    assert str(asked.value) == ("bob.litq holds the decisions of 2 reviewers ('Ada': 1 new, "
                                "'Bob': 3 new); say whose to take")
    assert asked.value.reviewers == {"Ada": 1, "Bob": 3}
    assert (count(ada), adas(ada, first)) == (1, "exclude")


def test_a_copy_merges_only_the_named_reviewers_own_events(copies):
    ada, bob, first = copies
    report = merge(ada, bob, ["Bob"])
    assert (report.added_by, report.not_taken, report.present) == (
        {"Bob": 2}, {"Ada": 1, "Bob": 1}, 1)  # the planted include; the undo of Ada's
    assert adas(ada, first) == "exclude"
    assert merge(ada, bob, ["Bob"]).added == 0
    with pytest.raises(LitqError, match=r"^bob.litq holds no event of 'Carol'; its "
                                        r"reviewers: 'Ada', 'Bob'$"):
        merge(ada, bob, ["Carol"])


def test_a_copy_of_one_reviewer_needs_no_name(tmp_path, copies):
    ada, _, _ = copies
    only_ada = tmp_path / "only_ada.litq"
    shutil.copy(ada, only_ada)
    fresh = tmp_path / "fresh.litq"
    shutil.copy(ada, fresh)
    with Project.open(fresh) as project:
        project.write(lambda p: p.db.execute("DELETE FROM screening_events") and store.DECISIONS)
    report = merge(fresh, only_ada)
    assert (report.added_by, report.not_taken) == ({"Ada": 1}, {})
