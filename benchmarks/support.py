"""What the benchmarks share: large synthetic exports and projects (``tests.support``
generates the records) and an offscreen app whose settings are never the user's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from litqeval_gui.core import exporting, ingest  # noqa: E402
from litqeval_gui.core.jobs import run_job  # noqa: E402
from litqeval_gui.core.project import Project  # noqa: E402
from tests.support import synthetic  # noqa: E402


def synthetic_ris(folder: Path, records: int, seed: int) -> Path:
    """``folder/big.ris``: ``records`` synthetic records, 10 % of them duplicates."""
    generated, _ = synthetic.generate(records, dup_rate=0.1, seed=seed)
    ris = folder / "big.ris"
    exporting.export_records(generated, ris, "ris")
    return ris


def large_project(folder: Path, records: int) -> Path:
    """``folder/big.litq``: topic "bench" with one result list of ``records`` records."""
    ris = synthetic_ris(folder, records, seed=11)
    path = folder / "big.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, ris, topic="bench", role="results"))
    return path


def offscreen_app(folder: Path):
    """The QApplication, offscreen, with the app's settings kept under ``folder``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["LITQEVAL_CONFIG_DIR"] = str(folder / "config")  # never the real settings
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])
