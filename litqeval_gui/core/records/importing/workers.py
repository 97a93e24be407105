"""Worker processes, each on a pipe of its own, that stop at once: the import's parsers,
the screening's term counters.

A worker takes one task at a time: this process sends it (a few hundred bytes, which fit
in the pipe at once) and the worker sends back its result or the exception it raised.
There is no shared queue, lock or feeder thread, so stopping never waits on a pipe nobody
reads: :meth:`Workers.stop` kills the processes (SIGKILL) and closes the pipes. With a
``multiprocessing.Pool`` a Ctrl-C on a busy machine could hang for good: ``terminate``
waited for the task queue's lock, held by the pool's task thread blocked on a full pipe,
while a worker blocked sending a result that nobody read any more.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar

from litqeval_gui.core.scaleout import (
    lower_priority,
    main_importable,
    process_context,
    serves_a_window,
)

T = TypeVar("T")
R = TypeVar("R")

POLL_SECONDS = 0.05  # how often :meth:`Workers.results` yields None while it waits


class Workers(Generic[T, R]):
    """``count`` processes of ``context`` that run ``function`` on tasks, each after
    ``initializer(*initargs)``; at most ``2 × count`` results are under way or wait."""

    def __init__(self, context: BaseContext, count: int, function: Callable[[T], R],
                 initializer: Callable[..., object], initargs: tuple[Any, ...]) -> None:
        self.function = function
        self.window = 2 * count
        self._processes: list[Any] = []
        self._pipes: list[Connection] = []
        try:
            for _ in range(count):
                ours, theirs = context.Pipe()
                self._pipes.append(ours)
                process = context.Process(target=_serve, name="parser", daemon=True,
                                          args=(theirs, function, initializer, initargs))
                process.start()
                self._processes.append(process)
                theirs.close()
        except BaseException:
            self.stop()
            raise

    def results(self, tasks: Sequence[T]) -> Iterator[R | None]:
        """``function``'s results for ``tasks`` in their order, ``None`` every
        :data:`POLL_SECONDS` while waiting. A worker's exception is raised here; the task
        of a worker that died (killed, out of memory) is run here, and so is every task
        once none is left."""
        ready: dict[int, R] = {}
        busy: dict[Connection, int] = {}
        idle, sent = list(self._pipes), 0
        for index in range(len(tasks)):
            while index not in ready:
                while idle and sent < min(len(tasks), index + self.window):
                    pipe = idle.pop()
                    pipe.send(tasks[sent])
                    busy[pipe] = sent
                    sent += 1
                if not busy:  # no worker is left
                    ready[sent] = self.function(tasks[sent])
                    sent += 1
                for pipe in wait(list(busy), POLL_SECONDS):
                    number = busy.pop(pipe)
                    ready[number] = self._received(pipe, tasks[number], idle)
                if index not in ready:
                    yield None
            yield ready.pop(index)

    def _received(self, pipe: Connection, task: T, idle: list[Connection]) -> R:
        try:
            ok, value = pipe.recv()
        except (EOFError, OSError):  # the worker died
            pipe.close()
            return self.function(task)
        idle.append(pipe)
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """Kill the workers, whatever they are doing, and close their pipes."""
        for process in self._processes:
            process.kill()
        for process in self._processes:
            process.join()
        for pipe in self._pipes:
            pipe.close()


def _serve(pipe: Connection, function: Callable[[T], R],
           initializer: Callable[..., object], initargs: tuple[Any, ...]) -> None:
    """A worker: ``initializer(*initargs)``, then each task from ``pipe`` answered with
    ``(True, result)`` or ``(False, exception)``, until the pipe closes (the importing
    process ended: also when it was killed)."""
    initializer(*initargs)
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, object] = (True, function(task))
        except Exception as exc:  # noqa: BLE001 — raised in the importing process
            answer = (False, exc)
        try:
            pipe.send(answer)
        except OSError:
            return


def start_workers(function: Callable[[T], R], count: int) -> Workers[T, R] | None:
    """``count`` processes running ``function``, forked from a forkserver that has
    ``function``'s module loaded, or None where processes cannot be started (the caller
    then runs every task itself).

    Workers run without the cyclic garbage collector (see
    :func:`~litqeval_gui.core.jobs.gc_paused`): they only compute, and end with their job.
    They ignore Ctrl-C (SIGINT reaches the whole process group): this process handles
    it and stops them; a worker dying of it would print a traceback.
    """
    if not main_importable():
        return None
    context = process_context()
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(_preload(function.__module__))
    try:
        with _sigint_blocked():  # inherited by the forkserver (and its workers) started here
            return Workers(context, count, function, _worker_start, (serves_a_window(),))
    except (OSError, ImportError):  # no processes, sockets or semaphores (sandboxes)
        return None


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread (where the platform can), as multiprocessing's
    resource tracker starts: a process started meanwhile keeps it blocked. The tracker is
    started first, as starting it unblocks SIGINT in the thread that does."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_start(lower: bool) -> None:
    if lower:  # the app's GUI thread and write path come first (core.scaleout)
        lower_priority()
    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _preload(module: str) -> list[str]:
    """Modules the forkserver imports once for all its workers: ``module``, and the module
    of the main script's ``main`` (console scripts: ``from litqeval_gui.cli import
    main``), which multiprocessing would otherwise make every worker import again."""
    entry = getattr(getattr(sys.modules["__main__"], "main", None), "__module__", None)
    return [module] + ([entry] if entry and entry != "__main__" else [])
