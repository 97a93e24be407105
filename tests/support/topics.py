"""Projects of generated topics whose evaluation answers are known by construction.

A topic (:func:`add_topic`, field ``cardiology`` for :data:`TOPIC`): a core set of
``n_core`` records of its field; result list ``clean`` holds ``found`` of them (same DOI
and title: linked to the core works) and ``extra`` other records of the field; ``noisy``
is ``clean`` plus ``noise`` astronomy records (another topic's); no ``noisy`` list when
``noise`` is 0. Files are real RIS exports imported through the importer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from litqeval_gui.core.evaluation.engine import TopicEvaluation, evaluate_topic
from litqeval_gui.core.evaluation.settings import EvaluationSettings, save_settings_op
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.ingest import import_file
from tests.support.synthetic import topic_records

TOPIC = "cardio"
PCA = EvaluationSettings(map_method="pca")  # a quick map for tests that need no UMAP


def write_list(records, path: Path) -> Path:
    export_records(records, path, "ris")
    return path


def import_list(project: Project, path: Path, role: str, name: str, topic: str = TOPIC) -> None:
    run_job(import_file(project, path, topic=topic, role=role, name=name))


def add_topic(project: Project, folder: Path, topic: str = TOPIC, field: str = "cardiology",
              n_core: int = 20, found: int = 15, extra: int = 85, noise: int = 100) -> None:
    """Import one topic (module docstring) into ``project``; files go to ``folder``."""
    core = topic_records(field, n_core)
    clean = core[:found] + topic_records(field, extra, seed=1)
    noisy = clean + topic_records("astronomy", noise)
    import_list(project, write_list(core, folder / f"{topic}-core.ris"), "core", "core", topic)
    import_list(project, write_list(clean, folder / f"{topic}-clean.ris"), "results", "clean",
                topic)
    if noise:
        import_list(project, write_list(noisy, folder / f"{topic}-noisy.ris"), "results",
                    "noisy", topic)


def build_topic(path: Path, n_core: int = 20, found: int = 15, extra: int = 85,
                noise: int = 100) -> Path:
    """Create the project at ``path`` with topic :data:`TOPIC` and return it."""
    with Project.create(path) as project:
        add_topic(project, path.parent, TOPIC, "cardiology", n_core, found, extra, noise)
    return path


def build_topics(path: Path) -> Path:
    """A project of three topics: :data:`TOPIC` and ``linguistics`` (small, evaluable) and
    ``no-core`` (a result list, no core set: cannot be evaluated)."""
    with Project.create(path) as project:
        add_topic(project, path.parent, TOPIC, "cardiology", 12, 9, 30, 20)
        add_topic(project, path.parent, "linguistics", "linguistics", 10, 8, 25, 0)
        import_list(project, write_list(topic_records("cardiology", 15, seed=5),
                                        path.parent / "no-core.ris"), "results", "list",
                    "no-core")
    return path


def evaluate_pca(path: Path, topic: str = TOPIC, save: bool = False) -> TopicEvaluation:
    """Evaluate ``topic`` of the project at ``path`` with a PCA map (vectors, map and
    results stored); ``save`` also stores PCA as the topic's map setting."""
    with Project.open(path) as project:
        if save:
            project.write(save_settings_op(topic, PCA))
        return run_job(evaluate_topic(project, topic, PCA))


def copy_project(source: Path, folder: Path, name: str = "p.litq") -> Path:
    """A copy of the project file ``source`` as ``folder / name`` (a test's own file)."""
    return Path(shutil.copyfile(source, folder / name))
