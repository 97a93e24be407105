"""GUI tests run offscreen, write settings to a temporary folder, and capture error boxes;
no job thread may still run when a test ends."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def isolated_config(tmp_path, monkeypatch):
    """Settings, logs and recent files go to a temporary folder, never the real one."""
    folder = tmp_path / "config"
    monkeypatch.setenv("LITQEVAL_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_job_thread_outlives_the_test(monkeypatch):
    """Every job thread started during the test has stopped by its end (``threading``
    does not see QThreads, so they are recorded as they start)."""
    from litqeval_gui.gui import jobs

    started = []
    real_start = jobs._JobThread.start

    def start(thread, *args):
        started.append(thread)
        real_start(thread, *args)

    monkeypatch.setattr(jobs._JobThread, "start", start)
    yield
    running = []
    for thread in started:
        try:
            if thread.isRunning():
                running.append(thread)
        except RuntimeError:  # deleted after it finished
            continue
    assert running == [], f"{len(running)} job thread(s) still running after the test"


@pytest.fixture
def shown_errors(monkeypatch):
    """Errors that would be shown to the user, as (title, message, details)."""
    from litqeval_gui.gui import notify

    seen = []
    monkeypatch.setattr(notify, "presenter", lambda parent, t, m, d: seen.append((t, m, d)))
    return seen
