"""Where a save dialog opens: a folder the user can write to and owns — the project's
folder, or the last one used, or the documents (else home) folder — never a read-only
folder nor the app's own (its data folder beside the demo project, its settings, its
installed package), where a file saved is lost or refused.

Writable means: a folder whose mode gives someone write permission (so a folder made
read-only counts as such even for root, whom ``os.access`` always lets write), that
``os.access`` lets this user write and enter, and where a probe file can be made (a
read-only file system, a mount's rules)."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

import litqeval_gui
from litqeval_gui.gui import settings as settings_module

WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def app_folders() -> list[Path]:
    """The app's own folders: its data (the demo project), its settings, its package."""
    return [settings_module.data_dir(), settings_module.config_dir(),
            Path(litqeval_gui.__file__).parent]


def _resolved(folder: Path) -> Path:
    try:
        return folder.resolve()
    except (OSError, RuntimeError):
        return folder.absolute()


def is_app_folder(folder: Path) -> bool:
    """Whether ``folder`` is one of :func:`app_folders` or inside one."""
    here = _resolved(folder)
    return any(here.is_relative_to(_resolved(own)) for own in app_folders())


def writable(folder: Path) -> bool:
    """Whether a file can be saved in ``folder`` (module docstring)."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return False
    if not stat.S_ISDIR(mode) or not mode & WRITE_BITS:
        return False
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".litqeval-probe-"):
            pass
    except OSError:
        return False
    return True


def usable(folder: Path | None) -> bool:
    """A folder a save dialog may offer: writable and not the app's own."""
    return folder is not None and not is_app_folder(folder) and writable(folder)


def first_usable(folders: Iterable[Path | None]) -> Path:
    """The first :func:`usable` of ``folders``, else the documents folder, else home
    (home even when it is neither: there is nothing better to offer)."""
    for folder in (*folders, settings_module.documents_dir(), Path.home()):
        if usable(folder):
            return folder
    return Path.home()


def save_folder(settings: settings_module.Settings, project: Path | None = None) -> Path:
    """Where a save dialog opens: the folder of ``project`` (a project file), else the
    last folder a dialog used, else the documents or home folder — the first usable."""
    return first_usable((project.parent if project is not None else None,
                         settings.last_dir))


def remember(settings: settings_module.Settings, folder: Path) -> None:
    """Keep ``folder`` as the last one used when a save dialog may offer it; else keep
    the one kept, unless that is no longer usable either (then the documents folder)."""
    if usable(folder):
        settings.last_dir = folder
    elif not usable(settings.last_dir):
        settings.last_dir = first_usable(())
