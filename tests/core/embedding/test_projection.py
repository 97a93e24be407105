"""The shared 2D map: UMAP/PCA coordinates, fidelity through metrics, numba's cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from litqeval_gui.core.embedding import blas, projection
from litqeval_gui.core.embedding.errors import EmbeddingCancelled, ProjectionError
from litqeval_gui.core.embedding.projection import project
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.metrics.fidelity import projection_fidelity
from tests.support.blas import blas_threads


def clusters(n_per=100, dim=30, seed=0):
    """Three well-separated clusters of unit rows, and each row's cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((3, dim)) * 3
    rows = np.vstack([c + rng.standard_normal((n_per, dim)) for c in centres])
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.astype(np.float32), np.repeat(np.arange(3), n_per)


def test_umap_map_is_finite_deterministic_and_keeps_clusters_apart():
    rows, label = clusters()
    first, second = run_job(project(rows)), run_job(project(rows))
    assert first.coords.shape == (300, 2) and first.coords.dtype == np.float32
    assert np.isfinite(first.coords).all()
    assert first.coords.tobytes() == second.coords.tobytes()
    assert run_job(project(rows, seed=1)).coords.tobytes() != first.coords.tobytes()
    assert first.params["metric"] == "cosine" and first.method == "umap"
    distance = np.linalg.norm(first.coords[:, None] - first.coords[None], axis=2)
    np.fill_diagonal(distance, np.inf)
    assert (label[distance.argmin(axis=1)] == label).all()
    assert 0.0 <= first.fidelity <= 1.0
    assert first.fidelity == projection_fidelity(first.coords, rows)


def test_umap_kernels_jitted_without_cache_are_cached_in_numba_cache_dir():
    run_job(project(clusters(n_per=10)[0]))
    from umap.umap_ import smooth_knn_dist  # umap-learn jits it without cache=True

    assert smooth_knn_dist.stats.cache_path.startswith(os.environ["NUMBA_CACHE_DIR"])


def test_kernels_numba_cannot_load_in_another_process_are_not_cached():
    # pynndescent's neighbour search asks numba for its thread count, its helpers take
    # the distance as an argument: cached, every process would write them once more.
    projection.use_numba_cache()
    import pynndescent.pynndescent_ as nnd
    from umap.umap_ import smooth_knn_dist

    projection.cache_umap_kernels()
    for kernel in (nnd.nn_descent, nnd.nn_descent_internal, nnd.init_rp_tree,
                   nnd.process_candidates):
        assert kernel.stats.cache_path is None, kernel.py_func.__name__
    assert smooth_knn_dist.stats.cache_path.startswith(os.environ["NUMBA_CACHE_DIR"])


def test_the_neighbour_search_compiles_in_the_background_once_for_a_large_umap_map(
        monkeypatch):
    import pynndescent.pynndescent_ as nnd

    started = []
    monkeypatch.setattr(projection, "_COMPILING", started)
    projection.compile_in_background(projection.NN_DESCENT_ROWS - 1, "umap")
    projection.compile_in_background(100_000, "pca")
    assert started == []
    projection.compile_in_background(projection.NN_DESCENT_ROWS, "umap")
    projection.compile_in_background(100_000, "umap")
    assert len(started) == 1 and started[0].daemon
    started[0].join()
    assert nnd.nn_descent.signatures  # what the map's neighbour search runs


def test_pca_fidelity_is_the_explained_variance_of_two_components():
    rows, _ = clusters(n_per=40)
    result = run_job(project(rows, "pca"))
    assert result.coords.shape == (120, 2)
    expected = PCA(n_components=2).fit(rows).explained_variance_ratio_.sum()
    assert result.fidelity == pytest.approx(expected, abs=1e-6)
    assert result.fidelity == projection_fidelity(result.coords, rows)


def test_tiny_or_degenerate_inputs_give_a_clear_result_or_error():
    rows, _ = clusters(n_per=2)
    with pytest.raises(ProjectionError, match="at least 5 records with vectors; there are 4"):
        run_job(project(rows[:4]))
    same = run_job(project(np.tile(rows[:1], (6, 1))))
    assert same.coords.tolist() == [[0.0, 0.0]] * 6
    assert np.isnan(same.fidelity) and "same vector" in same.note
    three = np.repeat(rows[:3], 5, axis=0)
    with pytest.raises(ProjectionError, match="these 15 records have 3 .use PCA."):
        run_job(project(three))
    assert np.isfinite(run_job(project(three, "pca")).coords).all()
    with pytest.raises(ProjectionError, match="finite"):
        run_job(project(np.full((6, 3), np.nan)))
    with pytest.raises(ProjectionError, match="unknown map method 'tsne'"):
        run_job(project(rows, "tsne"))


def test_a_cancelled_map_stops_before_fitting():
    token = CancelToken()
    token.cancel()
    with pytest.raises(EmbeddingCancelled):
        run_job(project(clusters(n_per=5)[0], token=token))


