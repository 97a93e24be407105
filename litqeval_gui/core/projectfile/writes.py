"""The one write path: every mutation of a project is an *op* run in ``BEGIN IMMEDIATE``.

An op is ``op(project) -> Changes | Done``: it writes through the project it is given and
says what it changed (:mod:`litqeval_gui.core.projectfile.changes`); an op with a result
for its caller returns :class:`Done` (the changes and the value, Anki's
``OpChangesWithCount``). Core exposes each mutation as ``…_op(arguments) -> Op``; doing
it now is ``project.write(some_op(...))``, which returns what the op returned. :meth:`Project.write
<litqeval_gui.core.projectfile.project.Project.write>` runs one. A project without a
:class:`WritePath` runs it on its own connection (the CLI, tests: one thread). In
the app every connection of the open project hands its ops to the session's
:class:`WritePath` (Anki's ``CollectionOp`` over a single-worker executor): one
thread owns the only writing connection, runs the ops one at a time in the order
they came, commits each and tells its listener what changed. Reads run in parallel
on their own connections and see committed data only (WAL).

Long writers submit many small ops instead of one long one (:func:`writing_rows`): each
commits a chunk of at most :data:`CHUNK_ROWS` rows, and stops taking rows as soon as
another op is queued behind it, so a decision waits for the row being written and a
commit (~2 ms), never for a chunk (4–11 ms alone, up to 36 ms while the GUI thread and
an import's parser compete for the GIL) nor for the whole job.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import sqlite_utils

from litqeval_gui.core.errors import database_reason
from litqeval_gui.core.projectfile.changes import NOTHING, Changes

if TYPE_CHECKING:
    from litqeval_gui.core.projectfile.project import Project

CHUNK_ROWS = 500  # rows one op of a long writer writes at most (records alone: 4–11 ms)
SYNC_EVERY = 0.1  # seconds between a long writer's synced commits (see durable)

T = TypeVar("T")


@dataclass(frozen=True)
class Done(Generic[T]):
    """What an op with a result returns: what it ``changes`` and its ``value``."""

    changes: Changes
    value: T


Op = Callable[["Project"], "Changes | Done[Any]"]
Listener = Callable[[Changes, Any], None]  # (what changed, who asked)


def changes_of(result: Changes | Done[Any]) -> Changes:
    """What an op's ``result`` changed."""
    return result.changes if isinstance(result, Done) else result


def durable(op: Op) -> bool:
    """Whether ``op``'s commit is synced to disk before it returns: every op's but most of
    a long writer's (:func:`writing_rows`). Those write rows no reader sees until a later
    op (which is synced, and so makes every commit before it durable: one WAL file); a
    power cut may lose them, as if the job had been interrupted a little earlier. A long
    writer still syncs a commit every :data:`SYNC_EVERY` seconds, so a decision's own
    flush never carries more than that much of its rows."""
    return getattr(op, "synced", True)


