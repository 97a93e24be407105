"""One interface for every embedding backend (``lsa``, ``minilm``, ``precomputed``).

A backend's :meth:`Backend.embed` is a generator job (``core/jobs.py``): it yields
:class:`~litqeval_gui.core.jobs.Progress`, honours a :class:`~litqeval_gui.core.jobs.CancelToken`
and returns :class:`Embeddings` — L2-normalised float32 rows for the documents it could
embed, their positions, and a :class:`BackendInfo` saying exactly what made them. Same
input → same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.core.embedding.errors import EmbeddingCancelled
from litqeval_gui.core.jobs import NEVER, CancelToken, Job
from litqeval_gui.core.records.model import Record

# A row whose norm is below this before normalising has no direction (no indexed words).
ZERO_NORM = 1e-12


@dataclass(frozen=True)
class Document:
    """One record as the backends see it: its text and the keys precomputed vectors match on.

    ``doi`` and the ``ids`` values are normalised as in :class:`Record`.
    """

    title: str = ""
    abstract: str = ""
    doi: str = ""
    ids: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """Title and abstract joined by a blank line (either may be empty)."""
        return "\n\n".join(part for part in (self.title.strip(), self.abstract.strip()) if part)

    @classmethod
    def from_record(cls, record: Record) -> Document:
        ids = {kind: value for kind, value in record.identifiers() if kind != "doi"}
        return cls(record.title, record.abstract, record.doi, ids)


@dataclass(frozen=True)
class BackendInfo:
    """What made a set of vectors: stored beside them so stale vectors can be told apart."""

    name: str
    model: str
    version: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


@dataclass(frozen=True)
class Embeddings:
    """Unit float32 ``vectors`` (m × d) for the input positions ``rows`` (sorted, m of n).

    Positions not in ``rows`` got no vector; ``notes`` says why, with counts.
    """

    vectors: NDArray[np.float32]
    rows: NDArray[np.intp]
    n_documents: int
    info: BackendInfo
    notes: tuple[str, ...] = ()

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    @property
    def missing(self) -> NDArray[np.intp]:
        """Input positions without a vector."""
        return np.setdiff1d(np.arange(self.n_documents), self.rows)


class Backend(Protocol):
    """An embedding backend: ``info`` describes it; ``embed`` is a generator job."""

    @property
    def info(self) -> BackendInfo: ...

    def embed(self, documents: Sequence[Document],
              token: CancelToken = NEVER) -> Job[Embeddings]: ...


def checkpoint(token: CancelToken) -> None:
    """Raise :class:`EmbeddingCancelled` when ``token`` was cancelled."""
    if token.cancelled:
        raise EmbeddingCancelled()


def unit_rows(matrix: NDArray[np.floating]
              ) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """Rows scaled to unit L2 norm as float32, and the mask of rows that had a direction
    (norm > :data:`ZERO_NORM`); rows without one are left out of the returned matrix."""
    values = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(values, axis=1)
    keep = norms > ZERO_NORM
    return (values[keep] / norms[keep, None]).astype(np.float32), keep


def text_embeddings(vectors: NDArray[np.floating], n_documents: int, texts_present: NDArray,
                    info: BackendInfo) -> Embeddings:
    """:class:`Embeddings` of a text backend: ``vectors`` are the rows of the documents at
    ``texts_present``; empty texts and rows without a direction get no vector, noted."""
    unit, keep = unit_rows(vectors)
    rows = np.asarray(texts_present, dtype=np.intp)[keep]
    notes = []
    if n_documents - len(texts_present):
        notes.append(f"{n_documents - len(texts_present)} of {n_documents} records have no "
                     "title or abstract")
    if (~keep).sum():
        notes.append(f"{int((~keep).sum())} of {n_documents} records have no words the "
                     f"{info.name} backend can use (only stop words or symbols)")
    return Embeddings(unit, rows, n_documents, info, tuple(notes))


def document_texts(documents: Sequence[Document]) -> tuple[list[str], NDArray[np.intp]]:
    """The non-empty texts and their positions."""
    texts = [doc.text for doc in documents]
    present = np.flatnonzero([bool(t) for t in texts]).astype(np.intp)
    return [texts[i] for i in present], present
