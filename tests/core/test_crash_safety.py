"""A process importing a large file is SIGKILLed mid-import: nothing of it may remain."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting
from litqeval_gui.core.records.importing import parallel
from tests.support import synthetic

IMPORTER = textwrap.dedent("""
    import sys
    from litqeval_gui.core.records import ingest
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.projectfile.project import Project

    project = Project.open(sys.argv[1])
    def report(p):
        print(p.done, p.message, flush=True)
    run_job(ingest.import_file(project, sys.argv[2], topic="T", role="results", name="big"),
            report)
    print("finished", flush=True)
""")


def _descendants(pid: int) -> set[int]:
    """Processes below ``pid`` (the parser's forkserver and its workers), from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.mark.parametrize(("kill_at", "discarded"), [
    ("reading RIS records", ["big"]),  # mid-parse, workers running: chunks stored, pending
    ("linking", ["big"]),  # records stored (import pending) and linking runs
])
def test_sigkill_during_import_leaves_no_part_of_it(tmp_path, kill_at, discarded):
    path = tmp_path / "p.litq"
    with Project.create(path):
        pass
    records, _ = synthetic.generate(30_000, dup_rate=0.1, seed=3)
    big = tmp_path / "big.ris"
    exporting.export_records(records, big, "ris")
    assert big.stat().st_size >= parallel.PARALLEL_MIN_BYTES  # parsed by worker processes

    proc = subprocess.Popen([sys.executable, "-c", IMPORTER, str(path), str(big)],
                            stdout=subprocess.PIPE, text=True)
    seen, helpers = [], set()
    for line in proc.stdout:
        seen.append(line.strip())
        if kill_at in line and int(line.split()[0]) > 10:
            helpers = _descendants(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, seen[-3:]
    assert "finished" not in seen
    if kill_at == "reading RIS records":
        assert len(helpers) >= 3  # the forkserver and two workers were running
    deadline = time.monotonic() + 10
    while helpers & _descendants(1) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = {pid for pid in helpers if os.path.exists(f"/proc/{pid}")
             and open(f"/proc/{pid}/stat").read().split()[2] != "Z"}
    assert not alive, "the parser's processes outlived the killed import"

    with Project.open(path) as project:  # stale lock of the dead process is taken over
        assert project.discarded == discarded  # an unfinished import is removed on open
        db = project.db
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 0
