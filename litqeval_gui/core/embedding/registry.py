"""Backends by name: ``lsa`` (default), ``minilm`` (extra ``neural``), ``precomputed``."""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.embedding.backends import Backend
from litqeval_gui.core.embedding.errors import EmbeddingError

BACKENDS = ("lsa", "minilm", "precomputed")
DEFAULT_BACKEND = "lsa"


def backend_by_name(name: str, vectors: str | Path | None = None,
                    ids: str | Path | None = None, model: str = "unknown") -> Backend:
    """The backend called ``name``; ``precomputed`` reads ``vectors`` (with ``ids`` for a
    ``.npy``), ``model`` naming what made them. Other names are an :class:`EmbeddingError`."""
    if name == "lsa":
        from litqeval_gui.core.embedding.lsa import LsaBackend

        return LsaBackend()
    if name == "minilm":
        from litqeval_gui.core.embedding.neural import MiniLmBackend

        return MiniLmBackend()
    if name == "precomputed":
        if vectors is None:
            raise EmbeddingError("the precomputed backend needs a vector file (--vectors FILE)")
        from litqeval_gui.core.embedding.precomputed import PrecomputedBackend, read_vectors

        return PrecomputedBackend(read_vectors(vectors, ids), model)
    raise EmbeddingError(f"unknown embedding backend {name!r}; use one of "
                         f"{', '.join(BACKENDS)}")
