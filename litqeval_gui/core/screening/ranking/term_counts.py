"""A large screening's TF-IDF from hashed term counts kept in the project file.

From :data:`HASHED_FROM` texts, the vocabulary of words and pairs that TfidfVectorizer
builds outgrows a laptop (900 000 records: 11.6 M terms, 262 s, 6 GB). There, each
record's terms — the same words and pairs of adjacent words as the vocabulary's — are
hashed into :data:`COLUMNS` columns instead (scikit-learn's HashingVectorizer: MurmurHash3,
no sign flipping) and counted once: a record's text never changes, so its counts are
stored and read back at every opening. They are stored in blocks of up to
:data:`BATCH` records of one import (table ``term_counts``: the records' ids, their
numbers of terms, their terms' columns and counts, as little-endian int64, int32, int32
and uint16 bytes), so a million records are a few hundred rows read in bulk. Records
without stored counts are hashed, in :data:`WORKERS` processes when
:func:`store_counts` is asked to. The weights follow from
the counts as :func:`~litqeval_gui.core.screening.ranking.features.tfidf` weighs its own:
columns in more than 95 % of the rows dropped, then TfidfTransformer (sublinear tf
1 + ln c, smooth idf ln((1 + n) / (1 + df)) + 1, rows of unit length). Two terms that
hash to one column count as one term: that, and nothing else, sets the two apart.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import HashingVectorizer, TfidfTransformer

from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.projectfile.changes import NOTHING, Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.records import collection
from litqeval_gui.core.records.importing.workers import start_workers

HASHED_FROM = 50_000  # texts; below, the vocabulary's TF-IDF (features.tfidf)
COLUMNS = 2 ** 20
BATCH = 5_000  # records per block, and per task of a worker (their ids fit in a pipe)
WORKERS = 2
CHUNK_ROWS = 20_000  # rows weighed at a time
MAX_COUNT = np.iinfo(np.uint16).max
_HASHER = HashingVectorizer(n_features=COLUMNS, ngram_range=(1, 2), alternate_sign=False,
                            norm=None, dtype=np.float32)
Block = tuple[int, bytes, bytes, bytes, bytes]  # import id, records, lengths, terms, counts


class Stored(NamedTuple):
    """Counts in rows: ``records`` (ids), ``indptr`` into ``terms`` and ``counts``."""

    records: np.ndarray
    indptr: np.ndarray
    terms: np.ndarray
    counts: np.ndarray

    def matrix(self, rows: np.ndarray) -> sparse.csr_matrix:
        """The float32 CSR matrix of ``rows``."""
        whole = sparse.csr_matrix((self.counts.astype(np.float32), self.terms, self.indptr),
                                  shape=(self.records.size, COLUMNS))
        if rows.size == self.records.size and np.array_equal(rows, np.arange(rows.size)):
            return whole
        return whole[rows]


def count_terms(texts: Sequence[str]) -> sparse.csr_matrix:
    """The texts × :data:`COLUMNS` matrix of hashed term counts (float32, sorted columns)."""
    counts = _HASHER.transform(texts).tocsr()
    counts.sort_indices()
    return counts


def weigh(counts: sparse.csr_matrix, max_df: float) -> sparse.csr_matrix:
    """TF-IDF of ``counts`` (module docstring), in place; columns in more than ``max_df``
    of the rows dropped (with two rows or more). Counted and weighed :data:`CHUNK_ROWS`
    rows at a time: a call over a million rows at once would hold Python's lock, and
    freeze the window, for a fifth of a second."""
    counts = counts.astype(np.float32, copy=False)
    weights = TfidfTransformer(sublinear_tf=True).fit(counts)
    common = np.zeros(counts.shape[1], dtype=bool)
    if counts.shape[0] > 1:  # a column's idf is its own: dropping it after the fit is alike
        df = np.zeros(counts.shape[1], dtype=np.int64)
        for part, _ in _chunks(counts):
            df += np.bincount(part.indices, minlength=counts.shape[1])
        common = df > max_df * counts.shape[0]
        weights.idf_ = np.where(common, 0.0, weights.idf_)
    for part, (first, last) in _chunks(counts):  # the same entries, weighed
        counts.data[first:last] = weights.transform(part, copy=False).data
    if common.any():  # rows' norms are unchanged by the zeros; drop them as entries
        counts.eliminate_zeros()
    return counts


def _chunks(matrix: sparse.csr_matrix) -> Iterator[tuple[sparse.csr_matrix, tuple[int, int]]]:
    """:data:`CHUNK_ROWS` rows of ``matrix`` at a time, with the range of its entries
    they hold (scipy copies a small part of a large array)."""
    for start in range(0, matrix.shape[0], CHUNK_ROWS):
        end = min(start + CHUNK_ROWS, matrix.shape[0])
        first, last = int(matrix.indptr[start]), int(matrix.indptr[end])
        yield sparse.csr_matrix((matrix.data[first:last], matrix.indices[first:last],
                                 matrix.indptr[start:end + 1] - first),
                                shape=(end - start, matrix.shape[1])), (first, last)


def stored_counts(project: Project, topic_id: int,
                  record_ids: Sequence[int]) -> sparse.csr_matrix:
    """The counts of ``record_ids``' texts (a record without one: its text source's,
    :func:`~litqeval_gui.core.records.collection.text_sources`), records of topic
    ``topic_id``, one row each in that order; those not stored are hashed here (nothing
    is written). DamagedDataError for a stored block that is not records' counts."""
    wanted = np.asarray(_sources(project, record_ids), dtype=np.int64)
    stored = _stored(project, topic_id)
    missing = _absent(wanted, stored.records).tolist()
    if missing:
        stored = _joined([stored] + [_unpacked(block) for start in range(0, len(missing), BATCH)
                                     for block in [_hashed(project, 0,
                                                           missing[start:start + BATCH])]])
    order = np.argsort(stored.records, kind="stable")
    rows = order[np.searchsorted(stored.records, wanted, sorter=order)]
    return stored.matrix(rows)


