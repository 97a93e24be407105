"""The stopping panel read in the background: :class:`PanelReader` computes
:func:`~litqeval_gui.core.screening.stopping.panel.screening_panel` on a thread of its own with
its own connection, so a decision never waits for it.

Requests are numbered; the thread always computes for the latest one (requests made
while it computes are served by one more computation), and a result whose number is
not the latest request's is dropped — a newer one is on its way. So the panel shown
last is the one read after the last request, e.g. after the last decision committed.

Readings start at least :data:`MIN_GAP` apart: a reading re-reads every decision and
holds Python's GIL while it does, and back to back (a reviewer pressing keys fast) they
slowed the next record on screen (``benchmarks/bench_screening_gui.py``; py-spy showed
this thread holding the GIL most after the GUI thread). A reviewer sees the panel at
most that much later.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.stopping import panel
from litqeval_gui.gui.session import ProjectSession

MIN_GAP = 0.25  # seconds from the end of one reading to the start of the next


class PanelReader(QObject):
    """``request()`` from the GUI thread; ``ready(Panel)`` on the GUI thread."""

    ready = Signal(object)
    failed = Signal(object)
    _computed = Signal(int, object, object)  # request number, panel, error

    def __init__(self, session: ProjectSession, screening: Screening,
                 parent: QObject | None = None, reviewer: Callable[[], str] = str) -> None:
        super().__init__(parent)
        self.session, self.screening = session, screening
        self.reviewer = reviewer  # who reads: in a blind screening, only their decisions
        self._wake = threading.Condition()
        self._wanted = 0  # number of the latest request
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._computed.connect(self._arrived)  # queued: emitted on the reader's thread

    def request(self) -> None:
        """Ask for the panel as the project is now (returns at once)."""
        with self._wake:
            if self._stopping:
                return
            self._wanted += 1
            self._wake.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="screening panel")
            self._thread.start()

    def stop(self) -> None:
        """End the thread (a request still computing finishes first); later results are dropped."""
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:  # the reader's thread: no widget is touched here
        project = self.session.worker_project()
        served = 0
        try:
            while True:
                with self._wake:
                    while not self._stopping and self._wanted == served:
                        self._wake.wait()
                    if self._stopping:
                        return
                    served = self._wanted
                try:
                    self._computed.emit(served, panel.screening_panel(
                        project, self.screening, reviewer=self.reviewer() or None), None)
                except Exception as exc:  # noqa: BLE001 — handed to the GUI thread
                    self._computed.emit(served, None, exc)
                with self._wake:  # the gap before the next reading (stop ends it)
                    self._wake.wait_for(lambda: self._stopping, timeout=MIN_GAP)
        finally:
            project.close()

    def _arrived(self, number: int, result: object, error: object) -> None:
        with self._wake:
            stale = self._stopping or number != self._wanted
        if stale:
            return
        if error is not None:
            self.failed.emit(error)
        else:
            self.ready.emit(result)
