"""Screening-wide reads honour resolutions: the final decision, the
agreement after resolution and its export, the screening export, PRISMA, pooling and
known labels — on the constructed two-reviewer case of test_team_conflicts."""

import csv
import json
import math

import krippendorff
import pytest
from sklearn.metrics import cohen_kappa_score

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.pooling import state
from litqeval_gui.core.pooling import store as pool_store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.export import agreement_path, export_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_flow
from litqeval_gui.core.screening.ranking import known
from litqeval_gui.core.screening.reviewers import team
from tests.core.screening.test_team_conflicts import ADA, BOB
from tests.support.pooling import docid, pool_project
from tests.support.screening import screening_project


@pytest.fixture
def pair(tmp_path):
    """Screening s: Ada decided 8 records, Bob the same 8 and a 9th (conflicts at the
    2nd, 5th and 7th record)."""
    path, _ = screening_project(tmp_path, 12)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        ids = store.items(project, screening.id)
        for reviewer, labels in (("Ada", ADA), ("Bob", [*BOB, "include"])):
            for record_id, label in zip(ids, labels, strict=False):
                project.write(store.decide_op(screening, record_id, label,
                                              store.Context(reviewer)))
        yield project, screening, ids


def test_final_events_take_the_resolution_and_leave_out_open_conflicts(pair):
    project, screening, ids = pair
    final = {e.record_id: (e.label, e.reviewer) for e in team.final_events(project, screening.id)}
    assert set(final) == {ids[0], ids[2], ids[3], ids[5], ids[7], ids[8]}  # 3 open conflicts
    project.write(store.resolve_op(screening, ids[1], "include", "Cy"))
    project.write(store.resolve_op(screening, ids[6], "exclude", team.CONSENSUS))
    final = {e.record_id: (e.label, e.reviewer) for e in team.final_events(project, screening.id)}
    assert final[ids[1]] == ("include", "Cy") and final[ids[6]] == ("exclude", "consensus")
    assert ids[4] not in final
    assert team.final_decisions(project, screening.id) == {r: v[0] for r, v in final.items()}
    # a resolution of a record nobody decided is its final decision too
    project.write(store.resolve_op(screening, ids[10], "exclude", "Cy"))
    assert team.final_decisions(project, screening.id)[ids[10]] == "exclude"


def test_final_events_of_a_blind_reviewer_are_their_own(tmp_path):
    path, _ = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "b", ["L"], blind=True)
        ids = store.items(project, screening.id)
        project.write(store.decide_op(screening, ids[0], "include", store.Context("Ada")))
        project.write(store.decide_op(screening, ids[0], "exclude", store.Context("Bob")))
        project.write(store.decide_op(screening, ids[1], "exclude", store.Context("Bob")))
        project.write(store.resolve_op(screening, ids[0], "exclude", "Cy"))
        own = team.final_events(project, screening.id, "Ada")
        assert [(e.record_id, e.label, e.reviewer) for e in own] == [(ids[0], "include", "Ada")]
        everyone = {e.record_id: e.label for e in team.final_events(project, screening.id)}
        assert everyone == {ids[0]: "exclude", ids[1]: "exclude"}
        with pytest.raises(LitqError, match="has not decided 1 of the 2"):
            known.screening_labels(project, screening, ids[:2], "Ada")
        assert known.screening_labels(project, screening, ids[:1], "Ada").tolist() == [True]
        assert known.screening_labels(project, screening, ids[:2]).tolist() == [False, False]


def test_agreement_after_resolution(pair):
    project, screening, ids = pair
    project.write(store.resolve_op(screening, ids[1], "include", team.CONSENSUS))
    (result,) = team.agreement(project, screening).pairs
    assert result.kappa.table == ((2, 1, 0), (1, 3, 0), (1, 0, 0))  # before, unchanged
    # after: the 2nd record reads include for both: Ada inc -> Bob (3 inc, 0 exc)
    assert result.after.table == ((3, 0, 0), (1, 3, 0), (1, 0, 0))
    # p_o = 6/8; rows (3, 4, 1)/8, columns (5, 3, 0)/8: p_e = 27/64; κ = 21/37
    assert result.after.kappa == pytest.approx(21 / 37)
    after_ada, after_bob = list(ADA), list(BOB)
    after_bob[1] = "include"
    assert result.after.kappa == pytest.approx(cohen_kappa_score(after_ada, after_bob))
    assert result.after.agreement == pytest.approx(6 / 8)
    assert result.weighted is None and result.weighted_after is None
    # per-category agreement 2·n_jj/(n_j· + n_·j): include 4/7, exclude 6/8, maybe 0/1
    assert result.reliability.specific == pytest.approx((4 / 7, 6 / 8, 0.0))
    assert result.reliability_after.specific == pytest.approx((6 / 8, 6 / 7, 0.0))
    # α over both reviewers; Bob's 9th record has one decision and is left out. Coincidences
    # o = T + Tᵀ = [[4, 2, 1], [2, 6, 0], [1, 0, 0]], n_c = (7, 8, 1), n = 16:
    # α = 1 − 15·6 / (2·(56 + 7 + 8)) = 26/71
    summary = team.agreement(project, screening)
    assert summary.alpha.alpha == pytest.approx(26 / 71)
    assert (summary.alpha.units, summary.alpha.raters) == (8, 2)
    assert summary.alpha_ordinal is None
    ratings = [[{"include": 0, "exclude": 1, "maybe": 2}[v] for v in ADA],
               [{"include": 0, "exclude": 1, "maybe": 2}[v] for v in BOB]]
    assert summary.alpha.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=ratings, level_of_measurement="nominal"))


