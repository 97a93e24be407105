"""Actions are data: one declaration gives the menu entry, the key, the enabling and the
context-menu entry."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence

from litqeval_gui.gui import main_window, window_menus
from litqeval_gui.gui.actions import ActionSet, ActionSpec, menu_groups
from litqeval_gui.gui.list_actions import MANAGE_ACTIONS
from litqeval_gui.gui.window_menus import MENU_BAR, WINDOW_ACTIONS


def test_an_action_set_runs_enables_and_places_its_specs(qapp):
    calls: list[str] = []
    state = {"ready": False}
    specs = (ActionSpec("a", "&Alpha", lambda c: calls.append("a"), "Ctrl+Shift+A",
                        places=("file.one", "toolbar"), enabled=lambda c: c["ready"]),
             ActionSpec("b", "&Beta", lambda c: calls.append("b"), places=("file.two",)))
    owner = QObject()
    actions = ActionSet(owner, specs, state)
    actions.update()
    assert not actions["a"].isEnabled() and actions["b"].isEnabled()
    state["ready"] = True
    actions.update()
    assert actions["a"].isEnabled()
    actions["a"].trigger()
    actions["b"].trigger()
    assert calls == ["a", "b"]
    assert actions["a"].shortcut() == QKeySequence("Ctrl+Shift+A")
    assert actions.at("toolbar") == [actions["a"]]
    assert menu_groups("file", ("two", "one"), [actions]) == [[actions["b"]], [actions["a"]]]
    with pytest.raises(ValueError, match="no group 'two'"):
        menu_groups("file", ("one",), [actions])  # an action never vanishes silently
    with pytest.raises(ValueError, match="declared twice"):
        ActionSet(owner, specs + specs[:1], state)


def test_every_declared_action_has_a_home_and_a_key_is_never_taken_twice():
    specs = [*WINDOW_ACTIONS, *MANAGE_ACTIONS]
    ids = [s.id for s in specs]
    assert len(ids) == len(set(ids))
    keys = [QKeySequence(s.shortcut).toString() for s in specs if s.shortcut]
    assert len(keys) == len(set(keys)), keys
    menus = {key: layout for key, _, layout in MENU_BAR}
    contexts = {"list-context": window_menus.LIST_CONTEXT,
                "topic-context": window_menus.TOPIC_CONTEXT}
    for spec in specs:
        assert spec.places, f"{spec.id} is shown nowhere"
        for place in spec.places:
            name, _, group = place.partition(".")
            assert place == "toolbar" or group in {**menus, **contexts}[name], place


def test_one_declaration_puts_a_new_action_in_its_menu_with_its_key(qtbot, monkeypatch):
    """What adding an action takes: one spec, nothing else."""
    ran: list[object] = []
    extra = ActionSpec("count", "&Count Things", lambda w: ran.append(w), "Ctrl+Alt+K",
                       tip="Count the things", places=("topic.screens", "topic-context.screens"),
                       enabled=lambda w: w.session is None)
    monkeypatch.setattr(main_window, "WINDOW_ACTIONS", (*WINDOW_ACTIONS, extra))
    window = main_window.MainWindow()
    qtbot.addWidget(window)
    action = window.action("count")
    assert action in window.menus.menus["topic"].actions()
    assert action.shortcut() == QKeySequence("Ctrl+Alt+K") and action.toolTip() == "Count the things"
    window.menus.update()
    assert action.isEnabled()  # no project is open
    action.trigger()
    assert ran == [window]
