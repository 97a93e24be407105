"""A list's query is versioned: imported as version 1, each edit a new version, the old
ones kept; files made before the table get their stored query as version 1."""

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION
from litqeval_gui.core.query import versions
from litqeval_gui.core.records import lists
from litqeval_gui.core.records.ingest import import_file
from tests.conftest import CORE_RIS
from tests.support.projects import file_before


def test_import_edit_and_history(tmp_path):
    path = tmp_path / "core.ris"
    path.write_text(CORE_RIS, encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as p:
        run_job(import_file(p, path, topic="T", role="results", name="L", query="a OR b"))
        run_job(import_file(p, path, topic="T", role="core", name="C"))
        assert [(v.version, v.text) for v in versions.history(p, "T", "L")] == [(1, "a OR b")]
        assert versions.history(p, "T", "C") == []
        p.write(versions.set_query_op("T", "L", "  a OR b OR c "))
        p.write(versions.set_query_op("T", "L", "a OR b OR c"))  # the same text: no version
        assert [(v.version, v.text) for v in versions.history(p, "T", "L")] == [
            (1, "a OR b"), (2, "a OR b OR c")]
        assert versions.current(p, "T", "L") == "a OR b OR c"
        assert versions.history(p, "T", "L")[1].at.endswith("+00:00")
        p.write(lists.rename_list_op("T", "L", "M"))  # versions follow the list
        assert len(versions.history(p, "T", "M")) == 2
        p.write(lists.delete_list_op("T", "M"))
        assert p.db.execute("SELECT COUNT(*) FROM query_versions").fetchone()[0] == 0


def test_an_empty_or_absurd_query_is_refused_with_a_line():
    for text, message in (("  ", "the query is empty"), ("a" * 100_001, "at most 100,000")):
        try:
            versions.set_query_op("T", "L", text)
        except Exception as err:  # noqa: BLE001 - the message is what is tested
            assert message in str(err)
        else:
            raise AssertionError("not refused")


def test_an_older_file_gets_its_stored_queries_as_version_one(tmp_path):
    def fill(db):
        db.execute("INSERT INTO imports (id, topic_id, name, role, state, query, created) "
                   "VALUES (1, 1, 'L', 'results', 'done', 'x AND y', '2026-01-02'), "
                   "(2, 1, 'M', 'results', 'done', NULL, '2026-01-03')")

    path = file_before(tmp_path / "old.litq", "_query_versions", fill)
    with Project.open(path) as p:
        assert p.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert p.db.execute("SELECT * FROM query_versions").fetchall() == [
            (1, 1, "x AND y", "2026-01-02")]
