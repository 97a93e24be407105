"""The screening screen driven by key presses: decisions, undo, note (in a box that wraps),
reason (in the full text's quick picker), highlighting, a held key, the queue switching
after a retrain, and decisions read back from the file."""


from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QTextOption
from PySide6.QtWidgets import QApplication, QDialog, QInputDialog, QPlainTextEdit

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import record_detail
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.retrain import stored_ranking
from litqeval_gui.gui.reason_picker import MIN_WIDTH, ReasonPicker
from litqeval_gui.gui.screens import screening as screening_screens
from litqeval_gui.gui.screens.screening import deciding
from litqeval_gui.gui.screens.screening.note import NoteDialog
from litqeval_gui.gui.screens.screening.record import EXCLUDE_COLOUR, INCLUDE_COLOUR
from litqeval_gui.gui.screens.screening.view import ScreeningView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.support.screening_screen import curve_points, logged_events, screening_view, settle


def test_i_includes_and_the_next_record_shows_at_once(qtbot, session, made):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)  # as the main window does
    first = view.shown
    qtbot.keyClick(view, Qt.Key.Key_I)
    assert view.shown != first and view.shown is not None  # without waiting for the write
    qtbot.keyClick(view, Qt.Key.Key_E)
    settle(qtbot, session)
    # the panel follows once the decisions have committed: the curve (0, 1, 1)
    qtbot.waitUntil(lambda: curve_points(view)[1] == [0, 1, 1])
    decided = [(e.kind, e.record_id, e.label, e.reviewer, e.ordering, e.position)
               for e in logged_events(made[0])]
    items = store.items(session.project, view.screening.id)
    assert decided == [("decide", items[0], "include", "Ann", "list", 1),
                       ("decide", items[1], "exclude", "Ann", "list", 2)]
    assert "2</b> screened" in view.progress.counts.text()
    assert "1</b> included" in view.progress.counts.text()


def test_z_undoes_the_last_decision_and_shows_its_record_again(qtbot, session, made):
    view = screening_view(qtbot, session)
    assert not view.buttons["redo"].isEnabled()  # nothing undone: nothing to redo
    first = view.shown
    qtbot.keyClick(view, Qt.Key.Key_M)
    qtbot.keyClick(view, Qt.Key.Key_Z)
    qtbot.waitUntil(lambda: view.shown == first)
    settle(qtbot, session)
    qtbot.waitUntil(view.buttons["redo"].isEnabled)
    log = logged_events(made[0])
    assert [(e.kind, e.record_id) for e in log] == [("decide", first), ("undo", first)]
    assert log[1].target == log[0].id
    assert view.labels == {} and "0</b> screened" in view.progress.counts.text()


def _in_dialog(qtbot, kind, act, seen: list | None = None) -> None:
    """``act(dialog)`` on the modal dialog once it is open (it runs its own loop); it
    must be a ``kind`` (else it is closed and the test fails); kept in ``seen``."""
    def run():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            if dialog is not None:
                dialog.close()
            raise AssertionError(f"{dialog!r} is no {kind.__name__}")
        if seen is not None:
            seen.append((dialog.windowTitle(), dialog.width()))
        act(dialog)
        if dialog.isVisible():  # never left open: the test would wait for ever
            dialog.reject()
            raise AssertionError(f"{kind.__name__} still open")
    QTimer.singleShot(0, run)


def _back_to(qtbot, view) -> None:
    """The screen's window active again once the dialog is gone (the offscreen platform
    leaves none active after a dialog closes), its record focused."""
    qtbot.waitUntil(lambda: not isinstance(QApplication.activeWindow(), QDialog))  # deleted
    with qtbot.waitActive(view):
        view.activateWindow()
    view.record.setFocus()


