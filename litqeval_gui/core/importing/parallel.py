"""Parse a file into storage rows; a large RIS file in worker processes.

:func:`read_rows` is what the import pipeline calls: it hands the rows
(:func:`~litqeval_gui.core.storage.record_row`) to a ``sink`` in file order as they
are ready, so the caller writes them while parsing goes on. For most files it runs
:func:`~litqeval_gui.core.importing.read_records`. A RIS file of at least
:data:`PARALLEL_MIN_BYTES` is cut at record boundaries into pieces that
:data:`WORKERS` processes (``spawn``, so safe beside Qt threads) parse, while this
process writes each piece's rows as it arrives. Records, ranks, rejections (with file
line and record numbers) and notes are exactly those of a serial parse.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Generator, Iterator
from multiprocessing.pool import Pool
from pathlib import Path

from litqeval_gui.core.importing import _choose_format, _collector, read_records, ris
from litqeval_gui.core.importing.common import ParseResult, decode
from litqeval_gui.core.jobs import CancelToken, Progress, gc_paused, run_job
from litqeval_gui.core.records import RejectedRecord
from litqeval_gui.core.storage import record_row

PARALLEL_MIN_BYTES = 4_000_000  # about 5 000 records with abstracts
PIECE_RECORDS = 2000  # records per piece a worker parses and sends back
WORKERS = 2  # worker processes; this process writes the rows meanwhile
MAIN_PIECES = 3  # pieces parsed here while the workers start

PieceResult = tuple[list[tuple], list[RejectedRecord], list[str], int, str]
Sink = Callable[[list[tuple], int], object]  # (rows, rank offset)


def read_rows(path: str | Path, sink: Sink, *, fmt: str = "auto",
              mapping: dict[str, str] | None = None, where: dict[str, str] | None = None,
              topic: str | None = None, token: CancelToken | None = None,
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
        text, encoding, notes = decode(Path(path_s).read_bytes(), encoding, path_s)
        return (yield from _ris_in_pieces(path_s, text, encoding, notes, where, token, sink))
    result = yield from read_records(path_s, fmt=chosen, mapping=mapping, where=where,
                                     topic=topic, token=token)
    sink([record_row(rec) for rec in result.records], 0)
    result.records = []
    return result


def _parse_piece(task: tuple[str, str, str, dict[str, str] | None, int, int]) -> PieceResult:
    """Worker process: parse one piece of a RIS text into rows (ranks from 1)."""
    text, path, encoding, where, first_line, first_number = task
    col = _collector(path, "ris", encoding, where, None, None)
    with gc_paused():
        run_job(ris.read(text, col, first_line=first_line, first_number=first_number))
    result = col.result
    rows = [record_row(rec) for rec in result.records]
    return rows, result.rejected, result.notes, col.filtered_out, result.database


def _pieces(text: str) -> Iterator[tuple[str, int, int]]:
    """``(text, first line, first record number)`` of pieces of ``text`` holding
    :data:`PIECE_RECORDS` whole records each (the last one takes the tail)."""
    ends = ris.record_ends(text)
    cuts = [0, *ends[PIECE_RECORDS - 1:-1:PIECE_RECORDS], len(text)]
    line, number = 1, 0
    for begin, finish in zip(cuts, cuts[1:], strict=False):
        yield text[begin:finish], line, number
        line += text.count("\n", begin, finish)
        number += PIECE_RECORDS


def _results(pool: Pool, tasks: list[tuple]) -> Iterator[PieceResult | None]:
    """Piece results in file order: the first :data:`MAIN_PIECES` parsed in this process
    while the workers start up, the rest from the workers; ``None`` while waiting."""
    pending = pool.imap(_parse_piece, tasks[MAIN_PIECES:])  # the workers start now
    yield from map(_parse_piece, tasks[:MAIN_PIECES])
    for _ in tasks[MAIN_PIECES:]:
        while True:
            try:
                yield pending.next(timeout=0.05)
                break
            except multiprocessing.TimeoutError:
                yield None


def _ris_in_pieces(path: str, text: str, encoding: str, notes: list[str],
                   where: dict[str, str] | None, token: CancelToken | None, sink: Sink,
                   ) -> Generator[Progress, None, ParseResult]:
    """Pieces are parsed by worker processes (the first few here); their rows reach
    ``sink`` in file order as they arrive, so writing overlaps parsing."""
    tasks = [(piece, path, encoding, where, line, number) for piece, line, number in _pieces(text)]
    col = _collector(path, "ris", encoding, where, None, token)
    col.result.notes.extend(notes)
    pool = multiprocessing.get_context("spawn").Pool(WORKERS)
    done = 0
    try:
        for result in _results(pool, tasks):
            if result is not None:
                rows, rejected, more_notes, filtered, database = result
                if not done:
                    col.result.database = database
                sink(rows, col.accepted)  # ranks follow the records already accepted
                col.accepted += len(rows)
                col.result.rejected.extend(rejected)
                col.result.notes.extend(more_notes)
                col.filtered_out += filtered
                done += 1
            yield col.progress(done, len(tasks), "reading RIS records")  # cancel point
    finally:
        pool.terminate()  # also stops the workers at once on cancel or error
        pool.join()
    return col.finish()
