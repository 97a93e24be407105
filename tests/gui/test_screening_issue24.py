"""Issue 24, items 3, 4, 8 and 9 on the screening screen: keys wherever focus is except
in a text field being edited, a screen that fits 1200×760, counters that say what they
count, a pending tag that survives a restart, exporting decisions and seeding the model
with known relevant records from the screen."""


import csv

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QInputDialog

from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.screens.screening.view import ScreeningView
from tests.support.screening_screen import logged_events, screening_view, settle


def _press(qtbot, key) -> None:
    """A key as the user presses it: to whatever has the focus."""
    qtbot.keyClick(QApplication.focusWidget() or QApplication.activeWindow(), key)


# -- item 3: keys and focus ------------------------------------------------------------------
def test_a_click_on_the_record_leaves_the_terms_field_and_e_excludes(qtbot, session, made):
    view = screening_view(qtbot, session)
    first = view.shown
    qtbot.mouseClick(view.include_edit, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(view.include_edit, "animals")
    assert view.include_edit.hasFocus()
    qtbot.mouseClick(view.record.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(20, 20))
    _press(qtbot, Qt.Key.Key_E)
    assert view.include_edit.text() == "animals"  # not "animalse"
    assert view.labels == {first: "exclude"}
    assert view.record.hasFocus()
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Space):  # the record's own keys do not take them
        _press(qtbot, key)
    assert view.shown == first and view.core.back_at == 0
    settle(qtbot, session)
    assert [e.label for e in logged_events(made[0])] == ["exclude"]


def test_enter_and_escape_return_the_focus_to_the_record(qtbot, session):
    view = screening_view(qtbot, session)
    for edit, leave in ((view.include_edit, Qt.Key.Key_Return),
                        (view.exclude_edit, Qt.Key.Key_Escape),
                        (view.question_edit, Qt.Key.Key_Escape)):
        qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
        assert edit.hasFocus()
        qtbot.keyClicks(edit, "mice")  # typed into the field: no decision
        assert view.labels == {}
        qtbot.keyClick(edit, leave)
        assert view.record.hasFocus(), edit
    first = view.shown
    _press(qtbot, Qt.Key.Key_I)
    assert view.labels == {first: "include"}
    assert view.include_edit.text() == "mice"
    qtbot.mouseClick(view.include_edit, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.buttons["maybe"], Qt.MouseButton.LeftButton)  # a click elsewhere
    assert view.record.hasFocus()
    _press(qtbot, Qt.Key.Key_E)
    assert list(view.labels.values()) == ["include", "maybe", "exclude"]
    assert view.include_edit.text() == "mice"


# -- item 8: counters that say what they count -----------------------------------------------
def test_the_counts_name_each_label(qtbot, session):
    view = screening_view(qtbot, session)
    for key in [Qt.Key.Key_I] * 5 + [Qt.Key.Key_M] + [Qt.Key.Key_E] * 2:
        _press(qtbot, key)
    assert view.progress.counts.text() == (
        "<b>8</b> screened · <b>52</b> remaining · <b>5</b> included · <b>2</b> excluded · "
        "<b>1</b> maybe")  # not "6 included so far"


def test_stepping_back_counts_decisions_not_a_queue_position(qtbot, session):
    from litqeval_gui.core.screening.ranking.queue import random_order

    view = screening_view(qtbot, session)
    for key in (Qt.Key.Key_E, Qt.Key.Key_E, Qt.Key.Key_I):
        _press(qtbot, key)
    view._switch(random_order(store.items(session.project, view.screening.id), 7))
    _press(qtbot, Qt.Key.Key_Left)
    assert view.header.text() == ("<b>Your decision 3 of 3</b> (in the order decided) — a "
                                  "decision key changes it, → goes forward")


def test_a_tag_on_an_undecided_record_survives_a_restart(qtbot, session, made, monkeypatch):
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *args: ("adults", True)))
    view = screening_view(qtbot, session)
    _press(qtbot, Qt.Key.Key_E)
    tagged = view.shown
    _press(qtbot, Qt.Key.Key_T)
    assert view.tag_bar.tags() == ["adults"]
    settle(qtbot, session)
    view.close()
    again = screening_view(qtbot, session)  # the screen opened again on the stored state
    assert again.shown == tagged and again.tag_bar.tags() == ["adults"]
    _press(qtbot, Qt.Key.Key_I)
    assert again.tag_bar.tags() == []  # the next record has none
    settle(qtbot, session)
    assert [(e.label, e.tags) for e in logged_events(made[0])] == [
        ("exclude", ()), ("include", ("adults",))]
    third = screening_view(qtbot, session)  # nothing waits any more
    assert third.shown not in (tagged, None) and third.tag_bar.tags() == []


# -- item 9: export from the screen, seeding with known relevant records ------------------
def test_file_export_on_the_screening_tab_writes_the_decisions(made, window, qtbot, tmp_path,
                                                                monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from litqeval_gui.gui.screens.screening.export_filter import ExportFilterDialog

    assert window.open_project(made[0])
    window.open_screen("screening", store.find_screening(window.session.project, "T", "S"))
    view = window.tabs.currentWidget()
    first = view.shown
    view.decide("include")
    view.decide("exclude", "wrong design")
    settle(qtbot, window.session)
    window.menus.menus["file"].aboutToShow.emit()
    action = window.action("export")
    assert action.isEnabled()  # it was disabled on the screening tab
    target = tmp_path / "decisions.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    monkeypatch.setattr(ExportFilterDialog, "exec", lambda dialog: dialog.accept() or
                        dialog.result())  # which decisions: every one, as offered
    action.trigger()
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 60
    assert [(r["decision"], r["reason"], r["reviewer"]) for r in rows[:3]] == [
        ("include", "", "Ann"), ("exclude", "wrong design", "Ann"), ("undecided", "", "")]
    assert rows[0]["title"] == store.record_title(window.session.project, first)