def test_a_numba_cache_dir_set_by_the_user_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert projection.use_numba_cache() == tmp_path / "mine"
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_the_map_points_numba_at_the_per_user_cache_before_umap_is_imported(tmp_path):
    # A stand-in umap records NUMBA_CACHE_DIR at its import; numba itself is imported
    # first, so its configuration must be re-read too.
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "umap.py").write_text(textwrap.dedent("""
        import os
        SEEN = os.environ.get("NUMBA_CACHE_DIR")
        class UMAP:
            def __init__(self, **kwargs):
                pass
            def fit_transform(self, rows):
                return rows[:, :2]
    """))
    script = textwrap.dedent("""
        import json, os, sys
        import numba.core.config
        import numpy as np
        from litqeval_gui.core.embedding.projection import project
        from litqeval_gui.core.jobs import run_job
        assert "umap" not in sys.modules
        rows = np.random.default_rng(0).standard_normal((8, 4))
        run_job(project(rows))
        import umap
        print(json.dumps({"seen": umap.SEEN, "numba": numba.core.config.CACHE_DIR,
                          "exists": os.path.isdir(umap.SEEN)}))
    """)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path / "fake"))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    expected = str(tmp_path / "cache" / "litqeval" / "numba")
    assert json.loads(out.stdout) == {"seen": expected, "numba": expected, "exists": True}


def test_a_umap_map_is_fitted_on_one_blas_thread_and_gives_the_callers_limit_back(
        monkeypatch):
    # Its spectral start (ARPACK) gives other bytes on two BLAS threads: the map would
    # depend on the machine's cores.
    umap = projection._import_umap()
    seen: list[set[int]] = []
    spectral = umap.umap_.spectral_layout

    def watched(*args, **kwargs):
        seen.append(blas_threads())
        return spectral(*args, **kwargs)

    monkeypatch.setattr(umap.umap_, "spectral_layout", watched)
    rows = clusters()[0]
    maps = []
    for limit in (2, 1):
        with threadpool_limits(limit, "blas"):
            maps.append(run_job(project(rows)).coords)
            assert blas_threads() == {limit}
    assert seen == [{blas.BLAS_THREADS}] * 2
    assert maps[0].tobytes() == maps[1].tobytes()


def test_a_map_fitted_in_the_child_is_byte_identical_to_one_fitted_here(monkeypatch):
    rows = clusters(n_per=1400, dim=16)[0]  # 4 200 rows: the neighbour search of real maps
    here = run_job(project(rows))
    assert projection.fit_in_child(len(rows), "umap")
    child = projection._CHILD[0]

    def not_here(*_):
        raise AssertionError("the map was fitted in this process")

    monkeypatch.setattr(projection, "_fit_umap", not_here)
    there = run_job(project(rows))
    assert there.coords.tobytes() == here.coords.tobytes()
    assert there.fidelity == here.fidelity
    assert projection._CHILD == [] and child.process.exitcode == 0
    assert not child.folder.exists()


def test_a_map_whose_child_died_is_fitted_here():
    rows = clusters(n_per=1400, dim=16)[0]
    assert projection.fit_in_child(len(rows), "umap")
    assert not projection.fit_in_child(len(rows), "umap")  # one at a time
    child = projection._CHILD[0]
    child.process.terminate()
    child.process.join()
    assert run_job(project(rows)).coords.tobytes() == run_job(project(rows)).coords.tobytes()
    assert projection._CHILD == [] and not child.folder.exists()


def test_no_map_child_for_pca_or_exact_neighbours_and_stopping_one_removes_it():
    assert not projection.fit_in_child(100_000, "pca")
    assert not projection.fit_in_child(projection.NN_DESCENT_ROWS - 1, "umap")
    assert projection.fit_in_child(projection.NN_DESCENT_ROWS, "umap")
    child = projection._CHILD[0]
    projection.stop_map_child()
    assert projection._CHILD == [] and not child.process.is_alive()
    assert not child.folder.exists()


def test_a_map_child_whose_parent_is_gone_ends_and_removes_its_folder(tmp_path, monkeypatch):
    """Killed, the app leaves its map child waiting for rows that never come: the child
    sees its parent gone, removes the folder and ends (not after an hour)."""

    class Gone:
        def is_alive(self) -> bool:
            return False

    folder = tmp_path / "litqeval-map-x"
    folder.mkdir()
    monkeypatch.setattr(projection, "_compile_nn_descent", lambda: None)
    monkeypatch.setattr(projection.multiprocessing, "parent_process", Gone)
    monkeypatch.setattr(projection, "_fit_umap", lambda *_: pytest.fail("fitted a map"))
    monkeypatch.setattr(projection, "CHILD_WAIT_SECONDS", 5.0)  # waiting it out keeps it
    projection._fit_when_given(str(folder), lower=False)
    assert not folder.exists()
