"""Small projects built from the shared small files (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def ris_project(folder: Path, ris: str, **options) -> Iterator[Project]:
    """A new project in ``folder`` holding ``ris`` imported as topic T's results (the
    import's other ``options`` as given), open while inside."""
    path = folder / "results.ris"
    path.write_text(ris, encoding="utf-8")
    with Project.create(folder / "p.litq") as opened:
        run_job(ingest.import_file(opened, path, topic="T", role="results", **options))
        yield opened
