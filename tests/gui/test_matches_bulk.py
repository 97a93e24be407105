"""The review of uncertain matches has bulk actions — only the pairs with a core record,
sorted by similarity, and every pair of one reason accepted or rejected at once after a
confirmation that says how many; the counter always equals the project's counts."""

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches
from litqeval_gui.gui.screens.matches import dialog as dialog_module
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


@pytest.fixture
def asked(monkeypatch):
    """The bulk confirmations asked (title, text, verb), each answered yes."""
    questions = []

    def ask(_parent, title, text, verb):
        questions.append((title, text, verb))
        return True
    monkeypatch.setattr(dialog_module, "ask", ask)
    return questions


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


def test_reject_all_of_a_reason_is_one_write(qtbot, session, shot, asked):
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


def test_reject_all_only_among_the_pairs_shown(qtbot, session, asked):
    dialog = _dialog(qtbot, session)
    dialog.set_view(core_only=True, lowest_first=False)
    with qtbot.waitSignal(session.changed):
        assert dialog.reject_reason("title") == 1  # not the title pair of two results
    assert _statuses(session).count(("title", "rejected")) == 1
    assert not dialog.reject_reason_button.isEnabled()  # nothing left shown
    assert not dialog.accept_reason_button.isEnabled()


def _counts(session):
    with session.project.sibling() as project:
        return matches.match_counts(project, "T")


def _counter_numbers(dialog) -> tuple[int, int, int]:
    """(awaiting, accepted, rejected) as the dialog's counter shows them."""
    parts = dialog.counts_label.text().split(" · ")
    return tuple(int(part.split()[0].replace(",", "")) for part in parts)


def test_counter_after_bulk_reject_then_accept_is_the_projects(qtbot, session, asked):
    """The user's report: after a bulk reject the dialog said '-24 left undecided'."""
    dialog = _dialog(qtbot, session)
    assert _counter_numbers(dialog) == (4, 0, 0)
    dialog.decide(True)  # the first pair (the best title pair) accepted by hand
    with qtbot.waitSignal(session.changed):
        assert dialog.reject_reason("fuzzy") == 2
    qtbot.waitUntil(lambda: _counts(session).rejected == 2)
    with qtbot.waitSignal(session.changed):
        assert dialog.accept_reason("title") == 1  # the title pair left
    qtbot.waitUntil(lambda: _counts(session).uncertain == 0)
    stored = _counts(session)
    assert (stored.uncertain, stored.confirmed, stored.rejected) == (0, 2, 2)
    assert _counter_numbers(dialog) == (0, 2, 2)
    assert dialog.current is None
    assert dialog.message_label.text().startswith(
        "All 1 pair seen. Topic T now has 2 accepted, 2 rejected, 0 left undecided.")
    assert "-" not in dialog.message_label.text().split("\n")[0]


def test_counter_counts_queued_verdicts_before_they_are_stored(qtbot, session, asked):
    dialog = _dialog(qtbot, session)
    with qtbot.waitSignal(session.changed):
        dialog.reject_reason("fuzzy")
        assert _counter_numbers(dialog) == (2, 0, 2)  # shown at once, stored or not
    assert _counter_numbers(dialog) == (2, 0, 2)
    assert all(n >= 0 for n in _counter_numbers(dialog))


def test_accept_all_asks_how_many_and_keeps_verdicts_given_by_hand(qtbot, session):
    """The real confirmation box names the count; a pair decided elsewhere while the box
    is open (rejected by hand in another window: queued before the bulk verdict) keeps
    its verdict."""
    dialog = _dialog(qtbot, session)
    title_pairs = [m for m in dialog._matches if m.method == "title"]
    by_hand = title_pairs[0]
    seen = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        session.write(matches.decide_op(by_hand.id, accept=False))
        seen.append((box.windowTitle(), box.text()))
        go = next(b for b in box.buttons() if b.text().startswith("Accept"))
        seen.append(go.text())
        go.click()

    QTimer.singleShot(0, answer)
    dialog.reason.setCurrentIndex(dialog.reason.findData("title"))
    with qtbot.waitSignal(session.changed):
        dialog.accept_reason_button.click()
    assert seen[0][0] == "Accept all of this reason"
    assert "Accept all 2 pairs found by title as the same work?" in seen[0][1]
    assert "verdicts you gave before are kept" in seen[0][1]
    assert seen[1] == "Accept 2 pairs"
    qtbot.waitUntil(lambda: _counts(session).uncertain == 2)
    statuses = {m.id: m.status for m in matches.matches(session.project, "T")}
    assert statuses[by_hand.id] == "rejected"  # kept
    assert statuses[title_pairs[1].id] == "confirmed"
    qtbot.waitUntil(lambda: _counter_numbers(dialog) == (2, 1, 1))


def test_cancelling_the_confirmation_changes_nothing(qtbot, session, monkeypatch):
    monkeypatch.setattr(dialog_module, "ask", lambda *args: False)
    dialog = _dialog(qtbot, session)
    assert dialog.accept_reason("title") == 0 and dialog.reject_reason("fuzzy") == 0
    assert _statuses(session) == [("fuzzy", "uncertain")] * 2 + [("title", "uncertain")] * 2
    assert _counter_numbers(dialog) == (4, 0, 0) and dialog.progress_label.text() == "1 of 4"


def test_the_decide_many_op_skips_decided_matches_when_asked(session):
    found = matches.matches(session.project, "T", uncertain=True)
    first, *rest = [m.id for m in found]
    session.project.write(matches.decide_op(first, accept=True))
    session.project.write(matches.decide_many_op([first, *rest], False, pending_only=True))
    statuses = {m.id: m.status for m in matches.matches(session.project, "T")}
    assert statuses[first] == "confirmed"
    assert [statuses[i] for i in rest] == ["rejected"] * 3
    again = matches.decide_many_op([first], False, pending_only=True)(session.project)
    assert again == Changes()  # nothing left pending: nothing written
