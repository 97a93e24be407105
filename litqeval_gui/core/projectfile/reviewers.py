"""Who decides: the names a project's screening decisions carry, and the environment
variable that names the reviewer (the CLI's default for ``--reviewer``; in the app, the
reviewer it starts with)."""

from __future__ import annotations

from litqeval_gui.core.projectfile.project import Project

REVIEWER_ENV = "LITQEVAL_REVIEWER"


def reviewer_names(project: Project) -> list[str]:
    """Everyone who has made a decision in one of the project's screenings (undone ones
    too; not a resolution's "consensus" or third reviewer), sorted case-insensitively."""
    return [name for (name,) in project.db.execute(
        "SELECT DISTINCT reviewer FROM screening_events WHERE kind = 'decide' "
        "ORDER BY reviewer COLLATE NOCASE, reviewer")]
