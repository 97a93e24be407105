"""Decisions someone else writes (a merge, a pool's judgements, another connection) reach
the open screener: it reads them in once its own queued writes have committed."""

from PySide6.QtCore import Qt

from litqeval_gui.core.screening import store
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
    qtbot.waitUntil(lambda: len(view.labels) == 4, timeout=5000)
    assert view.labels == {items[0]: "include", items[1]: "exclude", items[2]: "exclude",
                           items[3]: "exclude"}
    assert view.shown == items[4]  # the colleague's records are not shown again
