"""Labelled record sets and small screening projects for the screening tests and benchmark.

:func:`labelled_records` takes :func:`synthetic.generate`'s records (no duplicates) and
makes a known fraction relevant: those get words of one research theme added to the
title and abstract (``strength`` of them per record), so a text model can separate them.
The label is written as a CSV column (``included``: yes/no) that the importer keeps in
``raw``; :func:`screening_project` imports such a CSV as list ``L`` of topic ``T``.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.log import store
from tests.support import synthetic

THEME = ("robotic", "laparoscopic", "surgery", "suturing", "haptic", "console",
         "teleoperated", "instrument", "surgeon", "operative")
LABEL_COLUMN = "included"


def labelled_records(n: int, prevalence: float = 0.1, *, seed: int = 0,
                     strength: int = 4) -> tuple[list[Record], list[int]]:
    """``n`` distinct records and their labels (1 = relevant), ``round(n·prevalence)`` ones."""
    records, _ = synthetic.generate(n, dup_rate=0.0, seed=seed)
    rng = random.Random(seed)
    relevant = set(rng.sample(range(n), round(n * prevalence)))
    labels = []
    for index, record in enumerate(records):
        label = int(index in relevant)
        if label:
            words = rng.sample(THEME, min(strength, len(THEME)))
            record.title = f"{record.title} {words[0]}"
            record.abstract = f"{record.abstract} {' '.join(words)}."
        labels.append(label)
    return records, labels


def write_labelled_csv(records: list[Record], labels: list[int], path: Path) -> Path:
    """A CSV with Title, Abstract, Year, DOI and the label column (yes/no), every cell
    quoted (unquoted, a line starting ``@word(`` is taken for BibTeX by format detection)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)  # as Scopus writes it
        writer.writerow(["Title", "Abstract", "Year", "DOI", LABEL_COLUMN])
        for record, label in zip(records, labels, strict=True):
            writer.writerow([record.title, record.abstract, record.year or "", record.doi,
                             "yes" if label else "no"])
    return path


def screening_project(folder: Path, n: int, prevalence: float = 0.1, *, seed: int = 0,
                      strength: int = 4) -> tuple[Path, list[int]]:
    """A project file with topic ``T`` and list ``L`` of :func:`labelled_records`; returns
    its path and the labels in list order."""
    records, labels = labelled_records(n, prevalence, seed=seed, strength=strength)
    source = write_labelled_csv(records, labels, folder / "L.csv")
    path = folder / "screen.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
    return path, labels


@contextmanager
def opened_screening(folder: Path, n: int, prevalence: float, *, seed: int
                     ) -> Iterator[tuple[Project, store.Screening, np.ndarray]]:
    """:func:`screening_project` opened, with screening "s" of list L: (the project, the
    screening, the labels as booleans)."""
    path, labels = screening_project(folder, n, prevalence, seed=seed)
    with Project.open(path) as project:
        yield project, store.create_screening(project, "T", "s", ["L"]), np.array(labels, bool)
