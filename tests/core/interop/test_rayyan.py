"""Rayyan exports (CSV and RIS) into a project: every reviewer's decision, conflicts,
reasons, labels and notes; twice adds nothing; hostile notes change nothing."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.foreign import detect_tool, opened_review
from litqeval_gui.core.screening.foreign.intake import import_review, origin_parameter
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team

HEADER = ["key", "title", "authors", "journal", "issn", "volume", "issue", "pages", "year",
          "publisher", "url", "abstract", "notes", "doi", "keywords"]


def _row(key: str, title: str, notes: str, doi: str = "", abstract: str = "Text.") -> list:
    return [key, title, "Smith, J and Doe, A", "J Surg", "", "1", "2", "3-4", "2020", "", "",
            abstract, notes, doi, "robots"]


ROWS = [
    _row("101", "Robots in surgery: a trial",
         'RAYYAN-INCLUSION: {"Kofi"=>"Included", "Ama"=>"Excluded"} | RAYYAN-LABELS: RCT,'
         'Adults | RAYYAN-EXCLUSION-REASONS: wrong population', "10.1/abc"),
    _row("102", "Hand washing in hospitals",
         'own note | RAYYAN-INCLUSION: {"Kofi"=>"Maybe", "Ama"=>"Included"} | USER-NOTES: '
         '{"Kofi"=>["check later", "ask \\"Ama\\""]}'),  # no DOI
    _row("103", "Knee arthroplasty outcomes",
         'RAYYAN-INCLUSION: {"Kofi"=>"Excluded", "Ama"=>"Excluded"} | '
         'RAYYAN-EXCLUSION-REASONS: wrong outcome,wrong design', "10.1/def"),
    _row("104", "A record nobody decided", "", "10.1/ghi"),
]


def _csv(path: Path, rows: list[list]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])
    return path


def _import(project: Project, path: Path, name: str | None = None):
    with opened_review([path]) as review:
        return run_job(import_review(project, review, topic="T", name=name))


def _decisions(project: Project, name: str) -> dict[tuple[str, str], tuple]:
    screening = store.find_screening(project, "T", name)
    found = {}
    for who, events in team.by_reviewer(project, screening.id).items():
        for record_id, event in events.items():
            found[who, store.record_title(project, record_id)] = (
                event.label, event.reason, event.note, event.tags)
    return found


def test_rayyan_csv_decisions_conflicts_and_twice(tmp_path):
    path = _csv(tmp_path / "articles.csv", ROWS)
    assert detect_tool([path]) == "rayyan"
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path)
        assert summary.screening == "Rayyan: articles"
        assert summary.in_file == {"Ama": 3, "Kofi": 3}
        assert summary.added == {"Ama": 3, "Kofi": 3}
        assert (summary.present, summary.unmatched) == (0, 0)
        got = _decisions(project, "Rayyan: articles")
        assert got["Kofi", "Robots in surgery: a trial"] == ("include", "", "", ("RCT", "Adults"))
        assert got["Ama", "Robots in surgery: a trial"] == (
            "exclude", "wrong population", "", ("RCT", "Adults"))
        assert got["Kofi", "Hand washing in hospitals"] == (
            "maybe", "", 'check later; ask "Ama"', ())
        assert got["Ama", "Knee arthroplasty outcomes"] == (
            "exclude", "wrong outcome", "reasons: wrong outcome, wrong design", ())
        assert len(got) == 6  # record 104 carries no decision
        screening = store.find_screening(project, "T", "Rayyan: articles")
        assert screening.reasons == ("wrong population", "wrong outcome")
        open_conflicts = {store.record_title(project, c.record_id)
                          for c in team.conflicts(project, screening.id)}
        assert open_conflicts == {"Robots in surgery: a trial", "Hand washing in hospitals"}
        assert parameters.get(project, origin_parameter(screening)).startswith("Rayyan")
        events = len(store.events(project, screening.id))
        again = _import(project, path)
        assert again.added == {} and again.present == 6 and again.reused == ["articles"]
        assert len(store.events(project, screening.id)) == events
        # a later export where Ama changed her mind adds that one decision only
        changed = [list(r) for r in ROWS]
        changed[0][12] = changed[0][12].replace('"Ama"=>"Excluded"', '"Ama"=>"Included"')
        later = _import(project, _csv(tmp_path / "articles later.csv", changed),
                        "Rayyan: articles")
        assert later.added == {"Ama": 1} and later.present == 5
        assert _decisions(project, "Rayyan: articles")["Ama", "Robots in surgery: a trial"][0] \
            == "include"


def test_rayyan_ris_notes_and_a_rejected_record(tmp_path):
    text = (
        "TY  - JOUR\nTI  - Robots in surgery: a trial\nAB  - We test robots.\nDO  - 10.1/abc\n"
        'N1  - RAYYAN-INCLUSION: {"Kofi"=>"Included", "Ama"=>"Included"} | RAYYAN-LABELS: RCT\n'
        "ER  - \n\n"
        "TY  - JOUR\nPY  - 2020\n"
        'N1  - RAYYAN-INCLUSION: {"Kofi"=>"Excluded"}\nER  - \n\n'
        "TY  - JOUR\nTI  - Knee arthroplasty outcomes\nAB  - Knees.\n"
        'N1  - RAYYAN-INCLUSION: {"Kofi"=>"Excluded", "Ama"=>"Maybe"}\n'
        "N1  - RAYYAN-EXCLUSION-REASONS: wrong outcome\nER  - \n")
    path = tmp_path / "rayyan.ris"
    path.write_text(text, encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        summary = _import(project, path)
        assert summary.added == {"Ama": 2, "Kofi": 2}
        assert summary.unmatched == 1
        assert "record 2: the importer rejected it" in summary.unmatched_examples[0]
        got = _decisions(project, "Rayyan: rayyan")
        assert got["Kofi", "Knee arthroplasty outcomes"][:2] == ("exclude", "wrong outcome")
        assert got["Ama", "Robots in surgery: a trial"] == ("include", "", "", ("RCT",))


@pytest.mark.parametrize(("notes", "said"), [
    ('RAYYAN-INCLUSION: {"Kofi"=>"Included", "Ama"=>}', "damaged near"),
    ('RAYYAN-INCLUSION: "Kofi"=>"Included"', "is not a map"),
    ('RAYYAN-INCLUSION: {"Kofi"=>"Undecided-ish"}', "is not Included, Excluded or Maybe"),
    ('RAYYAN-INCLUSION: {"Kofi"=>["Included"]}', "a list, not a decision"),
    ('RAYYAN-INCLUSION: {""=>"Included"}', "names no reviewer"),
    ('RAYYAN-INCLUSION: {"Kofi"=>"Included"} | USER-NOTES: ' + "x" * 1_000_000,
     "longer than 100,000 characters"),
])
def test_hostile_notes_refuse_the_file_and_change_nothing(tmp_path, notes, said):
    path = _csv(tmp_path / "bad.csv", [ROWS[0], _row("9", "Bad", notes, "10.9/x")])
    with Project.create(tmp_path / "p.litq") as project:
        with pytest.raises(ImportRefused) as refused:
            _import(project, path)
        message = str(refused.value)
        assert said in message and "\n" not in message
        assert "bad.csv, record 2" in message
        assert project.db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
        assert project.db.execute("SELECT COUNT(*) FROM screenings").fetchone()[0] == 0


def test_a_plain_csv_is_no_review(tmp_path):
    path = _csv(tmp_path / "plain.csv", [_row("1", "A title", "", "10.1/a")])
    assert detect_tool([path]) is None
    with pytest.raises(ImportRefused, match="no ASReview project, Rayyan or Covidence"):
        with opened_review([path]):
            pass
