"""Conflicts, resolution and agreement on a constructed two-reviewer case."""

import pytest
from sklearn.metrics import cohen_kappa_score

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from tests.support.screening import screening_project

ADA = ["include", "include", "exclude", "exclude", "maybe", "include", "exclude", "exclude"]
BOB = ["include", "exclude", "exclude", "exclude", "include", "include", "include", "exclude"]


@pytest.fixture
def pair(tmp_path):
    """Screening s decided by Ada (8 records) and Bob (the same 8 plus a 9th)."""
    path, _ = screening_project(tmp_path, 20)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        ids = store.items(project, screening.id)
        for reviewer, labels in (("Ada", ADA), ("Bob", [*BOB, "include"])):
            for record_id, label in zip(ids, labels, strict=False):
                project.write(store.decide_op(screening, record_id, label,
                                              store.Context(reviewer)))
        yield project, screening, ids


def test_conflicts_of_a_constructed_case(pair):
    project, screening, ids = pair
    found = team.conflicts(project, screening.id)
    # differ at 2 (inc/exc), 5 (maybe/inc), 7 (exc/inc); the 9th only Bob decided
    assert [c.record_id for c in found] == [ids[1], ids[4], ids[6]]
    assert {who: e.label for who, e in found[1].decisions.items()} == {
        "Ada": "maybe", "Bob": "include"}
    assert all(c.resolution is None for c in found)
    assert team.conflicts(project, screening.id, pair=("Ada", "Eve")) == []
    assert team.seen_by_one(project, screening.id) == [ids[8]]  # Bob's 9th


def test_resolution_sets_the_final_decision_not_the_reviewers(pair):
    project, screening, ids = pair
    before = {who: {r: e.label for r, e in d.items()}
              for who, d in team.by_reviewer(project, screening.id).items()}
    assert ids[1] not in team.final_decisions(project, screening.id)  # unresolved
    project.write(store.resolve_op(screening, ids[1], "include", team.CONSENSUS))
    final = team.final_decisions(project, screening.id)
    assert final[ids[1]] == "include"
    assert final[ids[0]] == "include" and final[ids[2]] == "exclude"  # agreed
    assert final[ids[8]] == "include"  # decided by Bob alone
    after = {who: {r: e.label for r, e in d.items()}
             for who, d in team.by_reviewer(project, screening.id).items()}
    assert after == before
    assert store.current_label(project, screening.id, ids[1]) == "exclude"  # Bob's, as before
    resolved = team.conflicts(project, screening.id)
    assert resolved[0].resolution.reviewer == "consensus"
    summary = team.agreement(project, screening)
    assert (summary.resolved, summary.unresolved) == (1, 2)
    with pytest.raises(LitqError):
        store.resolve_op(screening, ids[1], "perhaps", "Eve")


def test_agreement_of_the_constructed_case(pair):
    project, screening, _ = pair
    (result,) = team.agreement(project, screening).pairs
    assert (result.a, result.b, result.kappa.n) == ("Ada", "Bob", 8)
    # table rows Ada, columns Bob over include/exclude/maybe:
    # include: (2 inc, 1 exc); exclude: (1 inc, 3 exc); maybe: (1 inc)
    assert result.kappa.table == ((2, 1, 0), (1, 3, 0), (1, 0, 0))
    # p_o = 5/8; rows (3, 4, 1), columns (4, 4, 0): p_e = (12 + 16)/64 = 7/16
    assert result.kappa.kappa == pytest.approx((5 / 8 - 7 / 16) / (1 - 7 / 16))  # = 1/3
    assert result.kappa.kappa == pytest.approx(cohen_kappa_score(ADA, BOB))
    assert result.weighted is None


def test_new_screenings_get_distinct_uuids(pair):
    project, screening, _ = pair
    other = store.create_screening(project, "T", "s2", ["L"])
    assert len(screening.uuid) == 32 and len(other.uuid) == 32
    assert screening.uuid != other.uuid
    assert store.get_screening(project, screening.id).uuid == screening.uuid


def test_graded_screening_conflicts_and_weighted_kappa(tmp_path):
    path, _ = screening_project(tmp_path, 10)
    ada, bob = ["0", "1", "2", "3", "3", "0"], ["0", "2", "2", "3", "1", "0"]
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "g", ["L"], scheme="graded")
        ids = store.items(project, screening.id)
        for reviewer, grades in (("Ada", ada), ("Bob", bob)):
            for record_id, grade in zip(ids, grades, strict=False):
                project.write(store.decide_op(screening, record_id, grade,
                                              store.Context(reviewer)))
        assert [c.record_id for c in team.conflicts(project, screening.id)] == [ids[1], ids[4]]
        (result,) = team.agreement(project, screening).pairs
    assert result.kappa.labels == ("0", "1", "2", "3")
    assert result.weighted.weights == "linear"
    assert result.weighted.kappa == pytest.approx(
        cohen_kappa_score(ada, bob, weights="linear", labels=["0", "1", "2", "3"]))
    assert result.kappa.kappa == pytest.approx(cohen_kappa_score(ada, bob))
