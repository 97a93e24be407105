"""Typed errors of the embedding and projection code (messages meant for the user)."""

from __future__ import annotations

from litqeval_gui.core.errors import JobCancelled, LitqError


class EmbeddingError(LitqError):
    """Vectors cannot be computed or read."""


class MissingExtraError(EmbeddingError):
    """A backend needs an optional extra that is not installed."""

    def __init__(self, backend: str, extra: str, missing: str) -> None:
        self.extra = extra
        super().__init__(
            f"the {backend} backend needs the optional '{extra}' extra ({missing} is not "
            f"installed): pip install \"litqeval-gui[{extra}]\" "
            f"(in a source checkout: .venv/bin/pip install -e \".[{extra}]\")"
        )


class VectorFileError(EmbeddingError):
    """A file of precomputed vectors is unreadable or malformed."""


class ProjectionError(LitqError):
    """No 2D map can be made of the given vectors."""


class EmbeddingCancelled(JobCancelled):
    """The user cancelled an embedding or map job; nothing was kept."""

    def __init__(self) -> None:
        super().__init__("embedding cancelled; nothing was kept")


class EmbeddingPaused(EmbeddingCancelled):
    """A stored embedding was cancelled after some of its chunks were committed: they are
    kept (invisible until the set is complete) and the next run continues from there."""

    def __init__(self, stored: int, total: int) -> None:
        JobCancelled.__init__(self, f"embedding cancelled; {stored:,} of {total:,} vectors "
                                    "are stored and the next run continues from there")
        self.stored = stored
        self.total = total
