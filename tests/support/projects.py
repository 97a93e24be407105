"""Small projects built from the shared small files (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest


def make_project(path: Path, small_files, topic: str = "search eval") -> Path:
    """A project with the core set and the "scopus" result list of ``small_files``."""
    core, results = small_files
    with Project.create(path) as project:
        run_job(ingest.import_file(project, core, topic=topic, role="core"))
        run_job(ingest.import_file(project, results, topic=topic, role="results"))
    return path
