"""Every screen the main window can open in a tab: key → class ``(session, target)``;
a screen's descriptor (its key and what it shows) and the screen again from it."""

from __future__ import annotations

from typing import Any

from litqeval_gui.core.errors import LitqError
from litqeval_gui.gui.screens import Screen
from litqeval_gui.gui.screens.evaluation import EvaluationView
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.records import RecordsView
from litqeval_gui.gui.screens.screening import ScreeningView
from litqeval_gui.gui.session import ProjectSession

SCREENS = {
    RecordsView.key: RecordsView,
    EvaluationView.key: EvaluationView,
    PoolingView.key: PoolingView,
    ScreeningView.key: ScreeningView,
}


def descriptor_of(screen: Screen) -> dict[str, Any] | None:
    """``screen``'s descriptor with its ``key``; None when what it shows is gone."""
    try:
        return {**screen.descriptor(), "key": screen.key}
    except LitqError:
        return None


def reopen(session: ProjectSession, descriptor: dict[str, Any]) -> Screen | None:
    """The screen ``descriptor`` names; None for an unknown key, a damaged descriptor, or
    a topic, list or screening deleted since."""
    kind = SCREENS.get(descriptor.get("key"))
    if kind is None:
        return None
    try:
        return kind.from_descriptor(session, descriptor)
    except (LitqError, KeyError, TypeError, ValueError):
        return None
