"""The shared 2D map of a topic: UMAP (cosine, fixed seed) or PCA, with its fidelity.

One map is fitted jointly on every row given (core set and all result lists), so lists
share it. ``pca`` (2 components, deterministic) is the option for very large topics.
Fidelity (SPEC §1.5) is :func:`litqeval_gui.metrics.fidelity.projection_fidelity` of the
map against the vectors it came from: the share of the vectors' variance the map keeps.

UMAP compiles numba code on first use; :func:`use_numba_cache` points numba's cache at a
writable per-user directory (:func:`numba_cache_dir`) before umap is imported, and
:func:`cache_umap_kernels` turns numba's on-disk cache on for the kernels umap-learn jits
and pynndescent jit without ``cache=True`` (without it every process spends tens of
seconds compiling them again), so
only the first map of an installation pays the compilation. Two kinds of pynndescent
kernels numba cannot reuse from disk: those asking numba for its thread count (a
"dynamic global") and those taking the distance function as an argument (its type is
new in each process, so each process would add one more copy to the cache). Their
compilation (~11 s of CPU for a map of 50 000 rows) holds the GIL for seconds at a time;
an evaluation that computes vectors first starts :func:`fit_in_child`: a child process
compiles them on the other core meanwhile and then fits the map (the rows and the coords
pass through .npy files). Where no child can start, :func:`compile_in_background` compiles
them on a thread of this process instead.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.decomposition import PCA

from litqeval_gui.core.embedding.backends import checkpoint
from litqeval_gui.core.embedding.blas import one_blas_thread
from litqeval_gui.core.embedding.errors import ProjectionError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.records.exporting import write_whole
from litqeval_gui.core.scaleout import (
    POLL_SECONDS,
    lower_priority,
    main_importable,
    process_context,
    serves_a_window,
)
from litqeval_gui.metrics.fidelity import projection_fidelity

Method = Literal["umap", "pca"]
MAP_SEED = 0
UMAP_NEIGHBOURS = 15
UMAP_MIN_DIST = 0.1
MIN_ROWS = 5  # fewer distinct rows make no map worth drawing
NN_DESCENT_ROWS = 4096  # from this many rows on UMAP finds neighbours with pynndescent


@dataclass(frozen=True)
class Projection:
    """``coords`` (n × 2 float32, one row per input row), how they were made, and
    ``fidelity`` in [0, 1] (NaN when undefined, ``note`` says why)."""

    coords: NDArray[np.float32]
    method: Method
    params: Mapping[str, Any] = field(default_factory=dict)
    fidelity: float = float("nan")
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


def user_cache_dir() -> Path:
    """The per-user cache directory of the app (``$XDG_CACHE_HOME/litqeval`` on Linux,
    ``~/Library/Caches/litqeval`` on macOS, ``%LOCALAPPDATA%/litqeval/Cache`` on Windows)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "litqeval" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "litqeval"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "litqeval"


def numba_cache_dir() -> Path:
    return user_cache_dir() / "numba"


def use_numba_cache() -> Path:
    """Set ``NUMBA_CACHE_DIR`` to :func:`numba_cache_dir` (created) unless the user set it,
    re-reading numba's configuration when numba is already imported; return the directory."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        directory = numba_cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(directory)
        if "numba" in sys.modules:
            from numba.core import config

            config.reload_config()
    return Path(os.environ["NUMBA_CACHE_DIR"])


def cache_umap_kernels() -> int:
    """Enable numba's on-disk cache for every jitted function of the imported ``umap`` and
    ``pynndescent`` modules that numba can reuse from disk (module docstring; without it
    ~30 s of compiling per process on 50 000 records; numba recompiles a cached kernel
    when its source changes); return how many."""
    from numba.core.dispatcher import Dispatcher

    kernels = {id(obj): obj for name, module in list(sys.modules.items())
               if name.split(".")[0] in ("umap", "pynndescent")
               for obj in vars(module).values() if isinstance(obj, Dispatcher)}
    cachable = [kernel for kernel in kernels.values() if _reusable(kernel.py_func)]
    for kernel in cachable:
        kernel.enable_caching()
    return len(cachable)


def _reusable(function: Any) -> bool:
    """False for a kernel numba cannot load from disk in another process: it takes a
    jitted distance (``dist``) or asks for numba's thread count."""
    code = function.__code__
    return ("dist" not in code.co_varnames[:code.co_argcount]
            and "get_num_threads" not in code.co_names)


def _import_umap() -> Any:
    """``umap``, imported after numba was pointed at the per-user cache, its kernels
    cached."""
    use_numba_cache()
    import umap  # lazily: numba must see NUMBA_CACHE_DIR first, and import costs seconds

    cache_umap_kernels()
    return umap


