"""The screen's own ranking job is taken in from its result: storing the ranking is the
screen's own write, so the screen does not read every decision again on the GUI thread
(at 100 000 records that stalled the window for ~180 ms), and the queue reuses the
ordering's index the job built."""

from PySide6.QtCore import Qt

from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.retrain import stored_ranking
from tests.support.screening_screen import screening_view, settle


def test_the_screens_ranking_switches_the_queue_without_reading_the_decisions_again(
        qtbot, session, made):
    view = screening_view(qtbot, session)
    seen = []
    session.changed.connect(view.project_changed)  # as the main window does
    session.changed.connect(lambda changes, initiator: seen.append((changes, initiator)))
    truth = dict(zip(store.items(session.project, view.screening.id), made[1], strict=True))
    while len(set(truth[r] for r in view.labels)) < 2:  # both classes: a classifier ranks
        qtbot.keyClick(view, Qt.Key.Key_I if truth[view.shown] else Qt.Key.Key_E)
    settle(qtbot, session)
    reads = []
    refresh = view.core.refresh
    view.core.refresh = lambda: (reads.append(1), refresh())[1]
    seen.clear()

    view.ordering.setCurrentIndex(view.ordering.findData("logistic"))  # starts the job
    qtbot.waitUntil(lambda: not view.prioritiser.running, timeout=60_000)
    settle(qtbot, session)

    stored = stored_ranking(session.project, view.screening.id)
    assert stored is not None and view.ranking.records == stored.records
    assert [initiator for changes, initiator in seen if changes.decisions] == [view]
    assert reads == []  # nothing read again: the ranking came with the job's result
    ordering = view.core.queue.ordering
    assert ordering is view.ranking.ordering() and ordering.records == stored.records
