"""A small review for the PRISMA and decision-export tests.

Topic T: a core set of 3 records (never identification), and three result lists of
records 0–15 of one generated field, linked by DOI: ``pubmed`` (database PubMed) 0–9,
``scopus`` (Scopus) 6–13, ``update`` (PubMed again, a search update) 12–15. So PubMed
10 + 4 = 14 records, Scopus 8, 22 in all; 16 works; 6 duplicates.
"""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.log import store
from tests.support.synthetic import topic_records
from tests.support.topics import write_list

ANN = store.Context(reviewer="ann")


def import_list(project: Project, folder: Path, records: list[Record], name: str,
                role: str = "results", database: str | None = None) -> None:
    """Write ``records`` as RIS in ``folder`` and import them as list ``name`` of T."""
    run_job(import_file(project, write_list(records, folder / f"{name}.ris"), topic="T",
                        role=role, name=name, database=database))


def build_review(folder: Path) -> Path:
    """The project (module docstring) at ``folder/p.litq``, with a title/abstract
    screening ``ta`` of the three lists: records 1–8 included, 9 maybe, 10–12 excluded
    ("off topic"), 13–16 undecided; and a full-text screening ``ft`` of the 9 included
    and maybe (reasons: wrong population, wrong study design, Not retrievable): 4
    included, 2 excluded for the wrong population, 1 for the wrong study design, 1 "Not
    retrievable" (the reason that stood for a report not retrieved before its own
    label), 1 undecided."""
    works = topic_records("cardiology", 16)
    path = folder / "p.litq"
    with Project.create(path) as project:
        import_list(project, folder, topic_records("astronomy", 3), "core", role="core")
        import_list(project, folder, works[0:10], "pubmed", database="PubMed")
        import_list(project, folder, works[6:14], "scopus", database="Scopus")
        import_list(project, folder, works[12:16], "update", database="PubMed")
        ta = store.create_screening(project, "T", "ta", ["pubmed", "scopus", "update"])
        items = store.items(project, ta.id)
        labels = ["include"] * 8 + ["maybe"] + ["exclude"] * 3
        for record, label in zip(items, labels, strict=False):
            project.write(store.decide_op(ta, record, label, ANN, reason="off topic"
                                          if label == "exclude" else ""))
        ft = store.create_screening(project, "T", "ft", ["pubmed"], phase="full_text",
                                    records=items[:9], reasons=(
                                        "wrong population", "wrong study design",
                                        "Not retrievable"))
        for record, label, reason in zip(items, (
                "include", "include", "include", "include", "exclude", "exclude", "exclude",
                "exclude"), ("", "", "", "", "wrong population", "wrong population",
                             "wrong study design", "Not retrievable"), strict=False):
            project.write(store.decide_op(ft, record, label, ANN, reason=reason))
    return path
