"""``litqeval-gui --self-test``: prove that an installation (or the bundle) works.

The run goes through :data:`STEPS` in order on a temporary project, printing one line
per step with its time, and exits 0; the first step that raises ends the run with exit
code 1 and a line naming the step and the error. Nothing outside the temporary folder
is touched (the GUI step points the settings at it too).

A step is a function ``step(run: SelfTest) -> str`` that raises when something is wrong
and returns a short detail for its line. To add one (a capability that lands later),
write the function and add ``("name", function)`` to :data:`STEPS` where it belongs
(before ``reopen project`` when the reopened project should show its work). The
fixtures are small files in ``resources/selftest``: :data:`SAMPLES` names a core set or
result list for each registered import format, each imported in a step of its own (the
XLSX list is written here from the CSV one).
"""

from __future__ import annotations

import csv
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

import numpy as np

from litqeval_gui.core.evaluation import recall_report
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, queries
from litqeval_gui.core.records.importing import formats, read_records
from litqeval_gui.core.records.importing.parallel import MAIN_PIECES, PIECE_RECORDS, read_rows
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.resources import resource

TOPIC = "screening methods"
TREC_TOPIC = "401"  # the topic id inside qrels.txt and run.txt
# import format (every one in the registry) -> its sample in resources/selftest, imported
# into the topic whose id it holds (TREC formats) or TOPIC; results.xlsx is written from
# results.csv
SAMPLES = {
    "ris": "core.ris", "qrels": "qrels.txt", "medline": "results.nbib",
    "bibtex": "results.bib", "trec-run": "run.txt", "csv": "results.csv",
    "tsv": "results.tsv", "xlsx": "results.xlsx", "jsonl": "documents.jsonl",
    "trec-doc": "documents.trec", "endnote": "results.xml",
}
CORE_SETS = ("ris", "qrels")  # formats whose sample is its topic's core set (imported first)
# formats whose sample is the document collection of the TREC topic (imported last), and
# how many of its documents a record of that topic names
COLLECTIONS = {"jsonl": 3, "trec-doc": 2}
# (topic, list) -> recall, counted by hand from the fixtures (4 core works per topic)
EXPECTED_RECALL = {
    (TOPIC, "results-bibtex"): 0.5, (TOPIC, "results-csv"): 0.75,
    (TOPIC, "results-tsv"): 0.25, (TOPIC, "results-xlsx"): 0.75,
    (TOPIC, "results-medline"): 0.5, (TOPIC, "results-endnote"): 0.75,
    (TREC_TOPIC, "results-trec-run"): 0.5,
}
PARALLEL_RECORDS = (MAIN_PIECES + 1) * PIECE_RECORDS + 1  # more pieces than this process parses


@dataclass
class SelfTest:
    """What the steps share: a temporary ``folder`` holding the project file, and the
    project while it is open."""

    folder: Path
    project: Project | None = None
    counts: dict[str, int] = field(default_factory=dict)  # list name -> records

    @property
    def path(self) -> Path:
        return self.folder / "selftest.litq"

    def open_project(self) -> Project:
        if self.project is None:
            self.project = Project.open(self.path)
        return self.project

    def close_project(self) -> None:
        if self.project is not None:
            self.project.close()
            self.project = None


Step = tuple[str, Callable[[SelfTest], str]]


def create_project(run: SelfTest) -> str:
    run.project = Project.create(run.path)
    return str(run.path)


def import_order() -> list[str]:
    """The registered import formats, the core sets' first, the collections last."""
    return sorted(formats.names(),
                  key=lambda fmt: (fmt not in CORE_SETS) + 2 * (fmt in COLLECTIONS))


def import_fixture(fmt: str, run: SelfTest) -> str:
    """Import the sample of ``fmt`` (format detected from the content) as list
    ``<role>-<fmt>``."""
    if fmt not in SAMPLES:
        raise AssertionError(f"the import format {fmt!r} has no sample in SAMPLES")
    name, role = SAMPLES[fmt], "core" if fmt in CORE_SETS else "results"
    role = "collection" if fmt in COLLECTIONS else role
    topic = TREC_TOPIC if formats.named(fmt).keeps_rank or fmt in COLLECTIONS else TOPIC
    path = _xlsx_from_csv(run.folder / name) if fmt == "xlsx" else resource("selftest", name)
    summary = run_job(import_file(run.open_project(), path, topic=topic, role=role,
                                  name=f"{role}-{fmt}"))
    if summary.format != fmt or summary.rejected or not summary.read:
        raise AssertionError(f"{path.name} was read as {summary.format} with {summary.read} "
                             f"records, {summary.rejected} rejected")
    if fmt in COLLECTIONS and summary.matched != COLLECTIONS[fmt]:
        raise AssertionError(f"{path.name} gave a text to {summary.matched} records, "
                             f"not {COLLECTIONS[fmt]}")
    run.counts[summary.name] = summary.read
    return f"{summary.read} records from {path.name}"