_COMPILING: list[threading.Thread] = []  # the one background compilation of this process


def compile_in_background(rows: int, method: str) -> None:
    """Start compiling, on a daemon thread and once per process, the nearest-neighbour
    search a UMAP map of ``rows`` rows will run and numba cannot cache (module
    docstring), so that it overlaps other work (an evaluation's vectors); nothing for
    PCA or fewer than :data:`NN_DESCENT_ROWS` rows (UMAP's exact neighbours). The map
    waits for it (:func:`project`)."""
    if method == "umap" and rows >= NN_DESCENT_ROWS and not _COMPILING:
        _COMPILING.append(threading.Thread(target=_compile_nn_descent, daemon=True,
                                           name="compiling UMAP's neighbour search"))
        _COMPILING[0].start()


def _compile_nn_descent() -> None:
    """Run UMAP's neighbour search as the map runs it, on 64 rows: numba compiles it for
    these argument types, which do not depend on the number of rows or dimensions."""
    nearest_neighbors = _import_umap().umap_.nearest_neighbors
    rows = np.random.default_rng(0).standard_normal((64, 8)).astype(np.float32)
    nearest_neighbors(rows, UMAP_NEIGHBOURS, "cosine", {}, True, np.random.RandomState(0),
                      True, use_pynndescent=True, n_jobs=1)


def project(vectors: ArrayLike, method: Method = "umap", seed: int = MAP_SEED,
            token: CancelToken = NEVER) -> Job[Projection]:
    """The 2D map of ``vectors`` (n × d) by ``method``, with its fidelity.

    Fewer than :data:`MIN_ROWS` rows raise :class:`ProjectionError`; rows that are all
    identical give every row the point (0, 0) with a note (there is nothing to map).
    """
    rows = np.asarray(vectors, dtype=np.float32)
    if rows.ndim != 2 or not np.isfinite(rows).all():
        raise ProjectionError(f"a map needs a finite rows × dimensions array, got shape "
                              f"{rows.shape}")
    if method not in ("umap", "pca"):
        raise ProjectionError(f"unknown map method {method!r}; use 'umap' or 'pca'")
    if rows.shape[0] < MIN_ROWS:
        raise ProjectionError(f"a map needs at least {MIN_ROWS} records with vectors; "
                              f"there are {rows.shape[0]}")
    params = _params(method, seed)
    if np.all(rows == rows[0]):
        return Projection(np.zeros((rows.shape[0], 2), np.float32), method, params,
                          note="all records have the same vector: they share one point")
    yield Progress(0, 3, f"fitting the {method.upper()} map of {rows.shape[0]} records")
    checkpoint(token)
    coords = _umap(rows, seed, token) if method == "umap" else _pca(rows, seed)
    yield Progress(2, 3, "measuring the map's fidelity")
    checkpoint(token)
    with one_blas_thread():
        fidelity = projection_fidelity(coords, rows)
    yield Progress(3, 3, "done")
    return Projection(coords, method, params, fidelity)


def _params(method: Method, seed: int) -> dict[str, Any]:
    if method == "pca":
        return {"n_components": 2, "seed": seed}
    return {"n_components": 2, "metric": "cosine", "n_neighbors": UMAP_NEIGHBOURS,
            "min_dist": UMAP_MIN_DIST, "seed": seed}


def _umap(rows: NDArray[np.float32], seed: int, token: CancelToken) -> NDArray[np.float32]:
    if not _at_least_distinct(rows, MIN_ROWS):
        distinct = len(np.unique(rows, axis=0))
        raise ProjectionError(f"a UMAP map needs at least {MIN_ROWS} different vectors; "
                              f"these {rows.shape[0]} records have {distinct} (use PCA)")
    try:
        coords = _fitted_in_child(_CHILD[0], rows, seed, token) if _CHILD else None
    finally:
        stop_map_child()
    if coords is not None:
        return coords
    for thread in _COMPILING:
        thread.join()
    return _fit_umap(rows, seed)


def _fit_umap(rows: NDArray[np.float32], seed: int) -> NDArray[np.float32]:
    """UMAP's coordinates of ``rows``: one thread (the seed asks for it) and one BLAS
    thread (its spectral start, ARPACK, gives other bytes on two, and two spin on a busy
    machine: 50 000 rows took 3.9 s on one, 9.8 s on two at load 4.7), so the same bytes
    on any machine's cores."""
    umap = _import_umap()
    model = umap.UMAP(n_components=2, metric="cosine", n_neighbors=UMAP_NEIGHBOURS,
                      min_dist=UMAP_MIN_DIST, random_state=seed, n_jobs=1)
    with warnings.catch_warnings(), one_blas_thread():
        # "n_jobs overridden by random_state": as intended
        warnings.filterwarnings("ignore", message="n_jobs value", category=UserWarning)
        return np.asarray(model.fit_transform(rows), dtype=np.float32)


