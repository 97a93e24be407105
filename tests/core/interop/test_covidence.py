"""Covidence's stage exports into a project: the stage each record reached as the team's
final decisions, reasons at full text, and PRISMA's counts reproduced."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.foreign import detect_tool, import_files
from litqeval_gui.core.screening.foreign.covidence import DEFAULT_REVIEWER
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_counts

HEADER = ["Title", "Authors", "Abstract", "Published Year", "Published Month", "Journal",
          "Volume", "Issue", "Pages", "Accession Number", "DOI", "Ref", "Covidence #",
          "Study", "Notes", "Tags"]


def _row(number: int, title: str, doi: str = "", notes: str = "", tags: str = "") -> list:
    return [title, "Smith, J", f"Abstract of {title}.", "2020", "", "J", "1", "1", "1", "",
            doi, "", f"#{number}", f"Smith 2020{number}", notes, tags]


def _stage(folder: Path, stage: str, rows: list[list]) -> Path:
    path = folder / f"review_4242_{stage}_csv_20240101120000.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])
    return path


def _files(folder: Path) -> list[Path]:
    return [
        _stage(folder, "screen", [_row(7, "Not screened yet", "10.1/7")]),
        _stage(folder, "irrelevant", [_row(1, "Cats and dogs", "10.1/1"),
                                      _row(2, "Birds")]),  # no DOI
        _stage(folder, "select", [_row(3, "Awaiting its full text", "10.1/3")]),
        _stage(folder, "excluded", [
            _row(4, "Wrong outcome study", "10.1/4", "Exclusion reason: Wrong outcomes"),
            _row(5, "Wrong design study", "10.1/5", "Exclusion reason: Wrong study design")]),
        _stage(folder, "included", [_row(6, "Good trial", "10.1/6", "", "RCT; Adults")]),
    ]


def test_stages_become_decisions_and_prisma_counts(tmp_path):
    files = _files(tmp_path)
    assert detect_tool(files) == "covidence"
    with Project.create(tmp_path / "p.litq") as project:
        summary = run_job(import_files(project, files, topic="T"))
        assert summary.screening == "Covidence: review 4242"
        assert summary.fulltext == "Covidence: review 4242 — full text"
        # T/A: 2 excluded + 4 included; full text: 2 excluded + 1 included
        assert summary.added == {DEFAULT_REVIEWER: 9} and summary.unmatched == 0
        assert len(summary.imports) == 5
        title_abstract = store.find_screening(project, "T", summary.screening)
        full = store.find_screening(project, "T", summary.fulltext)
        assert title_abstract.size == 7 and full.size == 4
        decided = {store.record_title(project, e.record_id): (e.label, e.reason, e.tags)
                   for e in store.current_decisions(project, full.id)}
        assert decided == {"Wrong outcome study": ("exclude", "Wrong outcomes", ()),
                           "Wrong design study": ("exclude", "Wrong study design", ()),
                           "Good trial": ("include", "", ("RCT", "Adults"))}
        counts = prisma_counts(project, "T", screening=title_abstract.name,
                               fulltext=full.name)
        assert counts.identified == {"Covidence": 7}
        assert (counts.screened, counts.excluded_screening) == (6, 2)
        assert counts.not_yet_screened == 1
        assert (counts.sought, counts.not_retrieved, counts.assessed) == (4, 0, 3)
        assert counts.pending_sought == {"not yet decided": 1}  # the "select" record
        assert counts.excluded_fulltext == {"Wrong outcomes": 1, "Wrong study design": 1}
        assert counts.included == 1
        again = run_job(import_files(project, files, topic="T"))
        assert again.added == {} and again.present == 9


@pytest.mark.parametrize(("change", "said"), [
    (lambda f: f[3].write_text(f[3].read_text().replace("Exclusion reason: Wrong outcomes",
                                                        "")), "without its reason"),
    (lambda f: f.append(f[0].rename(f[0].with_name("screen.csv"))),
     "cannot tell its Covidence stage"),
])
def test_refusals_change_nothing(tmp_path, change, said):
    files = _files(tmp_path)
    change(files)
    files = [f for f in files if f.exists()]
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(ImportRefused, match=said):
            run_job(import_files(project, files, topic="T", tool="covidence"))
        assert project.db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