def test_n_attaches_a_note_to_the_decision(qtbot, session, made, shot):
    view = screening_view(qtbot, session)
    modes = []

    def write(dialog):
        modes.append((dialog.edit.lineWrapMode(), dialog.edit.wordWrapMode()))
        qtbot.keyClicks(dialog.edit, "check the full text")
        shot(dialog, "screening_note")
        qtbot.keyClick(dialog.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    _in_dialog(qtbot, NoteDialog, write)
    qtbot.keyClick(view, Qt.Key.Key_N)
    assert modes == [(QPlainTextEdit.LineWrapMode.WidgetWidth, QTextOption.WrapMode.WordWrap)]
    assert "check the full text" in view.decision_label.text()
    _back_to(qtbot, view)
    qtbot.keyClick(view, Qt.Key.Key_I)
    settle(qtbot, session)
    [event] = logged_events(made[0])
    assert (event.label, event.note) == ("include", "check the full text")


def test_the_note_box_wraps_a_long_note_at_word_boundaries(qtbot, shot):
    words = ("Population: adults with type 2 diabetes, but the methods give the dose only "
             "as a range; check the full text before including, and ask the second "
             "reviewer about the comparator arm.")
    dialog = NoteDialog(words)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    edit = dialog.edit
    assert edit.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert edit.wordWrapMode() == QTextOption.WrapMode.WordWrap
    assert edit.horizontalScrollBar().maximum() == 0  # nothing beyond the right edge
    assert not edit.horizontalScrollBar().isVisible()
    layout = edit.document().firstBlock().layout()
    assert layout.lineCount() > 1  # one paragraph, wrapped on several lines
    for i in range(layout.lineCount() - 1):  # each line ends after a whole word
        line = layout.lineAt(i)
        assert words[line.textStart() + line.textLength() - 1] == " "
    shot(dialog, "screening_note_wrapped")
    qtbot.keyClick(edit, Qt.Key.Key_Escape)
    assert dialog.result() == dialog.DialogCode.Rejected


def test_an_emptied_note_on_a_decided_record_is_removed(qtbot, session, made, monkeypatch):
    answers = iter([("check the full text", True), ("", True)])
    monkeypatch.setattr(deciding, "ask_note", lambda text, parent: next(answers))
    view = screening_view(qtbot, session)
    first = view.shown
    qtbot.keyClick(view, Qt.Key.Key_N)
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.keyClick(view, Qt.Key.Key_Left)  # back to the decided record
    assert view.shown == first and "check the full text" in view.decision_label.text()
    qtbot.keyClick(view, Qt.Key.Key_N)  # its note emptied
    settle(qtbot, session)
    assert [(e.label, e.note) for e in logged_events(made[0])] == [
        ("include", "check the full text"), ("include", "")]
    [current] = store.current_decisions(session.project, view.screening.id)
    assert current.note == "" and view.core.notes[first] == ""


def test_r_excludes_with_a_reason_and_a_new_reason_is_kept(qtbot, session, made, shot):
    """R opens the full text's quick picker (a readable title, the keys it says): 1 picks
    the first reason, a typed one joins the list, Escape cancels."""
    view = screening_view(qtbot, session)
    seen = []

    def one(picker):
        shot(picker, "screening_reason_picker")
        qtbot.keyClick(picker.filter, Qt.Key.Key_1)

    def typed(picker):
        qtbot.keyClicks(picker.filter, "not English")
        qtbot.keyClick(picker.filter, Qt.Key.Key_Return)

    for act in (one, typed, lambda picker: qtbot.keyClick(picker.filter, Qt.Key.Key_Escape)):
        _in_dialog(qtbot, ReasonPicker, act, seen)
        qtbot.keyClick(view, Qt.Key.Key_R)
        _back_to(qtbot, view)
    assert seen == [("Exclusion reason", seen[0][1])] * 3 and seen[0][1] >= MIN_WIDTH
    settle(qtbot, session)
    assert [(e.label, e.reason) for e in logged_events(made[0])] == [
        ("exclude", "wrong design"), ("exclude", "not English")]
    assert store.find_screening(session.project, "T", "S").reasons == ("wrong design",
                                                                       "not English")


def _coloured(document) -> list[tuple[str, str, int]]:
    """(text, background colour, block number) of every highlighted fragment."""
    found = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            background = fragment.charFormat().background()
            if background.style() != Qt.BrushStyle.NoBrush:
                found.append((fragment.text(), background.color().name(), block.blockNumber()))
            it += 1
        block = block.next()
    return found


def test_include_and_exclude_terms_are_highlighted_in_two_colours(qtbot, session, made):
    view = screening_view(qtbot, session)
    title = view.title_of(view.shown)
    word = next(w for w in title.split() if len(w) > 4 and w.isalpha())
    view.include_edit.setText(word[:4].lower() + "*")
    view.exclude_edit.setText("the")
    view.save_terms()
    spans = _coloured(view.record.document())
    assert (word, INCLUDE_COLOUR, 0) in spans  # a prefix term, case-insensitive, in the title
    assert any(text.lower() == "the" and colour == EXCLUDE_COLOUR for text, colour, _ in spans)
    settle(qtbot, session)
    assert parameters.get(session.project, parameters.HIGHLIGHT_INCLUDE) == [word[:4].lower() + "*"]
    assert parameters.get(session.project, parameters.HIGHLIGHT_EXCLUDE) == ["the"]


def test_a_held_key_decides_once(qtbot, session, made):
    view = screening_view(qtbot, session)
    target = QApplication.focusWidget() or view
    for repeat in (False, True, True, True, True):
        QApplication.sendEvent(target, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_E,
                                                 Qt.KeyboardModifier.NoModifier, "e", repeat))
    QApplication.sendEvent(target, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_E,
                                             Qt.KeyboardModifier.NoModifier, "e"))
    settle(qtbot, session)
    assert [e.label for e in logged_events(made[0])] == ["exclude"]


