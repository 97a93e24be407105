"""Where the app's resources are: icons, the ``.desktop`` file, demo data, self-test files.

They live in the repository's top-level ``resources/`` folder. A wheel carries them as
``litqeval_gui/_resources`` (``packaging/wheel_resources.py``), and so does the
PyInstaller bundle; an editable install or a source checkout reads ``resources/`` itself.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
CANDIDATES = (_PACKAGE / "_resources", _PACKAGE.parent / "resources")


def resources_dir() -> Path:
    """The resources folder: the installed copy if there is one, else the source tree's."""
    for folder in CANDIDATES:
        if (folder / "icons").is_dir():
            return folder
    raise FileNotFoundError("the app's resources are missing (looked in "
                            + ", ".join(str(folder) for folder in CANDIDATES) + ")")


def resource(*parts: str) -> Path:
    """The path of ``resources/<parts…>`` (which may not exist)."""
    return resources_dir().joinpath(*parts)
