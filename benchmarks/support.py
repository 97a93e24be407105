"""What the benchmarks share: large synthetic exports and projects (``tests.support``
generates the records) and an offscreen app whose settings are never the user's."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from run_all import FIGURE_PREFIX, SKIP_PREFIX  # noqa: E402 — the lines run_all reads

from litqeval_gui.core.jobs import run_job  # noqa: E402
from litqeval_gui.core.projectfile.project import Project  # noqa: E402
from litqeval_gui.core.records import exporting, ingest  # noqa: E402
from tests.support import synthetic  # noqa: E402
from tests.support.screening import labelled_records, write_labelled_csv  # noqa: E402


def figure(name: str, shown: str, goal: str, met: bool | None) -> None:
    """Print one figure for ``run_all``'s summary table, as a tab-separated line
    ``figure<TAB>NAME<TAB>SHOWN<TAB>GOAL<TAB>met|not met|-``, and say "not met" in
    words when it is not (``met=None``: a figure with no goal, printed for reading)."""
    verdict = "-" if met is None else ("met" if met else "not met")
    print(f"{FIGURE_PREFIX}{name}\t{shown}\t{goal}\t{verdict}", flush=True)


def skip(reason: str) -> None:
    """Print ``skipped<TAB>REASON`` for ``run_all``'s summary: a benchmark, or a part of
    one, that needs an optional peer which is not installed; ``reason`` says in one line
    how to add it."""
    print(f"{SKIP_PREFIX}{reason}", flush=True)


def ms(seconds: float) -> str:
    """Seconds as milliseconds, right-aligned: ``   12.34 ms``."""
    return f"{seconds * 1000:7.2f} ms"


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` prints them (the machine may be
    shared: a figure is read beside its load)."""
    return "load average: " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def synthetic_ris(folder: Path, records: int, seed: int, name: str = "big.ris") -> Path:
    """``folder/name``: ``records`` synthetic records, 10 % of them duplicates."""
    generated, _ = synthetic.generate(records, dup_rate=0.1, seed=seed)
    ris = folder / name
    exporting.export_records(generated, ris, "ris")
    return ris


def large_project(folder: Path, records: int) -> Path:
    """``folder/big.litq``: topic "bench" with one result list of ``records`` records."""
    ris = synthetic_ris(folder, records, seed=11)
    path = folder / "big.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, ris, topic="bench", role="results"))
    return path


def labelled_project(folder: Path, records: int) -> tuple[Path, list, Path, float]:
    """``folder/p.litq``: topic "T" with list "L" of ``records`` labelled records (5 %
    relevant); their labels; ``folder/side.ris`` (50 000 other synthetic records, for an
    import to run beside the screening); and the seconds the import of L took."""
    generated, labels = labelled_records(records, 0.05, seed=1)
    source = write_labelled_csv(generated, labels, folder / "L.csv")
    del generated
    side = synthetic_ris(folder, 50_000, seed=9, name="side.ris")
    path = folder / "p.litq"
    start = time.perf_counter()
    with Project.create(path) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
    return path, labels, side, time.perf_counter() - start


@contextmanager
def app_with_large_project(records: int) -> Iterator[tuple[object, Path]]:
    """In a temporary folder: the QApplication, offscreen, with the app's settings kept
    there (never the user's) and its garbage collected on the GUI thread as the app does,
    and :func:`large_project` of ``records`` records."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        os.environ["LITQEVAL_CONFIG_DIR"] = str(folder / "config")
        from PySide6.QtWidgets import QApplication

        from litqeval_gui.gui.collector import collecting_on_gui_thread

        app = QApplication.instance() or QApplication([])
        print(f"building a {records:,}-record project…", flush=True)
        with collecting_on_gui_thread():  # as the app's main does
            yield app, large_project(folder, records)


def shown_main_window():
    """A new main window, 1200 × 760, shown."""
    from litqeval_gui.gui.main_window import MainWindow

    window = MainWindow()
    window.resize(1200, 760)
    window.show()
    return window
