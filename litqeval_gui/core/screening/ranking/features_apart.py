"""A large screening's features built in a child process, so no thread of this process
(the GUI's) waits for them.

At 100 000 records scikit-learn's vectoriser tokenises and counts in calls that hold
Python's GIL for seconds; built on a job thread, that froze the window (11 s with the
former 1–2-gram vocabulary, ``benchmarks/bench_screening_gui.py``). The features are the
kind the project's ``screening.features`` parameter names; from :data:`APART_FROM` items,
TF-IDF features (:func:`~litqeval_gui.core.screening.ranking.features.screening_features`) are
built by a child process (forkserver where available, else spawn, never plain fork) on
its own read-only connection, and handed back as ``.npy``/``.npz`` files in a temporary
folder (in memory, ``/dev/shm``, where it has room) (plain numeric arrays, read with ``allow_pickle=False``; no serialised objects).
Smaller screenings, or a program whose main module a child cannot import, build them
here (a child takes about a second to start). From
:data:`~litqeval_gui.core.screening.ranking.term_counts.HASHED_FROM` items, the records'
term counts missing from a project open for writing are stored first (in worker
processes; once per record), and the features are built here from them: reading and
weighing them is numpy, scipy and SQLite work that lets other threads run, and handing a
million rows back from a child cost more than building them (7 of 23 s).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
from scipy import sparse

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.parameters import SCREENING_FEATURES
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.scaleout import in_child, main_importable
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.features import (
    EMBEDDING,
    TFIDF,
    Features,
    parse_features,
    screening_features,
)
from litqeval_gui.core.screening.ranking.term_counts import HASHED_FROM, store_counts

APART_FROM = 20_000  # items
MEMORY_FOLDER = "/dev/shm"  # noqa: S108 — a folder in memory (Linux), checked for room
MEMORY_ROOM = 4 * 2 ** 30  # a million items' features are about 1 GB


def features_apart(project: Project, screening: Screening, question: str = "",
                   token: CancelToken = NEVER) -> Job[Features]:
    """:func:`screening_features`, in a child process for large screenings (module docstring)."""
    kind = parameters.get(project, SCREENING_FEATURES)
    hashed = screening.size >= HASHED_FROM and parse_features(kind)[0] != EMBEDDING
    if hashed and not project.readonly:
        yield from store_counts(project, screening.topic_id,
                                store.items(project, screening.id), token)
    if hashed or kind != TFIDF or screening.size < APART_FROM or not main_importable():
        return (yield from screening_features(project, screening, question, token, kind))
    with tempfile.TemporaryDirectory(prefix="litq-features-", dir=_scratch()) as folder:
        exitcode = yield from in_child(_build, (str(project.path), screening.id, question, folder),
                                       "screening features",
                                       f"TF-IDF of {screening.size:,} records", token)
        return _read(Path(folder), exitcode)


def _scratch() -> str | None:
    """:data:`MEMORY_FOLDER` when it exists with :data:`MEMORY_ROOM` bytes free, else
    None (the system's temporary folder)."""
    try:
        return MEMORY_FOLDER if shutil.disk_usage(MEMORY_FOLDER).free >= MEMORY_ROOM else None
    except OSError:
        return None


def _build(path: str, screening_id: int, question: str, folder: str) -> None:
    """The child: build the features and write them to ``folder`` (or ``error.txt``)."""
    out = Path(folder)
    try:
        with Project.open(path, readonly=True, checked=True) as project:
            screening = store.get_screening(project, screening_id)
            features = run_job(screening_features(project, screening, question))
    except LitqError as exc:
        (out / "error.txt").write_text(str(exc), encoding="utf-8")
        return
    sparse.save_npz(out / "matrix.npz", features.matrix, compressed=False)
    np.save(out / "items.npy", np.asarray(features.items, dtype=np.int64))
    np.save(out / "core_rows.npy", features.core_rows)
    (out / "meta.json").write_text(json.dumps({"question_row": features.question_row}))


def _read(folder: Path, exitcode: int | None) -> Features:
    if (folder / "error.txt").exists():
        raise LitqError((folder / "error.txt").read_text(encoding="utf-8"))
    if exitcode != 0 or not (folder / "meta.json").exists():
        raise LitqError(f"building the features stopped unexpectedly (exit code {exitcode})")
    meta = json.loads((folder / "meta.json").read_text())
    return Features(tuple(np.load(folder / "items.npy", allow_pickle=False).tolist()),
                    sparse.load_npz(folder / "matrix.npz").tocsr(),
                    np.load(folder / "core_rows.npy", allow_pickle=False), meta["question_row"])
