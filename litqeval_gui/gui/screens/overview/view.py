"""A topic at a glance: its lists (with each result list's recall against the core set),
its screenings (how far, how many relevant — by the final decisions: the resolution
where reviewers disagreed —, conflicts still open) and its pools (the depth released).
A blind screening is counted as the reviewer screening now (the window's settings)
sees it: their own decisions only, counted again after a switch of reviewer.

Every number is a live count read from the project when the screen is shown or the
project changes; nothing here waits for an evaluation.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from litqeval_gui.core.evaluation.recall import recall_report
from litqeval_gui.core.pooling import store as pool_store
from litqeval_gui.core.records import queries
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.log.labels import is_relevant
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui.screens import LiveTopicScreen
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings
from litqeval_gui.gui.tables import fill_table, read_only_table

ROLES = {"core": "core set", "results": "result list", "other": "other",
         "collection": "document collection"}


class OverviewView(LiveTopicScreen, QWidget):
    """A :class:`~litqeval_gui.gui.screens.Screen` opened on a topic."""

    key = "overview"
    refresh_on = ("lists", "records", "works", "verdicts", "decisions")

    def __init__(self, session: ProjectSession, topic: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session, self.topic = session, topic
        self.topic_id = session.project.topic_id(topic)
        self.settings = Settings()  # the window's in restore_state: who reads
        self.lists = read_only_table(["List", "Role", "Database", "Records", "Works", "Recall",
                             "Core found"],
                            "Each list of the topic; recall = core works the list contains "
                            "÷ core works (a set count, no evaluation needed)")
        self.screenings = read_only_table(
            ["Screening", "Phase", "Screened", "Of", "Relevant", "Open conflicts"],
            "The topic's screenings: records decided so far, how many of them are "
            "relevant by their final decision, and reviewers' disagreements not yet "
            "resolved (a blind screening: your own decisions only)")
        self.pools = read_only_table(["Pool", "Depth released", "Feeds screening"],
                            "The topic's incremental pools")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for heading, table, stretch in (("Lists", self.lists, 3),
                                        ("Screenings", self.screenings, 2),
                                        ("Pools", self.pools, 1)):
            layout.addWidget(QLabel(f"<b>{heading}</b>"))
            layout.addWidget(table, stretch)
        self.refresh()

    # -- the screen protocol ---------------------------------------------------------
    @property
    def title(self) -> str:
        return f"Overview: {self.topic}"

    @property
    def tooltip(self) -> str:
        return f"Topic {self.topic} at a glance: lists, recall, screenings, pools"

    def restore_state(self, settings: Settings) -> None:
        """Count as the window's reviewer reads (a switch since, say)."""
        before, self.settings = self.settings.reviewer, settings
        if settings.reviewer != before:
            self.refresh_when_shown()

    def reviewer_changed(self, _reviewer: str) -> None:
        """A blind screening is counted again as the new reviewer sees it."""
        self.refresh_when_shown()

    # -- showing ---------------------------------------------------------------------
    def refresh(self) -> None:
        """Read every count again."""
        project = self.session.project
        infos = queries.lists(project, self.topic)
        has_core = any(info.role == "core" for info in infos)
        recall = {r.name: r for r in recall_report(project, self.topic).lists} \
            if has_core and any(info.role == "results" for info in infos) else {}
        fill_table(self.lists, [
            (info.name, ROLES.get(info.role, info.role), info.database or "", info.records,
             info.size, f"{recall[info.name].recall:.3f}" if info.name in recall else "",
             f"{recall[info.name].retrieved_core} of {recall[info.name].core}"
             if info.name in recall else "")
            for info in infos])
        screenings = screening_store.screenings(project, self.topic)
        reviewer = self.settings.reviewer or None
        rows = []
        for screening in screenings:
            decided = screening_store.current_decisions(project, screening.id, reviewer)
            final = team.final_events(project, screening.id, reviewer)
            blinded = reviewer is not None and screening_store.is_blind(project, screening.id)
            rows.append((screening.name, screening.phase.replace("_", " "), len(decided),
                         screening.size,
                         sum(is_relevant(screening.scheme, e.label) for e in final),
                         "" if blinded else sum(c.resolution is None for c in
                                                team.conflicts(project, screening.id))))
        fill_table(self.screenings, rows)
        names = {s.id: s.name for s in screenings}
        fill_table(self.pools, [(pool.name, pool.depth, names.get(pool.screening_id, ""))
                           for pool in pool_store.pools(project, self.topic)])
