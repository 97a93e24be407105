"""Verdicts on matches: stored, and the works always equal a full regroup."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest, linkage, matches, works
from tests.support import synthetic


def _ris(path, doi, author):
    path.write_text(f"TY  - JOUR\nAU  - {author}\nTI  - Deep learning for screening of "
                    f"medical abstracts\nPY  - 2020\nDO  - {doi}\nER  - \n\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path):
    """Three versions of one paper with three DOIs: three uncertain matches."""
    with Project.create(tmp_path / "p.litq") as p:
        for name, doi, author in (("core", "10.1000/published", "Roe, R"),
                                  ("r1", "10.1101/preprint", "Roe, Richard"),
                                  ("r2", "10.5281/zenodo.9", "Roe, R.")):
            run_job(ingest.import_file(p, _ris(tmp_path / f"{name}.ris", doi, author),
                                       topic="T", role="core" if name == "core" else "results",
                                       name=name))
        yield p


def _work_ids(project):
    return dict(project.db.execute("SELECT id, work_id FROM records ORDER BY id"))


def _pair(project, x, y):
    return next(m for m in matches.matches(project, "T")
                if {m.a.list_name, m.b.list_name} == {x, y})


def test_verdicts_keep_works_equal_to_a_full_regroup(project):
    assert len(matches.matches(project, "T", uncertain=True)) == 3
    steps = [("core", "r1", True), ("r1", "r2", False), ("r1", "r2", True),
             ("core", "r1", False), ("core", "r2", True), ("r1", "r2", False)]
    # works after each step, by hand: {c,r1}{r2}; same; {c,r1,r2}; {c}{r1,r2} (c–r1 taken
    # away, r1–r2 still holds); {c,r2}{r1} (c–r1 stays rejected: of the confirmations
    # c–r2 and r1–r2 that would join them, the newer one wins); {c,r2}{r1}
    expected_groups = [2, 2, 1, 2, 2, 2]
    for (x, y, accept), groups in zip(steps, expected_groups, strict=True):
        link_id = _pair(project, x, y).id
        assert project.write(matches.decide_op(link_id, accept)).verdicts
        assert matches.match(project, link_id).status == ("confirmed" if accept else "rejected")
        fast = _work_ids(project)
        with project.transaction() as db:
            works.regroup(db, project.topic_id("T"))
        assert _work_ids(project) == fast, (x, y, accept)
        assert len(set(fast.values())) == groups
    assert matches.matches(project, "T", uncertain=True) == []


def test_unknown_match_id_is_a_clear_error(project):
    with pytest.raises(ProjectError, match="no match with id 999"):
        project.write(matches.decide_op(999, accept=True))


def _import(project, path, name, role="results"):
    return run_job(ingest.import_file(project, path, topic="T", role=role, name=name))


def _work(project, list_name):
    return project.db.execute("SELECT r.work_id FROM records r JOIN imports i ON i.id = "
                              "r.import_id WHERE i.name = ?", [list_name]).fetchone()[0]


def test_a_rejection_holds_when_a_later_import_links_both_records(project, tmp_path):
    """c ≠ r1 (two DOIs: uncertain, rejected); then a record without DOI whose title and
    year equal both is certain to each: it joins one work, never both into one."""
    project.write(matches.decide_op(_pair(project, "core", "r1").id, accept=False))
    bridge = tmp_path / "bridge.ris"
    bridge.write_text("TY  - JOUR\nTI  - Deep learning for screening of medical abstracts\n"
                      "PY  - 2020\nER  - \n", encoding="utf-8")
    summary = _import(project, bridge, "bridge")
    assert summary.new == 0 and summary.duplicate == 1
    assert _work(project, "core") != _work(project, "r1")
    assert _work(project, "bridge") in (_work(project, "core"), _work(project, "r1"))
    statuses = [s for (s,) in project.db.execute("SELECT status FROM links ORDER BY id")]
    assert statuses.count("rejected") == 1 and statuses.count("auto") == 3  # bridge × 3


def test_rejecting_a_match_splits_records_joined_through_a_third(tmp_path):
    with Project.create(tmp_path / "q.litq") as project:
        _import(project, _ris(tmp_path / "c.ris", "10.1000/published", "Roe, R"), "core", "core")
        _import(project, _ris(tmp_path / "p.ris", "10.1101/preprint", "Roe, R"), "preprint")
        bridge = tmp_path / "b.ris"
        bridge.write_text("TY  - JOUR\nTI  - Deep learning for screening of medical "
                          "abstracts\nPY  - 2020\nER  - \n", encoding="utf-8")
        _import(project, bridge, "bridge")
        # two DOIs are never joined automatically, not even through the bridge
        assert _work(project, "core") != _work(project, "preprint")
        link_id = _pair(project, "core", "preprint").id
        project.write(matches.decide_op(link_id, accept=True))
        assert _work(project, "core") == _work(project, "preprint")  # the user joined them
        assert project.write(matches.decide_op(link_id, accept=False)) == Changes(verdicts=True, works=True)
        assert matches.match(project, link_id).status == "rejected"
        assert _work(project, "core") != _work(project, "preprint")
        assert _work(project, "bridge") == _work(project, "core")  # the first certain link
        fast = _work_ids(project)
        with project.transaction() as db:
            works.regroup(db, project.topic_id("T"))
        assert _work_ids(project) == fast


def test_a_rejection_applies_to_a_reimport_of_the_same_records(project, tmp_path):
    project.write(matches.decide_op(_pair(project, "core", "r1").id, accept=False))
    again = _ris(tmp_path / "again.ris", "10.1101/preprint", "Roe, Richard A.")  # new file
    _import(project, again, "r1 again")
    rejected = project.db.execute("SELECT a, b FROM links WHERE status = 'rejected'").fetchall()
    assert len(rejected) == 2  # the user's verdict, and the same verdict for the re-import
    assert _work(project, "r1 again") == _work(project, "r1") != _work(project, "core")
    assert all(m.status != "uncertain" or {m.a.list_name, m.b.list_name} != {"core", "r1 again"}
               for m in matches.matches(project, "T"))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 14), st.booleans()), min_size=1, max_size=12))
def test_any_sequence_of_verdicts_keeps_works_equal_to_a_full_regroup(steps):
    """Six versions of one paper with six DOIs (15 uncertain matches), verdicts in any order."""
    with tempfile.TemporaryDirectory() as tmp, Project.create(Path(tmp) / "s.litq") as project:
        for k in range(6):
            path = _ris(Path(tmp) / f"v{k}.ris", f"10.1000/v{k}", "Roe, R")
            _import(project, path, f"v{k}", "core" if k == 0 else "results")
        ids = [m.id for m in matches.matches(project, "T")]
        assert len(ids) == 15
        for index, accept in steps:
            project.write(matches.decide_op(ids[index], accept))
            fast = _work_ids(project)
            with project.transaction() as db:
                works.regroup(db, project.topic_id("T"))
            assert _work_ids(project) == fast
            rejected = project.db.execute("SELECT a, b FROM links WHERE status = 'rejected'")
            assert all(fast[a] != fast[b] for a, b in rejected)


def test_decide_many_is_one_verdict_on_each_and_the_works_of_a_full_regroup(project):
    """The review's bulk actions: accepting the core pairs joins all three versions; then
    rejecting two pairs at once splits the works as a full regroup would."""
    pairs = [_pair(project, "core", "r1").id, _pair(project, "core", "r2").id]
    assert project.write(matches.decide_many_op(pairs, True)) == Changes(verdicts=True, works=True)
    assert len(set(_work_ids(project).values())) == 1
    assert project.write(matches.decide_many_op(pairs, False)) == Changes(verdicts=True, works=True)
    assert [matches.match(project, i).status for i in pairs] == ["rejected", "rejected"]
    fast = _work_ids(project)
    with project.transaction() as db:
        works.regroup(db, project.topic_id("T"))
    assert _work_ids(project) == fast
    assert len(set(fast.values())) == 3  # r1-r2 still awaits its verdict: three works


def test_decide_many_with_an_unknown_id_changes_nothing(project):
    known = _pair(project, "core", "r1").id
    with pytest.raises(ProjectError, match="no match with id 999"):
        project.write(matches.decide_many_op([known, 999], False))
    assert matches.match(project, known).status == "uncertain"


def test_a_regroup_plan_reads_only_linked_records_yet_repairs_any_work(tmp_path):
    """plan_regroup reads the records links name and those not their own work, and plans
    what grouping every record of the topic by its links gives (linkage.group over all of
    them): a record set to another's work without a link goes back to its own, a linked
    one joins its group, the rest is left alone."""
    records, _ = synthetic.generate(200, dup_rate=0.2, seed=11)
    exporting.export_records(records, tmp_path / "a.ris", "ris")
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, tmp_path / "a.ris", topic="T", role="results"))
        db = project.db
        linked = {x for row in db.execute("SELECT a, b FROM links WHERE status = 'auto'")
                  for x in row}
        alone = [key for (key,) in db.execute("SELECT id FROM records ORDER BY id")
                 if key not in linked]
        assert len(linked) > 40 and len(alone) > 100
        a, b = db.execute("SELECT a, b FROM links WHERE status = 'auto' LIMIT 1").fetchone()
        project.write(lambda p: p.db.execute(  # damaged: two unlinked, two linked records
            "UPDATE records SET work_id = CASE id WHEN ? THEN ? WHEN ? THEN ? ELSE id END "
            "WHERE id IN (?, ?, ?, ?)", [alone[0], alone[1], alone[2], alone[2] + 1000,
                                         a, b, alone[0], alone[2]]) and Changes())
        current = dict(db.execute("SELECT id, work_id FROM records"))
        links = [linkage.Link(x, y, method, score, status == "auto") for x, y, method, score,
                 status in db.execute("SELECT a, b, method, score, status FROM links "
                                      "WHERE status != 'uncertain' ORDER BY a, b")]
        dois = dict(db.execute("SELECT id, doi FROM records WHERE doi IS NOT NULL"))
        grouped = linkage.group(current, links, dois)
        expected = sorted((work, key) for key, work in grouped.items() if current[key] != work)
        plan = sorted(works.plan_regroup(db, project.topic_id("T")))
    assert plan == expected
    assert (alone[0], alone[0]) in plan and (alone[2], alone[2]) in plan
    assert b in {key for _, key in plan} and len(plan) == 3  # b back to its group
