"""Parse a file into storage rows, a large RIS file in two processes.

:func:`read_rows` is what the import pipeline calls: it hands the rows
(:func:`~litqeval_gui.core.storage.record_row`) to a ``sink`` in file order as they
are ready, so the caller can write them while parsing goes on. For most files it
runs :func:`~litqeval_gui.core.importing.read_records`. A RIS file of at least
:data:`PARALLEL_MIN_BYTES` is cut at a record boundary near its middle: a child
process (``spawn``, so safe beside Qt threads) parses the second part while this
process parses the first and sinks its rows. Records, ranks, rejections (with file
line and record numbers) and notes are exactly those of a serial parse.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Generator
from pathlib import Path

from litqeval_gui.core.importing import _choose_format, _collector, read_records, ris
from litqeval_gui.core.importing.common import Collector, ParseResult, decode
from litqeval_gui.core.jobs import CancelToken, Progress, run_job
from litqeval_gui.core.records import RejectedRecord
from litqeval_gui.core.storage import record_row

PARALLEL_MIN_BYTES = 4_000_000  # about 5 000 records with abstracts
CHILD_SHARE = 0.55  # the child parses a bit more: this process also writes the rows

PartResult = tuple[list[tuple], list[RejectedRecord], list[str], int]


Sink = Callable[[list[tuple]], object]


def read_rows(path: str | Path, sink: Sink, *, fmt: str = "auto",
              mapping: dict[str, str] | None = None, where: dict[str, str] | None = None,
              topic: str | None = None, token: CancelToken | None = None,
              parallel: bool | None = None) -> Generator[Progress, None, ParseResult]:
    """Parse ``path``, passing its rows to ``sink``; return the result (``records`` empty).

    ``parallel`` forces (True) or forbids (False) the two-process path; by default it
    is used for RIS files of at least :data:`PARALLEL_MIN_BYTES` bytes. Nothing may be
    kept from the sink's rows if this raises (the caller's transaction).
    """
    path_s = str(path)
    chosen, encoding = _choose_format(path_s, fmt)
    if chosen == "ris" and (parallel or (parallel is None
                                         and Path(path_s).stat().st_size >= PARALLEL_MIN_BYTES)):
        text, encoding, notes = decode(Path(path_s).read_bytes(), encoding, path_s)
        return (yield from _ris_in_two(path_s, text, encoding, notes, where, token, sink))
    result = yield from read_records(path_s, fmt=chosen, mapping=mapping, where=where,
                                     topic=topic, token=token)
    sink([record_row(rec) for rec in result.records])
    result.records = []
    return result


def _drain(col: Collector, sink: Sink) -> None:
    """Pass the records collected so far to ``sink`` as rows, and forget them."""
    sink([record_row(rec) for rec in col.result.records])
    col.result.records.clear()


def _parse_part(text: str, path: str, encoding: str, where: dict[str, str] | None,
                first_line: int, first_number: int) -> PartResult:
    """Child process: parse one part of a RIS text into rows (ranks from 1)."""
    col = _collector(path, "ris", encoding, where, None, None)
    run_job(ris.read(text, col, first_line=first_line, first_number=first_number))
    rows: list[tuple] = []
    _drain(col, rows.extend)
    return rows, col.result.rejected, col.result.notes, col.filtered_out


def _ris_in_two(path: str, text: str, encoding: str, notes: list[str],
                where: dict[str, str] | None, token: CancelToken | None, sink: Sink,
                ) -> Generator[Progress, None, ParseResult]:
    cut = ris.split_point(text, 1.0 - CHILD_SHARE)
    first_line = 1 + text.count("\n", 0, cut)
    first_number = len(ris.record_ends(text[:cut]))
    pool = multiprocessing.get_context("spawn").Pool(1)
    try:
        pending = pool.apply_async(_parse_part, (text[cut:], path, encoding, where,
                                                 first_line, first_number))
        col = _collector(path, "ris", encoding, where, None, token)
        col.result.notes.extend(notes)
        for p in ris.read(text[:cut], col):
            _drain(col, sink)
            yield Progress(p.done, 2 * p.total, p.message)
        _drain(col, sink)
        while not pending.ready():
            yield col.progress(1, 2, "reading RIS records (second half)")
            time.sleep(0.05)
        more, rejected, more_notes, filtered = pending.get()
    finally:
        pool.terminate()  # also stops the child at once on cancel or error
        pool.join()
    offset = col.accepted
    sink([(row[0] + offset, *row[1:]) for row in more])
    col.accepted += len(more)
    col.result.rejected.extend(rejected)
    col.result.notes.extend(more_notes)
    col.filtered_out += filtered
    return col.finish()
