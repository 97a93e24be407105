"""Screens: one package per screen, known to the main window only through
:data:`~litqeval_gui.gui.screen_registry.SCREENS` and the :class:`Screen` protocol.

A screen is a widget opened on a *target* (the records screen: a list; the evaluation:
a topic). It has a ``key`` (its registry name) and a ``title``; its ``screen_actions()``
are listed under its title in the Topic menu while it is shown (their keys scoped to the
widget, or a :class:`~litqeval_gui.gui.shortcuts.Shortcuts` bound on show); it reacts to
``project_changed(changes, initiator)`` by marking itself stale and refreshing what the
change touches when next shown — and by following a rename of its target (the window
reads ``title`` again after every change) or setting ``target_gone`` when its target
was deleted (the window then closes its tab); ``save_state``/``restore_state`` keep its
layout in :class:`~litqeval_gui.gui.settings.Settings`; ``descriptor()`` names what it
shows in plain JSON values (ids, so a rename keeps it) and ``from_descriptor`` opens it
again when the project is reopened (:func:`~litqeval_gui.gui.screen_registry.reopen`).
A screen that reads the reviewer (the window's settings, given to ``restore_state``) also
has ``reviewer_changed(reviewer)``: the window calls it after File ▸ Switch Reviewer….
Adding a screen: a package under ``gui/screens/`` and one entry in the registry, which
gives the window its menu entry and the sidebar its context-menu entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtGui import QAction

from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.screening.log.store import Screening, get_screening
from litqeval_gui.gui.settings import Settings

if TYPE_CHECKING:
    from litqeval_gui.gui.session import ProjectSession


class Screen(Protocol):
    key: str  # its name in the registry
    target_gone: bool  # its target was deleted: the window closes it

    @property
    def title(self) -> str: ...

    @property
    def tooltip(self) -> str: ...

    @staticmethod
    def id_of(target: Any) -> Any:
        """The identity of a target (one tab per target)."""

    def target_id(self) -> Any:
        """The identity of what it shows."""

    def screen_actions(self) -> list[QAction]:
        """Its own actions, listed in the Topic menu while it is shown (not
        ``QWidget.actions()``, which holds every action added to the widget)."""

    def project_changed(self, changes: Changes, initiator: object) -> None:
        """Refresh what ``changes`` touch; follow a rename (``title``); set
        ``target_gone`` when the target was deleted."""

    def save_state(self, settings: Settings) -> None: ...

    def restore_state(self, settings: Settings) -> None: ...

    def descriptor(self) -> dict[str, Any]:
        """What it shows, as plain JSON values (the registry adds ``key``)."""

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict[str, Any]) -> Screen | None:
        """The screen :meth:`descriptor` named; None when that is gone (deleted meanwhile)."""


class TopicTarget:
    """For a screen opened on a topic (``self.topic``, its id ``self.topic_id``): one tab
    per topic, described by the topic's id; :meth:`follow_topic` keeps the name current."""

    topic: str
    topic_id: int
    session: ProjectSession
    target_gone = False

    def follow_topic(self, changes: Changes) -> bool:
        """After ``changes``: ``self.topic`` is the topic's name now (renamed), or
        ``target_gone`` is set (deleted); True while the topic exists."""
        if changes.topics and not self.target_gone:
            name = self.session.project.topic_name(self.topic_id)
            self.target_gone = name is None
            self.topic = self.topic if name is None else name
        return not self.target_gone

    @staticmethod
    def id_of(topic: str) -> str:
        return topic

    def target_id(self) -> str:
        return self.topic

    def descriptor(self) -> dict[str, Any]:
        return {"topic": self.session.project.topic_id(self.topic)}

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict[str, Any]) -> Any:
        topic = session.project.topic_name(descriptor["topic"])
        return None if topic is None else cls(session, topic)


class ScreeningTarget:
    """For a screen opened on a screening (``self.screening``): one tab per screening,
    described by its id; reopening raises LitqError when it was deleted meanwhile."""

    screening: Screening

    @staticmethod
    def id_of(screening: Screening) -> int:
        return screening.id

    def target_id(self) -> int:
        return self.screening.id

    def descriptor(self) -> dict[str, Any]:
        return {"screening": self.screening.id}

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict[str, Any]) -> Any:
        return cls(session, get_screening(session.project, descriptor["screening"]))


class LiveTopicScreen(TopicTarget):
    """A topic screen that redraws itself from the project (its ``refresh()``): after a
    change touching one of ``refresh_on`` (names of :class:`Changes` flags) at once while
    shown, else when next shown. It has no actions and keeps no layout unless it says so."""

    refresh_on: tuple[str, ...] = ()
    _stale = False

    def refresh(self) -> None:
        raise NotImplementedError

    def project_changed(self, changes: Changes, _initiator: object) -> None:
        if self.follow_topic(changes):
            self.refresh_if_touched(changes)

    def refresh_if_touched(self, changes: Changes) -> None:
        if any(getattr(changes, flag) for flag in self.refresh_on):
            self.refresh_when_shown()

    def refresh_when_shown(self) -> None:
        """Refresh now while shown, else when next shown."""
        if self.isVisible():  # type: ignore[attr-defined]  # a QWidget's
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event: Any) -> None:  # noqa: N802 — Qt override
        if self._stale:
            self._stale = False
            self.refresh()
        super().showEvent(event)  # type: ignore[misc]  # QWidget's, next in the MRO

    def screen_actions(self) -> list[QAction]:
        return []

    def save_state(self, settings: Settings) -> None:
        """Nothing to keep."""

    def restore_state(self, settings: Settings) -> None:
        """Nothing kept."""
