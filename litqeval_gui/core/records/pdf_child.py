"""PDFs are read in a child process, never in this one: a hostile PDF (a flate bomb, a
page tree that loops, a page the size of a city) can cost at most what the child is
allowed, and PDFium failing on one ends only the child.

The bounds, one place for all of them:

- :data:`PDF_MEMORY`: the memory a child may take beyond what it starts with (its
  address space, ``RLIMIT_AS``, where the platform enforces one: Linux); past it the
  child ends and the call is refused as too costly;
- :data:`PDF_SECONDS`: how long one call may take; past it the child is ended;
- :data:`MAX_PAGES`: the pages of a file that are used at all (the reader shows the
  first ones and says so; attaching refuses a file with more);
- :data:`MAX_SIDE`: a page whose side (in points, as PDFium reads the page box) is not
  above 0 and at most this fails in one line (PDF's own largest page);
- :data:`RENDER_PIXELS`: a page is drawn with at most this many pixels (scaled down to
  fit; the reader says so);
- :data:`MAX_TEXT`: the characters read from one page's text layer.

:class:`PdfChild` is one child (forkserver, else spawn:
:func:`~litqeval_gui.core.scaleout.process_context`), started on first use and again
after one ended; it holds the documents opened in it and opens them again in a new
child. What it is asked runs in :mod:`~litqeval_gui.core.records.pdf_pages`. Core's own
reads (a check at attach time, a folder matched, a text) use one for the operation
(:func:`using`) and end it after; the GUI's reader keeps one (:data:`READER`) while it
has a file open. A program whose main module a child cannot import
(:func:`~litqeval_gui.core.scaleout.main_importable`) reads PDFs in its own process
instead, unbounded.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import LitqError, environment_message
from litqeval_gui.core.scaleout import (
    lower_priority,
    main_importable,
    process_context,
    serves_a_window,
)

PDF_MEMORY = 1 << 30  # bytes
PDF_SECONDS = 60.0
MAX_PAGES = 2000
MAX_SIDE = 14_400.0  # points: 200 inches (PDFium ignores /UserUnit)
RENDER_PIXELS = 40_000_000
MAX_TEXT = 1_000_000  # characters of one page's text layer

Rect = tuple[float, float, float, float]  # (left, top, right, bottom), points
READER = "PDF reader"  # the name of the GUI reader's child; core's are "PDF check"


def too_costly(memory: int = PDF_MEMORY) -> str:
    """Why a call whose child died or ran out of memory was refused."""
    return f"it needs more than {memory / 2**30:g} GB of memory to read, or PDFium failed on it"


def too_slow() -> str:
    """Why a call that overran :data:`PDF_SECONDS` was refused."""
    return f"it takes more than {PDF_SECONDS:g} s to read"


class Unreadable(Exception):
    """What the child could not do, with the bare ``reason`` (no file or page named)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Opened:
    """A document as opened: ``count`` pages as PDFium counts them; the size (points,
    rotation applied) of each of the first :data:`MAX_PAGES`, None for one that cannot
    be used, whose reason is in ``failed``."""

    count: int
    sizes: tuple[tuple[float, float] | None, ...]
    failed: dict[int, str]


@dataclass(frozen=True)
class Inspected:
    """A file checked whole: its page count, the first page that cannot be used (index,
    reason) or None, its document information's values (as asked) and its first
    page's text."""

    count: int
    bad_page: tuple[int, str] | None
    metadata: tuple[str, ...]
    first_text: str


class _Here:
    """A connection whose other end is this process (no child can be started): each
    request is answered at once, under one lock (PDFium is not thread-safe)."""

    lock = threading.Lock()

    def __init__(self) -> None:
        from litqeval_gui.core.records import pdf_pages  # PDFium loaded only where used

        self._answer: Callable[[tuple], list] = pdf_pages.Server().answer
        self._replies: list = []

    def send(self, request: tuple) -> None:
        with self.lock:
            self._replies += self._answer(request)

    def poll(self, _timeout: float) -> bool:
        return True

    def recv(self) -> Any:
        return self._replies.pop(0)

    def recv_bytes_into(self, buffer: bytearray) -> int:
        data = self._replies.pop(0)
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._replies.clear()


