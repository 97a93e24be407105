"""Issue 11 §3: Ctrl-C during a large RIS import ends it cleanly: one line, exit 130,
the project unchanged, and no process left behind."""

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from litqeval_gui import cli
from litqeval_gui.cli.common import TextProgress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel
from tests.conftest import CORE_RIS
from tests.core.test_crash_safety import _descendants
from tests.support import synthetic
from tests.test_cli_bad_input import dump

CLI = [sys.executable, "-m", "litqeval_gui.cli"]
POLL = 0.02  # seconds between two looks at the import's processes or project
ENDS_WITHIN = 300.0  # seconds after the Ctrl-C: an import still running then hangs
HELPERS_END_WITHIN = 60.0  # seconds after the import ended for its helpers to end
RECORDS = 30_000  # in the large RIS file (big_import)

Moment = Callable[[int, Path], bool]  # (the import's pid, its project): Ctrl-C now?


@dataclass
class Interrupted:
    """An interrupted import: how it ended, the seconds from the Ctrl-C to its end (None:
    it ended before its moment came, no Ctrl-C sent), its helper processes seen, and
    those still running after it ended (killed since)."""

    done: subprocess.CompletedProcess
    seconds: float | None
    helpers: set[int]
    left: set[int]


def _ctrl_c_live() -> None:
    """In the child before it runs: SIGINT as a terminal's program has it, even when these
    tests run in the background (a shell starts background jobs with SIGINT ignored, and
    a program that starts so rightly ignores Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_import(project: Path, big: Path, moment: Moment) -> Interrupted:
    """Start ``litqeval import`` in its own process group, wait for ``moment``, then Ctrl-C
    the group as a terminal does. Whatever happens, nothing it started outlives this: an
    import still running :data:`ENDS_WITHIN` s after the Ctrl-C fails the test, and its
    group is killed; so are helpers that outlive it by :data:`HELPERS_END_WITHIN` s."""
    proc = subprocess.Popen([*CLI, "import", str(project), str(big), "--topic", "T",
                             "--role", "results"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_ctrl_c_live)
    helpers: set[int] = set()
    try:
        while proc.poll() is None and not moment(proc.pid, project):
            helpers |= _descendants(proc.pid)
            time.sleep(POLL)
        helpers |= _descendants(proc.pid)
        sent = None
        if proc.poll() is None:  # (the import may have ended before its moment)
            sent = time.monotonic()
            os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=ENDS_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the import did not end within {ENDS_WITHIN:.0f} s of the Ctrl-C")
        seconds = None if sent is None else time.monotonic() - sent
    finally:
        if proc.poll() is None:
            _kill_group(proc.pid)
            proc.communicate()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return Interrupted(done, seconds, helpers, leftovers(helpers, proc.pid))


def leftovers(helpers: set[int], group: int | None = None) -> set[int]:
    """``helpers`` still running (not zombies) :data:`HELPERS_END_WITHIN` s after the
    import ended, and then killed, with ``group``'s other processes."""
    deadline = time.monotonic() + HELPERS_END_WITHIN
    alive = _running(helpers)
    while alive and time.monotonic() < deadline:
        time.sleep(POLL)
        alive = _running(alive)
    for pid in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if group is not None:
        _kill_group(group)
    return alive


def _running(pids: set[int]) -> set[int]:
    def state(pid: int) -> str:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return "gone"
    return {pid for pid in pids if state(pid) not in ("gone", "Z")}


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def loading(library: str) -> Moment:
    """While the command loads its modules: once it has mapped the shared library whose
    path holds ``library`` (a module's extension)."""
    def moment(pid: int, project: Path) -> bool:
        try:
            with open(f"/proc/{pid}/maps") as maps:
                return any(library in line for line in maps)
        except OSError:
            return False
    return moment


def preloading(pid: int, project: Path) -> bool:
    """While the parser's forkserver preloads this program's modules: it runs and has
    started no worker yet."""
    servers = [child for child in _children(pid) if b"forkserver" in _cmdline(child)]
    return any(not _children(server) for server in servers)


def workers_started(pid: int, project: Path) -> bool:
    """Once the parser's forkserver has started a worker."""
    return any(_children(child) for child in _children(pid)
               if b"forkserver" in _cmdline(child))


def rows_stored(count: int) -> Moment:
    """Once the import has stored more than ``count`` records (in its pending list)."""
    def moment(pid: int, project: Path) -> bool:
        try:
            with contextlib.closing(sqlite3.connect(f"{project.as_uri()}?mode=ro",
                                                    uri=True)) as conn:
                return conn.execute("SELECT count(*) FROM records").fetchone()[0] > count
        except sqlite3.Error:  # (the schema being set up, a lock)
            return False
    return moment


def _children(pid: int) -> set[int]:
    return {child for child in _descendants(pid) if _parent(child) == pid}


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read()
    except OSError:
        return b""


