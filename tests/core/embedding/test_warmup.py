"""The first start compiles the map's numba kernels into an empty per-user cache."""

import os
import subprocess
import sys
import textwrap


def test_warming_compiles_the_kernels_a_map_uses_into_the_per_user_cache(tmp_path):
    """In a fresh process with an empty cache: the nearest-neighbour search's and the
    layout's kernels land in the cache (index files), but not those numba cannot load
    in another process (``projection.cache_umap_kernels``), the marker of this version
    is written, and ``is_warm`` then says so."""
    script = textwrap.dedent("""
        from litqeval_gui.core.embedding import warmup
        from litqeval_gui.core.jobs import run_job
        assert not warmup.is_warm()
        print(run_job(warmup.warm_map_kernels()))
        assert warmup.is_warm()
    """)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    cache = tmp_path / "cache" / "litqeval" / "numba"
    assert done.stdout.strip() == str(next(cache.glob("warm-*")))
    indexed = {path.name.split("-")[0] for path in cache.rglob("*.nbi")}
    assert {"rp_trees.make_angular_tree", "utils.build_candidates_owner",
            "layouts._optimize_layout_euclidean_single_epoch",
            "umap_.smooth_knn_dist"} <= indexed
    assert not {"pynndescent_.nn_descent", "pynndescent_.process_candidates",
                "pynndescent_.init_rp_tree"} & indexed