def test_known_relevant_records_are_found_and_included_before_the_first(qtbot, session, made):
    from litqeval_gui.core.records.queries import record_detail

    view = screening_view(qtbot, session)
    first = view.shown
    items = store.items(session.project, view.screening.id)
    wanted = items[29]  # the 30th record of the list
    title = record_detail(session.project, wanted).record.title
    dialog = view.open_seeding()
    dialog.search.setText(title[:40].upper())  # case-insensitive
    found = [dialog.results.item(i).data(Qt.ItemDataRole.UserRole)
             for i in range(dialog.results.count())]
    assert wanted in found and set(found) <= set(items)
    assert not dialog.include_button.isEnabled()
    dialog.results.item(found.index(wanted)).setSelected(True)
    dialog.include_button.click()
    assert view.labels == {wanted: "include"} and view.shown == first  # the screen stays
    assert "— include" in dialog.results.item(found.index(wanted)).text()
    assert "<b>1</b> included" in view.progress.counts.text()
    dialog.close()
    settle(qtbot, session)
    [event] = logged_events(made[0])
    assert (event.record_id, event.label, event.reviewer) == (wanted, "include", "Ann")
    assert event.note == f"known relevant, found by searching “{title[:40].upper()}”"


# -- item 4: every screen fits 1200×760 ------------------------------------------------------
def _fits(window, qtbot, width: int, height: int) -> None:
    """The window keeps its size, the sidebar keeps a readable width and the screen has
    room for every widget it needs (its minimum size fits the tab)."""
    window.resize(width, height)
    window.show()
    qtbot.waitUntil(lambda: window.isVisible())
    QApplication.processEvents()
    screen = window.tabs.currentWidget()
    assert (window.width(), window.height()) == (width, height)
    assert window.sidebar.width() >= 150
    assert screen.minimumSizeHint().width() <= window.tabs.width()
    assert screen.minimumSizeHint().height() <= window.tabs.height()


def test_the_screener_fits_1200_by_760(made, window, qtbot, shot):
    assert window.open_project(made[0])
    view = window.open_screen("screening", store.find_screening(window.session.project,
                                                                "T", "S"))
    _fits(window, qtbot, 1200, 760)
    rules = view.progress.rules_box
    view.refresh_panel()
    qtbot.waitUntil(lambda: len(view.progress.rule_labels) >= 4)
    qtbot.wait(100)  # laid out again
    # the stopping rules' texts are never cut: each label is as high as its text needs
    assert rules.isVisible()
    for label in view.progress.rule_labels:
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    shot(window, "issue24_screener_1200x760")


def test_screenshots_of_the_screener_in_both_themes_and_sizes(qtbot, session, shot):
    """To look at (issue 24): the screen as big as its tab at 1200×760 and 1600×1000."""
    from tests.gui.themed import shoot_both

    def make(width: int, height: int):
        def build():
            view = ScreeningView(session, store.find_screening(session.project, "T", "S"))
            qtbot.addWidget(view)
            view.resize(width, height)
            for label in ("include", "exclude", "maybe"):
                view.decide(label)
            settle(qtbot, session)
            view.refresh_panel()  # the stopping rules' texts, read in the background
            qtbot.waitUntil(lambda: len(view.progress.rule_labels) >= 4)
            return view
        return build

    for (width, height), name in (((890, 660), "1200x760"), ((1290, 900), "1600x1000")):
        shoot_both(shot, make(width, height), f"issue24_screener_{name}")

    def seeding():
        view = make(890, 660)()
        dialog = view.open_seeding()
        dialog.search.setText("a")
        dialog.results.item(1).setSelected(True)
        return dialog

    shoot_both(shot, seeding, "issue24_known_relevant")


def test_at_800_by_500_the_screener_keeps_its_keys_and_record(made, window, qtbot, shot):
    """Degrading sensibly: at 800×500 the window keeps its size; the record and the
    decision buttons are still shown (the progress side may scroll)."""
    assert window.open_project(made[0])
    view = window.open_screen("screening", store.find_screening(window.session.project,
                                                                "T", "S"))
    window.resize(800, 500)
    window.show()
    QApplication.processEvents()
    shot(window, "issue24_screener_800x500")
    assert window.width() <= 820
    assert view.record.height() >= 60 and view.buttons["include"].isVisible()


def test_the_small_recall_plot_says_the_knee_below_it_not_over_the_curve(qtbot, session):
    view = screening_view(qtbot, session)
    for key in (Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_I):
        _press(qtbot, key)
    settle(qtbot, session)
    view.refresh_panel()
    qtbot.waitUntil(lambda: view.progress.curve_note.text() != "")
    assert not view.progress.curve.legend.isVisible()
    assert view.progress.curve_note.text().startswith("◇ no knee yet")
