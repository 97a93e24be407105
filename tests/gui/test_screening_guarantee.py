""""Ask for a guarantee" on the Progress panel: stored with the project, the panel then
recommends the certified rule, and a finish records that rule."""

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.screening.stopping.finishing import finish_round_op
from litqeval_gui.core.screening.stopping.panel import GUARANTEED, RECOMMENDED
from tests.support.screening_screen import screening_view, settle


def test_asking_for_a_guarantee_recommends_the_certified_rule(qtbot, session, made, shot):
    view = screening_view(qtbot, session)
    session.changed.connect(view.project_changed)
    view.refresh_panel()
    qtbot.waitUntil(lambda: view.progress.headline.text().startswith(
        "<b>Recommended: Hypergeometric test</b> (heuristic)"), timeout=60_000)
    assert RECOMMENDED == "hypergeometric" and not view.progress.guarantee.isChecked()
    view.progress.guarantee.click()
    qtbot.waitUntil(lambda: view.progress.headline.text().startswith(
        "<b>Recommended: Random-sample stop</b> (certified)"), timeout=60_000)
    settle(qtbot, session)
    assert parameters.get(session.project, parameters.STOP_GUARANTEE) is True
    assert view.progress.guarantee.isChecked()
    assert "why: a guarantee needs a random sample" in view.progress.headline.text()
    shot(view.progress, "stopping_panel_guarantee")
    finish = session.writes.submit(finish_round_op(view.screening, "Ann")).result().value
    assert finish.rule == "Random-sample stop (certified)" and GUARANTEED == "random_sample"
    view.progress.guarantee.click()  # and back
    qtbot.waitUntil(lambda: parameters.get(session.project, parameters.STOP_GUARANTEE)
                    is False, timeout=60_000)
