"""A large screening's features from hashed term counts kept in the project file: the
weights by hand, the vocabulary's TF-IDF up to the order of the columns, the stored rows
(once per record, in worker processes, going with their records, refused when damaged)
and the ranking they give."""

from math import log, sqrt

import numpy as np
import pytest
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.utils import murmurhash3_32

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.imports import delete_import
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.scaleout import main_importable
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking import features, features_apart, term_counts
from litqeval_gui.core.screening.ranking.features import MAX_DF, screening_features, tfidf
from litqeval_gui.core.screening.ranking.retrain import rank
from litqeval_gui.core.screening.ranking.term_counts import (
    COLUMNS,
    count_terms,
    store_counts,
    stored_counts,
    weigh,
)
from tests.support.screening import labelled_records, screening_project


def test_the_weights_by_hand():
    x = weigh(count_terms(["aa aa bb", "bb cc", "cc dd"]), MAX_DF).toarray()
    idf1, idf2 = log(4 / 2) + 1, log(4 / 3) + 1  # smooth idf, n = 3, df 1 and 2
    # row 0: aa (count 2: 1 + ln 2), bb, "aa aa", "aa bb"; row 1: bb, cc, "bb cc"
    row0 = sorted([(1 + log(2)) * idf1, idf2, idf1, idf1])
    row1 = sorted([idf2, idf2, idf1])
    norm0, norm1 = sqrt(sum(v * v for v in row0)), sqrt(sum(v * v for v in row1))
    assert sorted(x[0][x[0] > 0]) == pytest.approx([v / norm0 for v in row0], rel=1e-6)
    assert sorted(x[1][x[1] > 0]) == pytest.approx([v / norm1 for v in row1], rel=1e-6)
    # they share bb only
    assert x[0] @ x[1] == pytest.approx(idf2 * idf2 / (norm0 * norm1), rel=1e-6)


def test_weighed_in_chunks_of_rows_as_at_once(monkeypatch):
    records, _ = labelled_records(50, 0.2, seed=1)
    texts = [f"{r.title} {r.abstract} study" for r in records]
    whole = weigh(count_terms(texts), MAX_DF)
    monkeypatch.setattr(term_counts, "CHUNK_ROWS", 7)  # 8 chunks, the last of 1 row
    chunked = weigh(count_terms(texts), MAX_DF)
    assert chunked.nnz == whole.nnz and abs(chunked - whole).max() == 0
    assert np.allclose(np.asarray(chunked.multiply(chunked).sum(axis=1)).ravel(), 1.0)


def test_counts_are_the_terms_counts_summed_over_their_columns():
    records, _ = labelled_records(120, 0.2, seed=5)
    texts = [f"{r.title} {r.abstract}" for r in records]
    counter = CountVectorizer(ngram_range=(1, 2))
    counts = counter.fit_transform(texts).tocoo()
    columns = np.abs(np.array([murmurhash3_32(term, positive=False) for term
                               in counter.get_feature_names_out()], dtype=np.int64)) % COLUMNS
    assert np.unique(columns).size < columns.size  # some terms share a column
    expected = sparse.csr_matrix((counts.data, (counts.row, columns[counts.col])),
                                 shape=(len(texts), COLUMNS))  # duplicates summed
    assert (count_terms(texts) != expected).nnz == 0


def test_hashed_tfidf_is_the_vocabularys_up_to_the_order_of_the_columns():
    records, _ = labelled_records(30, 0.2, seed=5)
    texts = [f"{r.title} study" for r in records]  # "study" in all: dropped
    hashed, vocabulary = weigh(count_terms(texts), MAX_DF), tfidf(texts)
    # no two terms share a column here, so the columns are the vocabulary's, reordered
    assert np.unique(hashed.indices).size == vocabulary.shape[1]
    assert hashed.nnz == vocabulary.nnz
    gram = (hashed @ hashed.T).toarray()
    assert np.abs(gram - (vocabulary @ vocabulary.T).toarray()).max() < 1e-5
    study = count_terms(["study"]).indices[0]
    assert study not in hashed.indices


@pytest.fixture
def project(tmp_path):
    path, _ = screening_project(tmp_path, 60, 0.2, seed=3)
    with Project.open(path) as opened:
        yield opened


