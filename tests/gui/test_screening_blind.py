"""A blind screening shows the reviewer only their own decisions: the screen's labels, its
stopping panel and the model's training labels leave a colleague's out; the start form
shows an existing one as stored (Blind ticked)."""

from PySide6.QtCore import Qt

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


def _form(dialog) -> dict:
    """What the start form's controls show."""
    return {"name": dialog.name.text(), "lists": dialog.chosen_lists(),
            "text": dialog.text_filter.text(),
            "years": (dialog.year_from.text(), dialog.year_to.text()),
            "phase": dialog.phase.currentData(), "source": dialog.source.currentText(),
            "with_maybe": dialog.with_maybe.isChecked(), "scheme": dialog.scheme.currentData(),
            "reasons": dialog.reasons.text(), "blind": dialog.blind.isChecked()}


def test_the_start_form_shows_an_existing_screening_greyed_with_its_stored_settings(
        qtbot, session, made, shot):
    """An existing blind screening chosen showed Blind unticked (the new screening's
    form, greyed): every control shows the screening's own settings now, and what was
    typed for a new one comes back with "New screening…"."""
    from litqeval_gui.core.records.queries import RecordFilter
    from litqeval_gui.core.screening.fulltext import create_fulltext_screening
    from litqeval_gui.core.screening.ranking.selection import years
    from litqeval_gui.gui.screens.screening.start import NEW, StartDialog

    project = session.project
    low, high = years(project, "T", ["L"])
    graded = store.create_screening(
        project, "T", "dual graded", ["L"], scheme="graded", blind=True,
        record_filter=RecordFilter("a", low + 1, high - 1), reasons=["no data", "animals"])
    parent = store.find_screening(project, "T", "S")
    items = store.items(project, parent.id)
    decider = ScreeningSession(project, parent, "Ann")
    for record, label in zip(items[:4], ("include", "maybe", "exclude", "include"),
                             strict=True):
        decider.decide(label, record_id=record)
    settle(qtbot, session)
    full = create_fulltext_screening(project, parent, "S full text", with_maybe=True,
                                     reasons=["wrong outcome"], blind=True)
    dialog = StartDialog(project, "T")
    qtbot.addWidget(dialog)
    dialog.show()
    choices = [dialog.choice.itemData(i) for i in range(dialog.choice.count())]
    assert choices == [parent.id, graded.id, full.id, None]
    dialog.choice.setCurrentIndex(3)  # New screening…: type something
    dialog.name.setText("typed")
    dialog.lists.item(0).setCheckState(Qt.CheckState.Unchecked)
    dialog.text_filter.setText("typed text")
    typed = _form(dialog)
    assert typed["lists"] == [] and dialog.new_box.isEnabled()

    dialog.choice.setCurrentIndex(1)
    assert not dialog.new_box.isEnabled() and dialog.new_box.title() == (
        "dual graded — as stored (read-only)")
    assert _form(dialog) == {
        "name": "dual graded", "lists": ["L"], "text": "a",
        "years": (str(low + 1), str(high - 1)), "phase": "title_abstract",
        "source": "The ticked lists", "with_maybe": False, "scheme": "graded",
        "reasons": "no data, animals", "blind": True}
    assert dialog.count.text() == f"<b>{graded.size:,}</b> records in this screening"
    shot(dialog, "screening_start_existing_blind")

    dialog.choice.setCurrentIndex(2)
    assert _form(dialog) == {
        "name": "S full text", "lists": ["L"], "text": "", "years": ("any", "any"),
        "phase": "full_text", "source": "Included in S", "with_maybe": True,
        "scheme": "include_exclude_maybe", "reasons": "wrong outcome", "blind": True}
    assert dialog.text_filter.placeholderText() == "none"  # no example of a filter
    shot(dialog, "screening_start_existing_fulltext")

    dialog.choice.setCurrentIndex(0)
    assert _form(dialog)["blind"] is False and _form(dialog)["reasons"] == "wrong design"
    dialog.choice.setCurrentIndex(3)  # back to the new one: as typed, to fill in
    assert _form(dialog) == typed and dialog.new_box.isEnabled()
    assert dialog.new_box.title() == "New screening" and dialog.choice.currentText() == NEW
    assert dialog.count.text() == "Tick at least one list."
    assert dialog.text_filter.placeholderText() == "e.g. randomised (optional)"