def store_counts(project: Project, topic_id: int, record_ids: Sequence[int],
                 token: CancelToken = NEVER) -> Job[int]:
    """Hash and store the counts of ``record_ids``' texts (as :func:`stored_counts` reads
    them) that have none, in :data:`WORKERS` processes when there are several blocks,
    each block committed as it comes; returns how many records were stored."""
    wanted = np.asarray(_sources(project, record_ids), dtype=np.int64)
    have = [np.frombuffer(r, dtype="<i8") for r, in project.db.execute(
        f"SELECT records FROM term_counts WHERE {_OF_TOPIC}", [topic_id])]
    missing = _absent(wanted, np.concatenate(have) if have else wanted[:0]).tolist()
    tasks = [(str(project.path), import_id, np.asarray(ids[start:start + BATCH], "<i8").tobytes())
             for import_id, ids in _by_import(project, missing).items()
             for start in range(0, len(ids), BATCH)]
    if not tasks:
        return 0
    workers = start_workers(_hash_task, WORKERS) if len(tasks) > 1 else None
    results = (workers.results(tasks) if workers is not None
               else (_hash_task(task) for task in tasks))
    done, message = 0, "counting the records' words"
    try:
        yield Progress(0, len(missing), message)
        for block in results:
            token.raise_if_cancelled()
            if block is not None:  # None: the workers are still busy
                project.write(lambda p, row=block: _insert(p, row))
                done += len(block[1]) // 8
            yield Progress(done, len(missing), message)
    finally:
        if workers is not None:
            workers.stop()
    return done


_OF_TOPIC = "import_id IN (SELECT id FROM imports WHERE topic_id = ?)"


