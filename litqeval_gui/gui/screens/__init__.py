"""Screens: one package per screen, known to the main window only through
:data:`~litqeval_gui.gui.screens.registry.SCREENS` and the :class:`Screen` protocol.

A screen is a widget opened on a *target* (the records screen: a list). It has a
``key`` (its registry name) and a ``title``; its ``actions()`` carry its shortcuts
and live only while it is shown (scoped to the widget, or a
:class:`~litqeval_gui.gui.shortcuts.Shortcuts` bound on show); it reacts to
``project_changed(changes, initiator)`` by marking itself stale and refreshing what
the change touches when next shown; ``save_state``/``restore_state`` keep its layout
in :class:`~litqeval_gui.gui.settings.Settings`; ``descriptor()`` names what it shows in
plain JSON values (ids, so a rename keeps it) and ``from_descriptor`` opens it again when
the project is reopened (:func:`~litqeval_gui.gui.screens.registry.reopen`). Adding a
screen: a package under ``gui/screens/`` and one line in the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtGui import QAction

from litqeval_gui.core.changes import Changes
from litqeval_gui.gui.settings import Settings

if TYPE_CHECKING:
    from litqeval_gui.gui.session import ProjectSession


class Screen(Protocol):
    key: str  # its name in the registry

    @property
    def title(self) -> str: ...

    @property
    def tooltip(self) -> str: ...

    @staticmethod
    def id_of(target: Any) -> Any:
        """The identity of a target (one tab per target)."""

    def target_id(self) -> Any:
        """The identity of what it shows."""

    def actions(self) -> list[QAction]: ...

    def project_changed(self, changes: Changes, initiator: object) -> None: ...

    def save_state(self, settings: Settings) -> None: ...

    def restore_state(self, settings: Settings) -> None: ...

    def descriptor(self) -> dict[str, Any]:
        """What it shows, as plain JSON values (the registry adds ``key``)."""

    @classmethod
    def from_descriptor(cls, session: ProjectSession, descriptor: dict[str, Any]) -> Screen | None:
        """The screen :meth:`descriptor` named; None when that is gone (deleted meanwhile)."""


class TopicTarget:
    """For a screen opened on a topic (``self.topic``): one tab per topic, described by
    the topic's id."""

    topic: str
    session: ProjectSession

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