@dataclass(frozen=True)
class _MapChild:
    process: Any  # a multiprocessing Process running _fit_when_given
    folder: Path


_CHILD: list[_MapChild] = []  # the map child of this process, until the map takes it
ROWS_FILE, COORDS_FILE = "rows.npz", "coords.npy"
CHILD_WAIT_SECONDS = 3600.0  # a child given no rows for this long ends (the map fits here)


def fit_in_child(rows: int, method: str) -> bool:
    """Start a child process that imports UMAP and compiles its neighbour search now, on
    the other core, and then fits the next UMAP map :func:`project` asks for (the same
    coordinates, byte for byte: same kernels, seed, one thread). Only for UMAP maps of at
    least :data:`NN_DESCENT_ROWS` rows, when this program can start children
    (:func:`~litqeval_gui.core.scaleout.main_importable`) and none is waiting; returns
    whether one was started. :func:`stop_map_child` ends one no map took."""
    if method != "umap" or rows < NN_DESCENT_ROWS or _CHILD or not main_importable():
        return False
    folder = Path(tempfile.mkdtemp(prefix="litqeval-map-"))
    process = process_context().Process(target=_fit_when_given, name="UMAP map",
                                        args=(str(folder), serves_a_window()), daemon=True)
    process.start()
    _CHILD.append(_MapChild(process, folder))
    return True


def stop_map_child() -> None:
    """End the child of :func:`fit_in_child` if it still runs and remove its folder."""
    while _CHILD:
        child = _CHILD.pop()
        if child.process.is_alive():
            child.process.terminate()
        child.process.join()
        shutil.rmtree(child.folder, ignore_errors=True)


def _fit_when_given(folder: str, lower: bool) -> None:
    """The map child: compile the neighbour search, wait for ``rows.npz`` (rows, seed) in
    ``folder``, write the map's coordinates to ``coords.npy`` there; it ends without a
    map when its parent is gone (killed) or gave nothing for :data:`CHILD_WAIT_SECONDS`."""
    if lower:
        lower_priority()
    _compile_nn_descent()
    given, deadline = Path(folder) / ROWS_FILE, time.monotonic() + CHILD_WAIT_SECONDS
    parent = multiprocessing.parent_process()
    while not given.is_file():
        if parent is not None and not parent.is_alive():
            shutil.rmtree(folder, ignore_errors=True)  # nobody else will
            return
        if time.monotonic() > deadline:
            return
        time.sleep(POLL_SECONDS / 2)
    with np.load(given, allow_pickle=False) as data:
        rows, seed = data["rows"], int(data["seed"])
    coords = _fit_umap(rows, seed)
    _write_whole(Path(folder) / COORDS_FILE, lambda file: np.save(file, coords))


def _fitted_in_child(child: _MapChild, rows: NDArray[np.float32], seed: int,
                     token: CancelToken) -> NDArray[np.float32] | None:
    """Hand ``rows`` to the map child and wait for its coordinates; None when it ended
    without them (it failed or gave up waiting: the map is then fitted here)."""
    _write_whole(child.folder / ROWS_FILE,
                 lambda file: np.savez(file, rows=rows, seed=np.int64(seed)))
    while child.process.is_alive():
        checkpoint(token)
        child.process.join(POLL_SECONDS)
    coords = child.folder / COORDS_FILE
    if child.process.exitcode != 0 or not coords.is_file():
        return None
    return np.load(coords, allow_pickle=False)


def _write_whole(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """``write(file)`` into ``path`` by :func:`~litqeval_gui.core.records.exporting.write_whole`
    (a side file moved onto it): a reader polling for ``path`` never sees it half written.
    numpy is given the open file, as it would add ``.npy`` to a path of another suffix."""
    def into(partial: Path) -> None:
        with partial.open("wb") as file:
            write(file)

    write_whole(path, into, f"the map's {path.name}")


def _at_least_distinct(rows: NDArray[np.float32], count: int) -> bool:
    """Whether ``rows`` holds at least ``count`` different rows (stops when it found them)."""
    seen: set[bytes] = set()
    for row in rows:
        seen.add(row.tobytes())
        if len(seen) >= count:
            return True
    return False


def _pca(rows: NDArray[np.float32], seed: int) -> NDArray[np.float32]:
    """PCA's first two scores of ``rows``, on one BLAS thread (as UMAP's fit)."""
    with one_blas_thread():
        return PCA(n_components=2, random_state=seed).fit_transform(rows).astype(np.float32)
