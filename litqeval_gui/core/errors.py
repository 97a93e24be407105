"""Typed errors with messages a reviewer understands.

Every error the core raises for bad input or a bad project file is a
:class:`LitqError`; the CLI prints ``str(err)`` to stderr and exits non-zero,
the GUI shows it through its one notification path. Never a traceback.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar


class LitqError(Exception):
    """Base class: the message is meant for the user. ``cli_hint`` is what the command
    line adds (its own syntax, e.g. an option), never shown in the app."""

    cli_hint = ""
    details = ""  # facts for the app's "Show Details" (path, pid…), instead of a traceback


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
        shown = listing([repr(c) for c in columns])
        super().__init__(
            f"{path}: cannot recognise the column layout (columns found: {shown}). "
            "Say which column holds the title (and abstract, DOI, …)"
        )
        self.cli_hint = "with --map, e.g. --map title=ColA,abstract=ColB,doi=ColC"


def listing(items: Sequence[str], limit: int = 10) -> str:
    """``a, b, c`` — or the first ``limit`` items and ``... and N more``."""
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} ... and {len(items) - limit} more"


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def find_named(found: Sequence[N], name: str, topic: str, what: str, plural: str,
               error: type[LitqError] = LitqError) -> N:
    """The item of ``found`` named ``name``; else ``error`` naming the ``plural`` that
    exist: "topic 'T' has no list named 'x' (lists: 'a', 'b')"."""
    for item in found:
        if item.name == name:
            return item
    names = ", ".join(repr(item.name) for item in found) or "none"
    raise error(f"topic {topic!r} has no {what} named {name!r} ({plural}: {names})")


_ENVIRONMENT = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "the file would exceed the size limit",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.EISDIR: "it is a folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENOENT: "no such file or folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "input/output error",
}


def environment_message(err: OSError, what: str) -> str:
    """``WHAT: REASON`` for an operating-system error, in words (no errno soup)."""
    reason = _ENVIRONMENT.get(err.errno or 0, err.strerror or type(err).__name__)
    return f"{what}: {reason}"


_IO_ERROR = "input/output error on the disk"
_DATABASE = (("disk is full", "the disk is full"),
             ("readonly database", "the project file or its folder is read-only"),
             ("disk i/o error", _IO_ERROR),
             ("database is locked", "the project is busy in another process"),
             ("unable to open", "the project file cannot be opened"),
             ("malformed", "the project file is damaged"))
FULL_BELOW_BYTES = 1 << 20  # free space under which a disk counts as full


def database_reason(err: Exception, path: str | Path | None = None) -> str | None:
    """The environment problem behind an SQLite error (full disk, read-only file, I/O),
    in words; None when the error is not one of those. With the project's ``path``, an
    I/O error on a disk with less than :data:`FULL_BELOW_BYTES` free is called a full
    disk (SQLite reports one as an I/O error when it cannot grow the ``-shm`` file)."""
    text = str(err).lower()
    words = next((words for key, words in _DATABASE if key in text), None)
    if words == _IO_ERROR and path is not None and _nearly_full(Path(path)):
        return "the disk is full"
    return words


def _nearly_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < FULL_BELOW_BYTES
    except OSError:
        return False


def database_message(err: Exception) -> str:
    """An SQLite error from the environment in words, for the user."""
    reason = database_reason(err)
    return f"{reason} ({err}); the project is unchanged" if reason else f"database error: {err}"


def one_line(message: str, limit: int = 300) -> str:
    """``message`` on one line (newlines shown as ``\\n``) of at most ``limit`` characters."""
    flat = message.replace("\r", "\\r").replace("\n", "\\n")
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."