def _absent(wanted: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The values of ``wanted`` not in ``present``, sorted, each once (by sorting and
    searching: numpy's hashed ``unique``, which ``isin`` also calls, takes seconds on a
    million ids)."""
    values = np.sort(wanted)
    values = values[np.concatenate([[True], values[1:] != values[:-1]])] if values.size else values
    known = np.sort(present)
    at = np.minimum(np.searchsorted(known, values), max(known.size - 1, 0))
    return values if not known.size else values[known[at] != values]


def _sources(project: Project, record_ids: Sequence[int]) -> list[int]:
    source = collection.text_sources(project.db, record_ids)
    return [source.get(int(r), int(r)) for r in record_ids]


def _by_import(project: Project, record_ids: list[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for start in range(0, len(record_ids), 20_000):
        part = record_ids[start:start + 20_000]
        for record, import_id in project.db.execute(
                f"SELECT id, import_id FROM records WHERE id IN ({','.join('?' * len(part))}) "
                "ORDER BY id", part):
            found.setdefault(import_id, []).append(record)
    return found


def _hash_task(task: tuple[str, int, bytes]) -> Block:
    """A worker's task: the block of the records of import ``task[1]`` whose int64 ids
    ``task[2]`` holds, in the project at path ``task[0]`` (opened read-only)."""
    path, import_id, ids = task
    with Project.open(path, readonly=True, checked=True) as project:
        return _hashed(project, import_id, np.frombuffer(ids, dtype="<i8").tolist())


def _hashed(project: Project, import_id: int, record_ids: list[int]) -> Block:
    """The block of ``record_ids`` (counts capped at :data:`MAX_COUNT`)."""
    counts = count_terms(_texts(project, record_ids))
    return (import_id, np.asarray(record_ids, dtype="<i8").tobytes(),
            np.diff(counts.indptr).astype("<i4").tobytes(),
            counts.indices.astype("<i4").tobytes(),
            np.minimum(counts.data, MAX_COUNT).astype("<u2").tobytes())


def _insert(project: Project, block: Block) -> Changes:
    project.db.execute("INSERT INTO term_counts (import_id, records, lengths, terms, counts) "
                       "VALUES (?, ?, ?, ?, ?)", list(block))
    return NOTHING


def _stored(project: Project, topic_id: int) -> Stored:
    return _joined([_unpacked((0, *row)) for row in project.db.execute(
        f"SELECT records, lengths, terms, counts FROM term_counts WHERE {_OF_TOPIC}",
        [topic_id])])  # in no order: sorting them would copy every block


def _unpacked(block: Block) -> Stored:
    """One stored block as arrays; DamagedDataError unless its parts agree."""
    parts = block[1:]
    if not all(isinstance(part, bytes) for part in parts):
        raise DamagedDataError("the stored term counts", "a block that is not bytes")
    records, lengths, terms, counts = parts
    if len(records) % 8 or len(lengths) != len(records) // 2 or len(terms) % 4 \
            or len(counts) != len(terms) // 2:
        raise DamagedDataError("the stored term counts", "a block whose parts differ")
    sizes = np.frombuffer(lengths, dtype="<i4")
    columns = np.frombuffer(terms, dtype="<i4")
    if sizes.size and (sizes.min() < 0 or sizes.sum() != columns.size):
        raise DamagedDataError("the stored term counts", "a block whose parts differ")
    if columns.size and (columns.min() < 0 or columns.max() >= COLUMNS):
        raise DamagedDataError("the stored term counts", "a column out of range")
    indptr = np.zeros(sizes.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    return Stored(np.frombuffer(records, dtype="<i8"), indptr, columns,
                  np.frombuffer(counts, dtype="<u2"))


def _joined(blocks: list[Stored]) -> Stored:
    if not blocks:
        return Stored(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                      np.zeros(0, np.uint16))
    offsets = np.cumsum([0] + [b.terms.size for b in blocks[:-1]])
    return Stored(np.concatenate([b.records for b in blocks]),
                  np.concatenate([[0]] + [b.indptr[1:] + o for b, o in zip(blocks, offsets,
                                                                            strict=True)]),
                  np.concatenate([b.terms for b in blocks]).astype(np.int32, copy=False),
                  np.concatenate([b.counts for b in blocks]))


def _texts(project: Project, record_ids: Sequence[int]) -> list[str]:
    """Each record's own text (title and abstract, as the embedding backends join them)."""
    rows: dict[int, tuple[str, str]] = {}
    ids = list(record_ids)
    for start in range(0, len(ids), 20_000):
        part = ids[start:start + 20_000]
        for record, title, abstract in project.db.execute(
                f"SELECT id, title, abstract FROM records WHERE id IN ({','.join('?' * len(part))})",
                part):
            rows[record] = (title or "", abstract or "")
    return [Document(*rows.get(record, ("", ""))).text for record in ids]
