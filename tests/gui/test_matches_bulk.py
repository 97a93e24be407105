"""Issue 24 §2: the review of uncertain matches has bulk actions — only the pairs with a
core record, sorted by similarity, and every pair of one reason rejected at once."""

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches
from litqeval_gui.gui.screens.matches.dialog import CORE_PAIRS, LOWEST, MatchesDialog
from litqeval_gui.gui.session import ProjectSession
from tests.gui.themed import shoot_both

CORE_TITLE = "Deep learning for screening of medical abstracts"
SHARED = "Robotic arm assisted total knee arthroplasty in older adults"
NEAR = "Robotic arm assisted total knee arthroplasty in elderly adults"


def _ris(path, records):
    """``records``: (title, doi) pairs, one RIS record each (2020)."""
    path.write_text("".join(f"TY  - JOUR\nTI  - {title}\nPY  - 2020\nDO  - {doi}\nER  - \n\n"
                            for title, doi in records), encoding="utf-8")
    return path


@pytest.fixture
def session(tmp_path, qtbot):
    """Topic T: a core record, and a result list whose records give uncertain matches
    found by title (one with the core record, one between two results) and by fuzzy title
    (two between results). Different DOIs keep every title match uncertain."""
    project = Project.create(tmp_path / "b.litq")
    run_job(ingest.import_file(project, _ris(tmp_path / "core.ris", [(CORE_TITLE, "10.1000/c")]),
                               topic="T", role="core"))
    results = [(CORE_TITLE, "10.1000/r0"), (SHARED, "10.1000/r1"), (SHARED, "10.1000/r2"),
               (NEAR, "10.1000/r3")]
    run_job(ingest.import_file(project, _ris(tmp_path / "r.ris", results), topic="T",
                               role="results"))
    session = ProjectSession(project)
    yield session
    assert session.close()


def _dialog(qtbot, session):
    dialog = MatchesDialog(session, "T")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _statuses(session):
    with session.project.sibling() as project:
        return sorted((m.method, m.status) for m in matches.matches(project, "T"))


def test_the_fixture_has_title_and_fuzzy_matches(session):
    found = matches.matches(session.project, "T", uncertain=True)
    assert sorted(m.method for m in found) == ["fuzzy", "fuzzy", "title", "title"]
    assert sum("core" in (m.a.role, m.b.role) for m in found) == 1


def test_only_pairs_with_a_core_record(qtbot, session):
    dialog = _dialog(qtbot, session)
    assert dialog.progress_label.text() == "1 of 4"
    dialog.scope.setCurrentText(CORE_PAIRS)
    dialog.scope.activated.emit(1)
    assert dialog.progress_label.text() == "1 of 1"
    assert "core" in (dialog.current.a.role, dialog.current.b.role)


def test_sorted_by_similarity_either_way(qtbot, session):
    dialog = _dialog(qtbot, session)
    scores = [m.score for m in dialog._matches]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    dialog.order.activated.emit(1)
    assert dialog.order.currentText() == LOWEST
    assert [m.score for m in dialog._matches] == sorted(scores)


def test_reject_all_of_a_reason_is_one_write(qtbot, session, shot):
    dialog = _dialog(qtbot, session)
    reasons = [dialog.reason.itemText(i) for i in range(dialog.reason.count())]
    assert reasons == ["found by title (2)", "found by fuzzy (2)"] or \
        reasons == ["found by fuzzy (2)", "found by title (2)"]
    shoot_both(shot, lambda: _dialog(qtbot, session), "matches_bulk")
    with qtbot.waitSignal(session.changed) as changed:
        assert dialog.reject_reason("fuzzy") == 2
    assert changed.args == [Changes(verdicts=True), dialog]  # different works already
    assert _statuses(session) == [("fuzzy", "rejected"), ("fuzzy", "rejected"),
                                  ("title", "uncertain"), ("title", "uncertain")]
    assert dialog.progress_label.text().endswith("of 2")
    assert [dialog.reason.itemText(i) for i in range(dialog.reason.count())] == \
        ["found by title (2)"]


def test_reject_all_only_among_the_pairs_shown(qtbot, session):
    dialog = _dialog(qtbot, session)
    dialog.set_view(core_only=True, lowest_first=False)
    with qtbot.waitSignal(session.changed):
        assert dialog.reject_reason("title") == 1  # not the title pair of two results
    assert _statuses(session).count(("title", "rejected")) == 1
    assert not dialog.reject_reason_button.isEnabled()  # nothing left shown