def test_the_queue_switches_to_the_new_ranking_after_a_retrain(qtbot, session, made):
    view = screening_view(qtbot, session)
    view.retrain_every.setValue(4)
    labels = made[1]
    items = store.items(session.project, view.screening.id)
    truth = dict(zip(items, labels, strict=True))
    view.ordering.setCurrentIndex(view.ordering.findData("logistic"))  # starts a job
    qtbot.waitUntil(lambda: not view.prioritiser.running, timeout=60_000)
    for _ in range(4):  # label the truth until a classifier can rank
        qtbot.keyClick(view, Qt.Key.Key_I if truth[view.shown] else Qt.Key.Key_E)
    if not view.prioritiser.running:  # no positive yet: decide more until one is found
        while not any(truth[r] for r in view.labels):
            qtbot.keyClick(view, Qt.Key.Key_I if truth[view.shown] else Qt.Key.Key_E)
        view.start_ranking()
    qtbot.waitUntil(lambda: not view.prioritiser.running, timeout=60_000)
    ranking = stored_ranking(session.project, view.screening.id)
    assert ranking is not None and view.core.queue.ordering.records == ranking.records
    assert "ranked by" in view.progress.ordering.text()
    pinned = view.shown  # the record on screen stays until decided …
    qtbot.keyClick(view, Qt.Key.Key_E)
    expected = next(r for r in ranking.records if r not in view.labels)
    assert view.shown == expected  # … then the queue follows the new ranking
    settle(qtbot, session)
    assert logged_events(made[0])[-1].record_id == pinned


def test_history_steps_back_and_a_key_changes_a_past_decision(qtbot, session, made):
    view = screening_view(qtbot, session)
    first = view.shown
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.shown == first and "Your decision 1 of 2" in view.header.text()
    qtbot.keyClick(view, Qt.Key.Key_E)  # change it; the view moves forward
    settle(qtbot, session)
    assert view.labels[first] == "exclude"
    view.side.setCurrentWidget(view.history)  # the list is filled when its tab shows
    view.history.search.setText("[exclude]")
    assert view.history.visible_ids() == [first]
    view.history.list.itemClicked.emit(view.history.list.item(1))  # the older, picked
    assert view.shown == first
    dialog = view.show_audit()
    assert [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())] == [
        "include", "exclude"]


def test_decisions_survive_reopening_the_project(qtbot, made, tmp_path):
    session = ProjectSession(Project.open(made[0]))
    view = screening_view(qtbot, session)
    for key in (Qt.Key.Key_I, Qt.Key.Key_E, Qt.Key.Key_M, Qt.Key.Key_Z):
        qtbot.keyClick(view, key)
    qtbot.waitUntil(lambda: len(view.labels) == 2)  # the undo has answered
    shown = {r: lab for r, lab in view.labels.items()}
    view.close()
    assert session.close()
    with Project.open(made[0]) as project:
        screening = store.find_screening(project, "T", "S")
        current = {e.record_id: e.label for e in store.current_decisions(project, screening.id)}
        kinds = [e.kind for e in store.events(project, screening.id)]
    assert kinds == ["decide", "decide", "decide", "undo"]
    assert current == shown and sorted(current.values()) == ["exclude", "include"]


def test_screenshot(qtbot, session, made, shot):
    view = screening_view(qtbot, session)
    for key in [Qt.Key.Key_E] * 6 + [Qt.Key.Key_I] + [Qt.Key.Key_E] * 5:
        qtbot.keyClick(view, key)
    detail = record_detail(session.project, view.shown).record
    title_words = [w for w in detail.title.split() if len(w) > 5 and w.isalpha()]
    abstract_words = [w for w in detail.abstract.split() if len(w) > 6 and w.isalpha()]
    view.include_edit.setText(f"{title_words[0][:5]}*, {abstract_words[0]}")
    view.exclude_edit.setText(f"{title_words[-1]}, {abstract_words[-1]}")
    view.save_terms()
    settle(qtbot, session)
    view.refresh_panel()  # read in the background: shown once the reading arrives
    qtbot.waitUntil(lambda: len(curve_points(view)[0]) == 13)
    shot(view, "screening_screen")
    view.side.setCurrentIndex(1)
    shot(view, "screening_history")
    for key in (Qt.Key.Key_Left, Qt.Key.Key_I, Qt.Key.Key_Left):  # change the last decision
        qtbot.keyClick(view, key)
    settle(qtbot, session)
    dialog = view.show_audit()
    shot(dialog, "screening_audit")


