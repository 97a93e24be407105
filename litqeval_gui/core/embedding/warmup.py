"""Compile the 2D map's numba kernels into the per-user cache before a map needs them.

UMAP and its nearest-neighbour search (pynndescent) are numba code, compiled on first
use and then read from numba's on-disk cache (:mod:`.projection`). A new installation —
the bundle above all — would pay that compilation (40 s to 2 min) inside its first
evaluation; the app instead runs :func:`warm_map_kernels` in the background at its first
start (:func:`is_warm` says whether that was done for this version of the app).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from litqeval_gui import __version__
from litqeval_gui.core.embedding.errors import ProjectionError
from litqeval_gui.core.embedding.projection import project, use_numba_cache
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, run_job
from litqeval_gui.core.scaleout import in_child, main_importable

# more rows than umap-learn maps exactly (4 096): it then uses the approximate
# nearest-neighbour search that a real topic's map uses, and that is compiled too
WARM_ROWS = 4_200
WARM_DIMENSIONS = 16


def warm_marker() -> Path:
    """The file in numba's cache folder that says the kernels were compiled for this
    version of the app."""
    return use_numba_cache() / f"warm-{__version__}"


def is_warm() -> bool:
    return warm_marker().is_file()


def warm_map_kernels(token: CancelToken = NEVER) -> Job[Path]:
    """Job: :func:`compile_map_kernels` in a child process (compiling holds the GIL for
    seconds at a time: no thread of the app should wait for it), or here when the program
    cannot start one; returns :func:`warm_marker`, raising when it was not written."""
    message = "compiling once, at the first start of this version"
    if main_importable():
        yield from in_child(compile_map_kernels, (), "map kernels", message, token)
    else:
        yield Progress(0, 0, message)
        compile_map_kernels(token)
    if not is_warm():
        raise ProjectionError("compiling the 2D map's code failed; the first map will "
                              "compile it instead")
    return warm_marker()


def compile_map_kernels(token: CancelToken = NEVER) -> None:
    """Fit a UMAP map of :data:`WARM_ROWS` random unit rows (float32, as a topic's vectors
    are), which compiles every kernel a real map uses into numba's cache; then write
    :func:`warm_marker`."""
    rows = np.random.default_rng(0).standard_normal((WARM_ROWS, WARM_DIMENSIONS))
    rows = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    run_job(project(rows, "umap", token=token))
    warm_marker().write_text("numba kernels of the UMAP map compiled\n", encoding="utf-8")
