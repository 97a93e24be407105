"""File ▸ Switch Reviewer…: the status bar says who is screening, the open screener
screens under the new name (its decisions carry it; a blind screening shows the new
reviewer's own decisions), the conflicts screen unblinds as them; the dialog offers the
project's reviewers and refuses an empty name; $LITQEVAL_REVIEWER starts the app's
reviewer without changing the saved one."""

from PySide6.QtWidgets import QDialog, QMessageBox

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.gui.reviewer_switch import SwitchReviewerDialog
from litqeval_gui.gui.settings import Settings
from tests.support.screening_screen import settle


def _switch_to(monkeypatch, name, offered=None):
    """The switch dialog, when it runs, records the names it offers and takes ``name``."""
    def choose(dialog):
        if offered is not None:
            offered.extend(dialog.used.item(i).text() for i in range(dialog.used.count()))
        dialog.name.setText(name)
        dialog.accept()
        return dialog.result()
    monkeypatch.setattr(SwitchReviewerDialog, "exec", choose)


def _blind_screening_bo_began(path):
    """Blind screening B of list L, whose first three records Bo excluded; its items."""
    with Project.open(path) as project:
        blind = store.create_screening(project, "T", "B", ["L"], blind=True)
        bo = ScreeningSession(project, blind, "Bo")
        items = store.items(project, blind.id)
        for record in items[:3]:
            bo.decide("exclude", record_id=record)
    return blind, items


def test_a_switch_names_the_status_bar_and_the_screeners_decisions(
        window, made, qtbot, monkeypatch):
    blind, items = _blind_screening_bo_began(made[0])
    window.settings.reviewer = "Ann"  # the window read its settings before ``made``
    assert window.reviewer_label.text() == "Reviewer: Ann"
    assert window.open_project(made[0])
    view = window.open_screen("screening", blind)
    assert view.core.reviewer == "Ann" and view.labels == {} and view.shown == items[0]
    view.decide("include")
    settle(qtbot, window.session)
    view.decide("include")  # still queued when the switch comes
    offered = []
    _switch_to(monkeypatch, " Bo ", offered)
    window.action("switch-reviewer").trigger()
    assert offered == ["Ann", "Bo"]
    assert window.reviewer_label.text() == "Reviewer: Bo"
    assert window.reviewer_label.isVisibleTo(window)
    assert Settings().reviewer == "Bo"  # kept for the next start
    assert view.core.reviewer == "Bo"
    qtbot.waitUntil(lambda: view.labels == dict.fromkeys(items[:3], "exclude"))  # Bo's own
    assert view.shown == items[3]
    view.decide("include")
    settle(qtbot, window.session)
    with Project.open(made[0], readonly=True) as project:  # what was committed
        logged = store.events(project, blind.id)
    assert [(e.reviewer, e.record_id, e.label) for e in logged] == [
        *(("Bo", r, "exclude") for r in items[:3]),
        ("Ann", items[0], "include"), ("Ann", items[1], "include"),
        ("Bo", items[3], "include")]


def test_the_conflicts_screen_unblinds_as_the_reviewer_switched_to(
        window, made, qtbot, monkeypatch):
    blind, _ = _blind_screening_bo_began(made[0])
    monkeypatch.setenv("LITQEVAL_REVIEWER", "Ann")  # what fresh settings would say
    window.settings.reviewer = "Ann"
    assert window.open_project(made[0])
    view = window.open_screen("conflicts", blind)
    _switch_to(monkeypatch, "Cy")
    window.action("switch-reviewer").trigger()
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *args: QMessageBox.StandardButton.Yes))
    view.unblind()
    settle(qtbot, window.session)
    assert window.session.project.db.execute(
        "SELECT reviewer FROM screening_unblinds WHERE screening_id = ?",
        [blind.id]).fetchall() == [("Cy",)]


def test_the_dialog_offers_the_names_and_refuses_an_empty_one(qtbot):
    dialog = SwitchReviewerDialog("Ann", ["Ann", "Bo"])
    qtbot.addWidget(dialog)
    dialog.used.setCurrentRow(1)  # a click on a name takes it
    assert dialog.chosen() == "Bo" and dialog.ok.isEnabled()
    dialog.name.setText("   ")
    assert not dialog.ok.isEnabled()
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted
    empty = SwitchReviewerDialog("", [])
    qtbot.addWidget(empty)
    assert not empty.ok.isEnabled() and empty.used.isHidden()


def test_the_environment_names_the_starting_reviewer_and_a_switch_overrides_it(
        monkeypatch):
    saved = Settings()
    saved.reviewer = "Ann"
    saved.save()
    monkeypatch.setenv("LITQEVAL_REVIEWER", " Bo ")
    started = Settings()
    assert started.reviewer == "Bo"
    started.save()
    monkeypatch.delenv("LITQEVAL_REVIEWER")
    assert Settings().reviewer == "Ann"  # the saved name is left as it was
    monkeypatch.setenv("LITQEVAL_REVIEWER", "Bo")
    switched = Settings()
    switched.reviewer = "Cy"
    assert switched.reviewer == "Cy"
