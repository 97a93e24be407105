"""`screen-decide --csv` commits each decision as it is made: when the disk fills (or
Ctrl-C comes) after some, the one line says how many were kept and from which line none
was, instead of "the project is unchanged". The failure is injected into the real write
path: the fifth decision's op raises inside its transaction, which rolls it back."""

import csv
import sqlite3

import pytest

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from tests.support.prisma import build_review


def _undecided(path) -> list[int]:
    with Project.open(path, readonly=True) as project:
        decided = {r for (r,) in project.db.execute(
            "SELECT record_id FROM screening_events WHERE reviewer = 'bo'")}
        return [r for r in store.items(project, store.find_screening(project, "T", "ta").id)
                if r not in decided]


@pytest.mark.parametrize(("failure", "code", "says"), [
    (sqlite3.OperationalError("database or disk is full"), 2,
     "litqeval: error: the disk is full; 4 of 7 decisions were made and are kept (each is "
     "committed as it is made); none from line 6 on\n"),
    (KeyboardInterrupt(), 130,
     "litqeval: interrupted; 4 of 7 decisions were made and are kept (each is committed as "
     "it is made); none from line 6 on\n")])
def test_a_failure_after_some_decisions_says_how_many_were_kept(
        tmp_path, capsys, monkeypatch, failure, code, says):
    review = build_review(tmp_path)
    records = _undecided(review)[:7]
    rows = tmp_path / "decisions.csv"
    with open(rows, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "label"], *([r, "exclude"] for r in records)])
    decide_op, made = store.decide_op, []

    def failing_decide_op(*args, **kwargs):
        op = decide_op(*args, **kwargs)

        def run(project):
            done = op(project)  # the row is written, then the disk is full: rolled back
            made.append(1)
            if len(made) == 5:
                raise failure
            return done
        return run

    monkeypatch.setattr(store, "decide_op", failing_decide_op)
    assert cli.main(["screen-decide", str(review), "--topic", "T", "--screening", "ta",
                     "--reviewer", "bo", "--csv", str(rows)]) == code
    assert capsys.readouterr().err == says
    assert _undecided(review)[:3] == records[4:7]  # the first four are decided
    with Project.open(review, readonly=True) as project:
        assert project.db.execute("SELECT COUNT(*) FROM screening_events WHERE reviewer = 'bo'"
                                  ).fetchone() == (4,)


def test_a_failure_at_the_first_decision_leaves_the_project_unchanged(
        tmp_path, capsys, monkeypatch):
    review = build_review(tmp_path)
    decide_op = store.decide_op

    def full(*args, **kwargs):
        op = decide_op(*args, **kwargs)

        def run(project):
            op(project)
            raise sqlite3.OperationalError("database or disk is full")
        return run

    monkeypatch.setattr(store, "decide_op", full)
    record = _undecided(review)[0]
    assert cli.main(["screen-decide", str(review), "--topic", "T", "--screening", "ta",
                     "--reviewer", "bo", "--record", str(record), "exclude"]) == 2
    assert capsys.readouterr().err == ("litqeval: error: the disk is full (database or disk "
                                       "is full); the project is unchanged\n")
    assert _undecided(review)[0] == record
