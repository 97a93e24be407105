"""A query clause by clause on a hand-built topic: matches, core works, the core works only
a clause retrieves, the query without it, flags, missed core works and the own export."""

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import agreement, topic
from litqeval_gui.core.query.parser import parse
from litqeval_gui.core.records.ingest import import_file
from tests.support.topics import PCA


def ris(*records) -> str:
    out = []
    for title, abstract, doi in records:
        out += ["TY  - JOUR", f"TI  - {title}"] + ([f"AB  - {abstract}"] if abstract else [])
        out += ([f"DO  - {doi}"] if doi else []) + ["ER  - ", ""]
    return "\n".join(out)


C1 = ("Robotic knee arthroplasty outcomes", "Accuracy of the robot arm.", "10.1/c1")
C2 = ("Robotic hip arthroplasty", "Cup placement.", "10.1/c2")
C3 = ("Navigation in knee replacement", "Computer navigation.", "10.1/c3")
C4 = ("Acrobot hands-on surgery", "An acrobot trial; hands on.", "10.1/c4")
R1 = ("Robotic knee exoskeleton", "Gait support.", "10.2/r1")
R2 = ("Robotic hip simulator", "Wear testing.", "10.2/r2")
R3 = ("Exoskeleton design", "", "10.2/r3")
R4 = ("Robotic arm", "Industrial robots.", "10.2/r4")
O1 = ("Navigation of ships at sea", "Charts and stars.", "10.3/o1")
O2 = ("Knee pain in runners", "Running injuries.", "10.3/o2")
QUERY = "robotic AND (knee OR hip) OR navigation"


@pytest.fixture
def project(tmp_path):
    files = {"core": ris(C1, C2, C3, C4), "q": ris(C1, C2, R1, R2, R3, R4), "o": ris(O1, O2)}
    with Project.create(tmp_path / "p.litq") as p:
        for name, text in files.items():
            (tmp_path / f"{name}.ris").write_text(text, encoding="utf-8")
            run_job(import_file(p, tmp_path / f"{name}.ris", topic="T", name=name,
                                role="core" if name == "core" else "results",
                                query=QUERY if name == "q" else None))
        yield p


def test_each_clause_by_hand(project):
    a = topic.analyse(project, "T", parse(QUERY))
    assert (a.whole.works, a.whole.core, a.whole.recall, a.n_core) == (6, 3, 0.75, 4)
    got = {c.path: (c.kind, c.text, c.works, c.core, c.core_only, c.added,
                    None if c.without is None else (c.without.works, c.without.core))
           for c in a.clauses}
    assert got == {
        "1": ("or", QUERY, 6, 3, 0, 0, None),
        "1.1": ("and", "robotic AND (knee OR hip)", 4, 2, 2, 4, (2, 1)),
        "1.1.1": ("term", "robotic", 5, 2, 0, 0, (7, 3)),
        "1.1.2": ("or", "(knee OR hip)", 6, 3, 0, 0, (7, 3)),  # robotic OR navigation
        "1.1.2.1": ("term", "knee", 4, 2, 1, 2, (4, 2)),
        "1.1.2.2": ("term", "hip", 2, 1, 1, 2, (4, 2)),
        "1.2": ("term", "navigation", 2, 1, 1, 2, (4, 2)),
    }
    assert a.clauses[1].without.recall == 0.25
    assert [(m.title, m.words[:2]) for m in a.missed] == [(C4[0], ("acrobot", "hands"))]


def test_an_or_branch_bringing_many_works_and_no_core_is_flagged(project, monkeypatch):
    monkeypatch.setattr(topic, "FLAG_MIN", 2)
    a = topic.analyse(project, "T", parse("robotic AND knee OR runners OR exoskeleton"))
    flags = {c.text: c.flag for c in a.clauses if c.flag}
    # runners: O2 alone (1 work); exoskeleton: R3 alone plus R1 (already robotic knee)
    assert flags == {}
    a = topic.analyse(project, "T", parse("robotic AND knee OR (runners OR ships)"))
    assert {c.text: c.flag for c in a.clauses if c.flag} == {
        "(runners OR ships)": "brings 2 works of the query's 4 and no core publication"}


def test_the_query_on_its_own_export_says_why_records_are_not_matched(project):
    agreed = agreement.agreement(project, "T", "q", parse(QUERY))
    assert (agreed.records, agreed.matched) == (6, 4)
    assert dict(agreed.reasons) == {
        agreement.NO_ABSTRACT: 1,
        f"its text does not match {QUERY}": 1}
    assert sorted(e.title for e in agreed.examples) == [R3[0], R4[0]]
    narrow = agreement.agreement(project, "T", "q", parse("robotic AND knee NOT arm"))
    assert dict(narrow.reasons) == {"its text does not match knee": 3,  # C2, R2, R4
                                    agreement.NO_ABSTRACT: 1,
                                    "it holds what the query excludes: arm": 1}  # C1


def test_sp_cos_of_the_query_equals_the_evaluation_of_the_list_it_retrieves(project):
    from litqeval_gui.core.evaluation.engine import evaluate_topic

    evaluation = run_job(evaluate_topic(project, "T", PCA))
    listed = next(item for item in evaluation.lists if item.name == "q")
    a = topic.analyse(project, "T", parse("robotic OR exoskeleton"))  # list q's 6 works
    assert (a.whole.works, a.whole.core) == (6, 2)
    assert a.whole.sp_cos == pytest.approx(listed.methods["cos"].precision, abs=1e-12)
    assert a.whole.sp_cos is not None and 0 < a.whole.sp_cos <= 1
