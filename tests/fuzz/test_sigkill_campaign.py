"""SIGKILL at random moments of a large import (parse, store, link, commit): the project
must always open intact, with the import either wholly there or wholly gone, and the
parser's processes must not outlive the killed one."""

import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel
from tests.conftest import CORE_RIS
from tests.core.test_crash_safety import IMPORTER, _descendants
from tests.fuzz.support import COUNTS, scale
from tests.fuzz.test_fuzz_importers import consistent
from tests.support import synthetic
from tests.test_cli_interrupt import leftovers


def _start(project: Path, big: Path, log: Path) -> subprocess.Popen:
    """Start the importer on ``big``, its progress lines going to ``log``; return once it
    has reported its first one (the import has begun)."""
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-c", IMPORTER, str(project), str(big)],
                                stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not log.read_text() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return proc


@pytest.fixture(scope="module")
def campaign():
    """A project with a core set, a RIS file parsed by worker processes, and how long
    an unkilled import of it takes from its first progress line (with the number of
    records it stores)."""
    folder = Path(tempfile.mkdtemp(prefix="litq-kill-"))
    base = folder / "base.litq"
    core = folder / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    with Project.create(base):
        pass
    subprocess.run([sys.executable, "-c", IMPORTER.replace('name="big"', 'name="core"')
                    .replace('role="results"', 'role="core"'), str(base), str(core)],
                   check=True, capture_output=True)
    records, _ = synthetic.generate(12_000, dup_rate=0.1, seed=11)
    big = folder / "big.ris"
    exporting.export_records(records, big, "ris")
    assert big.stat().st_size >= parallel.PARALLEL_MIN_BYTES
    project = folder / "full.litq"
    shutil.copy(base, project)
    proc = _start(project, big, folder / "full.txt")
    started = time.monotonic()
    assert proc.wait(timeout=300) == 0
    duration = time.monotonic() - started
    with Project.open(project, readonly=True) as opened:
        stored = opened.db.execute("SELECT COUNT(*) FROM records WHERE import_id = "
                                   "(SELECT id FROM imports WHERE name = 'big')").fetchone()[0]
    yield folder, base, big, duration, stored
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_sigkill_at_random_moments_never_damages_the_project(campaign):
    folder, base, big, duration, stored = campaign
    kills = scale(4, 50)
    for kill in range(kills):
        moment = random.Random(kill).uniform(0, duration)
        project = folder / "p.litq"
        for leftover in folder.glob("p.litq*"):
            leftover.unlink()
        shutil.copy(base, project)
        log = folder / "progress.txt"
        proc = _start(project, big, log)
        deadline = time.monotonic() + moment
        helpers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            helpers |= _descendants(proc.pid)
            time.sleep(0.02)
        helpers |= _descendants(proc.pid)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        lines = log.read_text().splitlines()
        phase = "finished" if "finished" in lines else (
            " ".join(lines[-1].split()[1:]) if lines else "starting")
        COUNTS[f"sigkill: killed while {re.sub(r'[0-9]+', 'N', phase)[:28]}"] += 1
        assert not leftovers(helpers), "the parser's processes outlived the killed import"
        with Project.open(project) as opened:  # takes over the dead process's lock
            conn: sqlite3.Connection = opened.db.conn
            consistent(conn)
            row = conn.execute("SELECT COUNT(*) FROM records WHERE import_id IN "
                               "(SELECT id FROM imports WHERE name = 'big')").fetchone()
            assert row[0] in (0, stored), (phase, row)
            assert conn.execute("SELECT COUNT(*) FROM records WHERE import_id IN "
                                "(SELECT id FROM imports WHERE name = 'core')").fetchone()[0] == 3
        COUNTS["sigkill: kills survived (project intact)"] += 1
