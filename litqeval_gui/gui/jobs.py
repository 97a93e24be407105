"""One runner for the core's generator jobs (see :mod:`litqeval_gui.core.jobs`).

``JobRunner.run(title, make_job, on_success=…)`` starts ``make_job(token)`` on a
``QThread``; the generator's :class:`Progress` reports arrive on the GUI thread as
the ``progress`` signal (throttled), and exactly one of ``on_success(value)``,
``on_failure(exc)`` or ``on_cancelled()`` runs on the GUI thread when it ends.
Failures without an ``on_failure`` go to the one notification path
(:func:`litqeval_gui.gui.notify.show_error`). No UI code runs inside a job.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from litqeval_gui.core.errors import JobCancelled
from litqeval_gui.core.jobs import CancelToken, Progress, run_job
from litqeval_gui.gui.notify import show_error

JobFactory = Callable[[CancelToken], Generator[Progress, None, Any]]
_MIN_INTERVAL = 0.05  # seconds between progress signals


class _JobThread(QThread):
    progressed = Signal(int, int, str)
    succeeded = Signal(object)
    failed = Signal(object)
    cancelled = Signal()

    def __init__(self, make_job: JobFactory, token: CancelToken) -> None:
        super().__init__()
        self._make_job = make_job
        self.token = token

    def run(self) -> None:  # worker thread: no UI calls here
        last, last_message = 0.0, None

        def report(p: Progress) -> None:
            nonlocal last, last_message
            now = time.monotonic()
            if (now - last >= _MIN_INTERVAL or p.message != last_message
                    or (p.total and p.done >= p.total)):
                last, last_message = now, p.message  # a new phase is never dropped
                self.progressed.emit(p.done, p.total, p.message)

        try:
            self.succeeded.emit(run_job(self._make_job(self.token), report))
        except JobCancelled:
            self.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 — handed to the GUI thread, never lost
            self.failed.emit(exc)
        finally:
            _forget_this_thread()


def _forget_this_thread() -> None:
    """Drop the "Dummy" entry Python (before 3.13) keeps for ever for a thread it did not
    start once that thread asked for ``threading.current_thread()`` (threadpoolctl does, in
    the BLAS limit): a finished QThread leaves no thread behind in ``threading``."""
    ident = threading.get_ident()
    if isinstance(threading._active.get(ident), threading._DummyThread):
        threading._active.pop(ident, None)


class JobHandle:
    """A running job: ``cancel()`` asks it to stop at its next progress point."""

    def __init__(self, title: str, thread: _JobThread) -> None:
        self.title = title
        self._thread = thread
        self._token = thread.token
        self._ended = False  # set on the GUI thread before the QThread is deleted

    def cancel(self) -> None:
        self._token.cancel()

    @property
    def running(self) -> bool:
        return not self._ended

    def wait(self, msecs: int = 30_000) -> bool:
        return self._ended or self._thread.wait(msecs)


class JobRunner(QObject):
    """Starts jobs and tells the window about them (``started``/``progress``/``ended``)."""

    started = Signal(str)  # title
    progress = Signal(str, int, int, str)  # title, done, total, message
    ended = Signal(str)  # title

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._handles: list[JobHandle] = []

    def run(self, title: str, make_job: JobFactory, *,
            on_success: Callable[[Any], None] | None = None,
            on_failure: Callable[[BaseException], None] | None = None,
            on_cancelled: Callable[[], None] | None = None,
            on_progress: Callable[[int, int, str], None] | None = None) -> JobHandle:
        token = CancelToken()
        thread = _JobThread(make_job, token)
        handle = JobHandle(title, thread)
        self._handles.append(handle)

        def finish() -> None:
            handle._ended = True
            if handle in self._handles:
                self._handles.remove(handle)
            self.ended.emit(title)

        def failed(exc: BaseException) -> None:
            if on_failure is not None:
                on_failure(exc)
            else:
                show_error(None, f"{title} failed", exc)

        thread.progressed.connect(lambda d, t, m: self.progress.emit(title, d, t, m))
        if on_progress is not None:
            thread.progressed.connect(on_progress)
        thread.succeeded.connect(on_success or (lambda _value: None))
        thread.failed.connect(failed)
        thread.cancelled.connect(on_cancelled or (lambda: None))
        thread.finished.connect(finish)
        thread.finished.connect(thread.deleteLater)
        self.started.emit(title)
        thread.start()
        return handle

    def active(self) -> list[JobHandle]:
        return list(self._handles)

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel every job and wait for the threads; True when all have stopped."""
        for handle in self._handles:
            handle.cancel()
        return all(handle.wait(msecs) for handle in list(self._handles))
