"""The pooling screen: advancing through the button sends each depth to the pool's
screening, judging there moves the plots and tables, plots save as PNG and SVG."""


import numpy as np
import pytest

from litqeval_gui.core.pooling import state, store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.gui.screen_registry import SCREENS
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.screening.view import ScreeningView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from tests.support.plots import tick_values
from tests.support.pooling import docid, pool_project, two_run_layers


@pytest.fixture
def screen(qtbot, tmp_path):
    runs, relevant = two_run_layers(20, 4)
    runs["C"] = ["a1", "x1", "a2", "x2"]  # shares two relevant records with A, finds none
    path = pool_project(tmp_path, runs, topics=("T", "U"))
    with Project.open(path) as project:
        for topic in ("T", "U"):
            store.create_pool(project, topic, "P", ["A", "B", "C"],
                              store.settings("aggressive", low_yield=None))
    session = ProjectSession(Project.open(path))
    view = PoolingView(session, "T")
    session.changed.connect(view.project_changed)
    qtbot.addWidget(view)
    view.resize(1300, 800)
    view.show()
    yield session, view, relevant
    assert session.close()


def judge_all(session, topic, relevant):
    pool = store.find_pool(session.project, topic, "P")
    screener = ScreeningSession(session.project,
                        screening_store.get_screening(session.project, pool.screening_id), "Ada")
    while (record := screener.shown) is not None:
        screener.decide("include" if docid(session.project, record) in relevant else "exclude")


def test_advance_judge_until_the_pool_stops(qtbot, screen, shot):
    session, view, relevant = screen
    assert SCREENS["pooling"].kind is PoolingView
    assert view.pool_box.currentText() == "P" and "released depth 0" in view.status.text()
    for depth in range(1, 12):
        assert view.advance_button.isEnabled()
        view.advance_button.click()
        qtbot.waitUntil(lambda d=depth: f"pool depth {d}:" in view.status.text())
        judge_all(session, "T", relevant)
        qtbot.waitUntil(lambda d=depth: f"judged depth {d} " in view.status.text())
    assert ("the stop rule stops the pool at depth 2 (critical depth k_cr = 2: from there the "
            "smoothed rate ŕ stayed below t = 0.8 for l = 3 depths), decided once depth 11 "
            "was judged; depths 3–11 were released before it could decide"
            in view.status.text())
    assert "critical depth k_cr: depth 2" in view.status.text()
    assert not view.advance_button.isEnabled()
    _, nrels = view.depth_plot.nrels.getData()
    assert nrels.tolist() == [2, 4, 6, 8] + [8] * 7
    _, sizes = view.depth_plot.sizes.getData()
    assert sizes[:4].tolist() == [2, 5, 7, 10]  # C adds x1 at depth 2, x2 at depth 4
    rows = [[view.contributions.item(r, c).text() for c in range(3)]
            for r in range(view.contributions.rowCount())]
    assert rows == [["A", "4", "2"], ["B", "4", "4"], ["C", "2", "0"]]
    assert view.static.item(0, 0).text() == "depth-2" and view.static.item(0, 2).text() == "4"
    # both topics' pools on the effort plot; U has judged nothing yet
    assert [c.getData()[0].tolist() for c in view.effort_plot.curves][1] == [0.0]
    assert view.effort_plot.legend_names() == ["T / P", "U / P"]
    item = view.effort_plot.getPlotItem()  # records judged and relevant found are counts
    for axis in ("bottom", "left"):
        ticks = tick_values(item, axis)
        assert ticks and all(float(v).is_integer() for v in ticks), axis
    shot(view, "pooling_screen")


def test_plots_export_png_and_svg(qtbot, screen, tmp_path):
    session, view, relevant = screen
    view.advance_button.click()
    qtbot.waitUntil(lambda: "pool depth 1:" in view.status.text())
    judge_all(session, "T", relevant)
    qtbot.waitUntil(lambda: "judged depth 1 " in view.status.text())
    for suffix in (".png", ".svg"):
        written = view.export_plots(tmp_path / f"pool{suffix}")
        assert [p.name for p in written] == [f"pool{suffix}", f"pool-effort{suffix}"]
        assert all(p.stat().st_size > 1000 for p in written)
    assert "<svg" in (tmp_path / "pool.svg").read_text(encoding="utf-8")[:2000]
    assert np.isfinite(view.depth_plot.sizes.getData()[1]).all()


