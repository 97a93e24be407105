"""Renaming and deleting lists and topics: counts before/after, cascades, one transaction.

The small files (tests/conftest.py): core = 3 records (core.1, core.2, core.3);
scopus = 5 records of 4 works: core.1 (by DOI), core.3 (by title), agri twice, heat.
Links: core.1–scopus, core.3–scopus, agri–agri: 3.
"""

import pytest

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import lists, matches, queries, works
from litqeval_gui.core.records.ingest import import_file


@pytest.fixture
def project(tmp_path, small_files):
    core, results = small_files
    with Project.create(tmp_path / "p.litq") as p:
        run_job(import_file(p, core, topic="T", role="core"))
        run_job(import_file(p, results, topic="T", role="results", name="scopus"))
        run_job(import_file(p, results, topic="U", role="results", name="other"))
        yield p


def _count(p, table, where="1"):
    return p.db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}").fetchone()[0]


def _state(p):
    return {t: _count(p, t) for t in ("topics", "imports", "records", "links")} | {
        "works": sorted(r[0] for r in p.db.execute("SELECT work_id FROM records"))}


def test_deleting_a_result_list_says_what_goes_and_removes_exactly_that(project):
    assert _count(project, "links", "topic_id = 1") == 3
    impact = lists.deletion_impact(project, "T", "scopus")
    assert (impact.records, impact.works, impact.core_works, impact.matches, impact.verdicts,
            impact.topic_goes) == (5, 2, 0, 3, 0, False)
    changes = project.write(lists.delete_list_op("T", "scopus"))
    assert changes.lists and changes.records and not changes.verdicts
    assert [(i.topic, i.name) for i in queries.lists(project)] == [("T", "core"), ("U", "other")]
    assert _count(project, "records") == 3 + 5
    assert _count(project, "links", "topic_id = 1") == 0  # cascaded with the records
    assert project.db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert queries.topics(project)[0].core == 3


def test_deleting_the_core_set_regroups_the_lists_that_shared_its_works(project):
    impact = lists.deletion_impact(project, "T", "core")
    # core.2 only is held by no other list; core.1 and core.3 stay as scopus records
    assert (impact.records, impact.works, impact.core_works, impact.matches) == (3, 1, 1, 2)
    project.write(lists.delete_list_op("T", "core"))
    [scopus] = queries.lists(project, "T")
    assert (scopus.size, scopus.records, scopus.matched) == (4, 5, 0)
    ids = {r[0] for r in project.db.execute("SELECT id FROM records")}
    assert {r[0] for r in project.db.execute("SELECT work_id FROM records")} <= ids
    before = {r[0]: r[1] for r in project.db.execute("SELECT id, work_id FROM records")}
    works.regroup(project.db, project.topic_id("T"))  # already what a full regroup gives
    assert {r[0]: r[1] for r in project.db.execute("SELECT id, work_id FROM records")} == before


def test_verdicts_on_the_deleted_records_are_counted_and_go(project):
    [link] = [m for m in matches.matches(project, "T") if m.b.list_name == "scopus"
              and m.a.doi == "10.1000/core.1"]
    project.write(matches.decide_op(link.id, accept=False))
    impact = lists.deletion_impact(project, "T", "scopus")
    assert (impact.matches, impact.verdicts) == (3, 1)
    assert "1 verdict you gave" in impact.describe()
    assert project.write(lists.delete_list_op("T", "scopus")).verdicts
    assert _count(project, "links", "status = 'rejected'") == 0


def test_deleting_a_topic_keeps_the_other_topics(project):
    impact = lists.deletion_impact(project, "T")
    assert (impact.lists, impact.records, impact.matches, impact.topic_goes) == (
        ["core", "scopus"], 8, 3, True)
    assert "topic 'T' with its 2 list(s)" in impact.describe()
    other = [(i.name, i.size, i.records) for i in queries.lists(project, "U")]
    project.write(lists.delete_topic_op("T"))
    assert [t.name for t in queries.topics(project)] == ["U"]
    assert [(i.name, i.size, i.records) for i in queries.lists(project)] == other
    assert (_count(project, "records"), _count(project, "links")) == (5, 1)


