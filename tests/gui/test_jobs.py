"""The job runner: results, failures and cancels reach the GUI thread; no thread leaks."""

import threading

import pytest
from PySide6.QtCore import QThread

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import Progress
from litqeval_gui.gui.jobs import JobRunner


def counting_job(n, gate=None):
    def make(token):
        for i in range(n):
            if gate is not None:
                gate.wait(5)
            token.raise_if_cancelled()
            yield Progress(i + 1, n, f"step {i + 1}")
        return sum(range(n))
    return make


def test_success_value_and_progress_arrive_on_gui_thread(qtbot):
    runner = JobRunner()
    got, progress, threads = [], [], []
    runner.progress.connect(lambda title, d, t, m: progress.append((title, d, t)))

    def done(value):
        threads.append(QThread.currentThread())
        got.append(value)

    with qtbot.waitSignal(runner.ended, timeout=60_000):
        handle = runner.run("count", counting_job(5), on_success=done)
    assert got == [10]
    assert threads == [QThread.currentThread()]  # the callback ran on the GUI thread
    assert progress[-1] == ("count", 5, 5)  # the final report is never throttled away
    assert not handle.running and runner.active() == []


def test_a_new_phase_message_is_never_throttled_away(qtbot):
    runner = JobRunner()
    seen = []
    runner.progress.connect(lambda title, d, t, m: seen.append(m))

    def phases(token):
        for i in range(200):  # far faster than the throttle interval
            yield Progress(i, 1000, "reading")
        yield Progress(500, 1000, "linking")  # then a long step without reports
        return None

    with qtbot.waitSignal(runner.ended, timeout=60_000):
        runner.run("phases", phases)
    assert seen[0] == "reading" and seen[-1] == "linking"
    assert seen.count("reading") < 200  # the flood itself is throttled


@pytest.mark.parametrize(("error", "first_line"), [
    (ImportRefused("x.ris: no usable records"), "x.ris: no usable records"),
    (ZeroDivisionError("boom"), "An internal error occurred: ZeroDivisionError: boom"),
], ids=["user-error", "internal-error"])
def test_failure_goes_to_the_notification_path(qtbot, shown_errors, error, first_line):
    runner = JobRunner()

    def bad(token):
        yield Progress(0, 1, "start")
        raise error

    with qtbot.waitSignal(runner.ended, timeout=60_000):
        runner.run("Import x.ris", bad)
    [(title, message, details)] = shown_errors
    assert title == "Import x.ris failed"
    assert message.splitlines()[0] == first_line  # a user error as is, else described
    assert "Traceback" in details and type(error).__name__ in details


def test_cancel_calls_on_cancelled_and_shutdown_leaves_no_thread(qtbot):
    runner = JobRunner()
    gate = threading.Event()
    outcome = []
    handle = runner.run("slow", counting_job(1000, gate),
                        on_success=lambda v: outcome.append("done"),
                        on_cancelled=lambda: outcome.append("cancelled"))
    handle.cancel()
    gate.set()
    assert runner.shutdown(5000)
    qtbot.waitUntil(lambda: outcome == ["cancelled"], timeout=60_000)
    assert not handle.running


def test_a_job_writing_through_the_write_path_leaves_no_thread_behind(qtbot, tmp_path):
    """The write path once asked ``threading.current_thread()`` on each submit, which
    registers a _DummyThread, never removed, for every Qt job thread that writes."""
    from litqeval_gui.core.projectfile.changes import Changes
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.projectfile.writes import WritePath

    project = Project.create(tmp_path / "w.litq")
    writes = WritePath(project)
    before = set(threading.enumerate())

    def make(token):
        yield Progress(0, 1, "writing")
        return writes.run(lambda p: Changes())

    runner = JobRunner()
    try:
        with qtbot.waitSignal(runner.ended, timeout=60_000):
            runner.run("write", make)
    finally:
        writes.close()
        project.close()
    assert [t.name for t in set(threading.enumerate()) - before] == []