def test_the_topic_menu_creates_a_screening_and_opens_it_in_a_tab(window, project_path,
                                                                   monkeypatch, qtbot):
    from PySide6.QtWidgets import QDialog

    from litqeval_gui.gui.screens.screening.start import StartDialog

    def fill_in(dialog):
        dialog.name.setText("round 1")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(StartDialog, "exec", fill_in)
    window.settings.reviewer = "Ann"
    window.open_project(project_path)
    window.sidebar.setCurrentIndex(window.sidebar.model().index(0, 0))
    assert window.action("screen.screening").isEnabled()
    view = window.open_topic_screen("screening")
    assert isinstance(view, ScreeningView) and window.tabs.currentWidget() is view
    assert view.title == "Screening: round 1" and view.screening.size == 4  # scopus: 5 records, 4 works
    assert window.open_topic_screen("screening") is view  # chosen again: the same tab


def test_a_graded_screening_decides_with_the_digit_keys(qtbot, made):
    with Project.open(made[0]) as project:
        store.create_screening(project, "T", "G", ["L"], scheme="graded")
    session = ProjectSession(Project.open(made[0]))
    view = ScreeningView(session, store.find_screening(session.project, "T", "G"))
    qtbot.addWidget(view)
    with qtbot.waitActive(view):
        view.show()
        view.activateWindow()
    assert view.buttons["3"].text() == "Grade 3 (3)" and "I include" not in view.key_map.text()
    for key in (Qt.Key.Key_3, Qt.Key.Key_0, Qt.Key.Key_I):  # I is no key of a graded screening
        qtbot.keyClick(view, key)
    settle(qtbot, session)
    screening_id = view.screening.id
    view.close()
    assert session.close()
    with Project.open(made[0]) as project:
        assert [e.label for e in store.events(project, screening_id)] == ["3", "0"]


def test_space_and_page_down_scroll_the_record(qtbot, session):
    view = screening_view(qtbot, session)
    view.record.setMaximumHeight(90)  # the abstract does not fit
    qtbot.waitUntil(lambda: view.record.verticalScrollBar().maximum() > 0)
    bar = view.record.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    qtbot.keyClick(view, Qt.Key.Key_Space)
    after_space = bar.value()
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    assert 0 < after_space and (bar.value() > after_space or bar.value() == bar.maximum())
    assert view.labels == {}  # scrolling decides nothing


def test_a_decision_that_fails_to_save_is_taken_back_on_screen(qtbot, session, made,
                                                               monkeypatch, shown_errors):
    from litqeval_gui.core.errors import LitqError

    view = screening_view(qtbot, session)
    first = view.shown

    def refuse(*args, **kwargs):
        raise LitqError("disk full")

    monkeypatch.setattr(store, "_insert", refuse)  # the op fails as it runs
    qtbot.keyClick(view, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: shown_errors != [])
    assert shown_errors[0][0] == "The decision was not saved" and "disk full" in shown_errors[0][1]
    assert view.labels == {} and view.shown == first  # the record is back, undecided
    assert logged_events(made[0]) == []


def test_the_reviewer_is_asked_once_and_kept(qtbot, monkeypatch):
    from litqeval_gui.gui.screens.screening.start import ask_reviewer

    answers = iter([("  Bo Lee ", True)])
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *args: next(answers)))
    assert ask_reviewer(Settings(), None) == "Bo Lee"
    assert ask_reviewer(Settings(), None) == "Bo Lee"  # read back, not asked again


def test_start_dialog_offers_existing_screenings_and_checks_a_new_one(qtbot, session, made,
                                                                      shown_errors, shot):
    from litqeval_gui.gui.screens.screening.start import NEW, StartDialog

    dialog = StartDialog(session.project, "T")
    qtbot.addWidget(dialog)
    assert [dialog.choice.itemText(i) for i in range(dialog.choice.count())] == [
        "S (60 records)", NEW]
    dialog.choice.setCurrentIndex(1)
    assert dialog.new_box.isEnabled() and dialog.chosen_lists() == ["L"]
    dialog.name.setText("S")  # taken
    dialog.accept()
    assert dialog.result() != dialog.DialogCode.Accepted and "already has" in shown_errors[0][1]
    dialog.name.setText("full text")
    dialog.phase.setCurrentIndex(1)
    dialog.scheme.setCurrentIndex(1)
    dialog.reasons.setText("no data, wrong design")
    dialog.show()
    shot(dialog, "screening_start")
    dialog.accept()
    made_now = dialog.made
    assert (made_now.name, made_now.phase, made_now.scheme, made_now.reasons) == (
        "full text", "full_text", "graded", ("no data", "wrong design"))


