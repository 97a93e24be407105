"""Typed errors with messages a reviewer understands.

Every error the core raises for bad input or a bad project file is a
:class:`LitqError`; the CLI prints ``str(err)`` to stderr and exits non-zero,
the GUI shows it through its one notification path. Never a traceback.
"""

from __future__ import annotations


class LitqError(Exception):
    """Base class: the message is meant for the user."""


class ProjectError(LitqError):
    """The project file cannot be opened or used."""


class ProjectLockedError(ProjectError):
    """Another live process holds the project open for writing."""


class ProjectTooNewError(ProjectError):
    """The file was written by a newer schema than this build knows."""


class CorruptProjectError(ProjectError):
    """The file is not a valid, intact LitQEval project."""


class ImportRefused(LitqError):
    """The whole import was refused; the project is unchanged."""


class JobCancelled(LitqError):
    """The user cancelled a running job; what it was writing is not kept."""

    def __init__(self, message: str = "cancelled; the project is unchanged") -> None:
        super().__init__(message)


class ImportCancelled(JobCancelled):
    """The user cancelled a running import; the project is unchanged."""

    def __init__(self, message: str = "import cancelled; the project is unchanged") -> None:
        super().__init__(message)


class UnknownLayoutError(ImportRefused):
    """A tabular file whose columns could not be mapped to record fields."""

    def __init__(self, path: str, columns: list[str]) -> None:
        self.columns = columns
        shown = ", ".join(repr(c) for c in columns)
        super().__init__(
            f"{path}: cannot recognise the column layout (columns found: {shown}). "
            "Map the columns yourself, e.g. --map title=ColA,abstract=ColB,doi=ColC"
        )
