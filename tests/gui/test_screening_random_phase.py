"""The screener's random phase (issue 28 §3): "Switch to Random Sampling" serves the
round's records in the stored seeded order, the ordering choice is off, and the
stopping panel shows the phase, the random-sample test's numbers and the estimate."""

from PySide6.QtWidgets import QMessageBox

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.queue import random_order
from litqeval_gui.core.screening.stopping import phases
from litqeval_gui.gui.screens.screening.random_phase import ADVISED, BUTTON
from litqeval_gui.gui.screens.screening.view import ScreeningView
from tests.support.screening_screen import logged_events, screening_view, settle


def _random_phase_view(qtbot, session, labels, *, ranked=20, drawn=25, seed=5):
    """A screener that decided ``ranked`` records by their labels in list order, switched
    (seed ``seed``) and decided ``drawn`` random ones by their labels."""
    view = screening_view(qtbot, session)
    items = store.items(session.project, view.screening.id)
    label_of = dict(zip(items, labels, strict=True))
    for _ in range(ranked):
        view.decide("include" if label_of[view.shown] else "exclude")
    view.random_phase.start(seed)
    for _ in range(drawn):
        view.decide("include" if label_of[view.shown] else "exclude")
    settle(qtbot, session)
    view.refresh_panel()
    qtbot.waitUntil(lambda: "Random sampling" in view.progress.phase.text())
    return view, items


def test_switching_serves_the_seeded_order_and_the_panel_reads_the_sample(
        qtbot, session, made, monkeypatch):
    path, labels = made
    view = screening_view(qtbot, session)
    items = store.items(session.project, view.screening.id)
    for _ in range(10):
        view.decide("exclude")
    assert view.random_phase.button.isEnabled() and view.ordering.isEnabled()
    assert view.random_phase.action in view.screen_actions()
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.No)
    view.random_phase.ask_and_start()  # declined: nothing changes
    assert not view.core.random_phase
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    view.random_phase.action.trigger()
    settle(qtbot, session)
    seed = phases.current_round(session.project, view.screening.id).random.seed
    expected = [r for r in random_order(items, seed).records if r not in items[:10]]
    assert view.shown == expected[0]
    assert not view.ordering.isEnabled() and not view.random_phase.button.isVisible()
    assert "random sample order" in view.header.text()
    view.decide("include")
    settle(qtbot, session)
    assert [e.ordering for e in logged_events(path)][-1] == f"random sample:{seed}"
    view.refresh_panel()
    qtbot.waitUntil(lambda: "1 drawn after 10 screened" in view.progress.phase.text())
    assert view.progress.estimate.text().startswith("<b>Recall</b>: about ")
    assert "phase = random, random remaining = " in view.progress.rule_labels[0].text()
    view.close()

    again = ScreeningView(session, store.find_screening(session.project, "T", "S"))
    qtbot.addWidget(again)
    assert again.core.random_phase and again.shown == expected[1]  # survives reopening
    again.close()
    with Project.open(path, readonly=True) as project:
        assert phases.current_round(project, view.screening.id).random.seed == seed


def test_the_button_says_when_the_switch_is_advised(qtbot, session, made):
    view = screening_view(qtbot, session)
    assert view.random_phase.button.text() == BUTTON
    from litqeval_gui.core.screening.stopping.panel import default_rules, panel
    view.show_panel(panel([1] * 40 + [0] * 300, 1000, default_rules()))
    assert view.random_phase.button.text() == ADVISED


def test_screenshots_of_the_random_phase_in_both_themes(qtbot, session, made, shot):
    """To look at: the side panel in the random phase with the estimate."""
    from tests.gui.themed import shoot_both

    _path, labels = made
    built = []

    def build():
        if built:  # one screening, switched once: the dark shot shows the same screen
            view = ScreeningView(session, store.find_screening(session.project, "T", "S"))
            qtbot.addWidget(view)
            view.resize(1290, 900)
            view.refresh_panel()
            qtbot.waitUntil(lambda: "Random sampling" in view.progress.phase.text())
            return view
        view, _ = _random_phase_view(qtbot, session, labels)
        view.resize(1290, 900)
        built.append(view)
        return view

    shoot_both(shot, build, "issue28_random_phase")


def test_an_open_screener_takes_in_a_search_update_as_round_two(qtbot, made, tmp_path, shot):
    """Added while the screen is open (the import summary's button), the update's records
    are served next and the panel reads round 2 alone."""
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.records import ingest
    from litqeval_gui.core.records.queries import find_list
    from litqeval_gui.core.screening.stopping.updates import add_update_op
    from litqeval_gui.gui.session import ProjectSession
    from tests.gui.themed import shoot_both
    from tests.support.screening import labelled_records, write_labelled_csv

    path, _labels = made
    records, labels = labelled_records(10, seed=99)
    update = write_labelled_csv(records, labels, tmp_path / "U.csv")
    with Project.open(path) as project:
        run_job(ingest.import_file(project, update, topic="T", role="results", name="U"))
        import_id = find_list(project, "T", "U").id
    session = ProjectSession(Project.open(path))
    views = []

    def build():
        view = screening_view(qtbot, session)
        session.changed.connect(view.project_changed)  # as the main window passes changes on
        view.resize(1290, 900)
        views.append(view)
        if len(views) == 1:
            for _ in range(3):
                view.decide("exclude")
            settle(qtbot, session)
            session.write(add_update_op(view.screening, import_id, "Bo"))
            settle(qtbot, session)
        view.refresh_panel()
        qtbot.waitUntil(lambda: "Round 2" in view.progress.phase.text())
        return view

    shoot_both(shot, build, "issue28_round_two")
    view = views[0]
    round_ = phases.current_round(session.project, view.screening.id)
    assert view.core.round.number == 2 and view.shown == round_.items[0]
    assert "<b>3</b> screened · <b>67</b> remaining" in view.progress.counts.text()
    assert "the rules read its 10 records alone, 0 screened" in view.progress.phase.text()
    for view in views:
        view.close()
    assert session.close()


def test_a_random_phase_does_not_retrain_after_decisions(qtbot, session, made):
    view = screening_view(qtbot, session)
    view.ordering.setCurrentIndex(view.ordering.findData("logistic"))
    qtbot.waitUntil(lambda: not view.prioritiser.running, timeout=60_000)
    view.random_phase.start(3)
    started = []
    view.prioritiser.start = started.append
    view.retrain_every.setValue(2)
    for _ in range(4):
        view.decide("exclude")
    assert started == [] and view.core.queue.ordering.name == "random sample:3"
