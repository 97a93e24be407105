"""Qt-free job protocol: long work is a generator that yields :class:`Progress`.

A job is a generator function; each ``yield Progress(done, total, message)``
reports progress and is a point where the job may be cancelled. The caller
cancels by setting a :class:`CancelToken`; the job checks ``token.raise_if_cancelled()``
(raising :class:`ImportCancelled`) and its transaction rolls back. The job's
final value is the generator's ``return`` value (``StopIteration.value``).

:func:`run_job` drives a job headless (CLI, tests); the GUI worker drives the same
generator on a background thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from litqeval_gui.core.errors import ImportCancelled

T = TypeVar("T")


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` units finished (``total`` 0 = unknown), with a phase message."""

    done: int
    total: int
    message: str = ""

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


class CancelToken:
    """Thread-safe cancellation flag shared between a job and its caller."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise ImportCancelled()


Job = Generator[Progress, None, T]


def run_job(job: Generator[Progress, None, T],
            on_progress: Callable[[Progress], Any] | None = None) -> T:
    """Run ``job`` to completion, passing every progress report to ``on_progress``."""
    while True:
        try:
            progress = next(job)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(progress)
