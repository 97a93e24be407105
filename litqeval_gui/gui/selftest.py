"""The self-test's GUI step: the main window opens the self-test's project offscreen.

``litqeval-gui --self-test`` runs :data:`litqeval_gui.selftest.STEPS` and then
:data:`STEPS` here (:func:`main`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QApplication

from litqeval_gui import selftest
from litqeval_gui.core import catalog
from litqeval_gui.gui import settings


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
            expected = sorted(info.name for info in catalog.topics(window.session.project))
            if shown != expected:
                raise AssertionError(f"the sidebar shows {shown}, expected {expected}")
            first = catalog.lists(window.session.project)[0]
            if window.open_list(first) is None:
                raise AssertionError(f"list {first.name!r} did not open")
            QApplication.processEvents()
        finally:
            window.close()
            window.deleteLater()
            QApplication.processEvents()
    return f"{len(shown)} topics in the sidebar, list {first.name!r} open"


STEPS: list[selftest.Step] = [("open main window", open_main_window)]


def main() -> int:
    """Every step, Qt-free ones first, on an offscreen ``QApplication`` (made by the caller)."""
    return selftest.run([*selftest.STEPS, *STEPS])
