"""Issue 11 §1.2–1.5: odd file names, the lock race, foreign databases left untouched,
planted schema objects refused."""

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from litqeval_gui import cli
from litqeval_gui.core.errors import CorruptProjectError, ProjectError
from litqeval_gui.core.projectfile.project import APPLICATION_ID, Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION
from tests.conftest import CORE_RIS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "projects"
ODD_NAMES = ["Review #2.litq", "notes#draft.litq", "what?.litq", "50%25 done.litq",
             "a&b=c.litq", "it's.litq", 'say "hi".litq', "Übersicht Ærø 日本.litq",
             "two\nlines.litq"]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file's bytes, except the empty -wal/-shm a read-only SQLite reader leaves."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()
            and not (p.name.endswith(("-wal", "-shm")) and p.name.startswith("p.litq"))}


@pytest.mark.parametrize("name", ODD_NAMES)
def test_every_command_works_on_a_project_with_an_odd_name(tmp_path, name, capsys):
    (tmp_path / "notes").write_bytes(b"")  # what "notes#draft.litq" used to write into
    sqlite3.connect(tmp_path / "notes").execute("CREATE TABLE mine (x)").connection.close()
    before = (tmp_path / "notes").read_bytes()
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    project = str(tmp_path / name)
    for argv in (["new", project],
                 ["import", project, str(core), "--topic", "T", "--role", "core"],
                 ["import", project, str(core), "--topic", "T", "--role", "results",
                  "--name", "again"],
                 ["info", project], ["lists", project], ["recall", project, "--topic", "T"],
                 ["matches", project, "--topic", "T"],
                 ["matches", project, "--topic", "T", "--reject", "1"],
                 ["export", project, "--topic", "T", "--list", "core", "--format", "ris",
                  str(tmp_path / "out.ris")]):
        assert cli.main(argv) == 0, (argv, capsys.readouterr().err)
    # readers may leave the project's -wal/-shm (SQLite's own), nothing else
    assert set(_files(tmp_path)) - {f"{name}-wal", f"{name}-shm"} == {"notes", "core.ris", "out.ris", name}
    assert (tmp_path / "notes").read_bytes() == before
    with Project.open(tmp_path / name, readonly=True) as opened:
        assert opened.db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 6


RACER = textwrap.dedent("""
    import sys, time
    from litqeval_gui.core.errors import ProjectLockedError
    from litqeval_gui.core.projectfile.project import Project
    start = float(sys.argv[2])
    time.sleep(max(0.0, start - time.time()))
    try:
        project = Project.open(sys.argv[1])
    except ProjectLockedError:
        print("refused", flush=True)
    else:
        print("won", flush=True)
        sys.stdin.read()  # hold the lock until every racer has tried
        project.close()
""")


def race(path: Path, racers: int) -> list[str]:
    """Start ``racers`` processes that open ``path`` for writing at the same instant;
    returns what each printed ("won" or "refused"). A winner holds the project until
    all have answered (a racer slow to start must still meet the lock)."""
    start = time.time() + 1.5
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(path), str(start)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(racers)]
    outcomes = [proc.stdout.readline().strip() for proc in procs]
    for proc in procs:
        proc.communicate(timeout=60)  # closes stdin: the winner lets go
    return outcomes


