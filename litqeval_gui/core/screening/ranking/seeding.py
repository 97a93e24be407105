"""Seeding a screening with records the reviewer already knows are relevant (as ASReview
LAB's prior knowledge): a search over the screening's records whose title or abstract
contains a text (:class:`~litqeval_gui.core.records.queries.RecordFilter`), or whose DOI or
PMID it is (so a record without title or abstract can be found too); the records found are
then decided through the screening session like any other."""

from __future__ import annotations

from dataclasses import dataclass

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import normalise_doi, normalise_pmid
from litqeval_gui.core.records.queries import RecordFilter


@dataclass(frozen=True)
class Found:
    """A record of the screening that matches the search."""

    record_id: int
    title: str
    year: int | None


def find_in_screening(project: Project, screening_id: int, text: str,
                      limit: int = 200) -> list[Found]:
    """The screening's records whose title or abstract contains ``text`` (case-insensitive)
    or whose DOI or PMID is ``text``, in the screening's list order, at most ``limit``;
    none for an empty text."""
    if not text.strip():
        return []
    where, params = RecordFilter(text).sql()
    ids = [normalise_doi(text) or None, normalise_pmid(text) or None]  # NULL matches nothing
    return [Found(int(row[0]), row[1] or "(no title)", row[2]) for row in project.db.execute(
        "SELECT r.id, r.title, r.year FROM screening_items s JOIN records r "
        f"ON r.id = s.record_id WHERE s.screening_id = ? AND ((1{where}) OR r.doi = ? "
        "OR r.pmid = ?) ORDER BY s.position LIMIT ?",
        [screening_id, *params, *ids, limit])]
