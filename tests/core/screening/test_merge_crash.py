"""A process merging a large decisions file is SIGKILLed while it writes: the project
holds either none of the file's events or all of them, never a part."""

import json
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import export_decisions
from tests.support.screening import screening_project

MERGER = textwrap.dedent("""
    import sys
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.screening.reviewers.exchange import merge_decisions

    with Project.open(sys.argv[1]) as project:
        run_job(merge_decisions(project, sys.argv[2]),
                lambda progress: print(progress.message, flush=True))
    print("finished", flush=True)
""")
N = 3000


def decisions_file(project, screening, reviewer, out):
    """A decisions file of ``reviewer`` deciding every item (one real export's header and
    line, repeated with each item's fingerprint and its own time stamp)."""
    first = store.items(project, screening.id)[0]
    project.write(store.decide_op(screening, first, "include", store.Context(reviewer)))
    export_decisions(project, screening, reviewer, out)
    header, line = out.read_text().splitlines()
    event = json.loads(line)
    lines = [header]
    for number, (doi, pmid, title, year) in enumerate(project.db.execute(
            "SELECT r.doi, r.pmid, r.title_norm, r.year FROM screening_items i JOIN records r "
            "ON r.id = i.record_id WHERE i.screening_id = ? ORDER BY i.position",
            [screening.id])):
        event.update(record={"doi": doi, "pmid": pmid, "title": title, "year": year},
                     at=f"2026-01-01T00:00:00.{number:06d}+00:00",
                     label=("include", "exclude")[number % 2])
        lines.append(json.dumps(event))
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("merge_crash")
    path, _ = screening_project(folder, N)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        source = decisions_file(project, screening, "Bob", folder / "bob.jsonl")
        project.write(lambda p: p.db.execute("DELETE FROM screening_events") and store.DECISIONS)
        size = len(store.items(project, screening.id))  # one event per item
    return path, source, size


def event_count(path):
    with Project.open(path) as project:
        return project.db.execute("SELECT COUNT(*) FROM screening_events").fetchone()[0]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_sigkill_during_merge_leaves_none_or_all(tmp_path, setup, seed):
    template, source, size = setup
    path = tmp_path / "p.litq"
    shutil.copy(template, path)
    child = subprocess.Popen([sys.executable, "-c", MERGER, str(path), str(source)],
                             stdout=subprocess.PIPE, text=True)
    try:
        for line in child.stdout:
            if line.startswith("writing"):
                time.sleep(random.Random(seed).random() * 0.05)  # inside the write
                child.send_signal(signal.SIGKILL)
                break
        rest = child.stdout.read()
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    assert event_count(path) in (0, size)
    if "finished" in rest:
        assert event_count(path) == size
