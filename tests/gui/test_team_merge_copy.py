"""File ▸ Merge Decisions… with a copy of the project holding several reviewers'
decisions asks whose to take (none ticked), merges only those, and the report says per
reviewer what was added and what was left out."""

import shutil

from PySide6.QtCore import Qt

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui import team_exchange
from tests.support.screening import screening_project
from tests.support.screening_screen import settle


def test_merging_a_copy_of_two_reviewers_asks_whose_decisions(window, qtbot, tmp_path,
                                                               shown_errors):
    ada, _ = screening_project(tmp_path, 8)
    with Project.open(ada) as project:
        screening = store.create_screening(project, "T", "S", ["L"])
        first, second = store.items(project, screening.id)[:2]
        project.write(store.decide_op(screening, first, "exclude", store.Context("Ada")))
    bob = tmp_path / "bob.litq"
    shutil.copy(ada, bob)
    with Project.open(bob) as project:  # Bob's decision, and an 'Ada' include planted
        screening = store.find_screening(project, "T", "S")
        project.write(store.decide_op(screening, second, "include", store.Context("Bob")))
        project.write(store.decide_op(screening, first, "include", store.Context("Ada")))
    window.settings.reviewer = "Ada"
    assert window.open_project(ada)
    handle = team_exchange.merge_into_project(window, bob)
    qtbot.waitUntil(lambda: not handle.running and window.whose_dialog is not None)
    dialog = window.whose_dialog
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
        "Ada — 1 new event(s)", "Bob — 1 new event(s)"]
    assert not dialog.ok.isEnabled() and shown_errors == []
    dialog.list.item(1).setCheckState(Qt.CheckState.Checked)
    assert dialog.ok.isEnabled() and dialog.chosen() == ["Bob"]
    dialog.ok.click()
    qtbot.waitUntil(lambda: window.merge_report is not None, timeout=60_000)
    settle(qtbot, window.session)
    text = window.merge_report.text()
    window.merge_report.accept()
    assert "1 event(s) added, 1 already present" in text
    assert "  Bob: 1 event(s) added\n  not taken: 1 event(s) of Ada (not chosen)" in text
    project = window.session.project
    screening = store.find_screening(project, "T", "S")
    assert team.by_reviewer(project, screening.id)["Ada"][first].label == "exclude"


def test_a_typed_reviewer_name_and_reason_are_plain_text(qtbot):
    from litqeval_gui.gui.reason_picker import ReasonPicker
    from litqeval_gui.gui.reviewer_switch import SwitchReviewerDialog

    switch = SwitchReviewerDialog("", ["\x1b[31mOld"])
    qtbot.addWidget(switch)
    assert switch.used.item(0).text() == "[31mOld"
    switch.name.setText("\x1b\x07\n")
    assert not switch.ok.isEnabled()
    switch.name.setText("Ada\x1b[31m")
    assert switch.ok.isEnabled() and switch.chosen() == "Ada [31m"
    picker = ReasonPicker(["wrong population"])
    qtbot.addWidget(picker)
    picker.filter.setText("wrong\x1b[31mdesign\x00")
    qtbot.keyClick(picker.filter, Qt.Key.Key_Return)
    assert picker.reason == "wrong [31mdesign"
