"""Issue 11 §3: Ctrl-C during a large RIS import ends it cleanly: one line, exit 130,
the project unchanged, and no process left behind."""

import os
import signal
import subprocess
import sys
import time

import pytest

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel
from tests.conftest import CORE_RIS
from tests.core.test_crash_safety import _descendants
from tests.support import synthetic
from tests.test_cli_bad_input import dump

CLI = [sys.executable, "-m", "litqeval_gui.cli"]


def interrupt_import(project, big, delay: float, *, helpers_first: int = 3,
                     ) -> tuple[subprocess.CompletedProcess, float, set[int]]:
    """Start ``litqeval import`` in its own process group, wait until ``helpers_first`` of
    its helper processes run (3: the resource tracker, the forkserver and a worker; 0: from
    the start) plus ``delay`` seconds, then Ctrl-C the group as a terminal does. Returns the
    finished process, seconds from Ctrl-C to its exit, and its helpers' pids (those seen)."""
    proc = subprocess.Popen([*CLI, "import", str(project), str(big), "--topic", "T",
                             "--role", "results"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    helpers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(helpers) < helpers_first and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        helpers = _descendants(proc.pid)  # the forkserver and two workers
    end = time.monotonic() + delay
    while time.monotonic() < end:  # helpers started meanwhile are watched too
        helpers |= _descendants(proc.pid)
        time.sleep(0.02)
    helpers |= _descendants(proc.pid)
    sent = time.monotonic()
    if proc.poll() is None:  # (a late Ctrl-C may find the import finished)
        os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    ended = time.monotonic() - sent
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), ended, helpers


def leftovers(helpers: set[int]) -> set[int]:
    """Helpers still running (not zombies) a few seconds after the import ended."""
    deadline = time.monotonic() + 10
    alive = helpers
    while alive and time.monotonic() < deadline:
        alive = {pid for pid in helpers if os.path.exists(f"/proc/{pid}")
                 and open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"}
        time.sleep(0.1)
    return alive


@pytest.fixture
def big_import(tmp_path):
    project = tmp_path / "p.litq"
    Project.create(project).close()
    records, _ = synthetic.generate(30_000, dup_rate=0.1, seed=5)
    big = tmp_path / "big.ris"
    exporting.export_records(records, big, "ris")
    assert big.stat().st_size >= parallel.PARALLEL_MIN_BYTES  # parsed by worker processes
    return project, big


@pytest.mark.slow
def test_ctrl_c_during_a_parallel_ris_import(big_import):
    project, big = big_import
    before = dump(project)
    done, _, helpers = interrupt_import(project, big, 0.3)
    assert len(helpers) >= 3
    assert done.returncode == 130, done.stderr
    assert done.stderr == "litqeval: interrupted; the project is unchanged\n"
    assert not leftovers(helpers)
    assert dump(project) == before
    assert not os.path.exists(f"{project}.lock")


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
    monkeypatch.setattr(cli.TextProgress, hook, lambda self, *args: interrupt(*args))
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


@pytest.mark.slow
@pytest.mark.parametrize(("helpers_first", "delay"), [(0, 0.3), (0, 0.9), (2, 0.2)])
def test_ctrl_c_while_the_import_starts(big_import, helpers_first, delay):
    """Issue 27 §3: Ctrl-C while the command loads its modules (0.3 s, 0.9 s from the
    start) or while the parser's forkserver preloads them (0.2 s after it appears, beside
    the resource tracker): one line, exit 130 — not a KeyboardInterrupt traceback (exit −2)
    nor 'internal error: EOFError' (the forkserver killed by the Ctrl-C)."""
    project, big = big_import
    before = dump(project)
    done, _, helpers = interrupt_import(project, big, delay, helpers_first=helpers_first)
    assert (done.returncode, done.stderr) == (130, "litqeval: interrupted; the project is "
                                                   "unchanged\n")
    assert not leftovers(helpers)
    assert dump(project) == before
    assert not os.path.exists(f"{project}.lock")


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
