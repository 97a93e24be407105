"""Help ▸ Open Demo Project in the main window (:class:`DemoProject`, mixed into
:class:`~litqeval_gui.gui.main_window.MainWindow`): the demo project is built in the
background the first time (a job of the window's own runner, its progress on the start
screen), then opened like any project."""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.gui import settings as settings_module
from litqeval_gui.gui.notify import show_error

DEMO_TITLE = "Building the demo project"


def demo_path() -> Path:
    """Where the demo project lives (built on first use)."""
    return settings_module.data_dir() / "demo.litq"


class DemoProject:
    """The window provides ``runner`` (a JobRunner), ``start_view`` and
    :meth:`open_project`; it connects the runner's ``progress`` to :meth:`_demo_progress`
    and ``ended`` to :meth:`_job_ended`."""

    def open_demo(self) -> None:
        """Open the demo project, building it in the background the first time."""
        path = demo_path()
        if path.is_file():
            self.open_project(path)
            return
        if any(h.title == DEMO_TITLE for h in self.runner.active()):
            return
        from litqeval_gui.core.demo import build_demo

        path.parent.mkdir(parents=True, exist_ok=True)
        self.start_view.show_demo_progress((0, 0, "starting"))
        self.runner.run(DEMO_TITLE, lambda token: build_demo(path, token),
                        on_success=self.open_project,
                        on_failure=lambda exc: show_error(self, "Cannot build the demo project",
                                                          exc))

    def _demo_progress(self, title: str, done: int, total: int, message: str) -> None:
        if title == DEMO_TITLE:
            self.start_view.show_demo_progress((done, total, message))

    def _job_ended(self, title: str) -> None:
        if title == DEMO_TITLE:
            self.start_view.show_demo_progress(None)
