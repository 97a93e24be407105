"""Parse a file into storage rows; a large RIS file in worker processes.

:func:`read_rows` is what the import pipeline calls: it hands the rows
(:func:`~litqeval_gui.core.records.rows.record_row`) to a ``sink`` in file order as they
are ready, so the caller writes them while parsing goes on. For most files it runs
:func:`~litqeval_gui.core.records.importing.read_records`. A RIS file of at least
:data:`PARALLEL_MIN_BYTES` is cut at record boundaries into pieces that
:data:`WORKERS` processes parse, while this process writes each piece's rows as it
arrives. Records, ranks, rejections (with file line and record numbers) and notes are
exactly those of a serial parse.

A UTF-8 file (LF or CRLF) is cut as bytes: this process only checks that each piece
decodes, and the worker that parses a piece reads its byte range from the file and
decodes it. Other files (UTF-16, cp1252, lone CRs) are decoded here first, with the notes
and refusals of a serial parse, and written as UTF-8 to a temporary file the workers read
the same way. A task is only a path and a byte range: the pipe to a worker never holds
megabytes.

Workers (:class:`~litqeval_gui.core.records.importing.workers.Workers`: each on a pipe
of its own, killed when the import ends, however it ends, so stopping them cannot hang) are
forked from a ``forkserver`` that has imported this module once (safe beside Qt threads,
and a later import starts its workers in milliseconds); where the platform has no
forkserver (Windows) they are spawned. They start in a thread while this process decodes
and cuts the file, with Ctrl-C (SIGINT) blocked, so neither the forkserver (while it
preloads) nor a worker ever receives it: this process alone handles it, and stops them.
"""

from __future__ import annotations

import codecs
import contextlib
import marshal
import os
import tempfile
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, run_job
from litqeval_gui.core.projectfile.writes import CHUNK_ROWS
from litqeval_gui.core.records.importing import _choose_format, _collector, read_records, ris
from litqeval_gui.core.records.importing.common import ParseResult, decode
from litqeval_gui.core.records.importing.workers import Workers, start_workers
from litqeval_gui.core.records.model import RejectedRecord
from litqeval_gui.core.records.rows import record_row

PARALLEL_MIN_BYTES = 4_000_000  # about 5 000 records with abstracts
PIECE_RECORDS = 2000  # records per piece a worker parses and sends back
WORKERS = 2  # worker processes; this process writes the rows meanwhile
MAIN_PIECES = 3  # at most this many pieces are parsed here while the workers start

PieceResult = tuple[list[bytes], list[RejectedRecord], list[str], list[str], int, str, int]
Piece = tuple[int, int, int, int]  # byte range (begin, end), first line, first record number
Task = tuple[str, int, int, str, str, dict[str, str] | None, int, int]
Sink = Callable[[list[tuple], int], object]  # (rows, rank offset)
Parsers = Workers[Task, PieceResult]  # the parsers of a RIS file's pieces


def read_rows(path: str | Path, sink: Sink, *, fmt: str = "auto",
              mapping: dict[str, str] | None = None, where: dict[str, str] | None = None,
              topic: str | None = None, token: CancelToken = NEVER,
              parallel: bool | None = None) -> Generator[Progress, None, ParseResult]:
    """Parse ``path``, passing its rows to ``sink``; return the result (``records`` empty).

    ``parallel`` forces (True) or forbids (False) the worker path; by default it
    is used for RIS files of at least :data:`PARALLEL_MIN_BYTES` bytes. Nothing may be
    kept from the sink's rows if this raises (the caller's transaction).
    """
    path_s = str(path)
    chosen, encoding = _choose_format(path_s, fmt)
    if chosen == "ris" and (parallel or (parallel is None
                                         and Path(path_s).stat().st_size >= PARALLEL_MIN_BYTES)):
        with ThreadPoolExecutor(1) as starter, contextlib.ExitStack() as cleanup:
            pool = starter.submit(start_workers, _parse_piece, WORKERS)  # the workers start while the file is decoded
            cleanup.callback(_stop, pool)
            source, pieces, encoding, notes = _ris_pieces(
                Path(path_s).read_bytes(), encoding, path_s, cleanup)
            return (yield from _ris_in_pieces(path_s, source, pieces, encoding, notes, where,
                                              token, sink, pool))
    result = yield from read_records(path_s, fmt=chosen, mapping=mapping, where=where,
                                     topic=topic, token=token)
    sink([record_row(rec) for rec in result.records], 0)
    result.records = []
    return result


def _stop(starting: Future[Parsers | None]) -> None:
    """Kill the workers once they have started (at once on cancel or error). A start that
    failed was raised by :func:`_results` already, or gives way to the error under way."""
    try:
        workers = starting.result()
    except Exception:  # noqa: BLE001 — reported elsewhere (see above)
        return
    if workers is not None:
        workers.stop()


def _parse_piece(task: Task) -> PieceResult:
    """Worker process: parse one piece of a RIS file (UTF-8 bytes ``begin:end`` of
    ``source``) into rows (ranks from 1), serialised
    :data:`~litqeval_gui.core.projectfile.writes.CHUNK_ROWS` at a time with
    :mod:`marshal` (rows are tuples of plain values; marshal builds no other object and
    runs no code): the importing thread loads one slice just before writing it, so no
    single load holds the GIL for long (2000 rows at once: 4 ms alone, far more on a busy
    machine)."""
    source, begin, end, path, encoding, where, first_line, first_number = task
    with open(source, "rb") as handle:
        handle.seek(begin)
        piece = handle.read(end - begin)
    text = decode(piece, "utf-8", path)[0]
    col = _collector(path, "ris", encoding, where, None, NEVER)
    run_job(ris.read(text, col, first_line=first_line, first_number=first_number))
    result = col.result
    rows = [record_row(rec) for rec in result.records]
    packed = [marshal.dumps(rows[i:i + CHUNK_ROWS])
              for i in range(0, len(rows), CHUNK_ROWS)]
    return (packed, result.rejected, result.notes, result.unreadable, col.filtered_out,
            result.database, col.textless)


