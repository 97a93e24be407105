"""Known relevance of records, for simulation: a labelled import column, the core set,
or another screening's decisions.

A labelled column is any column of the imported file (the importers keep every
original field in ``raw``, so an unmapped column stays selectable by its name); its
cells read 1/0, yes/no, true/false, included/excluded, include/exclude (any case).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries, works
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.ranking.features import work_ids
from litqeval_gui.core.screening.reviewers import team

TRUE_WORDS = {"1", "yes", "true", "included", "include", "y"}
FALSE_WORDS = {"0", "no", "false", "excluded", "exclude", "n"}
SOURCES = ("core", "screening")  # besides a column name


def parse_label(value: object) -> bool | None:
    """True/False for a recognised cell, None otherwise (``1.0`` counts as ``1``)."""
    text = str(value).strip().lower()
    text = text[:-2] if text.endswith(".0") else text
    return True if text in TRUE_WORDS else False if text in FALSE_WORDS else None


def label_columns(project: Project, import_id: int, sample: int = 200) -> list[str]:
    """Columns of an imported list whose values (in its first ``sample`` records) all read
    as labels: the choices offered as "labels from a column"."""
    readable: dict[str, bool] = {}
    for record in itertools.islice(queries.list_records(project, import_id), sample):
        for name, value in record.raw.items():
            if isinstance(value, str | int | float):
                readable[name] = readable.get(name, True) and parse_label(value) is not None
    return [name for name, ok in readable.items() if ok]


def column_labels(project: Project, record_ids: Sequence[int], column: str) -> np.ndarray:
    """Relevance of each record from its imported column ``column`` (module docstring)."""
    found: list[bool] = []
    unreadable: list[str] = []
    missing = 0
    for start in range(0, len(record_ids), 20_000):
        part = list(record_ids[start:start + 20_000])
        stored = queries.records_by_id(project, part)
        for record in part:
            raw = stored[record].raw
            if column not in raw:
                missing += 1
                found.append(False)
                continue
            label = parse_label(raw[column])
            if label is None:
                unreadable.append(str(raw[column])[:30])
            found.append(bool(label))
    if missing == len(record_ids):
        raise LitqError(f"no record has a column {column!r}; use 'core', 'screening' or "
                        "the name of a labelled column of the imported file")
    if missing or unreadable:
        examples = ", ".join(repr(v) for v in unreadable[:3])
        raise LitqError(f"column {column!r}: {missing} record(s) without a value and "
                        f"{len(unreadable)} unreadable ({examples}); labels must read "
                        "1/0, yes/no, true/false or included/excluded")
    return np.array(found, dtype=bool)


def core_labels(project: Project, topic_id: int, record_ids: Sequence[int]) -> np.ndarray:
    """Relevant = the record's work is in the topic's core set."""
    core = works.core_works(project.db, topic_id)
    if not core:
        raise LitqError("the topic has no core set to use as the relevant records")
    return np.array([work in core for work in work_ids(project, list(record_ids))], dtype=bool)


def screening_labels(project: Project, screening: store.Screening,
                     record_ids: Sequence[int], reviewer: str | None = None) -> np.ndarray:
    """Relevance from the final decisions of ``screening`` (the resolution where one
    exists; in a blind screening ``reviewer``'s own), matched by work; every record must
    have a final decision there."""
    decided = {}
    decisions = team.final_events(project, screening.id, reviewer)
    for work, event in zip(work_ids(project, [e.record_id for e in decisions]), decisions,
                           strict=True):
        decided[work] = is_relevant(screening.scheme, event.label)
    wanted = work_ids(project, list(record_ids))
    open_count = sum(work not in decided for work in wanted)
    if open_count:
        raise LitqError(f"screening {screening.name!r} has not decided {open_count} of the "
                        f"{len(wanted)} records (or its reviewers disagree on them, "
                        "unresolved); finish it or use other labels")
    return np.array([decided[work] for work in wanted], dtype=bool)
