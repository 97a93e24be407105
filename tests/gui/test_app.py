"""The entry point: no-display exit, opening a project from the command line, the excepthook."""

import logging
import multiprocessing
import os
import subprocess
import sys
import threading
import time

import pytest

from litqeval_gui.core.embedding import warmup
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.gui import app as gui_app
from litqeval_gui.gui.main_window import MainWindow


def test_without_a_display_it_exits_2_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["LITQEVAL_CONFIG_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from litqeval_gui.gui.app import main; "
         "sys.exit(main([]))"],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("litqeval-gui: no display available; use the `litqeval` command "
                           "for headless work\n")
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(("env", "platform", "ok"), [
    ({}, "linux", False),
    ({"DISPLAY": ":0"}, "linux", True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", True),
    ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, "linux", True),
    ({"QT_QPA_PLATFORM": "xcb"}, "linux", False),
    ({}, "win32", True),
    ({}, "darwin", True),
])
def test_display_problem(env, platform, ok):
    assert (gui_app.display_problem(env, platform, loads=lambda lib: True) is None) == ok


def test_missing_xcb_libraries_are_named_with_their_packages():
    absent = {"libxcb-cursor.so.0", "libxcb-icccm.so.4"}
    problem = gui_app.display_problem({"DISPLAY": ":0"}, "linux",
                                      loads=lambda lib: lib not in absent)
    assert problem == ("the window system (Qt xcb) needs libraries this machine lacks: "
                       "libxcb-cursor.so.0, libxcb-icccm.so.4 "
                       "(Debian/Ubuntu: sudo apt install libxcb-cursor0 libxcb-icccm4)")
    # another platform asked for, or a Wayland session: xcb is not used
    for env in ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"},
                {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}):
        assert gui_app.display_problem(env, "linux", loads=lambda lib: False) is None


def test_command_line_options():
    args, qt_args = gui_app.parse_args(["p.litq", "-platform", "offscreen"])
    assert str(args.project) == "p.litq" and not args.demo and qt_args == ["-platform", "offscreen"]
    assert gui_app.parse_args(["--demo"])[0].demo


def test_opening_a_project_from_the_command_line_shows_its_topics(qtbot, tmp_path, small_files,
                                                                 request):
    core, results = small_files
    before = sys.getswitchinterval()
    request.addfinalizer(lambda: sys.setswitchinterval(before))
    sys.setswitchinterval(0.005)  # Python's default
    path = tmp_path / "cli.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, core, topic="from cli", role="core"))
        run_job(ingest.import_file(project, results, topic="from cli", role="results"))
    args, _ = gui_app.parse_args([str(path)])
    window = gui_app.start(args)
    qtbot.addWidget(window)
    assert window.isVisible()
    assert window.sidebar.topic_names() == ["from cli"]
    # the app hands the GIL between its GUI and job threads every 0.5 ms, not 5 ms
    assert sys.getswitchinterval() == pytest.approx(0.0005)
    window.close()


@pytest.fixture
def reporter(qtbot, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    log_file = gui_app.setup_logging()
    yield gui_app.install_error_reporting(), log_file
    logging.getLogger().removeHandler(gui_app._log_handler)
    gui_app._log_handler.close()
    gui_app._log_handler = None


def test_uncaught_exceptions_are_logged_and_shown_once(reporter, qtbot, shown_errors,
                                                       isolated_config):
    _, log_file = reporter
    assert log_file == isolated_config / "litqeval-gui.log"
    try:
        raise ValueError("a bug in a slot")
    except ValueError as exc:
        error = exc
    sys.excepthook(type(error), error, error.__traceback__)
    sys.excepthook(type(error), error, error.__traceback__)  # the same error again
    qtbot.waitUntil(lambda: len(shown_errors) == 1, timeout=60_000)
    qtbot.wait(50)
    assert len(shown_errors) == 1
    title, message, details = shown_errors[0]
    assert title == "Unexpected error"
    assert message.startswith("An internal error occurred: ValueError: a bug in a slot")
    assert "Traceback" in details
    text = log_file.read_text(encoding="utf-8")
    assert "uncaught exception" in text and "ValueError: a bug in a slot" in text


def test_exceptions_in_other_threads_reach_the_gui_thread(reporter, qtbot, shown_errors):
    _, log_file = reporter

    def broken():
        raise RuntimeError("worker thread failed")

    thread = threading.Thread(target=broken, name="helper")
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: len(shown_errors) == 1, timeout=60_000)
    assert "RuntimeError: worker thread failed" in shown_errors[0][1]
    assert "in thread helper" in log_file.read_text(encoding="utf-8")


def test_many_signal_emits_do_not_abort_the_interpreter(tmp_path):
    """PySide6 6.12.0 on CPython 3.11 loses a reference to True per emit() and aborts the
    interpreter after a few hundred signals; pyproject excludes it. This catches a return."""
    code = (
        "import sys\n"
        "from PySide6.QtCore import QObject, Signal\n"
        "class A(QObject):\n"
        "    ping = Signal(object)\n"
        "a = A()\n"
        "a.ping.connect(lambda v: True)\n"
        "before = sys.getrefcount(True)\n"
        "for i in range(5000):\n"
        "    a.ping.emit(i)\n"
        "print('lost', before - sys.getrefcount(True))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert (done.returncode, done.stdout.strip()) == (0, "lost 0"), done.stderr



def _children() -> set[str]:
    return {child.name for child in multiprocessing.active_children()}


def test_the_first_start_compiles_the_map_code_in_a_child_shown_in_the_status_bar(
        qtbot, tmp_path, monkeypatch):
    """Not yet warm: a job runs, shown in the status bar, and closing the window stops its
    child process at once; warm (the marker of this version written): nothing runs."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert not warmup.is_warm()
    window = MainWindow()
    qtbot.addWidget(window)
    handle = gui_app.warm_map_code(window.runner)
    assert handle is not None and handle.title == gui_app.WARM_TITLE
    assert window.job_status.running() == 1
    qtbot.waitUntil(lambda: "map kernels" in _children(), timeout=30_000)
    started = time.monotonic()
    window.close()
    assert handle.wait(10_000) and time.monotonic() - started < 5  # the child was terminated
    assert "map kernels" not in _children() and not warmup.is_warm()

    warmup.warm_marker().write_text("compiled\n", encoding="utf-8")
    assert gui_app.warm_map_code(window.runner) is None
