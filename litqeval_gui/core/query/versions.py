"""A list's query and the texts it had before: version 1 as imported, one more each
time it is edited (the project's triggers add them; see the schema's history)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records.lists import list_id

MAX_QUERY_CHARS = 100_000


@dataclass(frozen=True)
class Version:
    version: int
    text: str
    at: str

    def as_dict(self) -> dict:
        return asdict(self)


def history(project: Project, topic: str, name: str) -> list[Version]:
    """Every text the query of list ``name`` has had, oldest first."""
    rows = project.db.execute("SELECT version, text, at FROM query_versions WHERE "
                              "import_id = ? ORDER BY version",
                              [list_id(project, topic, name)]).fetchall()
    return [Version(*row) for row in rows]


def current(project: Project, topic: str, name: str) -> str:
    """The list's query now ("" if it has none)."""
    row = project.db.execute("SELECT COALESCE(query, '') FROM imports WHERE id = ?",
                             [list_id(project, topic, name)]).fetchone()
    return row[0]


def set_query_op(topic: str, name: str, text: str) -> Op:
    """Make ``text`` the query of list ``name`` (a new version if it differs)."""
    text = text.strip()
    if not text:
        raise LitqError("the query is empty: a list's query can be changed, not removed")
    if len(text) > MAX_QUERY_CHARS:
        raise LitqError(f"the query has {len(text):,} characters; at most "
                        f"{MAX_QUERY_CHARS:,} are kept")

    def op(p: Project) -> Changes:
        p.db.execute("UPDATE imports SET query = ? WHERE id = ?",
                     [text, list_id(p, topic, name)])
        return Changes(lists=True)

    return op