def _count(project):
    """(records, blocks) stored."""
    blocks = [r for r, in project.db.execute("SELECT records FROM term_counts")]
    return sum(len(b) // 8 for b in blocks), len(blocks)


def _texts(project, ids):
    return term_counts._texts(project, ids)


def test_counts_are_stored_once_and_read_back_as_hashed(project, monkeypatch):
    ids = [r for r, in project.db.execute("SELECT id FROM records ORDER BY id")]
    monkeypatch.setattr(term_counts, "BATCH", 7)  # nine batches: the worker processes
    assert main_importable()
    assert run_job(store_counts(project, 1, ids)) == 60 and _count(project) == (60, 9)
    assert run_job(store_counts(project, 1, ids)) == 0
    wanted = ids[::-1] + ids[:3]  # any order, a record twice
    read = stored_counts(project, 1, wanted)
    hashed = count_terms(_texts(project, wanted))
    assert read.shape == hashed.shape and (read != hashed).nnz == 0


def test_unstored_counts_are_hashed_and_nothing_is_written(project):
    ids = [r for r, in project.db.execute("SELECT id FROM records ORDER BY id")]
    run_job(store_counts(project, 1, ids[:10]))
    read = stored_counts(project, 1, ids)
    assert (read != count_terms(_texts(project, ids))).nnz == 0 and _count(project) == (10, 1)


def _block(records, lengths, terms, counts):
    return [np.array(records, "<i8").tobytes(), np.array(lengths, "<i4").tobytes(),
            np.array(terms, "<i4").tobytes(), np.array(counts, "<u2").tobytes()]


@pytest.mark.parametrize(("block", "problem"), [
    (_block([0], [1, 1], [3], [1]), "parts differ"),
    (_block([0], [2], [3], [1]), "parts differ"),
    (_block([0], [1], [3], [1, 1]), "parts differ"),
    (_block([0], [1], [2 ** 20], [1]), "out of range"),
    (["text", *_block([0], [1], [3], [1])[1:]], "not bytes")])
def test_a_damaged_block_is_refused(project, block, problem):
    first = project.db.execute("SELECT MIN(id) FROM records").fetchone()[0]
    if isinstance(block[0], bytes):
        block[0] = np.array([first], "<i8").tobytes()
    with project.transaction():
        project.db.execute("INSERT INTO term_counts (import_id, records, lengths, terms, "
                           "counts) VALUES (1, ?, ?, ?, ?)", block)
    with pytest.raises(DamagedDataError, match=problem):
        stored_counts(project, 1, [first])


def test_counts_go_with_their_records(project):
    ids = [r for r, in project.db.execute("SELECT id FROM records")]
    run_job(store_counts(project, 1, ids))
    with project.transaction():
        delete_import(project.db, project.db.execute("SELECT id FROM imports").fetchone()[0])
    assert _count(project) == (0, 0)


def test_a_large_screening_ranks_as_with_the_vocabulary(tmp_path, monkeypatch):
    path, _ = screening_project(tmp_path, 20, 0.2, seed=2)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "S", ["L"])
        items = store.items(project, screening.id)
        for i, label in ((0, "include"), (1, "exclude"), (2, "exclude")):
            project.write(store.decide_op(screening, items[i], label, store.Context("Ann")))
        decisions = store.current_decisions(project, screening.id)
        small = run_job(screening_features(project, screening, "robotic surgery"))
        for module in (features, features_apart):
            monkeypatch.setattr(module, "HASHED_FROM", 1)
        large = run_job(features_apart.features_apart(project, screening, "robotic surgery"))
        assert _count(project) == (20, 1) and large.question_row == small.question_row == 20
    # no two of these texts' terms share a column: the two are the same up to their order
    assert np.unique(large.matrix.indices).size == small.matrix.shape[1]
    ours, theirs = rank(large, decisions, screening.scheme), rank(small, decisions,
                                                                  screening.scheme)
    score = dict(zip(theirs.records, theirs.scores, strict=True))
    assert np.allclose([score[r] for r in ours.records], ours.scores, atol=1e-5,
                       equal_nan=True)