@pytest.fixture
def big_import(tmp_path):
    project = tmp_path / "p.litq"
    Project.create(project).close()
    records, _ = synthetic.generate(RECORDS, dup_rate=0.1, seed=5)
    big = tmp_path / "big.ris"
    exporting.export_records(records, big, "ris")
    assert big.stat().st_size >= parallel.PARALLEL_MIN_BYTES  # parsed by worker processes
    return project, big


@pytest.mark.slow
def test_ctrl_c_during_a_parallel_ris_import(big_import):
    """Ctrl-C while the workers parse and send their pieces: on a busy machine
    multiprocessing.Pool's terminate once hung for good (its task thread and a worker
    blocked on full pipes); the workers are killed instead."""
    project, big = big_import
    before = dump(project)
    run = interrupt_import(project, big, rows_stored(parallel.MAIN_PIECES
                                                     * parallel.PIECE_RECORDS))
    assert run.seconds is not None, "the import ended before a worker's piece was stored"
    assert len(run.helpers) >= 3  # the resource tracker, the forkserver, a worker
    assert run.done.returncode == 130, run.done.stderr
    assert run.done.stderr == "litqeval: interrupted; the project is unchanged\n"
    assert not run.left
    assert dump(project) == before
    assert not os.path.exists(f"{project}.lock")


@pytest.mark.slow
def test_ctrl_c_ends_the_import_beside_a_worker_that_answers_nothing(big_import):
    """A worker that makes no progress (stopped here; on a busy machine, one blocked on a
    pipe nobody reads) does not hold the import up: it is killed, not waited for."""
    project, big = big_import
    before = dump(project)
    first_result = rows_stored(parallel.MAIN_PIECES * parallel.PIECE_RECORDS)

    def a_worker_stopped(pid: int, project: Path) -> bool:
        workers = {worker for server in _children(pid) if b"forkserver" in _cmdline(server)
                   for worker in _children(server)}
        if not workers or not first_result(pid, project):
            return False
        os.kill(min(workers), signal.SIGSTOP)
        return True

    run = interrupt_import(project, big, a_worker_stopped)
    assert run.seconds is not None, "the import ended before a worker's piece was stored"
    assert (run.done.returncode, run.done.stderr) == (
        130, "litqeval: interrupted; the project is unchanged\n")
    assert not run.left
    assert dump(project) == before


@pytest.mark.parametrize("late", ["at the last progress report", "after the job"])
def test_ctrl_c_after_the_commit_says_the_import_is_kept(tmp_path, capsys, monkeypatch, late):
    project = tmp_path / "p.litq"
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    assert cli.main(["new", str(project)]) == 0

    def interrupt(*args):
        if late == "after the job" or (args and args[0].message == "done"):
            raise KeyboardInterrupt

    hook = "__call__" if late == "at the last progress report" else "finish"
    monkeypatch.setattr(TextProgress, hook, lambda self, *args: interrupt(*args))
    capsys.readouterr()
    assert cli.main(["import", str(project), str(core), "--topic", "T", "--role", "core"]) == 130
    assert capsys.readouterr().err == ("litqeval: interrupted after the import had finished; "
                                       "it is kept\n")
    with Project.open(project, readonly=True) as opened:
        assert opened.db.execute("SELECT name, state, n_read FROM imports").fetchall() == [
            ("core", "done", 3)]


def test_an_interrupt_just_after_the_import_is_registered_leaves_nothing(tmp_path, capsys,
                                                                          monkeypatch):
    """Ctrl-C between the commit that registers the pending import and the first record:
    the pending import (and the topic it created) go, as the message says."""
    from litqeval_gui.core.records import ingest

    project = tmp_path / "p.litq"
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    assert cli.main(["new", str(project)]) == 0
    before = dump(project)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "RowWriter", interrupted)
    capsys.readouterr()
    assert cli.main(["import", str(project), str(core), "--topic", "T", "--role", "core"]) == 130
    assert capsys.readouterr().err == "litqeval: interrupted; the project is unchanged\n"
    assert dump(project) == before


class CtrlCAsSqliteReturns(sqlite3.Connection):
    """A connection on which a Ctrl-C arrives while SQLite runs the ``nth`` statement
    ``sql``: Python raises it as the call returns, the statement done."""

    sql, nth, seen = "", 0, 0

    def execute(self, sql, *args):
        cursor = super().execute(sql, *args)
        if sql == self.sql:
            type(self).seen += 1
            if self.seen == self.nth:
                raise KeyboardInterrupt
        return cursor


@pytest.mark.parametrize(("sql", "nth"), [("BEGIN IMMEDIATE", 1), ("BEGIN IMMEDIATE", 2),
                                          ("COMMIT", 2), ("PRAGMA synchronous = NORMAL", 1)])
