"""A process making 1 000 decisions through the core API is SIGKILLed at random moments:
every decision it reported as committed is in the project afterwards."""

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
from tests.support.screening import screening_project

SCREENER = textwrap.dedent("""
    import sys
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.screening.log import store
    from litqeval_gui.core.screening.session import ScreeningSession

    project = Project.open(sys.argv[1])
    screening = store.find_screening(project, "T", "s")
    screener = ScreeningSession(project, screening, "Ada")
    labels = ("include", "exclude", "maybe")
    for number in range(1000):
        record = screener.shown
        event = screener.decide(labels[number % 3], note=f"n{number}")
        print(record, event.label, flush=True)
    print("finished", flush=True)
""")


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    path, _ = screening_project(tmp_path_factory.mktemp("crash"), 1000)
    with Project.open(path) as project:
        store.create_screening(project, "T", "s", ["L"])
    return path


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_sigkill_loses_no_reported_decision(tmp_path, template, seed):
    path = tmp_path / "p.litq"
    shutil.copy(template, path)
    rng = random.Random(seed)
    kill_after = rng.randrange(1, 900)
    child = subprocess.Popen([sys.executable, "-c", SCREENER, str(path)],
                             stdout=subprocess.PIPE, text=True)
    reported = []
    try:
        for line in child.stdout:
            reported.append(tuple(line.split()))
            if len(reported) == kill_after:
                time.sleep(rng.random() * 0.005)  # somewhere inside the next decision
                child.send_signal(signal.SIGKILL)
                break
        # printed before it died; a line the kill cut short is no report
        reported += [tuple(line.split()) for line in child.stdout if line.endswith("\n")]
    finally:
        child.kill()
        child.wait()
    assert ("finished",) not in reported
    assert child.returncode == -signal.SIGKILL
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "s")
        stored = [(str(e.record_id), e.label)
                  for e in store.current_decisions(project, screening.id)]
    assert stored[:len(reported)] == reported  # every reported decision, in order
    assert len(stored) - len(reported) in (0, 1)  # at most the one not yet reported
