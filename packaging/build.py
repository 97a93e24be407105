"""Build the one-folder bundle ``dist/LitQEval/`` (``make package``).

``python3 packaging/build.py`` (``py packaging\\build.py`` on Windows) makes a build
environment ``build/package-venv``, installs the app into it as a user would
(``pip install ".[package]"``: not editable, so the bundle gets the installed package with
its ``_resources``, and PyInstaller, which the app itself never needs), runs PyInstaller
on ``packaging/litqeval.spec`` and prints the build time and the bundle's size.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "build" / "package-venv"
BUNDLE = ROOT / "dist" / "LitQEval"
WORK = ROOT / "build" / "pyinstaller"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def folder_size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*")
               if path.is_file() and not path.is_symlink())


def main() -> int:
    started = time.perf_counter()
    if not venv_python().exists():
        venv.create(VENV, with_pip=True)
    python = str(venv_python())
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)  # no stale modules in the wheel
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", f"{ROOT}[package]"], check=True)
    installed = time.perf_counter()
    # run from build/: from the repository's root, Python would find the source tree's
    # litqeval_gui (without _resources) before the installed one
    subprocess.run([python, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--distpath", str(ROOT / "dist"), "--workpath", str(WORK),
                    str(ROOT / "packaging" / "litqeval.spec")], check=True, cwd=WORK.parent)
    done = time.perf_counter()
    print(f"built {BUNDLE}: {folder_size(BUNDLE) / 2**20:.0f} MiB; install {installed - started:.0f} s, "
          f"PyInstaller {done - installed:.0f} s, total {done - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
