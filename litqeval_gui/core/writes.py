"""The one write path: every mutation of a project is an *op* run in ``BEGIN IMMEDIATE``.

An op is ``op(project) -> Changes``: it writes through the project it is given and
says what it changed (:mod:`litqeval_gui.core.changes`). :meth:`Project.write
<litqeval_gui.core.project.Project.write>` runs one. A project without a
:class:`WritePath` runs it on its own connection (the CLI, tests: one thread). In
the app every connection of the open project hands its ops to the session's
:class:`WritePath` (Anki's ``CollectionOp`` over a single-worker executor): one
thread owns the only writing connection, runs the ops one at a time in the order
they came, commits each and tells its listener what changed. Reads run in parallel
on their own connections and see committed data only (WAL).

Long writers submit many small ops instead of one long one: each commits a chunk of
at most :data:`CHUNK_ROWS` rows, so a decision queued behind them waits for one chunk
(~50 ms), never for the whole job.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import sqlite_utils

from litqeval_gui.core.changes import Changes

if TYPE_CHECKING:
    from litqeval_gui.core.project import Project

CHUNK_ROWS = 500  # rows one op of a long writer writes (records: ~10–40 ms)

Op = Callable[["Project"], Changes]
Listener = Callable[[Changes, Any], None]  # (what changed, who asked)
T = TypeVar("T")


@contextlib.contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock at ``BEGIN IMMEDIATE`` (a deferred one
    could read a snapshot and then fail to upgrade); inside a running one, a savepoint."""
    conn = db.conn
    if conn.in_transaction:
        with db.atomic():
            yield db
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def chunks(rows: Sequence[T], size: int = CHUNK_ROWS) -> Iterator[Sequence[T]]:
    """``rows`` in consecutive slices of at most ``size``."""
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


class WritePath:
    """A single worker thread with the only writing connection to ``project``'s file.

    ``submit(op)`` queues an op and returns a future of its :class:`Changes`;
    ``run(op)`` waits for it (from any thread but the worker). After each commit that
    changed something, ``listener(changes, initiator)`` is called on the worker thread.
    """

    def __init__(self, project: Project, listener: Listener | None = None) -> None:
        self._listener = listener
        # commits that changed records, works or verdicts (what grouping depends on):
        # unchanged = no grouping written since (a pending import's rows change nothing)
        self.works_generation = 0
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="litqeval-write")
        # the ident, not current_thread(): that would leave a never-ending _DummyThread
        # behind for every non-Python thread (a Qt job's) that writes
        self._thread_id = self._executor.submit(threading.get_ident).result()
        self._project = self._executor.submit(project.sibling).result()  # born on the worker

    def submit(self, op: Op, initiator: Any = None) -> Future[Changes]:
        return self._executor.submit(self._run, op, initiator)

    def run(self, op: Op, initiator: Any = None) -> Changes:
        if threading.get_ident() == self._thread_id:
            raise RuntimeError("an op must not wait for the write path it runs on")
        return self.submit(op, initiator).result()

    def _run(self, op: Op, initiator: Any) -> Changes:
        with self._project.transaction():
            changes = op(self._project)
        if changes and (changes.records or changes.works or changes.verdicts):
            self.works_generation += 1
        if changes and self._listener is not None:
            self._listener(changes, initiator)
        return changes

    def close(self) -> None:
        """Run the ops already queued, then close the connection and stop the thread."""
        self._executor.submit(self._project.close).result()
        self._executor.shutdown()
