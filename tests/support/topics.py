"""A project with one generated topic whose evaluation answers are known by construction.

Topic ``cardio``: a core set of ``n_core`` cardiology records; result list ``clean`` holds
``found`` of them (same DOI and title: linked to the core works) and ``extra`` other
cardiology records; ``noisy`` is ``clean`` plus ``noise`` astronomy records (another
topic's); no ``noisy`` list when ``noise`` is 0. Files are real RIS exports imported through the importer.
"""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.exporting import export_records
from litqeval_gui.core.ingest import import_file
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project
from tests.support.synthetic import topic_records

TOPIC = "cardio"


def write_list(records, path: Path) -> Path:
    export_records(records, path, "ris")
    return path


def import_list(project: Project, path: Path, role: str, name: str) -> None:
    run_job(import_file(project, path, topic=TOPIC, role=role, name=name))


def build_topic(path: Path, n_core: int = 20, found: int = 15, extra: int = 85,
                noise: int = 100) -> Path:
    """Create the project at ``path`` (module docstring) and return it."""
    core = topic_records("cardiology", n_core)
    others = topic_records("cardiology", extra, seed=1)
    clean = core[:found] + others
    noisy = clean + topic_records("astronomy", noise)
    folder = path.parent
    with Project.create(path) as project:
        import_list(project, write_list(core, folder / "core.ris"), "core", "core")
        import_list(project, write_list(clean, folder / "clean.ris"), "results", "clean")
        if noise:
            import_list(project, write_list(noisy, folder / "noisy.ris"), "results", "noisy")
    return path
