"""A blind screening shows the reviewer only their own decisions: the screen's labels, its
stopping panel and the model's training labels leave a colleague's out."""

from litqeval_gui.core.jobs import NEVER, run_job
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.gui.screens.screening.ranking import ranking_job
from litqeval_gui.gui.screens.screening.view import ScreeningView
from tests.support.screening_screen import settle


def test_a_blind_screen_neither_shows_nor_counts_nor_learns_a_colleagues_decisions(
        qtbot, session):
    blind = store.create_screening(session.project, "T", "blind", ["L"], blind=True)
    items = store.items(session.project, blind.id)
    other = session.project.sibling()
    try:
        colleague = ScreeningSession(other, blind, "Bo")
        for record in items[:5]:
            colleague.decide("include", record_id=record)
    finally:
        other.close()
    settle(qtbot, session)
    view = ScreeningView(session, blind)  # the settings' reviewer: Ann
    qtbot.addWidget(view)
    assert view.core.reviewer == "Ann" and view.labels == {} and view.shown == items[0]
    with qtbot.waitSignal(view.panel_reader.ready, timeout=60_000) as blocker:
        view.refresh_panel()
    assert (blocker.args[0].screened, blocker.args[0].found) == (0, 0)
    _, ranking = run_job(ranking_job(session, blind, "logistic", None, "",
                                     view.core.reviewer)(NEVER))
    assert ranking is None  # Ann has decided nothing: no labels to learn from
    _, ranking = run_job(ranking_job(session, blind, "logistic", None, "", "Bo")(NEVER))
    assert ranking is not None and ranking.labels == 5  # Bo's own five
    view.close()


def test_the_start_dialog_makes_a_blind_screening_when_asked(qtbot, session, made):
    from litqeval_gui.gui.screens.screening.start import StartDialog

    made_now = []
    for name, blind in (("open round", False), ("dual round", True)):
        dialog = StartDialog(session.project, "T")
        qtbot.addWidget(dialog)
        dialog.choice.setCurrentIndex(dialog.choice.count() - 1)  # New screening…
        assert not dialog.blind.isChecked()  # not blind unless asked
        dialog.name.setText(name)
        dialog.blind.setChecked(blind)
        dialog.accept()
        made_now.append(dialog.made)
    assert [(s.name, s.blind) for s in made_now] == [("open round", False), ("dual round", True)]
    assert store.find_screening(session.project, "T", "dual round").blind  # stored so
