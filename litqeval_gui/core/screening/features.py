"""TF-IDF features of a screening's items (the evaluation's ``lsa`` settings).

One matrix row per item (title and abstract joined as the embedding backends join
them), then one row per core record whose work is not an item (a topic's core records
are known relevant: cold-start positives), then the review question when one is given.
Built once per screening session as a job; retraining only reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.lsa import tfidf_matrix
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.project import Project
from litqeval_gui.core.screening import store
from litqeval_gui.core.screening.store import Screening


@dataclass(frozen=True)
class Features:
    """``matrix`` rows: ``items`` (record ids, list order), then the extra core rows, then
    the question (``question_row``; None without one). ``core_rows``: rows of core works."""

    items: tuple[int, ...]
    matrix: sparse.csr_matrix
    core_rows: np.ndarray
    question_row: int | None

    def item_rows(self, record_ids: list[int]) -> np.ndarray:
        index = {record: row for row, record in enumerate(self.items)}
        return np.array([index[r] for r in record_ids], dtype=np.intp)


def screening_features(project: Project, screening: Screening, question: str = "",
                       token: CancelToken = NEVER) -> Job[Features]:
    """The :class:`Features` of a screening's items."""
    return build_features(project, screening.topic_id, store.items(project, screening.id),
                          question, token)


def build_features(project: Project, topic_id: int, items: list[int], question: str = "",
                   token: CancelToken = NEVER) -> Job[Features]:
    """The :class:`Features` of records ``items`` of topic ``topic_id`` (reads only)."""
    yield Progress(0, 3, "reading records")
    texts = _texts(project, items)
    row_of_work = {work: row for row, work in enumerate(work_ids(project, items))}
    core = project.db.execute(
        "SELECT MIN(r.id), r.work_id FROM live_records r JOIN imports i ON i.id = r.import_id "
        "WHERE i.topic_id = ? AND i.role = 'core' GROUP BY r.work_id ORDER BY r.work_id",
        [topic_id]).fetchall()
    extra = [record for record, work in core if work not in row_of_work]
    core_rows = [row_of_work[work] for _, work in core if work in row_of_work]
    core_rows += range(len(items), len(items) + len(extra))
    texts += _texts(project, extra)
    if question.strip():
        texts.append(question.strip())
    token.raise_if_cancelled()
    yield Progress(1, 3, "TF-IDF")
    matrix = tfidf_matrix(texts)  # an EmbeddingError (a LitqError) when no word is usable
    token.raise_if_cancelled()
    yield Progress(3, 3, "features ready")
    return Features(tuple(items), matrix, np.array(sorted(core_rows), dtype=np.intp),
                    len(texts) - 1 if question.strip() else None)


def work_ids(project: Project, record_ids: list[int]) -> list[int]:
    """The work of each record, in the order given."""
    return [row[1] for row in _rows(project, "work_id", record_ids)]


def _rows(project: Project, columns: str, record_ids: list[int]) -> list[tuple]:
    """``(id, columns…)`` rows of ``record_ids``, in the order given."""
    found: dict[int, tuple] = {}
    for start in range(0, len(record_ids), 20_000):
        part = record_ids[start:start + 20_000]
        marks = ",".join("?" * len(part))
        for row in project.db.execute(
                f"SELECT id, {columns} FROM records WHERE id IN ({marks})", part):
            found[row[0]] = tuple(row)
    return [found[record] for record in record_ids]


def _texts(project: Project, record_ids: list[int]) -> list[str]:
    return [Document(title or "", abstract or "").text
            for _, title, abstract in _rows(project, "title, abstract", record_ids)]