def _xlsx_from_csv(target: Path) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    with resource("selftest", "results.csv").open(encoding="utf-8", newline="") as rows:
        for row in csv.reader(rows):
            book.active.append(row)
    book.save(target)
    return target


def parse_in_workers(run: SelfTest) -> str:
    """A RIS file of more pieces than this process parses alone goes through the
    worker processes of the parallel parser: every record arrives, and workers ran."""
    path = run.folder / "many.ris"
    path.write_text("".join(f"TY  - JOUR\nTI  - Record {i}\nPY  - 2020\nER  - \n\n"
                            for i in range(PARALLEL_RECORDS)), encoding="utf-8")
    rows: list[int] = []
    workers: set[int | None] = set()

    def sink(batch: list[tuple], _offset: int) -> None:
        rows.append(len(batch))
        workers.update(child.pid for child in multiprocessing.active_children())

    result = run_job(read_rows(path, sink, parallel=True))
    if sum(rows) != PARALLEL_RECORDS or result.rejected:
        raise AssertionError(f"{sum(rows)} of {PARALLEL_RECORDS} records arrived, "
                             f"{len(result.rejected)} rejected")
    if not workers:
        raise AssertionError("no worker process was started")
    return f"{PARALLEL_RECORDS} records, {len(workers)} worker processes"


def evaluate_a_topic(run: SelfTest) -> str:
    """The topic evaluated end to end (``litqeval evaluate``): lsa vectors, the shared
    UMAP map (numba, llvmlite, pynndescent; numba's cache in the per-user folder, as a
    bundle's own folder may be read-only) and the four methods; recall agrees with the
    hand count and every method gives its number, or the reason it is undefined."""
    evaluation = run_job(evaluate_topic(run.open_project(), TOPIC))
    coords = evaluation.map.coords
    if evaluation.map.method != "umap" or coords.shape[1] != 2 or not np.isfinite(coords).all():
        raise AssertionError(f"a {evaluation.map.method} map of shape {coords.shape}")
    recall = {(TOPIC, item.name): item.recall for item in evaluation.lists}
    expected = {key: value for key, value in EXPECTED_RECALL.items() if key[0] == TOPIC}
    if recall != expected:
        raise AssertionError(f"recall {recall}, expected {expected}")
    defined = {method: sum(item.methods[method].defined for item in evaluation.lists)
               for method in METHODS}
    vague = [(item.name, m) for item in evaluation.lists for m in METHODS
             if not item.methods[m].defined and not item.methods[m].reason]
    if vague or not all(defined.values()):
        raise AssertionError(f"defined per method {defined}; undefined without a reason "
                             f"{vague}")
    return (f"{len(evaluation.lists)} lists, {len(coords)} points, "
            + ", ".join(f"{m} {n}" for m, n in defined.items())
            + f" defined; numba cache in {os.environ['NUMBA_CACHE_DIR']}")


def compute_recall(run: SelfTest) -> str:
    found = {(topic, item.name): item.recall
             for topic in (TOPIC, TREC_TOPIC)
             for item in recall_report(run.open_project(), topic).lists}
    if found != EXPECTED_RECALL:
        raise AssertionError(f"recall {found}, expected {EXPECTED_RECALL}")
    return ", ".join(f"{name} {value:.2f}" for (_, name), value in found.items())


def export_lists(run: SelfTest) -> str:
    """The core set written in every export format reads back with all its records."""
    project = run.open_project()
    records = list(queries.list_records(project, queries.find_list(project, TOPIC, "core-ris").id))
    for fmt in exporting.EXPORT_FORMATS:
        target = run.folder / f"export.{fmt}"
        exporting.export_records(records, target, fmt)
        back = run_job(read_records(target))
        if len(back.records) != len(records) or back.rejected:
            raise AssertionError(f"{fmt}: {len(back.records)} of {len(records)} records "
                                 f"read back, {len(back.rejected)} rejected")
    return f"{len(records)} records as {', '.join(exporting.EXPORT_FORMATS)}"


