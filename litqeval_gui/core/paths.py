"""What a path names, checked before a file is read or written: only a regular file is
read or replaced. A FIFO would block the reader (or the writer) for ever, a device such
as ``/dev/zero`` never ends, and writing onto one replaced it; each is refused at once
in one line that says what the path is. A symbolic link is followed: a command reads or
replaces the file it points to (the link is kept) and a refusal names where it points.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from litqeval_gui.core.errors import LitqError

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words: "is a folder", "is not a regular file (a
    FIFO)"…; "" for a regular file."""
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "is a folder"
    kind = next((kind for test, kind in _KINDS if test(mode)), "a special file")
    return f"is not a regular file ({kind})"


def _followed(path: Path, error: type[LitqError] = LitqError
              ) -> tuple[Path, os.stat_result | None, str]:
    """``(the file path names, its stat or None when there is none, how to say it)``: a
    symbolic link followed to its end ("X is a link to Y, which"); one that cannot be
    raises ``error``."""
    try:
        info = path.lstat()
    except OSError:
        return path, None, str(path)
    if not stat.S_ISLNK(info.st_mode):
        return path, info, str(path)
    real = Path(os.path.realpath(path))
    said = f"{path} is a link to {real}, which"
    try:
        return real, real.stat(), said
    except FileNotFoundError:
        return real, None, said
    except OSError as err:  # a loop of links, a part of the path that is no folder
        raise error(f"{path} is a link that cannot be followed ({err.strerror})") from None


def check_input(path: str | Path, error: type[LitqError] = LitqError) -> Path:
    """``path`` when it names a regular file to read (through links); else ``error``
    in one line: "no such file", "is a folder", "is not a regular file (a FIFO)"…"""
    path = Path(path)
    real, info, said = _followed(path, error)
    if info is None:
        raise error(f"{said} does not exist" if real != path else f"{path}: no such file")
    kind = _kind(info.st_mode)
    if kind:
        raise error(f"{said} {kind}")
    return path


def output_file(target: str | Path) -> Path:
    """The file that writing ``target`` replaces: ``target`` itself when it is a regular
    file or a new path, else for a link the regular file (or new path) it points to.
    Anything else is refused in one line: a folder, a FIFO, a device, a socket."""
    target = Path(target)
    real, info, said = _followed(target)
    kind = "" if info is None else _kind(info.st_mode)
    if kind == "is a folder" and real == target:
        raise LitqError(f"{target} is a folder; give the export a file name")
    if kind:
        raise LitqError(f"{said} {kind}; choose another file name")
    return real
