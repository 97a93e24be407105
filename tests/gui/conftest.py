"""GUI tests run offscreen, write settings to a temporary folder, and capture error boxes;
cyclic garbage is collected on the GUI thread only, as in the app; no job thread may still
run when a test ends. Shared fixtures: the small project, a main
window, and the screening project ``made`` with its ``session``."""

import multiprocessing
import os
import threading
import time
import traceback
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from litqeval_gui.core.records.pdf_child import READER

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# qtbot's waits wait for an event; their timeout is only a safety net, and pytest-qt's
# default of 5 s is too short on a busy laptop (load 5 on 2 cores): a wait that names no
# timeout gets this one
PATIENCE_MS = 60_000


def _patient(wait):
    def patient(self, *args, timeout: int = PATIENCE_MS, **kwargs):
        return wait(self, *args, timeout=timeout, **kwargs)
    return patient


for _wait in ("waitUntil", "waitSignal", "waitSignals", "waitCallback", "waitExposed",
              "waitActive"):
    setattr(QtBot, _wait, _patient(getattr(QtBot, _wait)))


@pytest.fixture(scope="module", autouse=True)
def garbage_on_gui_thread(qapp):
    """Cyclic garbage (widgets of earlier tests) is collected on the GUI thread, as in
    the app: never by a job or worker thread while a test walks the widget tree. Per
    module, so that the tests after ``tests/gui`` run with the collector as it was."""
    from litqeval_gui.gui.collector import collecting_on_gui_thread

    with collecting_on_gui_thread():
        yield


@pytest.fixture(autouse=True)
def isolated_config(tmp_path, monkeypatch):
    """Settings, logs and recent files go to a temporary folder, never the real one; the
    reviewer is the settings' (not one named by the environment)."""
    folder = tmp_path / "config"
    monkeypatch.setenv("LITQEVAL_CONFIG_DIR", str(folder))
    monkeypatch.delenv("LITQEVAL_REVIEWER", raising=False)
    return folder


@pytest.fixture(autouse=True)
def no_job_thread_outlives_the_test(monkeypatch):
    """Every thread started during the test has stopped by its end: job QThreads
    (``threading`` does not see them, so they are recorded as they start), Python threads
    (the write path's worker) and the parser's worker processes. A leak is reported
    with where it started."""
    from litqeval_gui.gui import jobs

    started = []
    real_start = jobs._JobThread.start

    def start(thread, *args):
        started.append((thread, "".join(traceback.format_stack(limit=12)[:-1])))
        real_start(thread, *args)

    monkeypatch.setattr(jobs._JobThread, "start", start)
    before = set(threading.enumerate())
    yield
    leaks = []
    for thread, where in started:
        try:
            if thread.isRunning():
                leaks.append(f"job thread started at:\n{where}")
        except RuntimeError:  # deleted after it finished
            continue
    deadline = time.monotonic() + 5
    while (alive := [t for t in threading.enumerate() if t not in before and t.is_alive()
                     and not t.daemon]) and time.monotonic() < deadline:
        time.sleep(0.01)
    leaks += [f"thread {t.name!r} (target {getattr(t, '_target', None)!r})" for t in alive]
    leaks += [f"process {p.name} pid {p.pid}" for p in multiprocessing.active_children()
              if p.name != READER]  # the PDF thread's, ended once its readers are deleted
    assert leaks == [], "still running after the test:\n" + "\n".join(leaks)


@pytest.fixture
def shown_errors(monkeypatch):
    """Errors that would be shown to the user, as (title, message, details)."""
    from litqeval_gui.gui import notify

    seen = []
    monkeypatch.setattr(notify, "presenter", lambda parent, t, m, d: seen.append((t, m, d)))
    return seen


@pytest.fixture
def project_path(tmp_path, small_files):
    """The small project: topic "search eval", core (3 records), scopus (5 records)."""
    from tests.support.projects import make_project

    return make_project(tmp_path / "small.litq", small_files)


@pytest.fixture
def window(qtbot):
    """A main window; when the test ends, no job or thread of it is left running."""
    from litqeval_gui.gui.main_window import MainWindow

    threads_before = threading.active_count()
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 700)
    yield win
    sessions = [win.session] if win.session else []
    win.close()
    assert win.runner.active() == []
    assert all(s.jobs.active() == [] for s in sessions)
    # an event, not a time: the window's threads ending (60 s is only a safety net; on a
    # busy laptop a background compile or a child's reader thread takes more than 5 s)
    qtbot.waitUntil(lambda: threading.active_count() <= threads_before, timeout=60_000)


@pytest.fixture
def made(tmp_path):
    """A project with topic T, list L (60 records, 12 relevant) and screening S of L, and
    the reviewer "Ann" in the settings; (path, labels)."""
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.screening.log import store
    from litqeval_gui.gui.settings import Settings
    from tests.support.screening import screening_project

    path, labels = screening_project(tmp_path, 60, 0.2, seed=3)
    with Project.open(path) as project:
        store.create_screening(project, "T", "S", ["L"], reasons=["wrong design"])
    settings = Settings()
    settings.reviewer = "Ann"
    settings.save()
    return path, labels


@pytest.fixture
def session(made):
    """A session on the ``made`` project, closed (and checked to close) at the end."""
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.gui.session import ProjectSession

    session = ProjectSession(Project.open(made[0]))
    yield session
    assert session.close()


@pytest.fixture
def shot(tmp_path):
    """``shot(widget, name)``: the widget grabbed to ``name.png`` in ``$LITQEVAL_SCREENS``
    when set (to look at the screens), else in the test's temporary folder — never in the
    source tree; fails when the picture is blank (fewer than 4 colours). Returns the path."""
    from PySide6.QtGui import QImage

    folder = Path(os.environ.get("LITQEVAL_SCREENS") or tmp_path / "screens")
    folder.mkdir(parents=True, exist_ok=True)

    def take(widget, name: str) -> Path:
        path = folder / f"{name}.png"
        assert widget.grab().save(str(path)), path
        image = QImage(str(path)).scaled(64, 64)
        colours = {image.pixel(x, y) for x in range(64) for y in range(64)}
        assert len(colours) >= 4, f"{path.name} is blank"
        return path

    return take
