"""Python's cyclic garbage collector runs on the GUI thread only.

A Qt widget caught in a reference cycle is freed by the cyclic collector, which by
default runs in whichever thread happens to allocate: a job, the write worker or a
library's monitor thread would then delete the widget while the GUI thread walks
the widget tree, and the app crashes (a segfault in ``topLevelWidgets``). So the
automatic collector is off while the app runs and pyqtgraph's
:class:`~pyqtgraph.util.garbage_collector.GarbageCollector` collects each generation
at the usual thresholds from a timer on the GUI thread, except while a bulk job has
paused collection (:func:`~litqeval_gui.core.jobs.gc_paused`): a pass over an import's
young objects would stall the GUI thread for tens of milliseconds.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from pyqtgraph.util.garbage_collector import GarbageCollector

from litqeval_gui.core.jobs import collection_paused


class _GuiThreadCollector(GarbageCollector):
    """pyqtgraph's collector, waiting while a bulk job has paused collection."""

    def check(self) -> None:
        if not collection_paused():
            super().check()


@contextmanager
def collecting_on_gui_thread(interval_s: float = 1.0) -> Iterator[None]:
    """Inside: no automatic collection; every ``interval_s`` the GUI thread's event
    loop collects what is due (unless a bulk job paused collection). After: one full
    collection here, and the automatic collector as it was."""
    was_enabled = gc.isenabled()
    collector = _GuiThreadCollector(interval=interval_s)  # created on, ticking in, this thread
    try:
        yield
    finally:
        collector.timer.stop()
        gc.collect()
        if was_enabled:
            gc.enable()