@contextlib.contextmanager
def immediate(db: sqlite_utils.Database, synced: bool = True,
              ) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock at ``BEGIN IMMEDIATE`` (a deferred one
    could read a snapshot and then fail to upgrade); inside a running one, a savepoint.
    ``synced=False``: its commit is not flushed to disk (``synchronous = NORMAL`` for it).

    Whatever ends it early is rolled back: also a Ctrl-C that Python raises as ``BEGIN``
    returns, and a ``COMMIT`` that failed (a full disk); the level is set back after."""
    conn = db.conn
    if conn.in_transaction:
        with db.atomic():
            yield db
        return
    level = None if synced else conn.execute("PRAGMA synchronous").fetchone()[0]
    try:
        if level is not None:
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("BEGIN IMMEDIATE")
        yield db
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.DatabaseError) and database_reason(exc):
            _shrink_wal(conn)
        raise
    finally:
        if level is not None:
            conn.execute(f"PRAGMA synchronous = {int(level)}")


def _shrink_wal(conn: sqlite3.Connection) -> None:
    """After a write the environment failed (a full disk), give the disk back what the
    write-ahead log holds, where SQLite can: copy its committed pages into the file and
    truncate it (a rolled-back transaction's pages would otherwise keep the disk full
    until the project is closed). Fails quietly when that needs space there is not."""
    with contextlib.suppress(sqlite3.Error):
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def chunks(rows: Sequence[T], size: int = CHUNK_ROWS) -> Iterator[Sequence[T]]:
    """``rows`` in consecutive slices of at most ``size``."""
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def write_rows(project: Project, rows: Sequence[T],
               write: Callable[[Project, Iterable[T]], object]) -> None:
    """Write ``rows`` in order by ops ``write(p, some_rows)`` on ``project``'s write path
    (:func:`writing_rows`, run to the end)."""
    for _done in writing_rows(project, rows, write):
        pass


def writing_rows(project: Project, rows: Sequence[T],
                 write: Callable[[Project, Iterable[T]], object]) -> Iterator[int]:
    """Write ``rows`` in order by ops ``write(p, some_rows)`` on ``project``'s write path,
    each an op that changes nothing a reader sees (a pending import's rows, say); after
    each op, yield how many rows are written (a caller may stop there: the rest is not).

    One op takes at most :data:`CHUNK_ROWS` rows, and once it has taken one it takes no
    more while a short op (any but another long writer's) waits on the write path
    (:meth:`WritePath.short_op_waiting`): that op runs next, after this one commits.
    ``write`` must consume its rows as it writes them (e.g. hand the iterable to
    ``executemany``), not collect them first.
    """
    path = project.writes
    done = 0
    synced = time.monotonic()
    while done < len(rows):
        piece = _GivingWay(rows[done:done + CHUNK_ROWS], path)

        def op(p: Project, piece: _GivingWay = piece) -> Changes:
            write(p, piece)
            return NOTHING

        op.gives_way = True  # two long writers never give way to each other row by row
        op.synced = time.monotonic() - synced >= SYNC_EVERY
        project.write(op)
        if op.synced:
            synced = time.monotonic()
        if not piece.taken:
            raise RuntimeError("a long writer's op wrote none of its rows")
        done += piece.taken
        yield done


class _GivingWay:
    """Iterates ``rows`` until a short op waits on ``path`` (at least one row);
    ``taken`` = rows handed out."""

    def __init__(self, rows: Sequence[T], path: WritePath | None) -> None:
        self.rows, self.path, self.taken = rows, path, 0

    def __iter__(self) -> Iterator[T]:
        for row in self.rows:
            if self.taken and self.path is not None and self.path.short_op_waiting():
                return
            self.taken += 1
            yield row


class WritePath:
    """A single worker thread with the only writing connection to ``project``'s file.

    ``submit(op)`` queues an op and returns a future of what it returns (its
    :class:`Changes` or :class:`Done`); ``run(op)`` waits for it (from any thread but the worker). After each commit that
    changed something, ``listener(changes, initiator)`` is called on the worker thread.
    """

    def __init__(self, project: Project, listener: Listener | None = None) -> None:
        self._listener = listener
        self._short_queued = 0  # ops submitted and not started, but long writers' ops
        self._count_lock = threading.Lock()
        # commits that changed records, works or verdicts (what grouping depends on):
        # unchanged = no grouping written since (a pending import's rows change nothing)
        self.works_generation = 0
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="litqeval-write")
        # the ident, not current_thread(): that would leave a never-ending _DummyThread
        # behind for every non-Python thread (a Qt job's) that writes
        self._thread_id = self._executor.submit(threading.get_ident).result()
        self._project = self._executor.submit(project.sibling).result()  # born on the worker

    def submit(self, op: Op, initiator: Any = None) -> Future[Changes | Done[Any]]:
        short = not getattr(op, "gives_way", False)
        if short:
            with self._count_lock:
                self._short_queued += 1
        return self._executor.submit(self._run, op, initiator, short)

    def short_op_waiting(self) -> bool:
        """True while an op that is not a long writer's (:func:`write_rows`) is queued."""
        return self._short_queued > 0

    def run(self, op: Op, initiator: Any = None) -> Changes | Done[Any]:
        if threading.get_ident() == self._thread_id:
            raise RuntimeError("an op must not wait for the write path it runs on")
        return self.submit(op, initiator).result()

    def _run(self, op: Op, initiator: Any, short: bool) -> Changes | Done[Any]:
        if short:
            with self._count_lock:
                self._short_queued -= 1
        with self._project.transaction(synced=durable(op)):
            result = op(self._project)
        changes = changes_of(result)
        if changes and (changes.records or changes.works or changes.verdicts):
            self.works_generation += 1
        if changes and self._listener is not None:
            self._listener(changes, initiator)
        return result

    def close(self) -> None:
        """Run the ops already queued, then close the connection and stop the thread."""
        self._executor.submit(self._project.close).result()
        self._executor.shutdown()
