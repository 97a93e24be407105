"""Map a picklable function over task items: here, on local processes, or on Dask.

:func:`map_tasks` is the one entry point (the pool simulation uses it; batch evaluation
may too). Results come back in the order of ``items`` however the work was spread, and
each item is computed by the same function, so every mode gives the serial results.

* ``jobs=1`` (default): in this process, one item after another.
* ``jobs=N``: a ``ProcessPoolExecutor`` of N processes (forkserver where available,
  else spawn — never plain fork, which is unsafe in a process with threads such as the
  GUI). ``func`` and the items must be picklable, ``func`` importable by name. A program
  whose main module workers cannot import (a script read from stdin) runs serially.
* ``dask_address="tcp://host:8786"``: on an existing Dask cluster, through the optional
  extra ``dask`` (``pip install "litqeval-gui[dask]"``); the cluster is left running.
  The cluster is trusted: its workers run ``func`` and their results are unpickled here,
  so point it only at your own cluster. Every phase has a deadline
  (:data:`DASK_CONNECT_SECONDS`, :data:`DASK_RESULT_SECONDS`), the address's scheme is
  checked first (:func:`dask_scheme`).

:func:`process_context` is where every child process of the app comes from and
:func:`main_importable` says whether one can start at all. :func:`in_child` runs one function in a child process of the same kind as a job, so
that no thread of this process (the GUI's) waits for the GIL meanwhile. In a process
that keeps a window responsive (:func:`serves_a_window`), a child that computes for it
(:func:`in_child`, an import's parsers) calls :func:`lower_priority` first, so that on a
busy machine the GUI thread and the write path get a core before it (on two cores, two
parsers at the same priority made the next record after a key press wait for the
scheduler); the command line keeps its children at full priority.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TypeVar

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, SWITCH_INTERVAL, CancelToken, Job, Progress

_MAIN_GUARD = re.compile(r"""__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__""")


def process_context() -> multiprocessing.context.BaseContext:
    """Where the app's child processes come from: a forkserver where the platform has
    one (safe beside Qt's threads, unlike plain fork), else spawn (Windows)."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


def main_importable() -> bool:
    """Whether a worker can import this program's main module, as multiprocessing makes
    it do, without running the program again. A script read from standard input cannot
    be imported (its workers would die as they start, and the pool would start new ones
    forever); a script without an ``if __name__ == "__main__":`` guard would run again in
    every worker, starting its own import and pool there, for ever. A frozen executable
    (the PyInstaller bundle) can: its entry calls ``multiprocessing.freeze_support()``
    before anything else (``packaging/launch.py``)."""
    if getattr(sys, "frozen", False):
        return True
    main = sys.modules["__main__"]
    spec = getattr(main, "__spec__", None)
    path = spec.origin if getattr(spec, "name", None) else getattr(main, "__file__", None)
    if path is None:
        return True  # interactive or ``-c``: workers have nothing to import
    try:
        return bool(_MAIN_GUARD.search(Path(path).read_text(encoding="utf-8",
                                                            errors="replace")))
    except OSError:  # "<stdin>" and the like: not a file
        return False


T = TypeVar("T")
R = TypeVar("R")
DASK_INSTALL = 'pip install "litqeval-gui[dask]"'
ProgressCallback = Callable[[Progress], None]
POLL_SECONDS = 0.1
# Added to a computing child's niceness (POSIX): mild, so the app's own threads win a
# contended core, yet other programs' load does not starve the child (at +10, under a
# load of 7 on 2 cores the first ranking's 100 000-record features took 659 s, not 22 s).
CHILD_NICENESS = 4


def serves_a_window() -> bool:
    """Whether this process keeps a window responsive: the app (and the GUI benchmarks)
    call :func:`~litqeval_gui.core.jobs.responsive_threads` at start. Its computing
    children then yield the CPU to it, and a large import links in a child process
    (:mod:`~litqeval_gui.core.records.links_apart`)."""
    return sys.getswitchinterval() <= SWITCH_INTERVAL


def lower_priority() -> None:
    """Lower this process's CPU priority by :data:`CHILD_NICENESS` (module docstring);
    nothing where the platform has no ``os.nice`` (Windows) or refuses."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(CHILD_NICENESS)


def _child(lower: bool, target: Callable[..., None], *args: Any) -> None:
    if lower:
        lower_priority()
    target(*args)


def in_child(target: Callable[..., None], args: tuple, name: str, message: str,
             token: CancelToken = NEVER) -> Job[int | None]:
    """Job: ``target(*args)`` in a child process called ``name`` (forkserver, else spawn;
    ``target`` importable by name), at a lower CPU priority when this process
    :func:`serves_a_window`, yielding ``Progress(0, 0, message)`` while it runs; returns
    the child's exit code. Cancelling, or a failure here, terminates the child."""
    child = process_context().Process(target=_child, name=name,
                                      args=(serves_a_window(), target, *args), daemon=True)
    child.start()
    try:
        while child.is_alive():
            token.raise_if_cancelled()
            yield Progress(0, 0, message)
            child.join(POLL_SECONDS)
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
    return child.exitcode


def map_tasks(func: Callable[[T], R], items: Iterable[T], *, jobs: int = 1,
              dask_address: str | None = None,
              progress: ProgressCallback | None = None) -> list[R]:
    """``[func(item) for item in items]``, spread over ``jobs`` processes or a Dask cluster.

    ``progress`` is called with ``Progress(done, total, "tasks")`` as tasks finish.
    An exception in a task is raised here.
    """
    tasks = list(items)
    report = progress or (lambda _p: None)
    if jobs < 1:
        raise LitqError(f"--jobs must be at least 1, got {jobs}")
    if dask_address:
        return _on_dask(func, tasks, dask_address, report)
    if jobs > 1 and len(tasks) > 1 and main_importable():
        return _on_processes(func, tasks, min(jobs, len(tasks)), report)
    results = []
    for done, item in enumerate(tasks, 1):
        results.append(func(item))
        report(Progress(done, len(tasks), "tasks"))
    return results


def _on_processes(func: Callable[[T], R], tasks: list[T], workers: int,
                  report: ProgressCallback) -> list[R]:
    with ProcessPoolExecutor(workers, mp_context=process_context()) as pool:
        futures = [pool.submit(func, item) for item in tasks]
        for done, _ in enumerate(as_completed(futures), 1):
            report(Progress(done, len(tasks), "tasks"))
        return [future.result() for future in futures]


def _dask() -> Any:
    try:
        import dask.distributed
    except ImportError:
        raise LitqError(f"--dask needs the optional Dask extra: {DASK_INSTALL}") from None
    return dask.distributed


# Every phase of talking to a Dask scheduler has a deadline: a server that accepts and
# never answers must not hang the command (Dask's own connect timeout does not cover the
# handshake). A task may take long, but a cluster that returns no result for an hour is
# taken for gone.
DASK_CONNECT_SECONDS = 10.0  # connect and handshake
DASK_RESULT_SECONDS = 3600.0  # between one result and the next
DASK_CLOSE_SECONDS = 5.0


def dask_scheme(address: str, distributed: Any) -> str:
    """The scheme of ``address`` (``tcp`` when it has none) when this Dask can connect over
    it — tcp, inproc, ws, and tls/wss with certificates in Dask's configuration, ucx
    with its package — else a ``LitqError`` naming the scheme."""
    from distributed.comm import registry

    scheme, sep, _ = address.partition("://")
    scheme = scheme.lower() if sep else "tcp"
    known = sorted(registry.backends)
    try:
        registry.get_backend(scheme).get_connector()
    except ValueError:
        raise LitqError(f"--dask {address}: Dask does not connect over {scheme}:// "
                        f"(it knows {', '.join(f'{k}://' for k in known)})") from None
    except (TypeError, ImportError):  # ucx without its package: an abstract stand-in
        raise LitqError(f"--dask {address}: this installation of Dask cannot connect over "
                        f"{scheme}:// (it needs an extra package for it)") from None
    if scheme in ("tls", "wss") and distributed.Security().get_connection_args(
            "client").get("ssl_context") is None:
        raise LitqError(f"--dask {address}: {scheme}:// needs the client's certificate in "
                        "Dask's configuration (distributed.comm.tls.ca-file and "
                        "distributed.comm.tls.client.cert/key)")
    return scheme


def _on_dask(func: Callable[[T], R], tasks: list[T], address: str,
             report: ProgressCallback) -> list[R]:
    """The tasks on the Dask cluster at ``address`` (module docstring): the cluster is
    trusted — its results are unpickled here. Each phase has its deadline (above); a
    refused scheme, a deadline passed, a broken connection or an answer too large to
    hold is one ``LitqError``."""
    distributed = _dask()
    dask_scheme(address, distributed)
    try:
        return asyncio.run(_dask_session(distributed, func, tasks, address, report))
    except MemoryError:
        raise LitqError(f"the Dask scheduler at {address} sent a message too large to "
                        "hold; is it a Dask scheduler?") from None
    except (OSError, ValueError) as err:  # refused, unreachable, a malformed address
        raise LitqError(f"cannot reach the Dask scheduler at {address}: {err}") from None


async def _dask_session(distributed: Any, func: Callable[[T], R], tasks: list[T],
                        address: str, report: ProgressCallback) -> list[R]:
    client = distributed.Client(address, asynchronous=True,
                                timeout=f"{DASK_CONNECT_SECONDS}s")
    try:
        try:
            await asyncio.wait_for(client, DASK_CONNECT_SECONDS)  # connect and handshake
        except (TimeoutError, asyncio.TimeoutError, distributed.TimeoutError):
            raise LitqError(f"the Dask scheduler at {address} did not answer within "
                            f"{DASK_CONNECT_SECONDS:g} s") from None
        futures = client.map(func, tasks, pure=False)
        pending = set(futures)
        while pending:
            try:
                done, pending = await asyncio.wait_for(
                    distributed.wait(pending, return_when="FIRST_COMPLETED"),
                    DASK_RESULT_SECONDS)
            except (TimeoutError, asyncio.TimeoutError):
                raise LitqError(f"the Dask cluster at {address} returned no result for "
                                f"{DASK_RESULT_SECONDS:g} s ({len(pending)} of "
                                f"{len(tasks)} tasks unfinished)") from None
            for finished in range(len(tasks) - len(pending) - len(done) + 1,
                                  len(tasks) - len(pending) + 1):
                report(Progress(finished, len(tasks), "tasks"))  # one per task, as elsewhere
        return await asyncio.wait_for(client.gather(futures), DASK_RESULT_SECONDS)
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), DASK_CLOSE_SECONDS)
