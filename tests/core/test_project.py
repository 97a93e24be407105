"""The project file: create/open, lock, migration, refusal of newer and corrupt files."""

import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from litqeval_gui.core.errors import (
    CorruptProjectError,
    ProjectError,
    ProjectLockedError,
    ProjectTooNewError,
)
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


def test_create_sets_wal_full_sync_and_version(tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        db = project.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert {"meta", "topics", "imports", "records", "links"} <= set(db.table_names())
        assert project.meta("app_version")


def test_create_refuses_existing_file(tmp_path):
    path = tmp_path / "p.litq"
    path.write_text("x")
    with pytest.raises(ProjectError, match="already exists"):
        Project.create(path)


def test_second_writer_in_same_process_is_refused_and_lock_released_on_close(tmp_path):
    path = tmp_path / "p.litq"
    project = Project.create(path)
    with pytest.raises(ProjectLockedError,
                       match=r"open in another window \(pid \d+ on .*; lock file .*p\.litq\.lock\)"):
        Project.open(path)
    project.close()
    Project.open(path).close()  # free again
    assert not Path(str(path) + ".lock").exists()


HOLDER = textwrap.dedent("""
    import sys, time
    from litqeval_gui.core.projectfile.project import Project
    p = Project.open(sys.argv[1])
    print("locked", flush=True)
    time.sleep(60)
""")


def test_lock_held_by_another_live_process_is_refused_then_stale_lock_taken_over(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(ProjectLockedError, match=f"pid {proc.pid}"):
            Project.open(path)
        # readers are not blocked
        with Project.open(path, readonly=True) as reader:
            assert reader.readonly
    finally:
        proc.kill()
        proc.wait()
    # the holder died without releasing: its lock is stale and is taken over
    assert Path(str(path) + ".lock").exists()
    with Project.open(path) as project:
        assert project.topic_id("t", create=True) == 1


def test_garbage_lock_file_is_treated_as_stale(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    Path(str(path) + ".lock").write_text("not json")
    Project.open(path).close()


def test_migrates_v1_fixture_keeping_data_and_a_backup(tmp_path):
    path = tmp_path / "old.litq"
    shutil.copy(FIXTURES / "v1.litq", path)
    with Project.open(path) as project:
        db = project.db
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert {"fp_a", "fp_b", "decided_at"} <= set(db["links"].columns_dict)
        indexes = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'")}
        assert "idx_records_doi" not in indexes and "idx_records_topic_id_work_id" in indexes
        assert [r["title"] for r in db["records"].rows_where(order_by="id")] == [
            "Old record one", "Old record one (dup)"]
        assert project.meta("migrated_from_1")
    backup = tmp_path / "old.litq.v1.bak"
    assert backup.exists()
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 2
    conn.close()


def test_readonly_open_of_old_file_asks_for_upgrade(tmp_path):
    path = tmp_path / "old.litq"
    shutil.copy(FIXTURES / "v1.litq", path)
    with pytest.raises(ProjectError, match="older format"):
        Project.open(path, readonly=True)


def test_newer_file_is_refused_with_its_version(tmp_path):
    path = tmp_path / "new.litq"
    with Project.create(path) as project:
        project.db.execute("UPDATE meta SET value = '9.3' WHERE key = 'app_version'")
        project.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(ProjectTooNewError, match=r"written by a newer version \(9\.3\)"):
        Project.open(path)
    assert not Path(str(path) + ".lock").exists()  # refusal does not leave the lock behind


@pytest.mark.parametrize("content", [b"", b"hello, this is not a database at all" * 50,
                                     b"SQLite format 3\x00" + b"\xff" * 4000])
def test_non_project_files_give_a_clear_error(tmp_path, content):
    path = tmp_path / "bad.litq"
    path.write_bytes(content)
    with pytest.raises(CorruptProjectError, match="not a LitQEval project|damaged"):
        Project.open(path)


def test_foreign_sqlite_database_is_not_a_project(tmp_path):
    path = tmp_path / "other.litq"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(CorruptProjectError, match="not a LitQEval project"):
        Project.open(path)


def test_damaged_page_is_reported_not_a_traceback(tmp_path):
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        with project.transaction() as db:
            tid = project.topic_id("t", create=True)
            db["imports"].insert({"topic_id": tid, "name": "x", "role": "other"})
            db.conn.executemany(
                "INSERT INTO records (topic_id, import_id, title) VALUES (?, 1, ?)",
                [(tid, f"title {i} " * 20) for i in range(2000)])
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page * 3, min(len(data), page * 8)):
        data[offset] = 0x5A  # scribble over several b-tree pages
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptProjectError):
        Project.open(path)


def test_missing_file(tmp_path):
    with pytest.raises(ProjectError, match="no such project file"):
        Project.open(tmp_path / "nope.litq")


def test_a_worker_opens_a_checked_project_without_the_integrity_check(tmp_path):
    """``checked``: the version is read, not the whole file; an older or a newer file is
    still refused."""
    path = tmp_path / "p.litq"
    Project.create(path).close()
    with Project.open(path, readonly=True, checked=True) as project:
        assert project.readonly and project.meta("created")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    db.close()
    with pytest.raises(ProjectError, match="older format"):
        Project.open(path, readonly=True, checked=True)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(ProjectError, match="newer format"):
        Project.open(path, readonly=True, checked=True)
    with pytest.raises(ProjectTooNewError):
        Project.open(path, readonly=True)
