"""The import's worker processes (core/records/importing/workers.py): results in order,
a worker's exception raised here, a dead worker's task done here, and a stop that never
waits for a worker."""

import multiprocessing
import os
import signal

import pytest

from litqeval_gui.core.records.importing.workers import Workers
from litqeval_gui.core.scaleout import process_context


def square(x: int) -> int:
    """x², but a worker given 3 dies (as the out-of-memory killer would end it)."""
    if x == 3 and multiprocessing.parent_process() is not None:
        os._exit(1)
    return x * x


def started() -> None:
    """The workers' initializer: nothing to set up."""


def parsers() -> list[multiprocessing.Process]:
    return [p for p in multiprocessing.active_children() if p.name == "parser"]


@pytest.fixture
def workers():
    pool = Workers(process_context(), 2, square, started, ())
    yield pool
    pool.stop()


def test_results_come_in_the_tasks_order_with_nones_while_waiting(workers):
    results = list(workers.results(list(range(10, 30))))
    assert [r for r in results if r is not None] == [x * x for x in range(10, 30)]


def test_a_dead_workers_task_and_those_after_the_last_one_died_are_done_here(workers):
    got = [r for r in workers.results([1, 3, 2, 3, 4, 5]) if r is not None]
    assert got == [1, 9, 4, 9, 16, 25]
    assert not parsers()  # both died of a 3


def test_a_workers_exception_is_raised_here(workers):
    with pytest.raises(TypeError):
        list(workers.results([1, "two"]))


def test_stop_kills_a_worker_that_answers_nothing(workers):
    stuck = parsers()[0]
    os.kill(stuck.pid, signal.SIGSTOP)  # as one blocked on a pipe nobody reads
    workers.stop()
    assert stuck.exitcode == -signal.SIGKILL and not parsers()
