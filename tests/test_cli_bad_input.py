"""Issue 11 §2: every bad input gets one clear line, exit 2, and the project unchanged."""

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from litqeval_gui import cli
from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.locking import ProjectLock
from litqeval_gui.core.projectfile.project import Project
from tests.conftest import CORE_RIS


def dump(path: Path) -> dict[str, list]:
    """Every table's rows: equal dumps = an unchanged project."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: conn.execute(f"SELECT * FROM [{n}] ORDER BY rowid").fetchall() for n in names}
    finally:
        conn.close()


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "p.litq"
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    assert cli.main(["new", str(path)]) == 0
    assert cli.main(["import", str(path), str(core), "--topic", "T", "--role", "core"]) == 0
    return path


def run(capsys, *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def refused(capsys, project: Path, file: Path, *more: str) -> str:
    """Import ``file``; assert exit 2, one line of ≤ 300 characters, project unchanged."""
    before = dump(project)
    code, err = run(capsys, "import", project, file, "--topic", "T", "--role", "results", *more)
    assert code == 2, err
    assert err.count("\n") == 1 and len(err) <= 301 and "Traceback" not in err, err
    assert dump(project) == before
    return err


def test_ris_blank_or_untagged_line_after_ty_rejects_that_record(project, tmp_path, capsys):
    for n, odd in enumerate(["\n", "a line with no tag\n"]):
        bad = tmp_path / f"bad{n}.ris"
        bad.write_text(f"TY  - JOUR\n{odd}TI  - Lost record\nER  - \n\n"
                       + CORE_RIS.replace("core.", f"other{n}."), encoding="utf-8")
        capsys.readouterr()
        assert cli.main(["import", str(project), str(bad), "--topic", "T", "--role", "results",
                         "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert (summary["read"], summary["rejected"]) == (4, 1)
        assert "untagged line" in summary["problems"][0]
        only = tmp_path / f"only{n}.ris"
        only.write_text(f"TY  - JOUR\n{odd}TI  - Lost record\nER  - \n", encoding="utf-8")
        err = refused(capsys, project, only)
        assert "untagged line right after its 'TY  -' line" in err


def _workbook(path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["Title", "Year", "DOI"])
    sheet.append(["A real title", 2020, "10.1/x"])
    book.save(path)


def _rewrite(path: Path, change) -> None:
    """Rewrite the zip at ``path``, passing each (name, data) through ``change``."""
    with zipfile.ZipFile(path) as archive:
        members = [(i.filename, archive.read(i)) for i in archive.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            changed = change(name, data)
            if changed is not None:
                archive.writestr(name, changed)


def _corrupt_deflate(path: Path) -> None:
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    for i in range(start, start + info.compress_size):
        data[i] ^= 0x55
    path.write_bytes(bytes(data))


def _declare_huge(path: Path) -> None:
    """Patch the central directory: the sheet claims to unpack to 3.5 GB."""
    data = bytearray(path.read_bytes())
    name = b"xl/worksheets/sheet1.xml"
    at = data.index(b"PK\x01\x02")
    while data[at + 46:at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    struct.pack_into("<I", data, at + 24, 3_500_000_000)
    path.write_bytes(bytes(data))


XLSX_DAMAGE = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:len(p.read_bytes()) // 2]),
    "no sheet part": lambda p: _rewrite(p, lambda n, d: None if n.endswith("sheet1.xml") else d),
    "broken XML": lambda p: _rewrite(p, lambda n, d: b"<worksheet><sheetData><row>"
                                     if n.endswith("sheet1.xml") else d),
    "bad date": lambda p: _rewrite(p, lambda n, d: d.replace(b'<c r="B2" t="n"><v>2020</v>',
                                                             b'<c r="B2" t="d"><v>20x0-99</v>')
                                   if n.endswith("sheet1.xml") else d),
    "corrupt deflate": _corrupt_deflate,
    "zip bomb (ratio)": lambda p: _rewrite(p, lambda n, d: d + b" " * (4 << 20)
                                           if n.endswith("sheet1.xml") else d),
    "zip bomb (declared size)": _declare_huge,
}


@pytest.mark.parametrize("damage", sorted(XLSX_DAMAGE))
def test_malformed_xlsx_is_refused_in_one_line(project, tmp_path, capsys, damage):
    book = tmp_path / "scopus.xlsx"
    _workbook(book)
    XLSX_DAMAGE[damage](book)
    err = refused(capsys, project, book, "--format", "xlsx")
    if "zip bomb" in damage:
        assert "refused as a zip bomb" in err


def test_bad_date_fixture_really_has_a_bad_date_cell(tmp_path):
    book = tmp_path / "b.xlsx"
    _workbook(book)
    XLSX_DAMAGE["bad date"](book)
    with zipfile.ZipFile(book) as archive:
        assert b't="d"><v>20x0-99</v>' in archive.read("xl/worksheets/sheet1.xml")


def test_qrels_grade_beyond_int64_is_a_rejected_line(project, tmp_path, capsys):
    qrels = tmp_path / "q.qrels"
    qrels.write_text(f"1 0 doc1 1\n1 0 doc2 {2**63}\n", encoding="utf-8")
    code, err = run(capsys, "import", project, qrels, "--topic", "1", "--role", "other",
                    "--format", "qrels")
    assert code == 0, err
    with Project.open(project, readonly=True) as opened:
        assert opened.db.execute("SELECT n_read, n_rejected FROM imports WHERE name = 'q'"
                                 ).fetchone() == (2, 1)
    only = tmp_path / "only.qrels"
    only.write_text(f"1 0 doc2 {2**63}\n", encoding="utf-8")
    err = refused(capsys, project, only, "--format", "qrels")
    assert "OverflowError" not in err


def test_bibtex_refusal_has_no_library_chatter(project, tmp_path):
    """In its own process: pytest's log capture would hide the libraries' stderr output."""
    bib = tmp_path / "b.bib"
    bib.write_text("@article{a, title = {x}, year = 2020\n", encoding="utf-8")
    before = dump(project)
    done = subprocess.run([sys.executable, "-m", "litqeval_gui.cli", "import", str(project),
                           str(bib), "--topic", "T", "--role", "results"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("litqeval: error:"), \
        done.stderr
    assert dump(project) == before


def test_long_column_and_topic_lists_are_capped(project, tmp_path, capsys):
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"Column{i}" for i in range(3000)) + "\n"
                    + ",".join("x" for _ in range(3000)) + "\n", encoding="utf-8")
    err = refused(capsys, project, wide)
    assert "Column0" in err and "... and 2990 more" in err, err
    qrels = tmp_path / "many.qrels"
    qrels.write_text("".join(f"t{i} 0 d 1\n" for i in range(3000)), encoding="utf-8")
    err = refused(capsys, project, qrels, "--format", "qrels")
    assert "not in this file" in err
    code, err = run(capsys, "import", project, qrels, "--topic", "nope", "--role", "other",
                    "--format", "qrels")
    assert code == 2 and "t0, t1" in err and "and 2990 more" in err, err


def test_the_cli_says_when_it_removed_an_unfinished_import(project, tmp_path, capsys):
    conn = sqlite3.connect(project)
    conn.execute("INSERT INTO imports (topic_id, name, role, state) VALUES (1, 'half', "
                 "'results', 'pending')")
    conn.commit()
    conn.close()
    more = tmp_path / "more.ris"
    more.write_text(CORE_RIS.replace("core.", "more."), encoding="utf-8")
    code, err = run(capsys, "import", project, more, "--topic", "T", "--role", "results")
    assert code == 0
    assert "unfinished import 'half' was removed" in err


# -- the environment: run as an unprivileged user so permissions apply even for root --
@contextlib.contextmanager
def shared_folder():
    """A temporary folder every user can enter (pytest's own is private to root)."""
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _drop_to_nobody() -> None:
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)


