"""The BLAS thread counts this process runs with now (threadpoolctl's view)."""

from threadpoolctl import threadpool_info


def blas_threads() -> set[int]:
    """The thread count of every BLAS library loaded, as a set (one value when they agree)."""
    return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
