"""A lock file beside the project so only one process writes it at a time.

``PROJECT.litq.lock`` holds ``{"pid": …, "host": …}``. A lock whose process is
gone (same host, pid not alive) is stale and taken over; a live one refuses with
"project is open in another window (pid …)".
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from litqeval_gui.core.errors import ProjectLockedError


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


class ProjectLock:
    """Exclusive write lock on ``project_path``; release with :meth:`release`."""

    def __init__(self, project_path: Path) -> None:
        self.path = Path(str(project_path) + ".lock")
        self._held = False

    def acquire(self) -> None:
        """Take the lock, taking over a stale one; raise ProjectLockedError if held."""
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = self._holder()
                if holder is not None:
                    raise ProjectLockedError(
                        f"project is open in another window (pid {holder})"
                    ) from None
                self.path.unlink(missing_ok=True)  # stale: its process is gone
                continue
            with os.fdopen(fd, "w") as handle:
                json.dump({"pid": os.getpid(), "host": socket.gethostname()}, handle)
            self._held = True
            return
        raise ProjectLockedError(f"could not take the lock {self.path}")

    def _holder(self) -> int | None:
        """The pid of a live holder, or None when the lock is stale or unreadable."""
        try:
            info = json.loads(self.path.read_text(encoding="utf-8"))
            pid, host = int(info["pid"]), str(info.get("host", ""))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if host and host != socket.gethostname():
            return pid  # another machine: we cannot tell, so respect it
        return pid if _alive(pid) else None

    def release(self) -> None:
        if self._held:
            self.path.unlink(missing_ok=True)
            self._held = False
