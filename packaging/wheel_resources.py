"""setuptools build step: the top-level ``resources/`` folder goes into the wheel as
``litqeval_gui/_resources`` (``pyproject.toml``: ``[tool.setuptools.cmdclass]``).

An editable install needs no copy: :mod:`litqeval_gui.resources` finds ``resources/``
beside the package.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent.parent / "resources"


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            shutil.copytree(SOURCE, Path(self.build_lib) / "litqeval_gui" / "_resources",
                            dirs_exist_ok=True)
