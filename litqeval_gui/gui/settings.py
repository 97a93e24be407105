"""The app's own settings: one JSON file, written atomically, never trusted blindly.

Settings live in ``QStandardPaths.AppConfigLocation`` unless ``LITQEVAL_CONFIG_DIR``
names another folder (the tests set it). The file holds the window geometry
(base64 of ``saveGeometry``), splitter sizes by name, recent projects (most recent
first, at most :data:`MAX_RECENT`, missing files dropped when read) and the last
folder a file dialog used, the reviewer's name for screening, and per project the
screens open in tabs (their descriptors). A damaged
file gives the defaults and a log line. ``$LITQEVAL_REVIEWER``, when set, names the
reviewer the app starts with (the saved name stays as it was until a switch).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from litqeval_gui.core.projectfile.reviewers import REVIEWER_ENV

ENV_DIR = "LITQEVAL_CONFIG_DIR"
FILE_NAME = "settings.json"
LOG_NAME = "litqeval-gui.log"
MAX_RECENT = 10

log = logging.getLogger(__name__)


def config_dir() -> Path:
    """Where settings and the log go: ``$LITQEVAL_CONFIG_DIR`` or the platform's config folder."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    location = QStandardPaths.StandardLocation.AppConfigLocation
    return Path(QStandardPaths.writableLocation(location))


def data_dir() -> Path:
    """Where app-made data (the demo project) goes: ``$LITQEVAL_CONFIG_DIR`` or AppDataLocation."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def documents_dir() -> Path:
    """The user's documents folder (the home folder when there is none)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(location) if location and Path(location).is_dir() else Path.home()


def log_path() -> Path:
    return config_dir() / LOG_NAME


class Settings:
    """The settings file loaded into memory; :meth:`save` writes it back atomically."""

    def __init__(self, folder: Path | None = None) -> None:
        self.path = (folder or config_dir()) / FILE_NAME
        self._data = self._load()
        self._reviewer = os.environ.get(REVIEWER_ENV, "").strip()  # over the saved name
        self.on_reviewer: Callable[[str], None] | None = None  # told of a new reviewer

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("settings file %s unreadable (%s); using defaults", self.path, exc)
            return {}
        if not isinstance(data, dict):
            log.warning("settings file %s is not a JSON object; using defaults", self.path)
            return {}
        return data

    def save(self) -> None:
        """Write to a temporary file in the same folder, then replace the old file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self._data, handle, indent=2, ensure_ascii=False)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # -- window geometry ---------------------------------------------------------
    @property
    def geometry(self) -> bytes | None:
        text = self._data.get("geometry")
        if not isinstance(text, str):
            return None
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return None

    @geometry.setter
    def geometry(self, value: bytes) -> None:
        self._data["geometry"] = base64.b64encode(bytes(value)).decode("ascii")

    # -- splitters ---------------------------------------------------------------
    def splitter_sizes(self, name: str) -> list[int] | None:
        splitters = self._data.get("splitters")
        sizes = splitters.get(name) if isinstance(splitters, dict) else None
        if isinstance(sizes, list) and sizes and all(isinstance(s, int) for s in sizes):
            return sizes
        return None

    def set_splitter_sizes(self, name: str, sizes: list[int]) -> None:
        splitters = self._data.get("splitters")
        if not isinstance(splitters, dict):
            splitters = self._data["splitters"] = {}
        splitters[name] = [int(s) for s in sizes]

    # -- recent projects -----------------------------------------------------------
    @property
    def recent_files(self) -> list[Path]:
        """Recent projects that still exist, most recent first."""
        stored = self._data.get("recent_files")
        if not isinstance(stored, list):
            return []
        return [Path(p) for p in stored if isinstance(p, str) and Path(p).is_file()][:MAX_RECENT]

    def add_recent(self, path: Path) -> None:
        """Put ``path`` first in the recent list (dropping an older entry of it)."""
        path = Path(path).resolve()
        rest = [p for p in self.recent_files if p.resolve() != path]
        self._data["recent_files"] = [str(p) for p in [path, *rest][:MAX_RECENT]]

    def clear_recent(self) -> None:
        self._data["recent_files"] = []

    # -- open tabs per project ------------------------------------------------------
    def open_screens(self, project: Path) -> tuple[list[dict], int]:
        """(the descriptors of the screens open in tabs, index of the current tab) when
        ``project`` was last closed; an entry of the older form (``lists``: ids of records
        tabs) reads as records descriptors."""
        stored = self._data.get("open_tabs")
        entry = stored.get(str(Path(project).resolve())) if isinstance(stored, dict) else None
        if not isinstance(entry, dict):
            return [], 0
        screens = entry.get("screens")
        if screens is None and isinstance(entry.get("lists"), list):
            screens = [{"key": "records", "list": i} for i in entry["lists"]]
        screens = [d for d in screens if isinstance(d, dict)] if isinstance(screens, list) else []
        current = entry.get("current")
        return screens, current if isinstance(current, int) else 0

    def set_open_screens(self, project: Path, descriptors: list[dict], current: int) -> None:
        stored = self._data.get("open_tabs")
        if not isinstance(stored, dict):
            stored = self._data["open_tabs"] = {}
        key = str(Path(project).resolve())
        stored.pop(key, None)
        stored[key] = {"screens": [dict(d) for d in descriptors], "current": int(current)}
        while len(stored) > MAX_RECENT:  # only the projects opened lately
            stored.pop(next(iter(stored)))

    # -- theme ----------------------------------------------------------------------
    @property
    def theme(self) -> str:
        """``system`` (default), ``light`` or ``dark``."""
        value = self._data.get("theme")
        return value if value in ("system", "light", "dark") else "system"

    @theme.setter
    def theme(self, value: str) -> None:
        self._data["theme"] = value

    # -- reviewer ---------------------------------------------------------------------
    @property
    def reviewer(self) -> str:
        """The name every screening decision carries: ``$LITQEVAL_REVIEWER`` when it was
        set as these settings were read, else the saved name ("" until asked)."""
        if self._reviewer:
            return self._reviewer
        value = self._data.get("reviewer")
        return value.strip() if isinstance(value, str) else ""

    @reviewer.setter
    def reviewer(self, name: str) -> None:
        """Screen as ``name`` from now on (kept for the next start, unless
        ``$LITQEVAL_REVIEWER`` names another); ``on_reviewer`` is told when it changed."""
        before = self.reviewer
        self._reviewer = self._data["reviewer"] = name.strip()
        if self._reviewer != before and self.on_reviewer is not None:
            self.on_reviewer(self._reviewer)

    # -- last folder ----------------------------------------------------------------
    @property
    def last_dir(self) -> Path:
        """The folder the last file dialog used (the documents folder at first)."""
        text = self._data.get("last_dir")
        if isinstance(text, str) and Path(text).is_dir():
            return Path(text)
        return documents_dir()

    @last_dir.setter
    def last_dir(self, folder: Path) -> None:
        self._data["last_dir"] = str(folder)
