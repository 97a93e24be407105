"""Blind mode (issue 25 §1): nothing of another reviewer reaches a blinded reviewer's
view, counts, model or exports, until the screening is unblinded."""

import csv
import shutil

import numpy as np
import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.export import export_audit, export_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import build_features
from litqeval_gui.core.screening.ranking.retrain import retrain
from litqeval_gui.core.screening.reviewers.exchange import export_decisions, merge_decisions
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping import panel
from tests.support.screening import screening_project

ADA = ["include", "exclude", "exclude", "include"]
BOB = ["exclude", "include", "include", "exclude", "include", "include"]


@pytest.fixture
def blind(tmp_path):
    """A blind screening: Ada decided items 0–3, Bob (tag "bob-tag", notes) items 0–5."""
    path, _ = screening_project(tmp_path, 40)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"], blind=True)
        ids = store.items(project, screening.id)
        for record_id, label in zip(ids, ADA, strict=False):
            project.write(store.decide_op(screening, record_id, label, store.Context("Ada")))
        for record_id, label in zip(ids, BOB, strict=False):
            project.write(store.decide_op(screening, record_id, label,
                                          store.Context("Bob", tags=("bob-tag",)),
                                          note="Bob's note"))
        yield project, store.get_screening(project, screening.id), ids


def test_view_shows_only_the_reviewers_own(blind):
    project, screening, ids = blind
    assert screening.blind
    session = ScreeningSession(project, screening, "Ada")
    assert session.labels == dict(zip(ids, ADA, strict=False))
    assert set(session.notes.values()) == {""}
    assert "bob-tag" not in session.known_tags
    assert store.current_label(project, screening.id, ids[0], "Ada") == "include"
    assert store.current_label(project, screening.id, ids[5], "Ada") is None
    assert store.current_decisions(project, screening.id, "Eve") == []
    assert {e.reviewer for e in store.current_decisions(project, screening.id, "Bob")} == {"Bob"}


def test_counts_only_the_reviewers_own(blind):
    project, screening, _ = blind
    assert ScreeningSession(project, screening, "Ada").screened == 4
    assert panel.history(project, screening, "Ada").tolist() == [1, 0, 0, 1]
    assert panel.history(project, screening).size == 6  # without a reviewer: everyone's


def test_model_trains_on_the_reviewers_own(blind):
    project, screening, ids = blind
    features = run_job(build_features(project, screening.topic_id,
                                      store.items(project, screening.id)))
    ranking = run_job(retrain(project, screening, features, "logistic", reviewer="Ada"))
    assert ranking.labels == 4
    scores = dict(zip(ranking.records, ranking.scores, strict=True))
    assert np.isfinite([scores[ids[4]], scores[ids[5]]]).all()  # Bob's: still to screen
    assert np.isnan([scores[r] for r in ids[:4]]).all()


def test_exports_hold_only_the_reviewers_own(blind, tmp_path):
    project, screening, _ = blind
    out = tmp_path / "ada.csv"
    export_screening(project, screening, out, "csv", reviewer="Ada")
    text = out.read_text(encoding="utf-8-sig")
    assert "Bob" not in text and "bob-tag" not in text
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert sum(row["reviewer"] == "Ada" for row in rows) == 4
    audit = tmp_path / "audit.csv"
    assert export_audit(project, screening, audit, reviewer="Ada") == 4
    assert "Bob" not in audit.read_text(encoding="utf-8-sig")


def test_unblinding_is_an_event_and_opens_the_view(blind):
    project, screening, ids = blind
    project.write(store.unblind_op(screening, "Ada"))
    opened = store.get_screening(project, screening.id)
    assert not opened.blind
    assert project.db.execute("SELECT reviewer FROM screening_unblinds").fetchall() == [("Ada",)]
    # unblinded: the screening's current decisions, Bob's (made last) on records 0–5
    assert store.current_decisions(project, screening.id, "Ada") == store.current_decisions(
        project, screening.id)
    # Ada's queue still serves what she has not decided herself: Bob's records 4 and 5
    ada = ScreeningSession(project, opened, "Ada")
    assert (ada.screened, ada.shown) == (4, ids[4])


def test_unblinding_travels_with_a_decisions_file(tmp_path):
    path, _ = screening_project(tmp_path, 10)
    with Project.open(path) as project:
        store.create_screening(project, "T", "s", ["L"], blind=True)
    bob = tmp_path / "bob.litq"
    shutil.copy(path, bob)
    with Project.open(path) as project:
        screening = store.find_screening(project, "T", "s")
        project.write(store.decide_op(screening, store.items(project, screening.id)[0],
                                      "include", store.Context("Ada")))
        project.write(store.unblind_op(screening, "Ada"))
        export_decisions(project, screening, "Ada", tmp_path / "ada.jsonl")
    with Project.open(bob) as project:
        assert store.find_screening(project, "T", "s").blind
        report = run_job(merge_decisions(project, tmp_path / "ada.jsonl"))
        assert report.unblinded and report.added == 1
        assert not store.find_screening(project, "T", "s").blind
        again = run_job(merge_decisions(project, tmp_path / "ada.jsonl"))
        assert not again.unblinded
        assert project.db.execute("SELECT COUNT(*) FROM screening_unblinds").fetchone()[0] == 1
