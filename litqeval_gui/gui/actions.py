"""Actions are data: each is declared once as an :class:`ActionSpec` (id, text, keys,
where it shows, when it is enabled, what it does), as napari's ``Action`` is.

An :class:`ActionSet` makes the ``QAction`` objects of a tuple of specs over one context
object (the window, the managing actions…), enables them from that context, and lists
them by place. A place is ``"menu.group"`` (``"file.import"``: the File menu, its import
group; groups are separated in the order they first appear) or a plain name
(``"toolbar"``, ``"list-context"``, ``"topic-context"``: the sidebar's context menus).
:func:`make_action` is the one way the app makes a ``QAction`` (a screen's own scoped
actions use it directly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from litqeval_gui.gui.icons import icon

Shortcut = str | QKeySequence.StandardKey
Context = TypeVar("Context")


def always(_context: object) -> bool:
    return True


@dataclass(frozen=True)
class ActionSpec(Generic[Context]):
    """One action: ``run(context)`` when triggered, enabled while ``enabled(context)``,
    shown at each of ``places``; ``checkable`` ones start ``checked``."""

    id: str
    text: str
    run: Callable[[Context], object]
    shortcut: Shortcut = ""
    icon: str = ""
    tip: str = ""
    places: tuple[str, ...] = ()
    enabled: Callable[[Context], bool] = always
    checkable: bool = False
    checked: bool = False
    role: QAction.MenuRole = QAction.MenuRole.TextHeuristicRole


class ActionSet(Generic[Context]):
    """The ``QAction`` objects of ``specs`` (owned by ``parent``) over ``context``."""

    def __init__(self, parent: QObject, specs: Sequence[ActionSpec[Context]],
                 context: Context) -> None:
        ids = [spec.id for spec in specs]
        if len(set(ids)) != len(ids):
            raise ValueError(f"an action id is declared twice: {ids}")
        self.specs = tuple(specs)
        self.context = context
        self._actions: dict[str, QAction] = {}
        for spec in specs:
            action = make_action(parent, spec.text,
                                 lambda _checked=False, s=spec: s.run(self.context),
                                 shortcut=spec.shortcut, icon_name=spec.icon, tip=spec.tip)
            action.setMenuRole(spec.role)
            if spec.checkable:
                action.setCheckable(True)
                action.setChecked(spec.checked)
            self._actions[spec.id] = action

    def __getitem__(self, action_id: str) -> QAction:
        return self._actions[action_id]

    def __contains__(self, action_id: object) -> bool:
        return action_id in self._actions

    def __iter__(self) -> Iterator[QAction]:
        return iter(self._actions.values())

    def update(self) -> None:
        """Enable each action as its spec says, for the context as it is now."""
        for spec in self.specs:
            self._actions[spec.id].setEnabled(bool(spec.enabled(self.context)))

    def at(self, place: str) -> list[QAction]:
        """The actions shown at ``place``, in declaration order."""
        return [self._actions[s.id] for s in self.specs if place in s.places]

    def placed(self) -> Iterator[tuple[str, QAction]]:
        """(place, action) for every place of every action, in declaration order."""
        for spec in self.specs:
            for place in spec.places:
                yield place, self._actions[spec.id]


def menu_groups(menu: str, layout: Sequence[str],
                sets: Iterable[ActionSet[Any]]) -> list[list[QAction]]:
    """The actions of ``menu`` across ``sets``, one list per group of ``layout`` (the
    menu's groups in order); a ``"menu.group"`` place whose group is not in ``layout``
    is a ``ValueError`` (an action must never vanish silently)."""
    groups: dict[str, list[QAction]] = {group: [] for group in layout}
    for action_set in sets:
        for place, action in action_set.placed():
            name, _, group = place.partition(".")
            if name != menu:
                continue
            if group not in groups:
                raise ValueError(f"place {place!r}: the {menu} menu has no group {group!r}")
            groups[group].append(action)
    return list(groups.values())


def fill_menu(qmenu: QMenu, groups: Iterable[Sequence[QAction]]) -> None:
    """Add ``groups`` to ``qmenu`` with a separator between non-empty groups."""
    first = True
    for group in groups:
        if not group:
            continue
        if not first:
            qmenu.addSeparator()
        qmenu.addActions(list(group))
        first = False


def make_action(parent: QObject, text: str, slot: Callable[..., object], *,
                shortcut: Shortcut = "", icon_name: str = "", tip: str = "",
                scoped: bool = False) -> QAction:
    """An action of ``parent`` that runs ``slot`` when triggered.

    ``tip`` is its tooltip and status tip. ``scoped`` (a screen's own action, ``parent`` a
    widget): its shortcut works only while ``parent`` or a child has focus, ``parent``
    holds it, and without a ``tip`` the tooltip names the shortcut.
    """
    action = QAction(text, parent, triggered=slot)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    if icon_name:
        action.setIcon(icon(icon_name))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    if scoped:
        assert isinstance(parent, QWidget), "a scoped action belongs to a widget"
        if shortcut and not tip:
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{text} ({keys})")
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        parent.addAction(action)
    return action
