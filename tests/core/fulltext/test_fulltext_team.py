"""Two reviewers at full text: not_retrieved is a category of the agreement (and left
out of the weighted κ of grades), and a colleague's not_retrieved merges in."""

import math

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions
from tests.support.prisma import build_review

ANN, BOB = store.Context(reviewer="ann"), store.Context(reviewer="bob")


def test_not_retrieved_in_agreement_and_merge(tmp_path):
    path = build_review(tmp_path)
    with Project.open(path) as project:
        ta = store.find_screening(project, "T", "ta")
        ft = create_fulltext_screening(project, ta, "full")
        first, second, third = store.items(project, ft.id)[:3]
        for who, labels in ((ANN, ("include", "not_retrieved", "not_retrieved")),
                            (BOB, ("include", "not_retrieved", "include"))):
            for record, label in zip((first, second, third), labels, strict=True):
                project.write(store.decide_op(ft, record, label, who))
        pair, = team.agreement(project, ft).pairs
        kappa = pair.kappa
        table = dict(zip(kappa.labels, kappa.table, strict=True))
        assert kappa.labels[-1] == "not_retrieved" and kappa.n == 3
        assert table["not_retrieved"] == (1, 0, 0, 1) and table["include"] == (1, 0, 0, 0)
        assert math.isclose(kappa.agreement, 2 / 3) and pair.weighted is None


def test_grades_weighted_kappa_leaves_not_retrieved_out_and_merge_takes_it(tmp_path):
    path = build_review(tmp_path)
    with Project.open(path) as project:
        ta = store.find_screening(project, "T", "ta")
        ft = store.create_screening(project, "T", "graded ft", ["pubmed"], phase="full_text",
                                    scheme="graded", records=store.items(project, ta.id)[:3])
        first, second, third = store.items(project, ft.id)
        for record, label in zip((first, second, third), ("3", "not_retrieved", "1"), strict=True):
            project.write(store.decide_op(ft, record, label, ANN))
    copy = tmp_path / "bob.litq"
    copy.write_bytes(path.read_bytes())
    with Project.open(copy) as theirs:
        ft = store.find_screening(theirs, "T", "graded ft")
        for record, label in zip((first, second, third), ("3", "2", "not_retrieved"), strict=True):
            theirs.write(store.decide_op(ft, record, label, BOB))
        export_decisions(theirs, ft, "bob", tmp_path / "bob.json")
    with Project.open(path) as project:
        run_job(merge_decisions(project, tmp_path / "bob.json"))
        ft = store.find_screening(project, "T", "graded ft")
        bob = {e.record_id: e.label for e in store.reviewer_decisions(project, ft.id, "bob")}
        assert bob == {first: "3", second: "2", third: "not_retrieved"}
        pair, = team.agreement(project, ft).pairs
        assert (pair.kappa.n, pair.weighted.n) == (3, 1)  # only the first is graded by both
        assert pair.weighted.table[3][3] == 1