def test_topic_menu_opens_the_selected_topics_pool(window, qtbot, tmp_path):
    from tests.support.pages import sidebar_index

    runs, _ = two_run_layers(20, 4)
    path = pool_project(tmp_path, runs, topics=("T", "U"))
    with Project.open(path) as project:
        store.create_pool(project, "U", "P", ["A", "B"], store.settings("relaxed"))
    assert window.open_project(path)
    window.sidebar.setCurrentIndex(sidebar_index(window.sidebar, "U"))
    window.menus.update()
    assert window.action("screen.pooling").isEnabled()
    window.action("screen.pooling").trigger()
    view = window.tabs.currentWidget()
    assert (view.key, view.topic) == ("pooling", "U")
    assert view.pool_box.currentText() == "P"


def test_advance_while_judged_releases_every_judged_depth_in_one_click(qtbot, tmp_path):
    """Issue 24 §8: with complete qrels nothing waits for a judgement, so one click
    releases depths 1–11 (the CLI's --while-judged); the status says where the rule stops
    and that the depths after it were released before it could tell."""
    runs, relevant = two_run_layers(20, 4)
    grades = {doc: int(doc in relevant) for docs in runs.values() for doc in docs}
    path = pool_project(tmp_path, runs, grades)
    with Project.open(path) as project:
        store.create_pool(project, "T", "P", ["A", "B"], store.settings("aggressive",
                          low_yield=None), qrels=["qrels"])
    session = ProjectSession(Project.open(path))
    view = PoolingView(session, "T")
    qtbot.addWidget(view)
    view.show()
    assert view.while_judged_button.isEnabled() and view.while_judged_action.isEnabled()
    assert view.while_judged_action in view.screen_actions()  # in the window's menu too
    shown: list[str] = []  # every status text, to see the progress the click shows
    set_text = view.status.setText
    view.status.setText = lambda text: (shown.append(text), set_text(text))
    view.while_judged_button.click()
    qtbot.waitUntil(lambda: "advanced 11 depths (1–11): 0 new records" in view.status.text())
    assert [t for t in shown if t.startswith("Advancing while judged")][:2] == [
        "Advancing while judged: depth 1 of at most 20 released, 0 new records so far…",
        "Advancing while judged: depth 2 of at most 20 released, 0 new records so far…"]
    assert "0 new records to screen: every released record was already judged" in \
        view.status.text()
    assert "released depth 11, judged depth 11" in view.status.text()
    assert "depths 3–11 were released before it could decide" in view.status.text()
    assert not view.while_judged_button.isEnabled() and not view.advance_button.isEnabled()
    assert not view.while_judged_action.isEnabled()
    view.close()
    assert session.close()


def test_the_pooling_screen_fits_1200_by_760(qtbot, screen, shot):
    """Issue 24 §4: the screen's minimum size fits the tab of a 1200×760 window (about
    890×660 beside the sidebar); its minimum width was 1 005 px."""
    from tests.gui.themed import shoot_both

    session, view, relevant = screen
    for tab in (0, 1):
        view.tabs.setCurrentIndex(tab)
        hint = view.minimumSizeHint()
        assert hint.width() <= 880 and hint.height() <= 640, (tab, hint)
    view.tabs.setCurrentIndex(0)
    view.advance_button.click()
    qtbot.waitUntil(lambda: "pool depth 1:" in view.status.text())
    judge_all(session, "T", relevant)

    def make(width, height):
        def build():
            made = PoolingView(session, "T")
            qtbot.addWidget(made)
            made.resize(width, height)
            return made
        return build

    for (width, height), name in (((890, 660), "1200x760"), ((1290, 900), "1600x1000")):
        shoot_both(shot, make(width, height), f"issue24_pooling_{name}")


def test_the_pools_screening_shows_the_pools_rule_not_the_title_abstract_rules(qtbot,
                                                                                 tmp_path):
    runs, _ = two_run_layers(10, 2)
    path = pool_project(tmp_path, runs)
    with Project.open(path) as project:
        pool = store.create_pool(project, "T", "P", ["A", "B"], store.settings("aggressive"))
        state.advance(project, pool)
    settings = Settings()
    settings.reviewer = "Ann"
    settings.save()
    session = ProjectSession(Project.open(path))
    view = ScreeningView(session, screening_store.find_screening(session.project, "T",
                                                                 "pool: P"))
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: "decides when to stop" in view.progress.headline.text())
    assert view.progress.headline.text().startswith(
        "Pool “P” decides when to stop (variable-depth pooling): go on judging; depth ")
    assert not view.progress.guarantee.isVisible()
    assert not any(label.isVisible() for label in view.progress.rule_labels)
    view.close()
    assert session.close()
