"""The screener's random phase (issue 28 §3): "Switch to Random Sampling" serves the
round's records in the stored seeded order, the ordering choice is off, and the
stopping panel shows the phase, the random-sample test's numbers and the estimate."""

from PySide6.QtWidgets import QMessageBox

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening import phases, store
from litqeval_gui.core.screening.queue import random_order
from litqeval_gui.gui.screens.screening.random_phase import ADVISED, TEXT
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
    assert view.random_phase.button.text() == TEXT
    from litqeval_gui.core.screening.panel import default_rules, panel
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