def test_a_ctrl_c_as_sqlite_begins_or_commits_a_write(tmp_path, capsys, monkeypatch, sql, nth):
    """The 2nd BEGIN IMMEDIATE is the first rows' write (not flushed: synchronous NORMAL for
    it): a Ctrl-C there left its transaction open, and restoring synchronous inside it
    failed: 'database error: Safety level may not be changed inside a transaction', exit 2,
    the pending import left behind."""
    project = tmp_path / "p.litq"
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    assert cli.main(["new", str(project)]) == 0
    before = dump(project)
    connect = sqlite3.connect
    monkeypatch.setattr(CtrlCAsSqliteReturns, "sql", sql)
    monkeypatch.setattr(CtrlCAsSqliteReturns, "nth", nth)
    monkeypatch.setattr(CtrlCAsSqliteReturns, "seen", 0)
    monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: connect(
        *args, **kwargs, factory=CtrlCAsSqliteReturns))
    capsys.readouterr()
    code = cli.main(["import", str(project), str(core), "--topic", "T", "--role", "core"])
    monkeypatch.undo()
    assert (code, capsys.readouterr().err) == (130, "litqeval: interrupted; the project is "
                                                    "unchanged\n")
    assert dump(project) == before


@pytest.mark.slow
@pytest.mark.parametrize("moment", [loading("_sqlite3.cpython"), loading("_multiarray_umath"),
                                    preloading],
                         ids=["loading sqlite3", "loading numpy", "forkserver preloading"])
def test_ctrl_c_while_the_import_starts(big_import, moment):
    """Issue 27 §3: Ctrl-C while the command loads its modules (sqlite3, just after its
    handler is set; numpy, later) or while the parser's forkserver preloads them: one
    line, exit 130 — not a KeyboardInterrupt traceback (exit −2) nor 'internal error:
    EOFError' (the forkserver killed by the Ctrl-C)."""
    project, big = big_import
    before = dump(project)
    run = interrupt_import(project, big, moment)
    assert run.seconds is not None, "the import ended before its moment came"
    assert (run.done.returncode, run.done.stderr) == (
        130, "litqeval: interrupted; the project is unchanged\n")
    assert not run.left
    assert dump(project) == before
    assert not os.path.exists(f"{project}.lock")


def test_a_ctrl_c_that_ended_a_string_exec_exits_130_under_dash_m(tmp_path):
    """A Ctrl-C that lands while a module builds a dataclass (a string exec) and that
    main() reports: ``python -m litqeval_gui.cli`` exits 130 as the console script does,
    not by SIGINT (-2, CPython's flag for a KeyboardInterrupt that ended a string eval)."""
    (tmp_path / "sitecustomize.py").write_text(
        "import litqeval_gui.cli as cli\n"
        "def build_parser(modules=None):\n"
        "    exec('raise KeyboardInterrupt', {})\n"
        "cli.build_parser = build_parser\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run([*CLI, "info", str(tmp_path / "p.litq")], capture_output=True,
                          text=True, env=env, preexec_fn=_ctrl_c_live)
    assert (done.returncode, done.stderr) == (
        130, "litqeval: interrupted; the project is unchanged\n")


def test_workers_are_sent_a_byte_range_not_the_piece(tmp_path, monkeypatch):
    """Issue 27 §3: a task sent to a worker is a path and a byte range (a few hundred
    bytes), so stopping the pool never waits on a multi-MB piece half-sent into the pipe
    (a Ctrl-C once hung in Pool.terminate); the ranges cover the file's records exactly."""
    from litqeval_gui.core.jobs import run_job

    monkeypatch.setattr(parallel, "PIECE_RECORDS", 300)
    records, _ = synthetic.generate(1000, dup_rate=0.0, seed=2)
    path = tmp_path / "big.ris"
    exporting.export_records(records, path, "ris")
    sent = []
    real = parallel._results
    monkeypatch.setattr(parallel, "_results", lambda pool, tasks: (sent.extend(tasks),
                                                                 real(pool, tasks))[1])
    rows = []
    run_job(parallel.read_rows(path, lambda batch, offset: rows.extend(batch), parallel=True))
    assert len(rows) == 1000 and len(sent) == 4
    assert max(len(repr(task)) for task in sent) < 500
    assert sent[0][1] == 0 and sent[-1][2] == path.stat().st_size
    assert all(a[2] == b[1] for a, b in zip(sent, sent[1:], strict=False))  # contiguous


def test_a_ctrl_c_after_the_command_finished_changes_nothing(tmp_path):
    """A Ctrl-C that arrives once the command is done (its import committed and reported,
    the interpreter ending) is ignored: exit 0, not death by SIGINT."""
    project = tmp_path / "p.litq"
    Project.create(project).close()
    script = ("import os, signal, sys\n"
              "from litqeval_gui.cli import main\n"
              f"sys.argv = ['litqeval', 'info', {str(project)!r}]\n"
              "code = main()\n"
              "os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C, late\n"
              "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert "p.litq" in done.stdout
