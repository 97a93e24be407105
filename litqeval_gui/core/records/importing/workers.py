"""Worker processes, each on a pipe of its own, that stop at once: the import's parsers.

A worker takes one task at a time: this process sends it (a few hundred bytes, which fit
in the pipe at once) and the worker sends back its result or the exception it raised.
There is no shared queue, lock or feeder thread, so stopping never waits on a pipe nobody
reads: :meth:`Workers.stop` kills the processes (SIGKILL) and closes the pipes. With a
``multiprocessing.Pool`` a Ctrl-C on a busy machine could hang for good: ``terminate``
waited for the task queue's lock, held by the pool's task thread blocked on a full pipe,
while a worker blocked sending a result that nobody read any more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar

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
