"""Every screen the main window can open in a tab, with what it is opened on.

An entry names the screen's class, its ``target`` — ``"list"`` (a list selected in the
sidebar: the records screen) or ``"topic"`` — and, for a topic screen, the Topic menu's
(and the sidebar context menu's) entry that opens it and ``choose``, which turns the
selected topic into the screen's target (the screening asks which screening; None when
the user cancels), and ``sample``: what it opens on in a given project (the self-test
opens every screen on the demo project; by default a topic screen's first topic, a list
screen's first list). The window, its menus, the sidebar's context menu, the self-test
and the reopen test all read :data:`SCREENS`; adding a screen is a package under
``gui/screens/`` and one entry.
Also here: a screen's descriptor (its key and what it shows) and the screen again from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from PySide6.QtWidgets import QWidget

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.gui.screens import Screen, conflicts, screening
from litqeval_gui.gui.screens.conflicts import ConflictsView
from litqeval_gui.gui.screens.evaluation import EvaluationView
from litqeval_gui.gui.screens.overview import OverviewView
from litqeval_gui.gui.screens.pooling import PoolingView
from litqeval_gui.gui.screens.prisma import PrismaView
from litqeval_gui.gui.screens.query import QueryView, choose_list, sample_list
from litqeval_gui.gui.screens.records import RecordsView
from litqeval_gui.gui.screens.screening import ScreeningView
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings

Chooser = Callable[[ProjectSession, str, Settings, QWidget], Any]


def the_topic(_session: ProjectSession, topic: str, _settings: Settings, _parent: QWidget) -> str:
    return topic


def first_target(project: Project, target: str) -> Any:
    """A project's first topic (``target`` "topic") or first list ("list")."""
    return queries.topics(project)[0].name if target == "topic" else queries.lists(project)[0]


@dataclass(frozen=True)
class ScreenEntry:
    kind: type  # a QWidget class that follows the Screen protocol: kind(session, target)
    target: Literal["list", "topic"]
    menu_text: str = ""  # the Topic menu's entry (topic screens)
    tip: str = ""
    choose: Chooser = the_topic
    sample: Callable[[Project], Any] | None = None  # None: first_target

    @property
    def key(self) -> str:
        return self.kind.key

    def sample_target(self, project: Project) -> Any:
        """What the screen opens on in ``project`` (the self-test's demo project)."""
        return self.sample(project) if self.sample else first_target(project, self.target)


SCREENS: dict[str, ScreenEntry] = {entry.key: entry for entry in (
    ScreenEntry(RecordsView, "list"),
    ScreenEntry(OverviewView, "topic", "&Overview", "The selected topic at a glance: its "
                "lists with their recall, its screenings and pools"),
    ScreenEntry(EvaluationView, "topic", "&Evaluate Topic…",
                "Recall and semantic precision of the selected topic's result lists against "
                "its core set"),
    ScreenEntry(QueryView, "topic", "&Query Clauses…",
                "What each clause of a result list's search query does on the topic's "
                "records; edit the query with the effect shown at once, keep versions",
                choose_list, sample_list),
    ScreenEntry(ScreeningView, "topic", "&Screen Records…",
                "Screen the selected topic's records one at a time",
                lambda session, topic, settings, parent: screening.choose_screening(
                    session.project, topic, settings, parent), screening.sample_screening),
    ScreenEntry(ConflictsView, "topic", "Screening &Conflicts…",
                "Where a screening's reviewers disagree, side by side, resolved from the "
                "keyboard; their agreement (Cohen's κ) before and after resolution",
                conflicts.choose_screening, conflicts.sample),
    ScreenEntry(PoolingView, "topic", "&Pool Runs…",
                "The selected topic's pool: depth by depth, with its stop criterion"),
    ScreenEntry(PrismaView, "topic", "P&RISMA Flow Diagram",
                "The selected topic's PRISMA 2020 flow diagram, counted from its lists and "
                "screenings; save it as SVG, PNG or PDF and its counts as CSV"),
)}


def topic_screens() -> list[ScreenEntry]:
    """The screens opened on a topic, in the Topic menu's order."""
    return [entry for entry in SCREENS.values() if entry.target == "topic"]


def descriptor_of(screen: Screen) -> dict[str, Any] | None:
    """``screen``'s descriptor with its ``key``; None when what it shows is gone."""
    try:
        return {**screen.descriptor(), "key": screen.key}
    except LitqError:
        return None


def reopen(session: ProjectSession, descriptor: dict[str, Any]) -> Screen | None:
    """The screen ``descriptor`` names; None for an unknown key, a damaged descriptor, or
    a topic, list or screening deleted since."""
    entry = SCREENS.get(descriptor.get("key"))
    if entry is None:
        return None
    try:
        return entry.kind.from_descriptor(session, descriptor)
    except (LitqError, KeyError, TypeError, ValueError):
        return None
