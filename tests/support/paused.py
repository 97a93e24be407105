"""A background job (an import, a retrain) paused mid-way on its own thread and
connection, so that a test can write while it holds still."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from litqeval_gui.core.jobs import Progress, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest
from litqeval_gui.core.records.importing import parallel
from tests.support import synthetic

IMPORTED = 3000  # synthetic records of :func:`during_import`, into topic "B" as list "big"


def during_job(project: Project, job: Callable[[Project], Generator[Progress, None, Any]],
               pause_at: Callable[[Progress], bool],
               act: Callable[[], Any]) -> tuple[Any, dict[str, Any]]:
    """Run ``job(sibling)`` on a thread with a sibling connection of ``project``; at the
    first progress ``pause_at`` accepts, hold it still while ``act()`` runs, then let it
    finish. Returns ``act``'s result and the job's outcome (``{"result": …}`` or
    ``{"error": …}``)."""
    paused, resume, outcome = threading.Event(), threading.Event(), {}

    def pause_once(progress: Progress) -> None:
        if pause_at(progress) and not paused.is_set():
            paused.set()
            resume.wait(30)

    def run() -> None:
        sibling = project.sibling()
        try:
            outcome["result"] = run_job(job(sibling), pause_once)
        except Exception as exc:  # noqa: BLE001 — the caller checks it
            outcome["error"] = exc
        finally:
            sibling.close()
            paused.set()

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert paused.wait(60)
        assert not outcome, f"the job ended before act() ran: {outcome}"
        result = act()
        assert not outcome, "the job did not hold still while act() ran"
    finally:
        resume.set()
        worker.join(120)
    return result, outcome


def during_import(project: Project, folder: Path, monkeypatch: pytest.MonkeyPatch,
                  phase: str, act: Callable[[], Any]) -> tuple[Any, dict[str, Any]]:
    """:func:`during_job` for an import of :data:`IMPORTED` records (stored piece by piece)
    into topic B, paused mid-``phase`` ("storing" or "linking")."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 10_000)
    monkeypatch.setattr(parallel, "PIECE_RECORDS", 200)
    records, _ = synthetic.generate(IMPORTED, dup_rate=0.1, seed=5)
    big = folder / "big.ris"
    exporting.export_records(records, big, "ris")
    low, high = (10, 50) if phase == "storing" else (55, 90)
    return during_job(
        project, lambda sibling: ingest.import_file(sibling, big, topic="B", role="results"),
        lambda progress: low < progress.done < high, act)


def noted_rows(rows: Iterable, seen: list, first_taken: threading.Event | None = None,
               go_on: threading.Event | None = None) -> Iterator:
    """``rows`` as a long writer takes them, each noted in ``seen``; the first waits for
    ``go_on`` after setting ``first_taken`` (a write held after its first row)."""
    for row in rows:
        seen.append(row)
        if first_taken is not None and not first_taken.is_set():
            first_taken.set()
            go_on.wait(10)
        yield row