def test_a_cold_start_from_the_review_question_ranks_matching_records_first(qtbot, session,
                                                                            made):
    view = screening_view(qtbot, session)
    truth = dict(zip(store.items(session.project, view.screening.id), made[1], strict=True))
    view.question_edit.setText("robotic laparoscopic surgery with haptic console")
    view.question_changed()
    view.ordering.setCurrentIndex(view.ordering.findData("logistic"))
    qtbot.waitUntil(lambda: not view.prioritiser.running, timeout=60_000)
    ranking = stored_ranking(session.project, view.screening.id)
    assert ranking.model == "cosine to the question"
    assert "ranked by cosine to the question" in view.progress.ordering.text()
    assert all(truth[r] for r in ranking.records[:5])  # the theme's records come first
    qtbot.keyClick(view, Qt.Key.Key_I)  # the record on screen, then the ranking's first
    assert view.shown == next(r for r in ranking.records if r not in view.labels)
    settle(qtbot, session)
    assert parameters.get(session.project, parameters.SCREENING_QUESTION).startswith("robotic")


def test_a_ranking_asked_for_while_one_runs_runs_once_afterwards(qtbot, session):
    from litqeval_gui.gui.screens.screening.ranking import Prioritiser

    screening = store.find_screening(session.project, "T", "S")
    prioritiser = Prioritiser(session, screening, "robotic surgery")
    rankings = []
    prioritiser.ranked.connect(rankings.append)
    for _ in range(3):  # one runs; the two asks meanwhile make one more run
        prioritiser.start("logistic")
    qtbot.waitUntil(lambda: len(rankings) == 2 and not prioritiser.running, timeout=60_000)
    qtbot.wait(50)
    assert len(rankings) == 2 and prioritiser.features is not None


def test_the_header_counts_once_and_names_the_order(qtbot, session):
    """In list order the queue position equals the record counter: said once."""
    view = screening_view(qtbot, session)
    assert view.header.text() == "<b>Record 1 of 60</b> · list order"
    view.decide("exclude")
    assert view.header.text() == "<b>Record 2 of 60</b> · list order"
    assert "position" not in view.header.text()


def test_simulate_is_in_the_topic_menu_once_for_the_screening_shown_or_chosen(
        window, qtbot, made, monkeypatch):
    opened = []
    monkeypatch.setattr(ScreeningView, "open_simulation", lambda self: opened.append(self))
    assert window.open_project(made[0])
    window.open_screen("screening", store.find_screening(window.session.project, "T", "S"))
    window.menus.menus["topic"].aboutToShow.emit()
    texts = [a.text().replace("&", "") for a in window.menus.menus["topic"].actions()]
    assert "Screening: S" in texts and texts.count("Simulate Screening…") == 1
    window.action("simulate").trigger()
    assert opened == [window.tabs.currentWidget()]  # the screening shown: no question
    window.close_tab(window.tabs.currentIndex())
    assert window.tabs.count() == 0
    monkeypatch.setattr(screening_screens, "choose_screening",
                        lambda project, topic, settings, parent:
                        store.find_screening(project, topic, "S"))
    window.action("simulate").trigger()  # none shown: chosen for the topic, then opened
    assert len(opened) == 2 and opened[1] is window.tabs.currentWidget()
    assert opened[1].screening.name == "S"


def test_the_record_groups_its_metadata_in_one_table():
    from litqeval_gui.core.records.model import Record
    from litqeval_gui.gui.screens.screening.record import record_html

    record = Record(title="Robots", abstract="A robotic arm.", authors=["Ada", "Bo"], year=2019,
                    venue="J. Rob.", volume="12", issue="3", pages="45-67", doi="10.1/x",
                    pmid="99", keywords=["robotics", "arms"])
    page = record_html(record, ["robot*"], [], [("broad (Scopus)", 13), ("narrow", 4)])
    rows = page[page.index("<table"):page.index("</table>")]
    for text in ("Authors", "Ada; Bo", "2019 · J. Rob. 12(3):45-67", "doi:10.1/x", "PMID 99",
                 "broad (Scopus) (#13), narrow (#4)"):
        assert text in rows, text
    assert f"background-color:{INCLUDE_COLOUR}" in rows  # keywords highlighted too
    assert page.index("</table>") < page.index("A ")  # the abstract after the metadata
