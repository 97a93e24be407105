"""Tags on the record on screen (keys and mouse), the history filtered by tag, and a
screening created over a filtered selection from the start dialog."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.selection import selection
from litqeval_gui.gui.screens.screening import deciding
from tests.support.screening_screen import logged_events, screening_view, settle


def test_t_tags_the_record_and_the_tags_travel_with_its_decision(qtbot, session, made,
                                                                monkeypatch):
    answers = iter([("rct", True), ("adults", True), ("rct", True)])
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *args: next(answers)))
    monkeypatch.setattr(deciding, "ask_note", lambda text, parent: ("check dose", True))
    view = screening_view(qtbot, session)
    first = view.shown
    qtbot.keyClick(view, Qt.Key.Key_T)  # undecided: the tag waits for the decision
    assert view.tag_bar.tags() == ["rct"]
    qtbot.keyClick(view, Qt.Key.Key_N)
    qtbot.keyClick(view, Qt.Key.Key_I)
    second = view.shown
    assert view.tag_bar.tags() == []  # the next record has none
    qtbot.keyClick(view, Qt.Key.Key_E)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.shown == first
    qtbot.keyClick(view, Qt.Key.Key_T)  # decided: stored at once, the record stays
    assert view.shown == first and view.tag_bar.tags() == ["rct", "adults"]
    qtbot.keyClick(view, Qt.Key.Key_T, Qt.KeyboardModifier.ShiftModifier)  # asks: rct
    assert view.tag_bar.tags() == ["adults"]
    view.tag_bar.chips[0].click()  # the mouse takes the last one off
    assert view.tag_bar.tags() == []
    qtbot.keyClick(view, Qt.Key.Key_E)  # a new label keeps the note
    settle(qtbot, session)
    log = [(e.record_id, e.label, e.tags, e.note) for e in logged_events(made[0])]
    assert log == [(first, "include", ("rct",), "check dose"), (second, "exclude", (), ""),
                   (first, "include", ("rct", "adults"), "check dose"),
                   (first, "include", ("adults",), "check dose"),
                   (first, "include", (), "check dose"), (first, "exclude", (), "check dose")]
    assert store.tags_used(session.project, view.screening.id) == ["adults", "rct"]


def test_the_history_is_filtered_by_tag(qtbot, session, made, monkeypatch, shot):
    answers = iter([("animal", True), ("rct", True), ("animal", True)])
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *args: next(answers)))
    view = screening_view(qtbot, session)
    tagged = {}
    for key, tag in ((Qt.Key.Key_T, "animal"), (None, None), (Qt.Key.Key_T, "rct"),
                     (Qt.Key.Key_T, "animal")):
        record = view.shown
        if key is not None:
            qtbot.keyClick(view, key)
        tagged[record] = tag
        qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    view.side.setCurrentWidget(view.history)
    choices = [view.history.tag.itemText(i) for i in range(view.history.tag.count())]
    assert choices == ["All tags", "#animal", "#rct"] and view.history.tag.isEnabled()
    view.history.tag.setCurrentIndex(1)
    newest_first = [r for r in reversed(view.core.order) if tagged[r] == "animal"]
    assert view.history.visible_ids() == newest_first and len(newest_first) == 2
    view.history.tag.setCurrentIndex(0)
    view.history.search.setText("#rct")  # the search reads tags too
    assert view.history.visible_ids() == [r for r in view.core.order if tagged[r] == "rct"]
    view.refresh_history()  # rebuilt after the next panel: the chosen tag stays
    view.history.search.clear()
    view.history.tag.setCurrentIndex(2)
    view.refresh_history()
    assert view.history.tag.currentData() == "rct"
    view.go_to(newest_first[0])  # a tagged record on screen, for the screenshot
    assert view.tag_bar.tags() == ["animal"] and view.buttons["untag"].isEnabled()
    assert view.tag_bar.chips[0].isVisible() and not view.tag_bar.empty.isVisible()
    qtbot.wait(50)  # the layout settles as it does on screen
    shot(view, "screening_tags")


def test_the_start_dialog_creates_a_screening_over_a_filtered_selection(
        qtbot, session, made, shown_errors, shot):
    from litqeval_gui.gui.screens.screening.start import NEW, StartDialog

    dialog = StartDialog(session.project, "T")
    qtbot.addWidget(dialog)
    dialog.choice.setCurrentIndex(dialog.choice.findText(NEW))
    assert dialog.count.text() == "<b>60</b> records to screen"
    assert dialog.year_from.text() == "any"
    rows = session.project.db.execute("SELECT id, title, abstract, year FROM records "
                                      "ORDER BY rank").fetchall()
    years = sorted(y for *_, y in rows if y is not None)
    low = years[len(years) // 3]
    expected = [rid for rid, title, abstract, year in rows
                if "laparoscopic" in f"{title} {abstract}".lower() and year and year >= low]
    assert 0 < len(expected) < 60
    dialog.text_filter.setText("LAPAROSCOPIC")
    dialog.year_from.setValue(low)
    qtbot.waitUntil(lambda: dialog.count.text() == f"<b>{len(expected)}</b> records to screen")
    dialog.name.setText("laparoscopic since " + str(low))
    dialog.show()
    shot(dialog, "screening_start_filter")
    dialog.accept()
    made_now = dialog.made
    assert store.items(session.project, made_now.id) == expected
    assert made_now.record_filter == RecordFilter("LAPAROSCOPIC", low, None)
    assert selection(session.project, "T", ["L"], made_now.record_filter) == expected

    again = StartDialog(session.project, "T")
    qtbot.addWidget(again)
    again.show()  # closed when the test ends: its count timer stops with it
    again.choice.setCurrentIndex(again.choice.findText(NEW))
    again.name.setText("nothing")
    again.text_filter.setText("no such words anywhere")
    again.update_count()
    assert again.count.text() == "<b>0</b> records to screen"
    again.accept()
    assert "no record of the chosen lists passes the filter" in shown_errors[-1][1]
