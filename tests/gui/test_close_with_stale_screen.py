"""Closing a project while a screen behind the current tab is stale: removing the tabs
must not show it (it would refresh from the closed project; PySide crashed on that)."""

from litqeval_gui.core.screening.log import store


def test_closing_the_project_never_refreshes_a_stale_screen(window, made, qtbot):
    window.show()
    assert window.open_project(made[0])
    screening = store.find_screening(window.session.project, "T", "S")
    first = window.open_screen("screening", screening)
    overview = window.open_screen("overview", "T")
    window.tabs.setCurrentWidget(first)  # the overview is hidden behind it
    refreshed = []
    overview.refresh = lambda: refreshed.append("refreshed")
    record = store.items(window.session.project, screening.id)[0]
    window.session.write(store.decide_op(screening, record, "include", store.Context("Ann")))
    qtbot.waitUntil(lambda: overview._stale, timeout=60_000)  # to refresh when next shown
    assert window.close_project()
    assert window.tabs.count() == 0
    assert refreshed == []