def _stale_lock(path: Path) -> None:
    """A lock file left by a process that is gone (its pid is free)."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    Path(f"{path}.lock").write_text(json.dumps({"pid": dead.pid, "host": os.uname().nodename}))


def test_racing_writers_exactly_one_wins_even_over_a_stale_lock(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    for trial in range(2):
        _stale_lock(path)
        outcomes = race(path, 6)
        assert sorted(outcomes) == ["refused"] * 5 + ["won"], (trial, outcomes)


def test_lock_naming_a_live_unrelated_process_does_not_refuse(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    Path(f"{path}.lock").write_text(json.dumps({"pid": 1, "host": os.uname().nodename}))
    with Project.open(path) as project:  # pid 1 is alive but does not hold the lock
        assert not project.readonly


def test_lock_path_that_is_a_folder_is_named(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    Path(f"{path}.lock").mkdir()
    with pytest.raises(ProjectError, match=r"lock file .*p\.litq\.lock is a folder"):
        Project.open(path)


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("make", [_foreign, lambda p: p.write_bytes(b"")])
def test_a_refused_foreign_file_is_not_modified(tmp_path, make, capsys):
    path = tmp_path / "other.litq"
    make(path)
    before = _files(tmp_path)
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    before["core.ris"] = core.read_bytes()
    for argv in (["import", str(path), str(core), "--topic", "T", "--role", "core"],
                 ["info", str(path)], ["lists", str(path)], ["recall", str(path), "--topic", "T"],
                 ["matches", str(path), "--topic", "T", "--confirm", "1"]):
        assert cli.main(argv) == 2, argv
        assert "not a LitQEval project" in capsys.readouterr().err
        assert _files(tmp_path) == before, argv  # same bytes, no -wal/-shm/lock left


def test_new_projects_carry_the_application_id_and_old_ones_get_it(tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        assert project.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    old = tmp_path / "old.litq"
    old.write_bytes((FIXTURES / "v1.litq").read_bytes())
    with Project.open(old) as project:
        assert project.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_another_programs_application_id_is_refused_unchanged(tmp_path):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(CorruptProjectError, match="another program"):
        Project.open(path)
    assert path.read_bytes() == before


def _project_with_data(path: Path, tmp_path: Path) -> None:
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    assert cli.main(["new", str(path)]) == 0
    assert cli.main(["import", str(path), str(core), "--topic", "T", "--role", "core"]) == 0


PLANTED = {
    "trigger": "CREATE TRIGGER pwn AFTER INSERT ON records BEGIN "
               "UPDATE records SET title = 'PWNED ' || title; DELETE FROM links; END",
    "view": "CREATE VIEW extra AS SELECT title FROM records",
    "table": "CREATE TABLE extra (x)",
    "index": "CREATE INDEX extra ON records(title)",
    "changed column type": "ALTER TABLE meta RENAME TO meta_old; "
                           "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER); "
                           "INSERT INTO meta SELECT * FROM meta_old; DROP TABLE meta_old",
    "missing table": "DROP TABLE links",
}


@pytest.mark.parametrize("what", sorted(PLANTED))
def test_planted_schema_objects_are_refused_before_they_run(tmp_path, what, capsys):
    path = tmp_path / "p.litq"
    _project_with_data(path, tmp_path)
    conn = sqlite3.connect(path)
    conn.executescript(PLANTED[what])
    conn.close()
    before = _files(tmp_path)
    more = tmp_path / "more.ris"
    more.write_text(CORE_RIS.replace("core.", "more."), encoding="utf-8")
    assert cli.main(["import", str(path), str(more), "--topic", "T", "--role", "results"]) == 2
    err = capsys.readouterr().err
    assert "not a LitQEval project as this version writes it" in err, err
    assert err.count("\n") == 1
    assert cli.main(["recall", str(path), "--topic", "T"]) == 2
    assert _files(tmp_path) == {**before, "more.ris": more.read_bytes()}


def test_connections_do_not_trust_the_schema(tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        assert project.db.execute("PRAGMA trusted_schema").fetchone()[0] == 0
        assert project.sibling().db.execute("PRAGMA trusted_schema").fetchone()[0] == 0


@pytest.mark.parametrize("version", [-1, -7])
def test_negative_user_version_is_refused_not_migrated(tmp_path, version):
    path = tmp_path / "p.litq"
    Project.create(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(CorruptProjectError, match=f"invalid schema version \\({version}\\)"):
        Project.open(path)
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))


def test_migration_backup_never_overwrites_a_file(tmp_path):
    path = tmp_path / "old.litq"
    path.write_bytes((FIXTURES / "v1.litq").read_bytes())
    squatter = tmp_path / "old.litq.v1.bak"
    squatter.write_text("not a database, and not ours to overwrite")
    with Project.open(path) as project:
        assert project.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert squatter.read_text().startswith("not a database")
    conn = sqlite3.connect(tmp_path / "old.litq.v1.2.bak")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
