"""The whole-file counts behind the preview's row filter: the values a table column holds
and how many records each keeps or leaves out, as the import will (a job for the session's
:class:`~litqeval_gui.gui.jobs.JobRunner`; no Qt here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.importing.common import filter_keys, filter_values

MAX_OFFERED = 500  # values offered to pick from (the most frequent); any other can be typed
MAX_KEYS = 200_000  # distinct values counted; a value beyond them is counted when asked for


@dataclass(frozen=True)
class ColumnTally:
    """A column's values over every usable record of a file (those the filter chooses from)."""

    column: str
    records: int  # usable records of the file
    counts: dict[str, int]  # case-folded value or listed item -> records a filter on it keeps
    values: list[tuple[str, int]]  # whole values as written and their records, by name
    distinct: int  # distinct whole values in the file
    complete: bool  # ``counts`` holds every value of the column

    def kept(self, value: str) -> int | None:
        """Records a filter on ``value`` keeps; None when it is not known (not counted)."""
        key = value.strip().casefold()
        if key in self.counts:
            return self.counts[key]
        return 0 if self.complete else None

    def left_out(self, value: str) -> int | None:
        """Records a filter on ``value`` leaves out (the import's "left out by the filter")."""
        kept = self.kept(value)
        return None if kept is None else self.records - kept


def tally_column(path: Path, column: str, *, fmt: str = "auto",
                 mapping: dict[str, str] | None = None, wanted: str = "",
                 token: CancelToken = NEVER) -> Generator[Progress, None, ColumnTally]:
    """Read all of ``path`` (as the import does, without a filter) and count ``column``'s
    values; ``wanted`` is counted even beyond :data:`MAX_KEYS`."""
    result = yield from read_records(path, fmt=fmt, mapping=mapping, token=token)
    yield Progress(0, 0, f"counting the values of {column}")
    counts: Counter[str] = Counter()
    whole: Counter[str] = Counter()
    wanted_key = wanted.strip().casefold()
    complete = True
    for number, record in enumerate(result.records):
        if number % 5000 == 4999:
            token.raise_if_cancelled()
        keys = filter_keys(record, column)
        if len(counts) < MAX_KEYS:
            counts.update(keys)
        else:
            known = [k for k in keys if k in counts or k == wanted_key]
            complete = complete and len(known) == len(keys)
            counts.update(known)
        whole.update({v for v in filter_values(record, column) if v})
    offered = sorted(whole.most_common(MAX_OFFERED), key=lambda item: item[0].casefold())
    return ColumnTally(column=column, records=len(result.records), counts=dict(counts),
                       values=offered, distinct=len(whole), complete=complete)