def advance_pool(run: SelfTest) -> str:
    """A pool of the TREC run advances one depth: its record goes to the pool's screening,
    is judged there, and the pool's state read back after reopening shows depth 1 judged."""
    from litqeval_gui.core.pooling import state, store
    from litqeval_gui.core.screening.log import store as screening_store
    from litqeval_gui.core.screening.session import ScreeningSession

    project = run.open_project()
    pool = store.create_pool(project, TREC_TOPIC, "self-test", ["results-trec-run"],
                             store.settings("aggressive", low_yield=None))
    step = state.advance(project, pool)
    screening = screening_store.get_screening(project, pool.screening_id)
    ScreeningSession(project, screening, "self-test").decide("include")
    run.close_project()
    back = state.pool_state(run.open_project(), store.find_pool(run.open_project(),
                                                                TREC_TOPIC, "self-test"))
    if (step.added, back.released, back.judged_depth, back.nrels.tolist()) != (1, 1, 1, [1]):
        raise AssertionError(f"{step.message()}; read back: depth {back.released}, judged "
                             f"{back.judged_depth}, nrels {back.nrels.tolist()}")
    return f"{step.message()}, judged and read back (nrels(1) = 1)"


def reopen_project(run: SelfTest) -> str:
    """Closed and opened again, the project holds every list with its records."""
    run.close_project()
    found = {row["name"]: row["records"] for row in run.open_project().db.query(
        "SELECT name, (SELECT count(*) FROM records r WHERE r.import_id = i.id) AS records "
        "FROM live_imports i")}
    if found != run.counts:
        raise AssertionError(f"lists after reopening {found}, before {run.counts}")
    return f"{len(found)} lists"


def screen_and_undo(run: SelfTest) -> str:
    """A screening decision and its undo are both in the event log after reopening, and
    the record is undecided again (issue 14 §7)."""
    from litqeval_gui.core.screening.log import store
    from litqeval_gui.core.screening.session import ScreeningSession

    project = run.open_project()
    results = next(info for info in queries.lists(project, TOPIC) if info.role == "results")
    screening = store.create_screening(project, TOPIC, "self-test", [results.name])
    screener = ScreeningSession(project, screening, "self-test")
    decided = screener.decide("include")
    screener.take_back()
    run.close_project()
    log = store.events(run.open_project(), screening.id)
    found = [(e.kind, e.record_id, e.target) for e in log]
    expected = [("decide", decided.record_id, None), ("undo", decided.record_id, decided.id)]
    if found != expected or store.current_decisions(run.open_project(), screening.id):
        raise AssertionError(f"events read back {found}, expected {expected}")
    return f"decide and undo of record {decided.record_id} read back"


STEPS: list[Step] = [
    ("create project", create_project),
    *((f"import {fmt}", partial(import_fixture, fmt)) for fmt in import_order()),
    ("parse RIS in workers", parse_in_workers),
    ("compute recall", compute_recall),
    ("evaluate a topic (lsa + map + the four methods)", evaluate_a_topic),
    ("export lists", export_lists),
    ("screen, undo, read back", screen_and_undo),
    ("advance a pool", advance_pool),
    ("reopen project", reopen_project),
]


def run(steps: Sequence[Step] = STEPS, out: TextIO = sys.stdout) -> int:
    """Run ``steps`` on a fresh temporary project; 0 when all pass, else 1. The last line
    reads ``self-test: N passed, N failed``."""
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="litqeval-selftest-"))
    state = SelfTest(folder)
    passed = 0
    try:
        for name, step in steps:
            began = time.perf_counter()
            try:
                detail = step(state)
            except Exception as exc:  # noqa: BLE001 — any failure names its step
                print(f"FAILED  {name} ({time.perf_counter() - began:.2f} s): "
                      f"{type(exc).__name__}: {exc}", file=out)
                print(f"self-test failed at step '{name}'", file=out)
                break
            passed += 1
            print(f"ok {time.perf_counter() - began:6.2f} s  {name}: {detail}", file=out,
                  flush=True)
        else:
            print(f"self-test took {time.perf_counter() - started:.2f} s", file=out)
    finally:
        state.close_project()
        shutil.rmtree(folder, ignore_errors=True)
    failed = int(passed < len(steps))
    print(f"self-test: {passed} passed, {failed} failed", file=out, flush=True)
    return failed
