"""Made-up import formats a test adds to the registry (``formats.FORMATS``) to show that
one entry is all a new format needs."""

from __future__ import annotations

from collections.abc import Generator

from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing.common import Collector, ReadOptions
from litqeval_gui.core.records.importing.formats import ImportFormat
from litqeval_gui.core.records.model import Record


def read_titles(text: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """A ``%TITLES`` line, then one title per line."""
    lines = text.split("\n")
    for lineno, line in enumerate(lines[1:], start=2):
        if line.strip():
            col.add(Record(title=line.strip(), source_line=lineno), lineno - 1)
        if col.full:
            return
    yield col.progress(len(lines), len(lines), "reading titles")


def read_blob(path: str, col: Collector, options: ReadOptions) -> Generator[Progress, None, None]:
    """``BLOB``, then document ids each ended by a NUL byte; ``options.topic`` is the rank
    given to all of them."""
    with open(path, "rb") as handle:
        fields = handle.read()[4:].split(b"\0")
    for number, docid in enumerate(filter(None, fields), start=1):
        col.add(Record(ids={"docid": docid.decode()}, rank=int(options.topic or 0)), number)
    yield col.progress(1, 1, "reading blobs")


TITLES = ImportFormat("titles", "Title list", (".titles", ".txt"), read_titles,
                      lambda lines: lines[0] == "%TITLES")
BLOB = ImportFormat("blob", "Blob of ids", (".blob",), read_blob, magic=b"BLOB",
                    keeps_rank=True)
