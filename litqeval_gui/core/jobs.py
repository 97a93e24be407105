"""Qt-free job protocol: long work is a generator that yields :class:`Progress`.

A job is a generator function; each ``yield Progress(done, total, message)``
reports progress and is a point where the job may be cancelled. The caller
cancels by setting a :class:`CancelToken`; the job checks ``token.raise_if_cancelled()``
(raising :class:`~litqeval_gui.core.errors.JobCancelled`, or a subclass the token was
made with) and undoes what it wrote. :data:`NEVER` is a token that is never cancelled,
for callers with nothing to cancel. The job's final value is the generator's
``return`` value (``StopIteration.value``).

:func:`run_job` is the one driver: the CLI and tests call it directly, the GUI worker
calls it on a background thread with a progress callback that emits a signal.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from litqeval_gui.core.errors import JobCancelled

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
    """Thread-safe cancellation flag shared between a job and its caller; a cancelled
    job raises ``error`` (:class:`JobCancelled`, "cancelled; the project is unchanged";
    an import turns it into :class:`ImportCancelled`, whose message says so)."""

    def __init__(self, error: type[JobCancelled] = JobCancelled) -> None:
        self._event = threading.Event()
        self._error = error

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise self._error()


class _Never(CancelToken):
    def cancel(self) -> None:
        raise RuntimeError("NEVER is the token of a job nobody can cancel")


NEVER: CancelToken = _Never()


Job = Generator[Progress, None, T]


def scaled(job: Generator[Progress, None, T], start: float, end: float, total: int = 100,
           label: str = "") -> Generator[Progress, None, T]:
    """Run ``job`` as one phase of a bigger job: re-yield its progress mapped onto
    ``start … end`` of ``total`` (never backwards) and return its value.

    A message is the sub-job's, prefixed with ``"label: "`` when ``label`` is given
    (``label`` alone when the sub-job's message is empty).
    """
    done = int(start)
    while True:
        try:
            p = next(job)
        except StopIteration as stop:
            return stop.value
        done = max(done, int(start + (end - start) * min(p.fraction, 1.0)))
        message = f"{label}: {p.message}" if label and p.message else p.message or label
        yield Progress(done, total, message)


_pauses = 0  # gc_paused blocks running now, in any thread
_pause_lock = threading.Lock()
_enable_after = False  # whether the collector was on when the first of them began


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a bulk job, restoring it after.

    Parsing and storing 100 000 records allocates millions of short-lived, acyclic
    objects; the collector's passes over them cost about a third of an import.
    Reference counting still frees everything; only cycle detection waits. Pauses may
    overlap (two imports on two threads): the collector comes back when the last ends,
    as it was before the first began; :func:`collection_paused` says whether one runs
    (the GUI's own collector waits for it too).
    """
    global _pauses, _enable_after
    with _pause_lock:
        if _pauses == 0:
            _enable_after = gc.isenabled()
        _pauses += 1
        gc.disable()
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _enable_after:
                gc.enable()


def collection_paused() -> bool:
    """Whether a bulk job is running inside :func:`gc_paused` now."""
    return _pauses > 0


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


SWITCH_INTERVAL = 0.0005  # seconds: how long a thread may keep the GIL when another waits


def responsive_threads() -> None:
    """Let a thread take Python's GIL back from a busy one within :data:`SWITCH_INTERVAL`
    (Python's default is 5 ms, and a decision hands over between the GUI thread and the
    write path several times; the app sets this at start): with an import running,
    ``benchmarks/bench_screening_gui.py`` measured the next record's p95 at 40 ms with
    the default, 19–22 ms with 0.5 ms (issue 14's goal: < 20 ms)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
