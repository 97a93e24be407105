"""One BLAS thread for the sections that ask for it, counted across the process's threads.

A BLAS's thread count is process-wide (OpenBLAS's pthreads pool is shared) and a result's
bytes depend on it (QR, a product summed over a long side, a norm). A ``threadpool_limits``
block restores at its end what it saw at its start, so two overlapping blocks on two
threads (two topics on a threaded Dask worker) go wrong twice: the first to leave gives
the machine's threads back while the other still computes, and the last to leave restores
what it saw at its start, the other's 1, for good. Here the first section to enter saves
the limits and sets one thread, the others only count, and the last to leave restores the
saved limits, under one lock. threadpoolctl ≥ 3.8 lets only the thread that last set
OpenBLAS's shared pool set it again, so each change hands that control back at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from threadpoolctl import OpenBLASController, threadpool_limits

BLAS_THREADS = 1  # the thread count inside a section


class _CountedLimit:
    """The sections now running and the limits the first of them saved."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.saved: threadpool_limits | None = None

    def enter(self) -> None:
        with self.lock:
            if self.running == 0:
                self.saved = threadpool_limits(BLAS_THREADS, "blas")
                release_control()
            self.running += 1

    def leave(self) -> None:
        with self.lock:
            self.running -= 1
            if self.running == 0 and self.saved is not None:
                self.saved.restore_original_limits()
                self.saved = None
                release_control()


def release_control() -> None:
    """Let any thread set OpenBLAS's pool next (a no-op before threadpoolctl 3.8)."""
    clear = getattr(OpenBLASController, "clear_controlling_thread", None)
    if clear is not None:
        clear()


_LIMIT = _CountedLimit()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block on :data:`BLAS_THREADS` BLAS thread while any thread of this process
    is inside such a block (module docstring); nested and overlapping blocks are fine."""
    _LIMIT.enter()
    try:
        yield
    finally:
        _LIMIT.leave()
