"""A lock file beside the project so only one process writes it at a time.

``PROJECT.litq.lock`` is locked by the operating system (``flock`` on POSIX,
``msvcrt.locking`` on Windows) for as long as the project is open for writing. The OS
releases the lock when its process dies, however it dies, so a stale lock is taken
over without any guessing, and two processes can never both hold it: acquiring is one
atomic system call. The file's content — ``{"pid", "host", "token", "since"}`` — only
names the holder in the refusal message; a lock file nobody holds is free whatever
pid it names.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import uuid
from datetime import datetime, timezone
from pathlib import Path

from litqeval_gui.core.errors import ProjectError, ProjectLockedError, environment_message

if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class ProjectLock:
    """Exclusive write lock on ``project_path``; release with :meth:`release`."""

    def __init__(self, project_path: Path) -> None:
        self.path = Path(str(project_path) + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`ProjectLockedError` naming its holder."""
        while True:
            fd = self._open()
            try:
                if not _try_lock(fd):
                    holder = self._holder()
                    refused = ProjectLockedError(
                        f"project is open in another window ({holder}; lock file {self.path})")
                    refused.details = (f"Lock file: {self.path}\nHeld by: {holder}\n"
                                       "Close the project there (or end that process), "
                                       "then open it again.")
                    raise refused
                # the holder before us may have unlinked the file between our open and
                # our lock: then we locked a dead inode and must try the new file
                if os.name != "nt" and not _same_file(fd, self.path):
                    os.close(fd)
                    continue
                self._write_owner(fd)
            except BaseException:
                os.close(fd)
                raise
            self._fd = fd
            return

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except IsADirectoryError:
            raise ProjectError(f"the lock file {self.path} is a folder; remove it") from None
        except OSError as err:
            raise ProjectError(environment_message(err, f"cannot create the lock file "
                                                        f"{self.path}")) from None

    def _write_owner(self, fd: int) -> None:
        owner = json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                            "token": uuid.uuid4().hex,
                            "since": datetime.now(timezone.utc).isoformat(timespec="seconds")})
        try:
            os.ftruncate(fd, 0)
            os.write(fd, owner.encode())
        except OSError as err:
            self._drop(fd)
            raise ProjectError(environment_message(err, f"cannot write the lock file "
                                                        f"{self.path}")) from None

    def _holder(self) -> str:
        """``pid N on HOST`` of the holder, as far as its lock file tells."""
        try:
            info = json.loads(self.path.read_text(encoding="utf-8"))
            return f"pid {int(info['pid'])} on {info.get('host', '?')}"
        except (OSError, ValueError, KeyError, TypeError):
            return "holder unknown"

    def _drop(self, fd: int) -> None:
        """Remove the lock file, then unlock (POSIX: others re-check the inode)."""
        if os.name != "nt":
            self.path.unlink(missing_ok=True)
        _unlock(fd)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            self._drop(fd)
        finally:
            os.close(fd)
        if os.name == "nt":  # pragma: no cover - Windows cannot unlink an open file
            with contextlib.suppress(OSError):
                self.path.unlink()


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False
