"""Importers: search exports and TREC files → :class:`ParseResult` (no database access).

``detect(path)`` judges a file's format and encoding from its content;
``read_records(path, ...)`` is a generator job (see :mod:`litqeval_gui.core.jobs`)
that yields progress and returns the :class:`ParseResult`. Whole-file problems raise
:class:`~litqeval_gui.core.errors.ImportRefused`; bad single records are listed in
``ParseResult.rejected``. The formats, their sniffers and readers are registered in
:mod:`~litqeval_gui.core.records.importing.formats`.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.records.importing import formats
from litqeval_gui.core.records.importing.common import (
    Collector,
    ParseResult,
    ReadOptions,
    decode,
)
from litqeval_gui.core.records.importing.detect import detect, inspect
from litqeval_gui.core.records.importing.formats import ImportFormat

__all__ = ["ImportFormat", "ParseResult", "detect", "formats", "read_records"]


def read_records(path: str | Path, *, fmt: str = "auto", mapping: dict[str, str] | None = None,
                 where: dict[str, str] | None = None, topic: str | None = None,
                 token: CancelToken = NEVER,
                 limit: int | None = None) -> Generator[Progress, None, ParseResult]:
    """Read the records of ``path`` as a generator job returning a :class:`ParseResult`.

    ``fmt`` forces a format (refused when the content is clearly another one);
    ``mapping`` overrides tabular columns (field -> column); ``where`` keeps records whose
    field equals or lists a value; ``topic`` selects one topic of a TREC run or qrels;
    ``limit`` stops after that many accepted records; ``token`` cancels. The format's
    reader (:data:`~litqeval_gui.core.records.importing.formats.FORMATS`) gets the
    decoded text, or the path of a binary file.
    """
    path_s = str(path)
    fmt, encoding = _choose_format(path_s, fmt)
    spec = formats.named(fmt)
    options = ReadOptions(mapping=mapping, topic=topic)
    yield Progress(0, 0, f"reading {Path(path_s).name}")
    if spec.binary:  # its "encoding" is its format, as detection says
        col = _collector(path_s, fmt, fmt, where, limit, token)
        yield from spec.read(path_s, col, options)
        return col.finish()
    try:
        data = Path(path_s).read_bytes()
    except OSError as err:
        raise ImportRefused(f"{path_s}: cannot read the file ({err.strerror})") from None
    text, encoding, notes = decode(data, encoding, path_s)
    del data
    col = _collector(path_s, fmt, encoding, where, limit, token)
    col.result.notes.extend(notes)
    yield from spec.read(text, col, options)
    return col.finish()


def _collector(path: str, fmt: str, encoding: str, where: dict[str, str] | None,
               limit: int | None, token: CancelToken) -> Collector:
    keeps_rank = formats.named(fmt).keeps_rank
    return Collector(ParseResult(path=path, format=fmt, encoding=encoding), where=where,
                     limit=limit, token=token, need_content=not keeps_rank, keep_rank=keeps_rank)


def _choose_format(path: str, requested: str) -> tuple[str, str]:
    """``(format, encoding)``: the detected format, or ``requested`` when the content does
    not contradict it (it is of no known format, or both are text table formats)."""
    if requested == "auto":
        return detect(path)
    wanted = formats.named(requested)
    found, encoding = inspect(path)
    if found is None or found == requested or _alike(formats.named(found), wanted):
        return requested, encoding
    raise ImportRefused(f"{path}: the format {requested!r} was requested but the file "
                        f"looks like {found!r}; choose --format {found} or 'auto'")


def _alike(a: ImportFormat, b: ImportFormat) -> bool:
    """Whether one reader can read the other's files: two text table formats."""
    return a.table and b.table and not a.binary and not b.binary
