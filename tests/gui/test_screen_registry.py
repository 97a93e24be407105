"""Every screen of the registry, opened in the window, follows a rename of its topic and
closes when the topic is deleted; the window's topic entries come from the registry."""

import pytest

from litqeval_gui.core.records import lists, queries
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.screen_registry import SCREENS, topic_screens
from litqeval_gui.gui.screens import TopicTarget
from litqeval_gui.gui.screens import screening as screening_screens
from tests.support.pages import sidebar_index

RENAMED = "Beta review"


def _target(project, key):
    """Screen ``key``'s target on the ``made`` project (topic T, list L, screening S)."""
    if key in ("screening", "conflicts"):  # opened on a screening
        return store.find_screening(project, "T", "S")
    return {"list": queries.find_list(project, "T", "L"), "topic": "T"}[SCREENS[key].target]


@pytest.mark.parametrize("key", list(SCREENS))
def test_a_screen_follows_a_rename_of_its_topic_and_closes_when_the_topic_is_deleted(
        window, made, qtbot, key):
    assert window.open_project(made[0])
    view = window.open_screen(key, _target(window.session.project, key))
    assert RENAMED not in window.tabs.tabToolTip(window.tabs.indexOf(view))

    window.session.write(lists.rename_topic_op("T", RENAMED))
    qtbot.waitUntil(lambda: RENAMED in window.tabs.tabToolTip(window.tabs.indexOf(view)),
                    timeout=60_000)
    assert window.tabs.tabText(window.tabs.indexOf(view)) == view.title
    if isinstance(view, TopicTarget):
        assert view.title.endswith(RENAMED) and view.topic == RENAMED

    window.session.write(lists.delete_topic_op(RENAMED))
    qtbot.waitUntil(lambda: window.tabs.count() == 0, timeout=60_000)


def test_the_topic_menu_and_the_sidebar_menu_open_every_topic_screen_of_the_registry(
        window, made, qtbot, monkeypatch):
    assert window.open_project(made[0])
    window.sidebar.setCurrentIndex(sidebar_index(window.sidebar, "T"))
    screening = store.find_screening(window.session.project, "T", "S")
    monkeypatch.setattr(screening_screens, "choose_screening",  # the start dialog, answered
                        lambda project, topic, settings, parent: screening)
    topic_menu = [a for a in window.menus.menus["topic"].actions() if a.text()]
    for entry in topic_screens():
        action = window.action(f"screen.{entry.key}")
        assert action in topic_menu and action.text() == entry.menu_text
        assert action.isEnabled()
        action.trigger()
        assert window.tabs.currentWidget().key == entry.key
    assert {view.key for view in (window.tabs.widget(i) for i in range(window.tabs.count()))} \
        == {entry.key for entry in topic_screens()}
    context = window.menus.sidebar_menu(window.sidebar.visualRect(
        window.sidebar.currentIndex()).center())
    assert [entry.menu_text for entry in topic_screens()] == [
        a.text() for a in context.actions()
        if a in [window.action(f"screen.{entry.key}") for entry in topic_screens()]]
    context.close()


def test_a_screen_lists_only_its_own_actions_in_the_topic_menu(window, made, qtbot):
    """``screen_actions()``, not ``QWidget.actions()``: the records screen's five actions
    (Copy DOI, Find, …) stayed in the Topic menu under its title."""
    assert window.open_project(made[0])
    view = window.open_screen("records", _target(window.session.project, "records"))
    assert len(view.actions()) == 5 and view.screen_actions() == []
    window.menus.menus["topic"].aboutToShow.emit()
    assert not set(view.actions()) & set(window.menus.menus["topic"].actions())
