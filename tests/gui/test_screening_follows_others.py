"""Decisions someone else writes (a merge, a pool's judgements, another connection) reach
the open screener: it reads them in once its own queued writes have committed."""

from PySide6.QtCore import Qt

from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.screening_screen import screening_view, settle


def test_a_colleagues_decisions_reach_the_open_screen(qtbot, session):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)  # as the main window passes changes on
    items = store.items(session.project, view.screening.id)
    assert view.shown == items[0]
    qtbot.keyClick(view, Qt.Key.Key_I)  # Ann's own decision, queued
    other = session.project.sibling()  # writes through the session's write path
    try:
        colleague = ScreeningSession(other, view.screening, "Bo")
        for record in items[1:4]:
            colleague.decide("exclude", record_id=record)
    finally:
        other.close()
    settle(qtbot, session)
    qtbot.waitUntil(lambda: "(Bo)" in view.decision_label.text(), timeout=60_000)
    # dual screening: the colleague's records are Ann's to screen too, his label named
    assert view.labels == {items[0]: "include"} and view.shown == items[1]
    assert view.decision_label.text() == "Current decision: <b>exclude</b> (Bo)"


def test_single_screening_is_set_in_the_screener_and_said_there(qtbot, session):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)
    items = store.items(session.project, view.screening.id)
    colleague = ScreeningSession(session.project, view.screening, "Bo")
    colleague.decide("exclude", record_id=items[0])
    view.core.refresh()
    view.show_current()
    box = view.team_limit.single
    assert view.shown == items[0] and not box.isChecked() and box.isEnabled()
    assert not view.single_line.isVisibleTo(view)
    box.click()  # single screening: Bo's record is not Ann's to screen
    qtbot.waitUntil(lambda: view.shown == items[1], timeout=60_000)
    assert view.core.single_screening and box.isChecked()
    assert view.single_line.isVisibleTo(view)
    assert "Single screening" in view.single_line.text()
    box.click()  # dual again
    qtbot.waitUntil(lambda: view.shown == items[0], timeout=60_000)
    assert not view.single_line.isVisibleTo(view)