def as_nobody(*argv, setup=_drop_to_nobody) -> tuple[int, str]:
    """``cli.main(argv)`` in a forked child that first runs ``setup`` (default: drop to
    user ``nobody`` when root)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.close(read)
            setup()
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = cli.main([str(a) for a in argv])
            os.write(write, json.dumps([code, err.getvalue()]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        data = handle.read()
    os.waitpid(pid, 0)
    return tuple(json.loads(data))


def test_read_only_folder_project_can_be_read_but_not_written(tmp_path):
    with shared_folder() as folder:
        path = folder / "p.litq"
        core = folder / "core.ris"
        core.write_text(CORE_RIS, encoding="utf-8")
        assert cli.main(["new", str(path)]) == 0
        assert cli.main(["import", str(path), str(core), "--topic", "T", "--role", "core"]) == 0
        path.chmod(0o666)  # writable file, but nobody may create files in the folder
        before = dump(path)
        code, err = as_nobody("info", path)
        assert code == 0, err
        code, err = as_nobody("import", path, core, "--topic", "T", "--role", "results",
                              "--name", "again")
        assert code == 2 and err.count("\n") == 1, err
        assert "lock file" in err and "permission denied" in err, err
        assert dump(path) == before


def test_read_only_project_file_and_unreadable_input_get_their_own_messages(tmp_path):
    with shared_folder() as folder:
        folder.chmod(0o777)
        path = folder / "p.litq"
        core = folder / "core.ris"
        core.write_text(CORE_RIS, encoding="utf-8")
        assert cli.main(["new", str(path)]) == 0
        path.chmod(0o444)
        code, err = as_nobody("import", path, core, "--topic", "T", "--role", "core")
        assert code == 2 and "is read-only" in err and "internal error" not in err, err
        code, err = as_nobody("lists", path)
        assert code == 0, err
        path.chmod(0o666)
        core.chmod(0o600)  # root's, unreadable for nobody
        code, err = as_nobody("import", path, core, "--topic", "T", "--role", "core")
        assert code == 2 and "core.ris" in err and "permission denied" in err, err
        assert "internal error" not in err


def test_bibtex_field_length_limit_applies_before_latex_decoding(project, tmp_path, capsys,
                                                                 monkeypatch):
    from litqeval_gui.core.records.importing import bibtex
    from litqeval_gui.core.records.model import MAX_FIELD_CHARS

    decode = bibtex._LATEX.latex_to_text
    seen = []

    def watched(value, **kw):
        seen.append(len(value))
        return decode(value, **kw)

    monkeypatch.setattr(bibtex._LATEX, "latex_to_text", watched)
    long = r"\'e{}" * (MAX_FIELD_CHARS // 3)
    bib = tmp_path / "long.bib"
    bib.write_text("@article{a, title = {" + long + "}, author = {" + long + "}}\n"
                   "@article{b, title = {Fine \\'etude}, author = {Doe, J.}}\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["import", str(project), str(bib), "--topic", "T", "--role", "results",
                     "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rejected"] == 1 and "absurdly long" in summary["problems"][0]
    assert seen and max(seen) <= MAX_FIELD_CHARS


def _disk_full_at(size: int):
    """A child ``setup``: no file may grow beyond ``size`` bytes (as on a full disk)."""
    def setup() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write instead of death
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return setup


def test_full_disk_gets_its_own_message_and_leaves_nothing_behind(project, tmp_path):
    core = tmp_path / "big.ris"
    core.write_text("".join(CORE_RIS.replace("core.", f"big{i}.") for i in range(300)),
                    encoding="utf-8")
    before = dump(project)
    code, err = as_nobody("import", project, core, "--topic", "T", "--role", "results",
                          setup=_disk_full_at(0))  # no file may grow at all
    assert code == 2 and err.count("\n") == 1, err
    assert "cannot be used: input/output error" in err and "internal error" not in err, err
    assert not Path(f"{project}.lock").exists()

    def no_space_either() -> None:  # what a full disk also says: next to nothing free
        _disk_full_at(0)()
        shutil.disk_usage = lambda path: shutil._ntuple_diskusage(10 << 30, 10 << 30, 4096)

    code, err = as_nobody("import", project, core, "--topic", "T", "--role", "results",
                          setup=no_space_either)
    assert code == 2 and err.count("\n") == 1, err
    assert "cannot be used: the disk is full (disk I/O error)" in err, err
    assert not Path(f"{project}.lock").exists()
    code, err = as_nobody("import", project, core, "--topic", "T", "--role", "results",
                          setup=_disk_full_at(project.stat().st_size + 8192))
    assert code == 2 and err.count("\n") == 1, err
    # SQLite reports a write beyond the size limit as an I/O error (a full disk: "full")
    assert "input/output error on the disk" in err and "internal error" not in err, err
    assert not Path(f"{project}.lock").exists()
    # how far it got depends on the file's size (the rows go in committed chunks while
    # the import is pending): nothing of it is seen, and the next opening removes it
    with Project.open(project, readonly=True) as opened:
        assert [r for r, in opened.db.execute("SELECT name FROM live_imports")] == ["core"]
    Project.open(project).close()
    assert dump(project) == before


def _take_lock(path: Path) -> str:
    try:
        ProjectLock(path).acquire()
    except ProjectError as err:
        return str(err)
    return "taken"


def test_a_lock_file_that_cannot_be_written_is_not_left_behind(tmp_path):
    path = tmp_path / "p.litq"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: every write fails as on a full disk
        try:
            os.close(read)
            _disk_full_at(0)()
            os.write(write, _take_lock(path).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        message = handle.read().decode()
    os.waitpid(pid, 0)
    assert message.startswith(f"cannot write the lock file {path}.lock: ")
    assert not Path(f"{path}.lock").exists()
