"""The self-test's GUI steps, offscreen: the main window opens the self-test's project,
and every registered screen opens on the demo project and draws.

``litqeval-gui --self-test`` runs :data:`litqeval_gui.selftest.STEPS` and then
:data:`STEPS` here (:func:`main`). Each screen of the registry opens on its entry's
``sample_target`` in the demo project.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from litqeval_gui import selftest
from litqeval_gui.core.demo import build_demo
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.gui import settings

JOB_SECONDS = 600  # a bundle's first map compiles numba's kernels: up to a few minutes
EVALUATION_TABS = ("Comparison", "Landscape", "Threshold", "Decay", "Overlap")


@contextmanager
def _settings_in(folder: str) -> Iterator[None]:
    """Settings, recent projects and the log go to ``folder`` meanwhile, not the user's."""
    before = os.environ.get(settings.ENV_DIR)
    os.environ[settings.ENV_DIR] = folder
    try:
        yield
    finally:
        if before is None:
            del os.environ[settings.ENV_DIR]
        else:
            os.environ[settings.ENV_DIR] = before


def open_main_window(run: selftest.SelfTest) -> str:
    """The window opens the project, its sidebar lists every topic, a list opens in a tab."""
    from litqeval_gui.gui.main_window import MainWindow

    run.close_project()  # the window takes the project's write lock
    with _settings_in(str(run.folder / "settings")):
        window = MainWindow()
        try:
            window.show()
            if not window.open_project(run.path):
                raise AssertionError(f"the window could not open {run.path}")
            model = window.sidebar.model()
            shown = sorted(model.index(row, 0).data() for row in range(model.rowCount()))
            expected = sorted(info.name for info in queries.topics(window.session.project))
            if shown != expected:
                raise AssertionError(f"the sidebar shows {shown}, expected {expected}")
            first = queries.lists(window.session.project)[0]
            if window.open_list(first) is None:
                raise AssertionError(f"list {first.name!r} did not open")
            QApplication.processEvents()
        finally:
            window.close()
            window.deleteLater()
            QApplication.processEvents()
    return f"{len(shown)} topics in the sidebar, list {first.name!r} open"


def _wait_for_job(view: QWidget) -> None:
    """Process events until ``view``'s background job (if it has one) has ended."""
    deadline = time.monotonic() + JOB_SECONDS
    while getattr(view, "job", None) is not None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{view.key}: its job still runs after {JOB_SECONDS} s")
        QApplication.processEvents()
        time.sleep(0.02)
    QApplication.processEvents()


def _pages_drawn(view: QWidget) -> list[str]:
    """Show and draw each page of every tab widget of ``view``; the pages' names."""
    names = []
    for tabs in view.findChildren(QTabWidget):
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
            QApplication.processEvents()
            if tabs.widget(index).grab().isNull():
                raise AssertionError(f"{view.key}: page {tabs.tabText(index)!r} drew nothing")
            names.append(tabs.tabText(index))
    return names


def open_every_screen(run: selftest.SelfTest) -> str:
    """Build the demo project; each screen of the registry opens on it in the window and
    draws (its background job, e.g. the evaluation's vectors and map, ends without a
    problem); the evaluation shows its five pages."""
    from litqeval_gui.gui.main_window import MainWindow
    from litqeval_gui.gui.screen_registry import SCREENS

    path = run_job(build_demo(run.folder / "demo.litq"))
    with Project.open(path) as project:
        targets = {key: entry.sample_target(project) for key, entry in SCREENS.items()}
    shown = []
    with _settings_in(str(run.folder / "settings")):
        window = MainWindow()
        try:
            window.resize(1200, 760)
            window.show()
            if not window.open_project(path):
                raise AssertionError(f"the window could not open {path}")
            for key, target in targets.items():
                view = window.open_screen(key, target)
                if view is None or window.tabs.currentWidget() is not view:
                    raise AssertionError(f"screen {key!r} did not open on {target!r}")
                _wait_for_job(view)
                problem = getattr(view, "problem", None)
                if problem is not None and problem.text():
                    raise AssertionError(f"{key}: {problem.text()}")
                pages = _pages_drawn(view)
                if key == "evaluation" and tuple(pages) != EVALUATION_TABS:
                    raise AssertionError(f"the evaluation shows the pages {pages}")
                shown.append(f"{key} ({len(pages)} pages)" if pages else key)
        finally:
            window.close()
            window.deleteLater()
            QApplication.processEvents()
    return ", ".join(shown)


STEPS: list[selftest.Step] = [("open main window", open_main_window),
                              ("open every screen on the demo project", open_every_screen)]


def main() -> int:
    """Every step, Qt-free ones first, on an offscreen ``QApplication`` (made by the caller)."""
    return selftest.run([*selftest.STEPS, *STEPS])