def test_deleting_the_last_list_of_a_topic_deletes_the_topic(project):
    assert lists.deletion_impact(project, "U", "other").topic_goes
    assert project.write(lists.delete_list_op("U", "other")).topics
    assert [t.name for t in queries.topics(project)] == ["T"]


@pytest.mark.parametrize("delete", [
    lists.delete_list_op("T", "core"),
    lists.delete_topic_op("T"),
])
def test_a_deletion_failing_midway_changes_nothing(project, monkeypatch, delete):
    before = _state(project)
    real_delete = lists.delete_import
    calls = []

    def delete_then_fail(db, import_id):
        calls.append(import_id)
        if len(calls) > 1:
            raise RuntimeError("disk gone")
        return real_delete(db, import_id)

    def fail(*_args):
        raise RuntimeError("disk gone")

    # a list fails after its records went (regrouping); a topic after its first list went
    monkeypatch.setattr(lists, "delete_import", delete_then_fail)
    monkeypatch.setattr(works, "regroup", fail)
    with pytest.raises(RuntimeError, match="disk gone"):
        project.write(delete)
    assert calls  # the failure came after something was deleted
    assert _state(project) == before
    assert not project.db.conn.in_transaction


def test_unknown_names_are_clear_errors_and_change_nothing(project):
    before = _state(project)
    with pytest.raises(ProjectError, match="has no list named 'nope'.*'core', 'scopus'"):
        project.write(lists.delete_list_op("T", "nope"))
    with pytest.raises(ProjectError, match="no topic named 'X'"):
        project.write(lists.delete_topic_op("X"))
    assert _state(project) == before


def test_renaming_a_list_and_a_topic(project):
    assert project.write(lists.rename_list_op("T", "scopus", "  Scopus\n2024 \x00")).lists
    assert [i.name for i in queries.lists(project, "T")] == ["core", "Scopus 2024"]
    assert project.write(lists.rename_topic_op("T", "Search\tevaluation")).topics
    assert [t.name for t in queries.topics(project)] == ["Search evaluation", "U"]
    assert queries.find_list(project, "Search evaluation", "Scopus 2024").records == 5


def test_renaming_onto_a_taken_or_empty_name_is_refused(project):
    with pytest.raises(ProjectError, match="already has a list named 'core'"):
        project.write(lists.rename_list_op("T", "scopus", "core"))
    with pytest.raises(ProjectError, match="already has a topic named 'U'"):
        project.write(lists.rename_topic_op("T", "U"))
    with pytest.raises(ProjectError, match="the new name is empty"):
        project.write(lists.rename_topic_op("T", " \n\t\x1b "))
    assert [t.name for t in queries.topics(project)] == ["T", "U"]
    assert project.write(lists.rename_list_op("U", "other", "other")).lists  # same name: allowed


def _screen_two(p):
    """A screening over list scopus of T with two decisions (one changed, so 3 events)."""
    from litqeval_gui.core.screening.log import store

    screening = store.create_screening(p, "T", "S", ["scopus"])
    first, second = store.items(p, screening.id)[:2]
    who = store.Context(reviewer="ann")
    p.write(store.decide_op(screening, first, "include", who))
    p.write(store.decide_op(screening, second, "exclude", who))
    p.write(store.decide_op(screening, second, "maybe", who))
    return screening


def test_deleting_a_screened_list_names_and_removes_its_decisions(project):
    _screen_two(project)
    impact = lists.deletion_impact(project, "T", "scopus")
    assert impact.decisions == 2
    assert "2 screening decisions on these records go." in impact.describe()
    assert lists.deletion_impact(project, "T", "core").decisions == 0
    changes = project.write(lists.delete_list_op("T", "scopus"))
    assert changes.decisions
    assert _count(project, "screening_events") == 0  # no event left naming a gone record
    assert _count(project, "screening_items") == 0
    assert project.db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_deleting_a_topic_takes_its_screenings(project):
    _screen_two(project)
    assert lists.deletion_impact(project, "T").decisions == 2
    assert project.write(lists.delete_topic_op("T")).decisions
    assert [_count(project, t) for t in ("screenings", "screening_events")] == [0, 0]
    assert not project.write(lists.delete_topic_op("U")).decisions  # nothing screened there
