"""A filtered selection of a topic's lists to screen (issue 14 §1): the works of the
chosen lists (each once, its first record in list order then rank) whose title or
abstract contains a text and whose year lies in a range — the records screen's
:class:`~litqeval_gui.core.records.queries.RecordFilter`, so a selection reads exactly as a
browsed list does. :func:`~litqeval_gui.core.screening.log.store.create_screening` takes
the same filter; these functions preview it.
"""

from __future__ import annotations

from collections.abc import Sequence

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import RecordFilter, find_list, year_span
from litqeval_gui.core.screening.log import store


def selection(project: Project, topic: str, lists: Sequence[str],
              record_filter: RecordFilter | None = None) -> list[int]:
    """The record ids a screening of ``lists`` filtered by ``record_filter`` would hold."""
    import_ids = [find_list(project, topic, name).id for name in lists]
    return store.representatives(project, import_ids, record_filter or RecordFilter())


def selection_size(project: Project, topic: str, lists: Sequence[str],
                   record_filter: RecordFilter | None = None) -> int:
    """How many works the selection holds (0 without lists)."""
    return len(selection(project, topic, lists, record_filter)) if lists else 0


def years(project: Project, topic: str, lists: Sequence[str]) -> tuple[int, int] | None:
    """The smallest and largest publication year over ``lists`` (None: no year known)."""
    spans = [span for name in lists
             if (span := year_span(project, find_list(project, topic, name).id)) is not None]
    return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None
