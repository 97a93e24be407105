"""Importers: search exports and TREC files → :class:`ParseResult` (no database access).

``detect(path)`` judges a file's format and encoding from its content;
``read_records(path, ...)`` is a generator job (see :mod:`litqeval_gui.core.jobs`)
that yields progress and returns the :class:`ParseResult`. Whole-file problems raise
:class:`~litqeval_gui.core.errors.ImportRefused`; bad single records are listed in
``ParseResult.rejected``.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.records.importing import bibtex, medline, ris, tabular, trec
from litqeval_gui.core.records.importing.common import FORMATS, Collector, ParseResult, decode
from litqeval_gui.core.records.importing.detect import detect, inspect

__all__ = ["FORMATS", "ParseResult", "detect", "read_records"]

_FAMILY = {"csv": "table", "tsv": "table"}
_TEXT_READERS = {"ris": ris.read, "bibtex": bibtex.read, "medline": medline.read}


def read_records(path: str | Path, *, fmt: str = "auto", mapping: dict[str, str] | None = None,
                 where: dict[str, str] | None = None, topic: str | None = None,
                 token: CancelToken = NEVER,
                 limit: int | None = None) -> Generator[Progress, None, ParseResult]:
    """Read the records of ``path`` as a generator job returning a :class:`ParseResult`.

    ``fmt`` forces a format (refused when the content is clearly another one);
    ``mapping`` overrides tabular columns (field -> column); ``where`` keeps records whose
    field equals or lists a value; ``topic`` selects one topic of a TREC run or qrels;
    ``limit`` stops after that many accepted records; ``token`` cancels.
    """
    path_s = str(path)
    fmt, encoding = _choose_format(path_s, fmt)
    yield Progress(0, 0, f"reading {Path(path_s).name}")
    if fmt == "xlsx":
        col = _collector(path_s, fmt, "xlsx", where, limit, token)
        yield from tabular.read_xlsx(path_s, col, mapping)
        return col.finish()
    try:
        data = Path(path_s).read_bytes()
    except OSError as err:
        raise ImportRefused(f"{path_s}: cannot read the file ({err.strerror})") from None
    text, encoding, notes = decode(data, encoding, path_s)
    del data
    col = _collector(path_s, fmt, encoding, where, limit, token)
    col.result.notes.extend(notes)
    if fmt in ("csv", "tsv"):
        yield from tabular.read_text(text, col, mapping)
    elif fmt in ("trec-run", "qrels"):
        yield from trec.read(text, col, topic)
    else:
        yield from _TEXT_READERS[fmt](text, col)
    return col.finish()


def _collector(path: str, fmt: str, encoding: str, where: dict[str, str] | None,
               limit: int | None, token: CancelToken) -> Collector:
    exempt = fmt in ("trec-run", "qrels")
    return Collector(ParseResult(path=path, format=fmt, encoding=encoding), where=where,
                     limit=limit, token=token, need_text=not exempt,
                     keep_rank=exempt)


def _choose_format(path: str, requested: str) -> tuple[str, str]:
    """``(format, encoding)``: the detected format, or ``requested`` when the content does
    not contradict it."""
    if requested not in ("auto", *FORMATS):
        raise ImportRefused(f"unknown format {requested!r}; choose one of {', '.join(FORMATS)}")
    if requested == "auto":
        return detect(path)
    found, encoding = inspect(path)
    if found is None or _FAMILY.get(found, found) == _FAMILY.get(requested, requested):
        return requested, encoding
    raise ImportRefused(f"{path}: the format {requested!r} was requested but the file "
                        f"looks like {found!r}; choose --format {found} or 'auto'")
