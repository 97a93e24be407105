"""``litqeval screen-export`` and ``simulate --labels-from screening`` read a blind
screening as the reviewer does (``--reviewer`` or $LITQEVAL_REVIEWER): their own
decisions only; without a reviewer, the screening's final decisions (a record whose
reviewers disagree unresolved reads ``conflict``, and gives no label to simulate with)."""

import csv
import json

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from tests.support.screening import screening_project


def _decisions(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return [(row["decision"], row["reviewer"]) for row in csv.DictReader(handle)]


def test_screen_export_of_a_blind_screening_is_the_reviewers_own(tmp_path, capsys,
                                                                 monkeypatch):
    path, _ = screening_project(tmp_path, 4)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "B", ["L"], blind=True)
        ids = store.items(project, screening.id)
        for record_id, ann, bo in zip(ids[:3], ("include", "exclude", "include"),
                                      ("include", "include", "exclude"), strict=True):
            project.write(store.decide_op(screening, record_id, ann, store.Context("Ann")))
            project.write(store.decide_op(screening, record_id, bo, store.Context("Bo")))
    monkeypatch.delenv("LITQEVAL_REVIEWER", raising=False)
    args = ["screen-export", str(path), "--topic", "T", "--screening", "B", "--format", "csv"]
    assert main([*args, "--reviewer", "Ann", str(tmp_path / "ann.csv")]) == 0
    assert _decisions(tmp_path / "ann.csv") == [
        ("include", "Ann"), ("exclude", "Ann"), ("include", "Ann"), ("undecided", "")]
    monkeypatch.setenv("LITQEVAL_REVIEWER", "Bo")
    assert main([*args, str(tmp_path / "bo.csv")]) == 0
    assert _decisions(tmp_path / "bo.csv") == [
        ("include", "Bo"), ("include", "Bo"), ("exclude", "Bo"), ("undecided", "")]
    monkeypatch.delenv("LITQEVAL_REVIEWER")
    assert main([*args, str(tmp_path / "all.csv")]) == 0
    assert [label for label, _ in _decisions(tmp_path / "all.csv")] == [
        "include", "conflict", "conflict", "undecided"]
    capsys.readouterr()


def test_simulate_with_a_blind_screenings_labels_uses_the_reviewers_own(tmp_path, capsys,
                                                                         monkeypatch):
    path, _ = screening_project(tmp_path, 8)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "B", ["L"], blind=True)
        for i, record_id in enumerate(store.items(project, screening.id)):
            for reviewer, relevant in (("Ann", i < 2), ("Bo", i < 4)):
                project.write(store.decide_op(screening, record_id,
                                              "include" if relevant else "exclude",
                                              store.Context(reviewer)))
    monkeypatch.delenv("LITQEVAL_REVIEWER", raising=False)
    args = ["simulate", str(path), "--topic", "T", "--list", "L", "--labels-from",
            "screening", "--screening", "B", "--json"]
    assert main([*args, "--reviewer", "Ann"]) == 0
    assert json.loads(capsys.readouterr().out)["relevant"] == 2
    monkeypatch.setenv("LITQEVAL_REVIEWER", "Bo")
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["relevant"] == 4
    monkeypatch.delenv("LITQEVAL_REVIEWER")
    assert main(args) == 2
    assert "has not decided 2 of the 8" in capsys.readouterr().err
