"""Small pooling projects: TREC run files (and qrels) of one topic imported as lists.

:func:`pool_project` writes each run as ``NAME.txt`` (``T Q0 docid rank score NAME``)
and imports it as list ``NAME`` of topic ``T``; ``qrels`` (docid -> grade) becomes list
``qrels`` (role core). :func:`two_run_layers` makes runs whose pool grows by two new
documents per depth, relevant ones where the caller says.
"""

from __future__ import annotations

import random
from pathlib import Path

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest

TOPIC = "T"


def collection(seed: int = 3) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Four runs (A–D) of 40 of 60 documents each, and grades (30 % relevant), seeded."""
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(60)]
    runs = {name: rng.sample(docs, 40) for name in ("A", "B", "C", "D")}
    grades = {doc: int(rng.random() < 0.3) for doc in docs}
    return runs, grades


def write_run(path: Path, name: str, docids: list[str], topic: str = TOPIC) -> Path:
    path.write_text("".join(f"{topic} Q0 {doc} {rank} {100 - rank} {name}\n"
                            for rank, doc in enumerate(docids, 1)), encoding="utf-8")
    return path


def pool_project(folder: Path, runs: dict[str, list[str]],
                 qrels: dict[str, int] | None = None, *, topics: tuple[str, ...] = (TOPIC,),
                 path: Path | None = None) -> Path:
    """A project with ``runs`` imported as lists of every topic in ``topics``."""
    path = path or folder / "pool.litq"
    project = Project.open(path) if path.exists() else Project.create(path)
    with project:
        for topic in topics:
            for name, docids in runs.items():
                source = write_run(folder / f"{topic}-{name}.txt", name, docids, topic)
                run_job(ingest.import_file(project, source, topic=topic, role="results",
                                           name=name, fmt="trec-run"))
            if qrels is not None:
                source = folder / f"{topic}-qrels.txt"
                source.write_text("".join(f"{topic} 0 {doc} {grade}\n"
                                          for doc, grade in qrels.items()), encoding="utf-8")
                run_job(ingest.import_file(project, source, topic=topic, role="core",
                                           name="qrels", fmt="qrels"))
    return path


def two_run_layers(depth: int, relevant_depths: int, prefix: str = "") -> tuple[
        dict[str, list[str]], set[str]]:
    """Runs A and B of ``depth`` distinct documents each (``a1…``, ``b1…``): P(k) grows by
    two per depth; both documents of depths 1..``relevant_depths`` are relevant."""
    runs = {"A": [f"{prefix}a{k}" for k in range(1, depth + 1)],
            "B": [f"{prefix}b{k}" for k in range(1, depth + 1)]}
    relevant = {f"{prefix}{r}{k}" for k in range(1, relevant_depths + 1) for r in "ab"}
    return runs, relevant


def docid(project: Project, record_id: int) -> str:
    return project.db.execute("SELECT json_extract(ids, '$.docid') FROM records WHERE id = ?",
                              [record_id]).fetchone()[0]
