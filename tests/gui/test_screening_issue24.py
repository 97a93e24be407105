"""Issue 24, items 3, 4, 8 and 9 on the screening screen: keys wherever focus is except
in a text field being edited, a screen that fits 1200×760, counters that say what they
count, a pending tag that survives a restart, exporting decisions and seeding the model
with known relevant records from the screen."""


from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

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