def _bound_memory(extra: int) -> None:
    """Limit this process's address space to what it has now plus ``extra`` bytes, where
    the platform tells and enforces it (Linux; elsewhere nothing)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            now = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        soft = now + extra if hard == resource.RLIM_INFINITY else min(now + extra, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    except (ImportError, OSError, ValueError):
        pass


def _serve(conn: Any, memory: int, lower: bool) -> None:
    """The child: bound its memory, then answer requests until the parent hangs up (or
    memory ran out: the reply says so and the child ends, a new one starts clean). A
    Ctrl-C is the parent's to handle (it ends the child)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if lower:
        lower_priority()
    _bound_memory(memory)
    from litqeval_gui.core.records import pdf_pages  # after the bound: PDFium lives under it

    server = pdf_pages.Server(memory)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        for reply in server.answer(request):
            (conn.send_bytes if isinstance(reply, bytes) else conn.send)(reply)
        if server.spent:
            return


_HANDLES = itertools.count(1)


class _Overran(Exception):
    """A call took longer than :data:`PDF_SECONDS`."""


class PdfChild:
    """One child reading PDFs for this process (module docstring); threads take turns.
    Every refusal is :class:`Unreadable` (the file's or page's reason, or too costly:
    the child is then ended and the next call starts another)."""

    def __init__(self, memory: int = PDF_MEMORY, name: str = "PDF check") -> None:
        self.memory, self.name = memory, name
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Any = None
        self._paths: dict[int, str] = {}  # handle → path of every document open
        self._live: set[int] = set()  # the handles open in the running child

    def _running(self) -> Any:
        if self._conn is None:
            if not main_importable():
                self._conn = _Here()
                return self._conn
            context = process_context()
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, name=self.name, daemon=True,
                                      args=(theirs, self.memory, serves_a_window()))
            try:
                process.start()
            except OSError as err:
                raise LitqError(environment_message(err, "cannot start the PDF reader")) \
                    from None
            finally:
                theirs.close()
            self._process, self._conn = process, mine
        return self._conn

    def _end(self) -> None:
        """End the child (if any) and forget what was open in it."""
        process, conn = self._process, self._conn
        self._process, self._conn = None, None
        self._live.clear()
        if conn is not None:
            conn.close()
        if process is not None:
            process.kill()
            process.join()

    def kill(self) -> None:
        """End the child now, without waiting for a call in progress (which is then
        refused): for a program that is quitting."""
        process = self._process
        if process is not None:
            process.kill()

    def _request(self, op: str, handle: int | None, args: tuple) -> Any:
        conn = self._running()
        try:
            conn.send((op, handle, args))
            kind, value = self._reply(conn, conn.recv)
            if kind == "drawn":  # the pixels read straight into their buffer (one copy)
                pixels = bytearray(value[2] * value[1])
                self._reply(conn, lambda: conn.recv_bytes_into(pixels))
                value = (*value, pixels)
        except _Overran:
            self._end()
            raise Unreadable(too_slow()) from None
        except (EOFError, OSError):  # the child died: out of memory, or PDFium crashed
            self._end()
            raise Unreadable(too_costly(self.memory)) from None
        if kind == "spent":
            self._end()
        elif op == "open" and kind != "refused":
            self._live.add(handle)
        if kind != "ok" and kind != "drawn":
            raise Unreadable(value)
        return value

    @staticmethod
    def _reply(conn: Any, read: Callable[[], Any]) -> Any:
        if not conn.poll(PDF_SECONDS):
            raise _Overran
        return read()

    def ask(self, op: str, *args: Any) -> Any:
        """``op`` of :class:`~.pdf_pages.Server` on a file (its path among ``args``)."""
        with self._lock:
            return self._request(op, None, args)

    def open(self, path: Path) -> tuple[int, Opened]:
        """Open ``path`` here: a handle for :meth:`on` and what was found."""
        handle = next(_HANDLES)
        with self._lock:
            opened = self._request("open", handle, (str(path),))
            self._paths[handle] = str(path)
        return handle, opened

    def on(self, handle: int, op: str, *args: Any) -> Any:
        """``op`` on the document ``handle`` (opened again in a new child if need be)."""
        with self._lock:
            if handle not in self._live:
                self._request("open", handle, (self._paths[handle],))
            return self._request(op, handle, args)

    def close(self, handle: int) -> None:
        with self._lock:
            self._paths.pop(handle, None)
            if handle in self._live:
                self._live.discard(handle)
                self._request("close", handle, ())

    def stop(self) -> None:
        """End the child and forget every document."""
        with self._lock:
            self._paths.clear()
            self._end()

    def __enter__(self) -> PdfChild:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def using(child: PdfChild | None) -> AbstractContextManager[PdfChild]:
    """``child``, or (None) a new one ended after the ``with`` block."""
    return nullcontext(child) if child is not None else PdfChild()
