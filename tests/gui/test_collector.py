"""Cyclic garbage is collected by the GUI thread, never by another thread that happens
to allocate (which would delete widgets while the GUI thread walks them)."""

import gc
import threading

from litqeval_gui.core.jobs import gc_paused
from litqeval_gui.gui.collector import collecting_on_gui_thread


def freed_by() -> list[str]:
    """A cycle that is garbage at once; the list gets the name of the thread freeing it."""
    where: list[str] = []

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            where.append(threading.current_thread().name)

    Cycle()
    return where


def churn(kept: list) -> None:
    """Allocate, and keep, enough container objects to pass every generation's threshold
    (the collector counts allocations net of frees)."""
    kept.extend([] for _ in range(50_000))


def test_a_worker_that_allocates_does_not_collect_the_gui_threads_garbage(qtbot):
    assert not gc.isenabled()  # the GUI tests run as the app does
    where, kept = freed_by(), []
    worker = threading.Thread(target=churn, args=(kept,), name="worker")
    worker.start()
    worker.join()
    assert where == []
    qtbot.waitUntil(lambda: where != [], timeout=60_000)  # the GUI thread's timer
    assert where == [threading.current_thread().name]


def test_the_gui_thread_waits_while_a_bulk_job_has_paused_collection(qtbot):
    """An import's young objects are not walked on the GUI thread (tens of ms)."""
    kept: list = []
    with gc_paused():
        where = freed_by()
        churn(kept)
        qtbot.wait(2500)  # two ticks of the GUI thread's timer, with plenty due
        assert where == []
    qtbot.waitUntil(lambda: where != [], timeout=60_000)
    assert where == [threading.current_thread().name]


def test_the_automatic_collector_would_have_freed_it_in_the_worker():
    """The danger the app avoids: with the automatic collector, whoever allocates collects."""
    gc.enable()
    try:
        where = freed_by()
        worker = threading.Thread(target=churn, args=([],), name="worker")
        worker.start()
        worker.join()
    finally:
        gc.disable()
    assert where == ["worker"]


def test_the_automatic_collector_is_restored_as_it_was():
    assert not gc.isenabled()
    with collecting_on_gui_thread():
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()
    try:
        with collecting_on_gui_thread():
            assert not gc.isenabled()
        assert gc.isenabled()
    finally:
        gc.disable()
