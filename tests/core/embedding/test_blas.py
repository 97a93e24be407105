"""One BLAS thread while any section of the process asks for it, however sections overlap
on threads (two topics' SVDs on a threaded Dask worker), and the caller's limit back after."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from threadpoolctl import threadpool_limits

from litqeval_gui.core.embedding.blas import release_control
from litqeval_gui.core.embedding.lsa import lsa_rows, tfidf_matrix
from litqeval_gui.core.jobs import run_job
from tests.support.blas import blas_threads


@pytest.fixture
def two_blas_threads():
    """Two BLAS threads set for the test, with no thread left in control of the pool."""
    limit = threadpool_limits(2, "blas")
    release_control()
    yield
    limit.restore_original_limits()
    release_control()


def test_two_svds_overlapping_on_two_threads_keep_one_blas_thread_until_both_end(
        two_blas_threads):
    x = tfidf_matrix([f"topic{i % 5} term{i % 7} word{i} shared words" for i in range(40)])
    alone = run_job(lsa_rows(x, 6, seed=0))
    first, second = lsa_rows(x, 6, seed=0), lsa_rows(x, 6, seed=0)
    with ThreadPoolExecutor(1) as one, ThreadPoolExecutor(1) as other:
        one.submit(next, first).result()  # inside its dense steps' section
        other.submit(next, second).result()
        assert blas_threads() == {1}
        first_rows = one.submit(run_job, first).result()  # leaves while the second is in
        assert blas_threads() == {1}  # before: 2, the first gave the threads back
        second_rows = other.submit(run_job, second).result()
    assert blas_threads() == {2}  # restored by the last to leave, on the other thread
    assert first_rows.tobytes() == second_rows.tobytes() == alone.tobytes()
