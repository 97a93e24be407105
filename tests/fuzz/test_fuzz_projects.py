"""Property-based fuzzing of project files: damaged bytes, truncation, odd header
fields and planted schema objects.

For each damaged copy of a real project, a read command (``info``) and a write command
(``import``) must each end with exit 0, or exit 2 and one line of at most 300
characters without a traceback. A refused command leaves the file's bytes as they were
and no lock file; a planted trigger, view, table or index is always refused; an accepted
import leaves a file that passes ``integrity_check``.
"""

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import CORE_RIS, RESULTS_CSV
from tests.fuzz.support import COUNTS, examples
from tests.fuzz.test_fuzz_importers import run_cli
from tests.test_cli_bad_input import dump

PLANTS = [
    "CREATE TRIGGER t AFTER INSERT ON {table} BEGIN DELETE FROM links; END",
    "CREATE TRIGGER t BEFORE UPDATE ON {table} BEGIN SELECT 1; END",
    "CREATE TEMP TRIGGER t AFTER INSERT ON {table} BEGIN SELECT 1; END",
    "CREATE VIEW v AS SELECT * FROM {table}",
    "CREATE TABLE x (a)",
    "CREATE INDEX i ON {table}({column})",
    "CREATE VIRTUAL TABLE f USING fts5(a)",
    "DROP INDEX IF EXISTS idx_links_a_b",
    "ALTER TABLE {table} ADD COLUMN extra TEXT",
]
TABLES = {"meta": "key", "topics": "id", "imports": "id", "records": "id", "links": "id"}


@pytest.fixture(scope="module")
def workspace():
    folder = Path(tempfile.mkdtemp(prefix="litq-fuzz-projects-"))
    core, results = folder / "core.ris", folder / "scopus.csv"
    core.write_text(CORE_RIS, encoding="utf-8")
    results.write_text(RESULTS_CSV, encoding="utf-8")
    base = folder / "base.litq"
    assert run_cli("new", base)[0] == 0
    assert run_cli("import", base, core, "--topic", "T", "--role", "core")[0] == 0
    assert run_cli("import", base, results, "--topic", "T", "--role", "results")[0] == 0
    (folder / "more.ris").write_text(CORE_RIS.replace("core.", "more."), encoding="utf-8")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


damage = st.one_of(
    st.tuples(st.just("bytes"), st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)),
                                         min_size=1, max_size=8)),
    st.tuples(st.just("header"), st.lists(st.tuples(st.integers(0, 99), st.integers(1, 255)),
                                          min_size=1, max_size=3)),
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("append"), st.binary(min_size=1, max_size=5000)),
    st.tuples(st.just("pragma"), st.tuples(st.sampled_from(["user_version", "application_id"]),
                                           st.integers(-2**31, 2**31 - 1))),
    st.tuples(st.just("plant"), st.tuples(st.sampled_from(PLANTS), st.sampled_from(sorted(TABLES)))),
    st.tuples(st.just("replace"), st.sampled_from([b"", b"not a database\n" * 40,
                                                   b"SQLite format 3\x00" + b"\x00" * 84])),
)


def apply(path: Path, kind: str, arg) -> None:
    if kind in ("bytes", "header"):
        data = bytearray(path.read_bytes())
        for offset, xor in arg:
            data[offset % len(data)] ^= xor
        path.write_bytes(bytes(data))
    elif kind == "truncate":
        path.write_bytes(path.read_bytes()[:int(arg * path.stat().st_size)])
    elif kind == "append":
        path.write_bytes(path.read_bytes() + arg)
    elif kind == "replace":
        path.write_bytes(arg)
    else:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            if kind == "pragma":
                conn.execute(f"PRAGMA {arg[0]} = {arg[1]}")
            else:
                conn.execute(arg[0].format(table=arg[1], column=TABLES[arg[1]]))
        finally:
            conn.close()


def planted(kind: str, arg) -> bool:
    return kind == "plant" and not arg[0].startswith("CREATE TEMP")  # temp objects vanish


def _state(path: Path) -> tuple[dict | None, list | None]:
    """(table dump, integrity_check result) of ``path``, None where SQLite cannot say."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        integrity = None
    finally:
        conn.close()
    try:
        table_dump = dump(path)
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        table_dump = None
    return table_dump, integrity


@examples(quick=150, full=3000)
@given(damage=damage)
def test_damaged_projects_are_refused_cleanly_or_stay_intact(workspace, damage):
    kind, arg = damage
    COUNTS["project files: cases"] += 1
    path = workspace / "p.litq"
    for leftover in workspace.glob("p.litq*"):
        leftover.unlink()
    shutil.copy(workspace / "base.litq", path)
    apply(path, kind, arg)
    before = path.read_bytes()
    table_dump, integrity = _state(path) if before.startswith(b"SQLite") else (None, None)
    if before.startswith(b"SQLite"):  # _state's reader may leave SQLite's -wal/-shm
        path.write_bytes(before)
    for argv in (["info", path],
                 ["import", path, workspace / "more.ris", "--topic", "T", "--role", "results"]):
        code, err = run_cli(*argv)
        assert code in (0, 2), err
        if code == 2:
            assert err.count("\n") == 1 and len(err.rstrip("\n")) <= 300, err
            assert "Traceback" not in err and "internal error" not in err, err
            # unchanged: the same bytes, or (damage found mid-import) the same tables
            assert path.read_bytes() == before or (
                table_dump is not None and _state(path)[0] == table_dump), (argv[0], err)
        else:
            assert not planted(kind, arg), f"{argv[0]} accepted a planted {arg}"
        assert not Path(f"{path}.lock").exists()
    COUNTS[f"project files: import {'accepted' if code == 0 else 'refused'}"] += 1
    if code == 0 and integrity == [("ok",)]:  # the app must not damage an intact file
        assert _state(path)[1] == [("ok",)]
