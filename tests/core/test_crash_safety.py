"""A process importing a large file is SIGKILLed mid-import: nothing of it may remain."""

import os
import signal
import subprocess
import sys
import textwrap

from litqeval_gui.core import exporting, synthetic
from litqeval_gui.core.project import Project

IMPORTER = textwrap.dedent("""
    import sys
    from litqeval_gui.core import ingest
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.project import Project

    project = Project.open(sys.argv[1])
    def report(p):
        print(p.done, p.message, flush=True)
    run_job(ingest.import_file(project, sys.argv[2], topic="T", role="results", name="big"),
            report)
    print("finished", flush=True)
""")


def test_sigkill_during_import_leaves_no_part_of_it(tmp_path):
    path = tmp_path / "p.litq"
    with Project.create(path):
        pass
    records, _ = synthetic.generate(30_000, dup_rate=0.1, seed=3)
    big = tmp_path / "big.ris"
    exporting.export_records(records, big, "ris")

    proc = subprocess.Popen([sys.executable, "-c", IMPORTER, str(path), str(big)],
                            stdout=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stdout:
        seen.append(line.strip())
        # "linking": the records are stored (import still pending) and linking runs
        if "linking" in line:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, seen[-3:]
    assert "finished" not in seen

    with Project.open(path) as project:  # stale lock of the dead process is taken over
        assert project.discarded == ["big"]  # the unfinished import was removed on open
        db = project.db
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM links").fetchone()[0] == 0
