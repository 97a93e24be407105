"""Schema migrations: a migrated old file equals a new one; one visibility rule; cascades;
typed parameters (issue #12)."""

import shutil
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.imports import delete_import
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries, works

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


def _shape(db) -> dict:
    """Every table's columns, foreign keys (with their delete action) and indexes, and
    every view's definition — what must not depend on a file's history."""
    shape = {}
    for name, kind, sql in db.execute(
            "SELECT name, type, sql FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%'"):
        if kind == "view":
            shape[name] = sql
            continue
        shape[name] = {
            "columns": [tuple(r[1:]) for r in db.execute(f"PRAGMA table_info([{name}])")],
            "foreign_keys": sorted(tuple(r[2:]) for r in
                                   db.execute(f"PRAGMA foreign_key_list([{name}])")),
            "indexes": sorted(
                (r[2], tuple(c[2] for c in db.execute(f"PRAGMA index_info([{r[1]}])")))
                for r in db.execute(f"PRAGMA index_list([{name}])")),
        }
    return shape


def test_a_migrated_old_file_equals_a_new_one(tmp_path):
    old = tmp_path / "old.litq"
    shutil.copy(FIXTURES / "v1.litq", old)
    with Project.open(old) as migrated, Project.create(tmp_path / "new.litq") as new:
        assert _shape(migrated.db) == _shape(new.db)
        cascade = ("imports", "import_id", "id", "NO ACTION", "CASCADE", "NONE")
        assert cascade in _shape(new.db)["records"]["foreign_keys"]


def _import(project, path, role, name):
    return run_job(ingest.import_file(project, path, topic="T", role=role, name=name))


def test_deleting_a_record_or_an_import_cascades(tmp_path, small_files):
    core, results = small_files
    with Project.create(tmp_path / "p.litq") as project:
        _import(project, core, "core", "core")
        summary = _import(project, results, "results", "scopus")
        db = project.db
        assert db.execute("SELECT COUNT(*) FROM links").fetchone()[0] > 0
        with project.transaction():
            delete_import(db, summary.import_id)
        assert db.execute("SELECT COUNT(*) FROM records WHERE import_id = ?",
                          [summary.import_id]).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 0
        assert [i.name for i in queries.lists(project)] == ["core"]


def test_a_records_screening_events_go_with_it(tmp_path, small_files):
    """screening_events.record_id cascades (migration ``_event_records_cascade``): a
    record deleted takes its events, undo included; deleting the list says decisions
    changed. Before, only core/manage deleted them by hand, and a plain delete left them."""
    from litqeval_gui.core.records import lists
    from litqeval_gui.core.screening.log import store
    from litqeval_gui.core.screening.session import ScreeningSession

    core, results = small_files
    with Project.create(tmp_path / "p.litq") as project:
        _import(project, core, "core", "core")
        _import(project, results, "results", "scopus")
        screening = store.create_screening(project, "T", "S", ["scopus"])
        screener = ScreeningSession(project, screening, "Ann")
        first = screener.decide("include")
        screener.take_back()
        assert screener.decide("exclude").record_id == first.record_id  # the undone one
        second = screener.decide("include")
        db = project.db
        count = "SELECT COUNT(*) FROM screening_events WHERE record_id = ?"
        assert [db.execute(count, [r]).fetchone()[0]
                for r in (first.record_id, second.record_id)] == [3, 1]
        with project.transaction():
            db.execute("DELETE FROM records WHERE id = ?", [first.record_id])
        assert [db.execute(count, [r]).fetchone()[0]
                for r in (first.record_id, second.record_id)] == [0, 1]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert project.write(lists.delete_list_op("T", "scopus")).decisions
        assert db.execute("SELECT COUNT(*) FROM screening_events").fetchone()[0] == 0


def test_a_pending_import_is_invisible_to_every_read(tmp_path, small_files):
    """Bug (issue #12): browse, queries.list_records and works.link_items showed it."""
    core, results = small_files
    with Project.create(tmp_path / "p.litq") as project:
        _import(project, core, "core", "core")
        pending = _import(project, results, "results", "scopus").import_id
        project.db.execute("UPDATE imports SET state = 'pending' WHERE id = ?", [pending])
        topic_id = project.topic_id("T")
        assert [i.name for i in queries.lists(project)] == ["core"]
        assert list(queries.list_records(project, pending)) == []
        assert len(queries.ListBrowser(project, pending)) == 0
        core_ids = {item.key for item in works.link_items(project.db, topic_id)}
        assert core_ids == {r for (r,) in project.db.execute(
            "SELECT id FROM records WHERE import_id != ?", [pending])}


THRESHOLD = parameters.Parameter("evaluation.threshold", float, 0.5)
TERMS = parameters.Parameter("screening.highlight", list, [])


def test_parameters_are_typed_stored_and_announced(tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        assert parameters.get(project, THRESHOLD) == 0.5  # the default
        assert project.write(parameters.set_value_op(THRESHOLD, 0.75)) == Changes(parameters=True)
        assert project.write(parameters.set_value_op(TERMS, ["deep", "learning"]))
        assert project.write(parameters.set_value_op(THRESHOLD, 1)) and \
            parameters.get(project, THRESHOLD) == 1.0
        with pytest.raises(ProjectError, match="must be a float"):
            project.write(parameters.set_value_op(THRESHOLD, "high"))
        with Project.open(project.path, readonly=True) as reader:
            assert parameters.get(reader, TERMS) == ["deep", "learning"]
            assert parameters.get(reader, THRESHOLD) == 1.0
