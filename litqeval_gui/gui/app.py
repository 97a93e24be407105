"""``litqeval-gui [PROJECT.litq] [--demo] [--self-test]``: start the desktop application.

``--self-test`` runs :mod:`litqeval_gui.selftest` and the main window offscreen
(:mod:`litqeval_gui.gui.selftest`) instead, and exits 0 when every step passes.

Without a display (Linux, no ``DISPLAY``/``WAYLAND_DISPLAY`` and no headless Qt
platform) it exits with code 2 and one line on stderr instead of a Qt abort.
Uncaught exceptions, on the GUI thread or any other, are logged to
``<config dir>/litqeval-gui.log`` and shown once through
:func:`litqeval_gui.gui.notify.show_error`; the app keeps running.
"""

from __future__ import annotations

import argparse
import ctypes
import logging
import logging.handlers
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication

from litqeval_gui import __version__
from litqeval_gui.gui import notify, settings
from litqeval_gui.gui.icons import icon

if TYPE_CHECKING:  # imported lazily at run time: keeps startup lean
    from litqeval_gui.gui.jobs import JobHandle, JobRunner

log = logging.getLogger("litqeval_gui")

ORGANIZATION = "LitQEval"
APP_NAME = "litqeval-gui"
DISPLAY_NAME = "LitQEval GUI"
NO_DISPLAY = "no display available; use the `litqeval` command for headless work"
# Qt platforms that need no window system
HEADLESS_PLATFORMS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay"})


# shared libraries Qt's xcb platform plugin links, with their Debian/Ubuntu packages;
# Qt aborts with a cryptic message when one is missing (libxcb-cursor0 often is)
XCB_LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libX11-xcb.so.1": "libx11-xcb1",
}


def _loads(name: str) -> bool:
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def display_problem(env: Mapping[str, str], platform: str = sys.platform,
                    loads: Callable[[str], bool] = _loads) -> str | None:
    """Why no window can be shown, or None when one can.

    On Linux with only an X display, also checks that Qt's xcb plugin can load its
    system libraries, naming the packages to install when it cannot.
    """
    if platform in ("win32", "darwin", "cygwin"):
        return None
    wanted = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if wanted in HEADLESS_PLATFORMS or env.get("WAYLAND_DISPLAY"):
        return None
    if not env.get("DISPLAY"):
        return NO_DISPLAY
    missing = [lib for lib in XCB_LIBRARIES if not loads(lib)]
    if wanted not in ("", "xcb") or not missing:
        return None
    packages = " ".join(XCB_LIBRARIES[lib] for lib in missing)
    return (f"the window system (Qt xcb) needs libraries this machine lacks: "
            f"{', '.join(missing)} (Debian/Ubuntu: sudo apt install {packages})")


def identify(app: QCoreApplication) -> None:
    """Names that decide where QStandardPaths puts settings and data."""
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    if isinstance(app, QApplication):
        app.setApplicationDisplayName(DISPLAY_NAME)
        app.setDesktopFileName(APP_NAME)


_log_handler: logging.Handler | None = None


def setup_logging() -> Path:
    """Log warnings and errors to ``<config dir>/litqeval-gui.log``; returns its path."""
    global _log_handler
    path = settings.log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    if _log_handler is not None:
        root.removeHandler(_log_handler)
        _log_handler.close()
    _log_handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    _log_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(_log_handler)
    return path


class ErrorReporter(QObject):
    """Logs uncaught exceptions and shows each kind once, later, on the GUI thread."""

    reported = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shown: set[tuple[str, str]] = set()
        # queued: never show a dialog from inside a paint event or another thread
        self.reported.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def excepthook(self, exc_type: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            QCoreApplication.quit()
            return
        log.error("uncaught exception", exc_info=(exc_type, exc, tb))
        self.reported.emit(exc)

    def thread_excepthook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        log.error("uncaught exception in thread %s",
                  args.thread.name if args.thread else "?",
                  exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
        self.reported.emit(args.exc_value)

    def _show(self, exc: BaseException) -> None:
        key = (type(exc).__name__, str(exc))
        if key in self._shown:
            return
        self._shown.add(key)
        notify.show_error(QApplication.activeWindow(), "Unexpected error", exc)


def install_error_reporting(parent: QObject | None = None) -> ErrorReporter:
    """Route uncaught exceptions (any thread) to the log and the notification path."""
    reporter = ErrorReporter(parent)
    sys.excepthook = reporter.excepthook
    threading.excepthook = reporter.thread_excepthook
    return reporter


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    """Our options, and whatever is left for Qt (e.g. ``-platform``)."""
    parser = argparse.ArgumentParser(prog="litqeval-gui", description=__doc__.splitlines()[0])
    parser.add_argument("project", nargs="?", type=Path, help="a .litq project to open")
    parser.add_argument("--demo", action="store_true", help="open the demo project")
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation offscreen on a temporary project")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser.parse_known_args(argv)


WARM_TITLE = "Preparing the 2D map"


def warm_map_code(runner: JobRunner) -> JobHandle | None:
    """At the first start of this version of the app, compile the 2D map's code in the
    background (:mod:`litqeval_gui.core.embedding.warmup`), shown in the status bar, so
    that the first evaluation does not spend a minute or two on it; None when done before."""
    from litqeval_gui.core.embedding import warmup

    if warmup.is_warm():
        return None
    return runner.run(WARM_TITLE, warmup.warm_map_kernels,
                      on_failure=lambda exc: log.warning("%s: %s", WARM_TITLE, exc))


def start(args: argparse.Namespace):  # -> MainWindow (imported lazily: keeps startup lean)
    """Show the main window, start :func:`warm_map_code` and open what the command line
    asked for."""
    from litqeval_gui.core.jobs import responsive_threads
    from litqeval_gui.gui.main_window import MainWindow

    responsive_threads()
    window = MainWindow()
    window.show()
    warm_map_code(window.runner)
    if args.demo:
        QTimer.singleShot(0, window.open_demo)
    elif args.project is not None:
        window.open_project(args.project)
    return window


def main(argv: Sequence[str] | None = None) -> int:
    """The ``litqeval-gui`` entry point."""
    multiprocessing.freeze_support()
    args, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # read when the QApplication starts
    problem = display_problem(os.environ)
    if problem:
        print(f"litqeval-gui: {problem}", file=sys.stderr)
        return 2
    app = QApplication([sys.argv[0] if sys.argv else APP_NAME, *qt_args])
    identify(app)
    # imported here: pyqtgraph is not loaded before a display is known to be there
    from litqeval_gui.gui.collector import collecting_on_gui_thread

    with collecting_on_gui_thread():
        if args.self_test:
            from litqeval_gui.gui import selftest

            return selftest.main()
        app.setWindowIcon(icon("app"))
        setup_logging()
        install_error_reporting(app)
        window = start(args)  # noqa: F841 — kept alive for the event loop
        return app.exec()