def test_agreement_of_a_screening_nobody_decided_yet(tmp_path):
    path, _ = screening_project(tmp_path, 3)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        summary = team.agreement(project, screening)
    assert summary.pairs == [] and summary.alpha.raters == 0
    assert math.isnan(summary.alpha.alpha)


def test_agreement_written_as_json_and_csv(pair, tmp_path):
    project, screening, ids = pair
    project.write(store.resolve_op(screening, ids[1], "include", team.CONSENSUS))
    assert team.write_agreement(project, screening, tmp_path / "a.json") == 1
    document = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    (entry,) = document["pairs"]
    assert (entry["a"], entry["b"], entry["both"], entry["agree"]) == ("Ada", "Bob", 8, 5)
    assert entry["kappa"] == pytest.approx(1 / 3)
    assert entry["after_resolution"]["kappa"] == pytest.approx(21 / 37)
    assert entry["after_resolution"]["table"] == [[3, 0, 0], [1, 3, 0], [1, 0, 0]]
    assert (document["resolved"], document["unresolved"]) == (1, 2)
    team.write_agreement(project, screening, tmp_path / "a.csv")
    with open(tmp_path / "a.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["when"], r["weights"], r["both"], r["agree"]) for r in rows] == [
        ("before", "none", "8", "5"), ("after resolution", "none", "8", "6"),
        ("before", "krippendorff nominal", "8", "")]
    assert float(rows[1]["kappa"]) == pytest.approx(21 / 37)
    assert rows[0]["table"] == "2 1 0 | 1 3 0 | 1 0 0"
    # PABAK over three labels: (3·5/8 − 1)/2; α = 26/71 (test_agreement_after_resolution)
    assert float(rows[0]["pabak"]) == pytest.approx(7 / 16) == entry["pabak"]
    assert float(rows[2]["alpha"]) == pytest.approx(26 / 71)
    assert document["alpha"]["nominal"] == {"alpha": pytest.approx(26 / 71), "level": "nominal",
                                            "units": 8, "reviewers": 2, "pairable": 16}
    assert entry["specific_agreement"] == {"include": pytest.approx(4 / 7), "exclude": 0.75,
                                           "maybe": 0.0}


def test_the_screening_export_reads_final_decisions_and_writes_the_agreement(pair, tmp_path):
    project, screening, ids = pair
    project.write(store.resolve_op(screening, ids[1], "include", "Cy", reason="on rereading"))
    target = tmp_path / "out" / "s.csv"
    target.parent.mkdir()
    assert export_screening(project, screening, target, "csv") == 12
    with open(target, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    decisions = [(r["decision"], r["reviewer"]) for r in rows]
    assert decisions[1] == ("include", "Cy") and rows[1]["reason"] == "on rereading"
    assert decisions[4] == ("conflict", "Ada, Bob") and decisions[6] == ("conflict", "Ada, Bob")
    assert decisions[0][0] == "include" and decisions[9] == ("undecided", "")
    assert agreement_path(target) == target.parent / "s.agreement.csv"
    assert agreement_path(target).is_file()
    assert export_screening(project, screening, tmp_path / "c.csv", "csv",
                            labels={"conflict"}) == 2


def test_a_one_reviewer_export_writes_no_agreement(tmp_path):
    path, _ = screening_project(tmp_path, 4)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        ids = store.items(project, screening.id)
        project.write(store.decide_op(screening, ids[0], "include", store.Context("Ada")))
        export_screening(project, screening, tmp_path / "s.csv", "csv")
    assert not (tmp_path / "s.agreement.csv").exists()


def test_prisma_counts_the_resolution(pair):
    project, screening, ids = pair
    flow = prisma_flow(project, "T")
    assert len(flow.screened) == 9  # everything decided, conflicts too
    # final: ids 0, 5, 8 include (sought, no full text yet); 2, 3, 7 exclude; 1, 4, 6 open
    assert sorted(flow.sought) == sorted([ids[0], ids[5], ids[8]])
    assert sorted(flow.excluded_screening) == sorted([ids[2], ids[3], ids[7]])
    assert sorted(flow.records("pending_screening", "in conflict")) == sorted(
        [ids[1], ids[4], ids[6]])
    project.write(store.resolve_op(screening, ids[6], "exclude", team.CONSENSUS))
    project.write(store.resolve_op(screening, ids[4], "include", team.CONSENSUS))
    flow = prisma_flow(project, "T")
    assert sorted(flow.excluded_screening) == sorted([ids[2], ids[3], ids[6], ids[7]])
    assert ids[4] in flow.sought  # Ada's maybe, Bob's include: resolved include
    assert flow.records("pending_screening") == [ids[1]]


def test_pooling_judges_by_the_final_decision(tmp_path):
    runs = {"A": ["d1", "d2", "d3"], "B": ["d2", "d4", "d1"]}
    with Project.open(pool_project(tmp_path, runs, None)) as project:
        pool = pool_store.create_pool(project, "T", "P", ["A", "B"], pool_store.settings())
        state.advance(project, pool)  # depth 1: d1, d2
        screening = store.get_screening(project, pool.screening_id)
        record = {docid(project, r): r for r in store.items(project, screening.id)}
        for reviewer, label in (("Ada", "include"), ("Bob", "exclude")):
            for doc in ("d1", "d2"):
                project.write(store.decide_op(screening, record[doc],
                                              label if doc == "d1" else "exclude",
                                              store.Context(reviewer)))
        pool = pool_store.get_pool(project, pool.id)
        before = state.pool_state(project, pool)
        assert len(before.pending) == 1  # d1: Ada include, Bob exclude, unresolved
        project.write(store.resolve_op(screening, record["d1"], "include", team.CONSENSUS))
        after = state.pool_state(project, pool)
        assert len(after.pending) == 0 and after.nrels.tolist()[0] == 1
