"""Features of a screening's items: TF-IDF of their text, or the topic's stored vectors.

One matrix row per item (title and abstract joined as the embedding backends join
them), then one row per core record whose work is not an item (a topic's core records
are known relevant: cold-start positives), then the review question when one is given.
Built once per screening session as a job; retraining only reads it.

``tfidf`` (the default): scikit-learn's TfidfVectorizer over words and pairs of
adjacent words (1–2-grams; words of two or more letters, lowercased, no stop word
list), sublinear tf (1 + log count), smooth idf, terms in more than 95 % of the records
dropped (with two or more records), rows scaled to unit length: the feature extractor
of ASReview's ``elas_u4``. From
:data:`~litqeval_gui.core.screening.ranking.term_counts.HASHED_FROM` rows the terms are
hashed instead of kept in a vocabulary, and their counts stored
(:mod:`~litqeval_gui.core.screening.ranking.term_counts`). Against single words with raw counts (ASReview's plain
``tfidf``), together with the heavier weight of relevant records
(:mod:`~litqeval_gui.core.screening.ranking.models`), it raised the default model's mean WSS@95
on Nagtegaal 2019 and Radjenovic 2013 by 0.06 and 0.035 and lowered it on Cohen ACE by
0.027 (5 seeds each); the vocabulary is ~13x larger and a fit ~3x slower. The rows'
column indices are sorted once here: scikit-learn's fit checks ``X.max()``, which on
unsorted rows sorts a copy at every fit. One matrix serves every model.

``tfidf+embedding:BACKEND``: the TF-IDF row and the stored vector side by side (one
sparse matrix, each block of unit length; the question's vector block is zero).

``embedding:BACKEND``: the unit vectors the evaluation stored for the topic
(:mod:`~litqeval_gui.core.evaluation.vector_store`, backend ``lsa``, ``minilm`` or
``precomputed``); a record stored without a vector (no text) is a zero row. The review
question has no stored vector, so it gives no cold start with these features.

An item whose row is all zeros (``Features.blank``: a "no text" record, imported by an
identifier alone, or one whose words are all dropped) has nothing a model can score: a
classifier would give it its intercept, an arbitrary score. :func:`blank_last` ranks such
items after every item with a score, in list order, until they have text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer

from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.registry import BACKENDS
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.inputs import take
from litqeval_gui.core.evaluation.settings import load_settings
from litqeval_gui.core.evaluation.vector_store import latest_set, load_vectors, set_status
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import collection
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.ranking.term_counts import (
    HASHED_FROM,
    count_terms,
    stored_counts,
    weigh,
)

TFIDF = "tfidf"
MAX_DF = 0.95
EMBEDDING = "embedding"
BESIDE = "tfidf+embedding"


class MissingVectorsError(LitqError):
    """Embedding features asked for a topic without a complete, current set of vectors."""


@dataclass(frozen=True)
class Features:
    """``matrix`` rows: ``items`` (record ids, list order), then the extra core rows, then
    the question (``question_row``; None without one). ``core_rows``: rows of core works.
    ``kind``: ``tfidf`` (sparse, non-negative), ``embedding:BACKEND`` (dense) or
    ``tfidf+embedding:BACKEND`` (sparse).
    ``blank``: per item, whether its row is all zeros (module docstring)."""

    items: tuple[int, ...]
    matrix: sparse.csr_matrix | np.ndarray
    core_rows: np.ndarray
    question_row: int | None
    kind: str = TFIDF
    blank: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = np.asarray(self.items, dtype=np.int64)
        by_id = np.argsort(ids, kind="stable")
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_by_id", (ids[by_id], by_id))
        x = self.matrix
        blank = (np.diff(x.indptr[:ids.size + 1]) == 0 if sparse.issparse(x)
                 else ~np.any(x[:ids.size], axis=1))
        object.__setattr__(self, "blank", np.asarray(blank, dtype=bool))

    def item_records(self, rows: np.ndarray) -> np.ndarray:
        """The record ids of item ``rows``."""
        return self._ids[rows]

    def item_rows(self, record_ids: Sequence[int]) -> np.ndarray:
        """The rows of items ``record_ids`` (in numpy: a retrain runs beside the screen,
        and a Python loop over 100 000 items would hold the GIL for tens of ms);
        LookupError when one is not an item."""
        sorted_ids, rows = self._by_id
        return take(sorted_ids, rows, np.asarray(record_ids, dtype=np.int64)).astype(np.intp)


def blank_last(scores: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """``scores`` with ``-inf`` where ``blank`` (items' :attr:`Features.blank`): sorted
    highest first (stable), those items follow every scored one, in list order."""
    return np.where(blank, -np.inf, scores)


def parse_features(spec: str) -> tuple[str, str | None]:
    """``tfidf`` → (tfidf, None); ``embedding[:BACKEND]`` and ``tfidf+embedding[:BACKEND]``
    → (that kind, BACKEND or None: the topic's evaluation backend)."""
    kind, _, backend = spec.strip().partition(":")
    if kind == TFIDF and not backend:
        return TFIDF, None
    if kind in (EMBEDDING, BESIDE) and (not backend or backend in BACKENDS):
        return kind, backend or None
    raise LitqError(f"unknown features {spec!r}; use tfidf, embedding or tfidf+embedding, "
                    f"the last two optionally with :BACKEND, one of {', '.join(BACKENDS)}")


def screening_features(project: Project, screening: Screening, question: str = "",
                       token: CancelToken = NEVER, features: str = TFIDF) -> Job[Features]:
    """The :class:`Features` of a screening's items."""
    return build_features(project, screening.topic_id, store.items(project, screening.id),
                          question, token, features)


def build_features(project: Project, topic_id: int, items: list[int], question: str = "",
                   token: CancelToken = NEVER, features: str = TFIDF) -> Job[Features]:
    """The :class:`Features` of records ``items`` of topic ``topic_id`` (reads only);
    ``features`` as :func:`parse_features` reads it."""
    kind, backend = parse_features(features)
    yield Progress(0, 3, "reading records")
    row_of_work = {work: row for row, work in enumerate(work_ids(project, items))}
    core = project.db.execute(
        "SELECT MIN(r.id), r.work_id FROM live_records r JOIN imports i ON i.id = r.import_id "
        "WHERE i.topic_id = ? AND i.role = 'core' GROUP BY r.work_id ORDER BY r.work_id",
        [topic_id]).fetchall()
    extra = [record for record, work in core if work not in row_of_work]
    core_rows = [row_of_work[work] for _, work in core if work in row_of_work]
    core_rows += range(len(items), len(items) + len(extra))
    core_rows_array = np.array(sorted(core_rows), dtype=np.intp)
    token.raise_if_cancelled()
    if kind == EMBEDDING:
        backend = backend or _evaluation_backend(project, topic_id)
        yield Progress(1, 3, f"reading the stored {backend} vectors")
        matrix = stored_vectors(project, topic_id, backend, items + extra)
        yield Progress(3, 3, "features ready")
        return Features(tuple(items), matrix, core_rows_array, None, f"{EMBEDDING}:{backend}")
    yield Progress(1, 3, "TF-IDF")
    if len(items) + len(extra) + 1 >= HASHED_FROM:
        matrix = hashed_tfidf(project, topic_id, items + extra, question.strip())
    else:
        texts = _texts(project, items) + _texts(project, extra)
        matrix = tfidf(texts + [question.strip()] if question.strip() else texts)
    token.raise_if_cancelled()
    name = TFIDF
    if kind == BESIDE:
        backend = backend or _evaluation_backend(project, topic_id)
        yield Progress(2, 3, f"reading the stored {backend} vectors")
        vectors = stored_vectors(project, topic_id, backend, items + extra)
        vectors = np.vstack([vectors, np.zeros((matrix.shape[0] - vectors.shape[0],
                                                vectors.shape[1]), dtype=np.float32)])
        matrix = sparse.hstack([matrix, sparse.csr_matrix(vectors)], format="csr")
        matrix.sort_indices()
        name = f"{BESIDE}:{backend}"
    yield Progress(3, 3, "features ready")
    return Features(tuple(items), matrix, core_rows_array,
                    matrix.shape[0] - 1 if question.strip() else None, name)


def tfidf(texts: list[str]) -> sparse.csr_matrix:
    """The texts × terms TF-IDF matrix (module docstring), float32, CSR with sorted
    column indices."""
    try:
        matrix = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True,
                                 max_df=MAX_DF if len(texts) > 1 else 1.0,
                                 dtype=np.float32).fit_transform(texts).tocsr()
    except ValueError:  # no word of two letters anywhere, or only words in every record
        raise LitqError(f"no usable words in the {len(texts)} records to screen "
                        "(titles and abstracts are empty or hold only symbols)") from None
    # sorted column indices: a classifier's fit checks X.max(), which on unsorted rows
    # sorts a copy every time (a third of a 1–2-gram logistic fit on 1 000 rows)
    matrix.sort_indices()
    return matrix


def hashed_tfidf(project: Project, topic_id: int, record_ids: list[int],
                 question: str) -> sparse.csr_matrix:
    """The TF-IDF of ``record_ids`` (of topic ``topic_id``), then of the ``question``
    when one is given, from hashed term counts
    (:mod:`~litqeval_gui.core.screening.ranking.term_counts`)."""
    counts = stored_counts(project, topic_id, record_ids)
    if question:
        counts = sparse.vstack([counts, count_terms([question])], format="csr")
    return weigh(counts, MAX_DF)


def stored_vectors(project: Project, topic_id: int, backend: str,
                   record_ids: list[int]) -> np.ndarray:
    """The stored ``backend`` vectors of ``record_ids`` (a zero row for a record stored
    without one); :class:`MissingVectorsError` unless the set is complete and current."""
    status = set_status(project.db, topic_id, backend)
    emb = latest_set(project.db, topic_id, backend)
    if status != "ready" or emb is None:
        why = {"missing": "has no stored", "pending": "has unfinished",
               "stale": "has out-of-date"}[status]
        topic = project.topic_name(topic_id)
        err = MissingVectorsError(
            f"topic {topic!r} {why} {backend} vectors: compute them with Evaluate Topic "
            f"(backend {backend}) before screening with embedding features")
        err.cli_hint = f"(or run: litqeval embed --topic {topic!r} --backend {backend})"
        raise err
    ids, vectors = load_vectors(project.db, emb)
    wanted = np.asarray(record_ids, dtype=np.int64)
    out = np.zeros((wanted.size, vectors.shape[1]), dtype=np.float32)
    have = np.isin(wanted, ids)
    out[have] = take(ids, vectors, wanted[have])
    return out


def _evaluation_backend(project: Project, topic_id: int) -> str:
    return load_settings(project, project.topic_name(topic_id)).backend


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
    """Each record's text; a record without one has its work's
    (:func:`~litqeval_gui.core.records.collection.text_sources`)."""
    source = collection.text_sources(project.db, record_ids)
    rows = dict((r[0], r[1:]) for r in _rows(project, "title, abstract",
                                             sorted({*record_ids, *source.values()})))
    return [Document(*(value or "" for value in rows[source.get(r, r)])).text
            for r in record_ids]
