"""The uncertain-matches dialog: keyboard verdicts are stored at once; shortcuts are scoped."""

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QShortcut

from litqeval_gui.core import evaluation, ingest, matches
from litqeval_gui.core.changes import Changes
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project
from litqeval_gui.gui.screens.matches.dialog import (
    EMPTY_TEXT,
    MatchesDialog,
    highlight_differences,
)
from litqeval_gui.gui.session import ProjectSession

SCREENS = Path(__file__).resolve().parents[2] / "artifacts" / "screens"


def _one_record_ris(path, title, doi, year=2020):
    path.write_text(f"TY  - JOUR\nAU  - Roe, R\nTI  - {title}\nPY  - {year}\nDO  - {doi}\n"
                    "ER  - \n\n", encoding="utf-8")
    return path


@pytest.fixture
def session(tmp_path, qtbot):
    """A project whose topic T has one uncertain match (same title, different DOIs)."""
    project = Project.create(tmp_path / "m.litq")
    title = "Deep learning for screening of medical abstracts"
    for name, role, doi in (("core", "core", "10.1000/published"),
                            ("r1", "results", "10.1101/preprint")):
        run_job(ingest.import_file(project, _one_record_ris(tmp_path / f"{name}.ris", title, doi),
                                   topic="T", role=role, name=name))
    session = ProjectSession(project)
    yield session
    assert session.close()


def _dialog(qtbot, session, topic="T"):
    dialog = MatchesDialog(session, topic)
    qtbot.addWidget(dialog)
    with qtbot.waitActive(dialog):  # window shortcuts need the active window
        dialog.show()
        dialog.activateWindow()
    return dialog


def _status(session, link_id):
    """The stored verdict, read on a fresh connection: only committed writes are seen."""
    with session.project.sibling() as project:
        return next(m.status for m in matches.matches(project, "T") if m.id == link_id)


def test_reject_with_r_is_stored_and_announced(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    assert dialog.progress_label.text() == "1 of 1"
    assert "10.1101/preprint" in (dialog.side_a.doi.text() + dialog.side_b.doi.text())
    SCREENS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SCREENS / "matches_dialog.png"))

    with qtbot.waitSignal(session.changed) as changed:
        qtbot.keyClick(dialog, Qt.Key.Key_R)
    assert changed.args == [Changes(verdicts=True), dialog]  # they were two works already
    assert matches.matches(session.project, "T", uncertain=True) == []
    assert _status(session, match.id) == "rejected"
    assert evaluation.recall_report(session.project, "T").lists[0].retrieved_core == 0
    assert "1 rejected" in dialog.message_label.text()


def test_accept_with_a_merges_the_works(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    with qtbot.waitSignal(session.changed) as changed:
        qtbot.keyClick(dialog, Qt.Key.Key_A)
    assert changed.args == [Changes(verdicts=True, works=True), dialog]
    assert _status(session, match.id) == "confirmed"
    assert evaluation.recall_report(session.project, "T").lists[0].retrieved_core == 1


def test_skip_back_and_change_of_verdict(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    dialog = _dialog(qtbot, session)
    qtbot.keyClick(dialog, Qt.Key.Key_Right)  # skip: nothing stored
    assert dialog.current is None and _status(session, match.id) == "uncertain"
    assert "1 left undecided" in dialog.message_label.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Left)
    assert dialog.current == match
    with qtbot.waitSignal(session.changed):
        qtbot.keyClick(dialog, Qt.Key.Key_A)
    qtbot.keyClick(dialog, Qt.Key.Key_Left)
    assert "accepted" in dialog.verdict_label.text()
    with qtbot.waitSignal(session.changed):
        qtbot.keyClick(dialog, Qt.Key.Key_R)  # a changed mind is stored too
    assert _status(session, match.id) == "rejected"


def test_shortcuts_are_removed_when_the_dialog_closes(qtbot, session):
    dialog = _dialog(qtbot, session)
    assert sorted(dialog.shortcuts.live_keys()) == ["A", "Left", "R", "Right", "S"]
    dialog.reject()
    assert dialog.shortcuts.live_keys() == []
    [match] = matches.matches(session.project, "T", uncertain=True)
    qtbot.keyClick(dialog, Qt.Key.Key_R)  # a closed dialog ignores the key
    assert _status(session, match.id) == "uncertain"


def test_empty_state(qtbot, session):
    [match] = matches.matches(session.project, "T", uncertain=True)
    matches.decide(session.project, match.id, accept=False)
    dialog = _dialog(qtbot, session)
    assert dialog.message_label.text() == EMPTY_TEXT
    assert dialog.stack.currentWidget() is dialog.message_label
    dialog.grab().save(str(SCREENS / "matches_dialog_empty.png"))


def test_highlight_marks_only_the_differing_words():
    a, b = highlight_differences("Deep learning for screening", "Deep LEARNING in screening")
    assert a.count("<span") == 1 and "for" in a and "Deep learning" in a
    assert b.count("<span") == 1 and ">in<" in b


def test_screen_keys_refuse_a_second_binding_and_do_not_repeat(qtbot, session):
    dialog = _dialog(qtbot, session)
    with pytest.raises(ValueError, match="already bound"):
        dialog.shortcuts.add("A", dialog.skip)
    live = dialog.findChildren(QShortcut)
    assert len(live) == 5 and not any(s.autoRepeat() for s in live)  # holding A fires once
