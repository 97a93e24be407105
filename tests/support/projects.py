"""Small projects built from the shared small files (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import APPLICATION_ID, Project
from litqeval_gui.core.projectfile.schema import MIGRATIONS
from litqeval_gui.core.records import ingest


def file_before(path: Path, migration: str,
                fill: Callable[[sqlite_utils.Database], None]) -> Path:
    """A project file of the schema just before ``migration`` (its function's name), with
    topic 1 'T' and what ``fill`` inserts: the file an older version left."""
    before = [m.__name__ for m in MIGRATIONS].index(migration)
    db = sqlite_utils.Database(path)
    for migrate in MIGRATIONS[:before]:
        migrate(db)
    db["meta"].insert_all([{"key": "created", "value": "2026-01-01T00:00:00"},
                           {"key": "app_version", "value": "0"}], replace=True)
    db.execute("INSERT INTO topics (id, name) VALUES (1, 'T')")
    fill(db)
    db.execute(f"PRAGMA user_version = {before}")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.conn.commit()
    db.close()
    return path


def make_project(path: Path, small_files, topic: str = "search eval") -> Path:
    """A project with the core set and the "scopus" result list of ``small_files``."""
    core, results = small_files
    with Project.create(path) as project:
        run_job(ingest.import_file(project, core, topic=topic, role="core"))
        run_job(ingest.import_file(project, results, topic=topic, role="results"))
    return path


@contextmanager
def ris_project(folder: Path, ris: str, **options) -> Iterator[Project]:
    """A new project in ``folder`` holding ``ris`` imported as topic T's results (the
    import's other ``options`` as given), open while inside."""
    path = folder / "results.ris"
    path.write_text(ris, encoding="utf-8")
    with Project.create(folder / "p.litq") as opened:
        run_job(ingest.import_file(opened, path, topic="T", role="results", **options))
        yield opened
