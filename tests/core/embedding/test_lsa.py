"""The default ``lsa`` backend: deterministic unit rows that keep topics apart."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from threadpoolctl import threadpool_limits

from litqeval_gui.core.embedding import blas, lsa
from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.errors import EmbeddingCancelled, EmbeddingError
from litqeval_gui.core.embedding.lsa import GramOperator, LsaBackend, lsa_rows, tfidf_matrix
from litqeval_gui.core.jobs import CancelToken, run_job
from tests.support.blas import blas_threads


def embed(docs, **kwargs):
    return run_job(LsaBackend(**kwargs).embed(docs))


def test_same_input_gives_identical_bytes(corpus):
    docs, _ = corpus
    first, second = embed(docs), embed(docs)
    assert first.vectors.tobytes() == second.vectors.tobytes()
    assert first.vectors.dtype == np.float32


def test_rows_are_unit_length_one_per_record(corpus):
    docs, _ = corpus
    result = embed(docs)
    assert result.rows.tolist() == list(range(len(docs)))
    np.testing.assert_allclose(np.linalg.norm(result.vectors, axis=1), 1.0, atol=1e-6)


def test_records_of_one_topic_are_closer_than_records_of_another(corpus):
    docs, labels = corpus
    vectors = embed(docs).vectors
    cos = vectors @ vectors.T
    same = np.equal.outer(labels, labels)
    np.fill_diagonal(cos, -np.inf)
    nearest = cos.argmax(axis=1)
    assert all(labels[i] == labels[j] for i, j in enumerate(nearest))
    off_diagonal = ~np.eye(len(docs), dtype=bool)
    assert cos[same & off_diagonal].mean() > 3 * cos[~same].mean()


def test_the_tfidf_matrix_has_the_bytes_of_scikit_learns_vectorizer(make_corpus):
    docs, _ = make_corpus(30)
    texts = [d.text for d in docs] + ["the of and", "heart heart heart attack", "Heart."]
    ours = tfidf_matrix(texts)
    theirs = TfidfVectorizer(sublinear_tf=True, stop_words="english", ngram_range=(1, 2),
                             dtype=np.float32).fit_transform(texts)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype == np.float32
    for part in ("indptr", "indices", "data"):  # a row's terms in the same order too
        assert getattr(ours, part).tobytes() == getattr(theirs, part).tobytes(), part


def test_with_a_dimension_per_record_every_angle_of_the_tfidf_rows_is_kept(make_corpus):
    # SVD to k = n dimensions spans the rows' space, so cosines equal the TF-IDF cosines.
    docs, _ = make_corpus(10)
    result = embed(docs)
    assert result.dim == len(docs)
    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", ngram_range=(1, 2))
    rows = tfidf.fit_transform([d.text for d in docs]).toarray()
    np.testing.assert_allclose(result.vectors @ result.vectors.T, rows @ rows.T, atol=1e-5)


def test_coordinates_match_scikit_learns_truncated_svd(make_corpus):
    # Same TF-IDF; exact SVD (ARPACK) as the independent reference, for the 3 topic
    # directions (beyond them the random words' spectrum is flat, where any randomized
    # SVD converges slowly). Compare singular values and the records' cosines, which a
    # randomized SVD gets to ~1e-2 (scikit-learn's own randomized one to 3e-3 here).
    docs, _ = make_corpus(30)
    x = tfidf_matrix([d.text for d in docs])
    ours = run_job(lsa_rows(x, 3, seed=0))
    reference = TruncatedSVD(3, algorithm="arpack").fit(x)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=0), reference.singular_values_,
                               rtol=1e-4)
    theirs = reference.transform(x)
    cos = lambda m: (m / np.linalg.norm(m, axis=1, keepdims=True)) @ (  # noqa: E731
        m / np.linalg.norm(m, axis=1, keepdims=True)).T
    np.testing.assert_allclose(cos(ours), cos(theirs), atol=0.02)
    vectors = embed(docs, max_dim=3).vectors
    np.testing.assert_allclose(vectors @ vectors.T, cos(ours), atol=1e-6)


def test_dimension_is_capped_at_256_and_at_the_number_of_records(make_corpus):
    docs, _ = make_corpus(100)  # 300 records, several hundred terms
    assert embed(docs).dim == 256
    assert embed(docs, max_dim=16).dim == 16
    assert embed(docs[:7]).dim == 7


def test_records_without_usable_text_get_no_vector_and_are_counted(corpus):
    docs, _ = corpus
    docs = [Document(), *docs[:5], Document("the of and", ""), Document("", "  ")]
    result = embed(docs)
    assert result.rows.tolist() == [1, 2, 3, 4, 5]
    assert result.missing.tolist() == [0, 6, 7]
    assert result.notes == ("2 of 8 records have no title or abstract",
                            "1 of 8 records have no words the lsa backend can use "
                            "(only stop words or symbols)")


def test_too_little_text_is_one_clear_error():
    with pytest.raises(EmbeddingError, match="at least 2 records"):
        embed([Document("heart"), Document()])
    with pytest.raises(EmbeddingError, match="no usable words"):
        embed([Document("the"), Document("of and")])


def test_progress_runs_to_the_end_and_cancel_stops_the_job(corpus):
    docs, _ = corpus
    seen = []
    run_job(LsaBackend().embed(docs), seen.append)
    assert [p.done for p in seen] == list(range(9))
    assert {p.total for p in seen} == {8}
    token = CancelToken()
    job = LsaBackend().embed(docs, token)
    next(job), next(job), next(job)  # TF-IDF done, the SVD under way
    token.cancel()
    with pytest.raises(EmbeddingCancelled, match="embedding cancelled"):
        run_job(job)


def test_the_gram_products_give_the_same_bytes_on_any_number_of_threads(make_corpus,
                                                                        monkeypatch):
    # Each thread sums whole rows term by term as one sparse product does: X Xᵀ Q is
    # bit-identical to the plain scipy formula, whatever the blocks and threads.
    docs, _ = make_corpus(40)
    x = tfidf_matrix([d.text for d in docs])
    monkeypatch.setattr(lsa, "TERM_BLOCK", 97)  # several blocks of terms
    q = np.random.default_rng(0).standard_normal((x.shape[0], 12), dtype=np.float32)
    xt = x.T.tocsr()
    expected = np.zeros_like(q)
    for start in range(0, xt.shape[0], lsa.TERM_BLOCK):
        rows = xt[start:start + lsa.TERM_BLOCK]
        expected += rows.T @ (rows @ q)
    for parts in (1, 2, 5):
        with ThreadPoolExecutor(parts) as pool:
            gram = GramOperator(x, parts)
            got = gram(q, pool)
            assert got.tobytes() == expected.tobytes(), parts
            # again on the arrays kept from the first call, Q Fortran-ordered as a QR gives it
            again = gram(np.asfortranarray(q), pool)
            assert again.tobytes() == expected.tobytes(), parts
            assert gram(q[:, :5], pool).tobytes() == expected[:, :5].tobytes(), parts


def test_the_dense_steps_run_on_one_blas_thread_whatever_the_callers_limit(make_corpus,
                                                                          monkeypatch):
    # The QR and Rayleigh–Ritz bytes depend on the BLAS's thread count (the components
    # flip sign), and two BLAS threads spin on a busy machine: the SVD runs on one, and
    # gives the caller its own limit back.
    docs, _ = make_corpus(40)
    x = tfidf_matrix([d.text for d in docs])
    seen: list[set[int]] = []
    product = GramOperator.__call__

    def watched(self, block, pool):
        seen.append(blas_threads())
        return product(self, block, pool)

    monkeypatch.setattr(GramOperator, "__call__", watched)
    results = []
    for limit in (2, 1):
        with threadpool_limits(limit, "blas"):
            results.append(run_job(lsa_rows(x, 8, seed=0)))
            assert blas_threads() == {limit}
    assert seen and all(threads == {blas.BLAS_THREADS} for threads in seen)
    assert len(seen) == 2 * (lsa.POWER_ITERATIONS + 1)
    assert results[0].tobytes() == results[1].tobytes()