def _ris_pieces(data: bytes, encoding: str, path: str, cleanup: contextlib.ExitStack,
                ) -> tuple[str, list[Piece], str, list[str]]:
    """The file the workers read (``path``, or a temporary UTF-8 copy of the decoded text
    that ``cleanup`` removes), its pieces, the encoding and decoding notes. ``path`` itself
    when it is plain UTF-8 with LF or CRLF line ends (each piece checked here)."""
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if encoding in ("utf-8", "utf-8-sig") and b"\x00" not in data and _no_lone_cr(data):
        try:
            return path, _ranges(_pieces(data, start), start, check=True), encoding, []
        except UnicodeDecodeError:
            pass  # not UTF-8 after all: decode() falls back to cp1252 or refuses
    text, encoding, notes = decode(data, encoding, path)
    handle, copy = tempfile.mkstemp(prefix="litqeval-", suffix=".ris")
    cleanup.callback(os.remove, copy)
    with open(handle, "wb") as out:
        pieces = ((piece.encode("utf-8"), line, n) for piece, line, n in _pieces(text))
        return copy, _ranges(pieces, 0, out=out), encoding, notes


def _ranges(pieces: Iterator[tuple[bytes, int, int]], start: int, *, check: bool = False,
            out: BinaryIO | None = None) -> list[Piece]:
    """Byte ranges of consecutive ``pieces`` from ``start``, each written to ``out`` if
    given; ``check``: each must decode as UTF-8 (else UnicodeDecodeError)."""
    ranges = []
    for piece, line, number in pieces:
        if check:
            piece.decode("utf-8")
        if out is not None:
            out.write(piece)
        ranges.append((start, start + len(piece), line, number))
        start += len(piece)
    return ranges


def _no_lone_cr(data: bytes, block: int = 1 << 20) -> bool:
    """Every CR of ``data`` starts a CRLF. Counted per ``block`` bytes: one count over a
    file of 35 MB holds the GIL for 20–30 ms, and a decision made meanwhile waits."""
    if b"\r" not in data:  # memchr, LF files: 3 ms for 35 MB
        return True
    return all(data.count(b"\r", i, i + block) == data.count(b"\r\n", i, i + block + 1)
               for i in range(0, len(data), block))


def _pieces(data: str | bytes, start: int = 0) -> Iterator[tuple[str | bytes, int, int]]:
    """``(piece, first line, first record number)`` of pieces of ``data`` from ``start``
    holding :data:`PIECE_RECORDS` whole records each (the last one takes the tail)."""
    ends = ris.record_ends(data, start)
    cuts = [start, *ends[PIECE_RECORDS - 1:-1:PIECE_RECORDS], len(data)]
    newline = "\n" if isinstance(data, str) else b"\n"
    line, number = 1, 0
    for begin, finish in zip(cuts, cuts[1:], strict=False):
        yield data[begin:finish], line, number
        line += data.count(newline, begin, finish)
        number += ris.count_records(data, begin, finish, PIECE_RECORDS)


def _results(pool: Future[Parsers | None], tasks: list[Task],
             ) -> Iterator[PieceResult | None]:
    """Piece results in file order: parsed here until the workers are up (at most
    :data:`MAIN_PIECES`), the rest by the workers; ``None`` while waiting for them."""
    mine = 0
    while mine < len(tasks) and mine < MAIN_PIECES and not pool.done():
        yield _parse_piece(tasks[mine])
        mine += 1
    workers = pool.result()
    if workers is None:
        yield from map(_parse_piece, tasks[mine:])
        return
    yield from workers.results(tasks[mine:])


def piece_tasks(source: str, pieces: list[Piece], path: str, encoding: str,
                where: dict[str, str] | None) -> list[Task]:
    """One worker task (:func:`_parse_piece`) per piece of ``source``."""
    return [(source, begin, end, path, encoding, where, line, number)
            for begin, end, line, number in pieces]


def _ris_in_pieces(path: str, source: str, pieces: list[Piece], encoding: str,
                   notes: list[str],
                   where: dict[str, str] | None, token: CancelToken, sink: Sink,
                   pool: Future[Parsers | None]) -> Generator[Progress, None, ParseResult]:
    """Pieces of ``source`` are parsed by worker processes (the first few here); their rows
    reach ``sink`` in file order as they arrive, so writing overlaps parsing."""
    tasks = piece_tasks(source, pieces, path, encoding, where)
    col = _collector(path, "ris", encoding, where, None, token)
    col.result.notes.extend(notes)
    done = 0
    for result in _results(pool, tasks):
        if result is not None:
            packed, rejected, more_notes, unreadable, filtered, database, textless = result
            if not done:
                col.result.database = database
            offset = col.accepted  # the piece's ranks follow the records accepted before it
            for blob in packed:
                rows = marshal.loads(blob)
                sink(rows, offset)
                col.accepted += len(rows)
            col.result.rejected.extend(rejected)
            col.result.notes.extend(more_notes)
            col.result.unreadable.extend(unreadable)
            col.filtered_out += filtered
            col.textless += textless
            done += 1
        yield col.progress(done, len(tasks), "reading RIS records")  # cancel point
    return col.finish()
