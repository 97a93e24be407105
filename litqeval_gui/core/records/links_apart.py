"""An import's links, found in a child process for a large topic in the app, so that no
thread of this process (the GUI's) waits for Python's GIL meanwhile.

Finding the links of a 50 000-record import is seconds of pure-Python work (shingles,
sort keys, title scores); on the import's job thread it held the GIL about two thirds
of the time, and every decision the reviewer made meanwhile waited for it at each
hand-over (``benchmarks/bench_screening_gui.py``: the next record after a key press).
From :data:`APART_FROM` records in the topic, in a process that
:func:`~litqeval_gui.core.scaleout.serves_a_window`, a child process (forkserver where
available, else spawn; at a lower CPU priority, :func:`~litqeval_gui.core.scaleout.in_child`)
opens the project read-only, reads the linker's items (the pending import's rows are
committed, so it sees them), finds the links and writes the rows to store as a JSON
file in a temporary folder: plain numbers and strings, no serialised objects. Smaller
topics, the command line (no window to keep responsive: a child would only add its
start), or a program whose main module a child cannot import, link here. Either way the
rows are those :func:`link_rows` gives here.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import sqlite_utils

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, run_job
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.records import works
from litqeval_gui.core.records.linkage import USER, Link, LinkItem, find_links, fingerprint
from litqeval_gui.core.scaleout import in_child, main_importable, serves_a_window

APART_FROM = 20_000  # records in the topic, the pending import's included

LinkRows = tuple[list[tuple], int]  # rows for the links table, uncertain links among them


def import_links(project: Project, topic_id: int, import_id: int,
                 token: CancelToken = NEVER, kept: list[tuple] | None = None,
                 ) -> Job[LinkRows]:
    """:func:`link_rows`, in a child process for a large topic (module docstring; the
    child reads the import's rows, ``kept`` serve here only)."""
    size = project.db.execute(
        "SELECT COUNT(*) FROM records r JOIN imports i ON i.id = r.import_id "
        "WHERE i.topic_id = ?", [topic_id]).fetchone()[0]
    if size < APART_FROM or not serves_a_window() or not main_importable():
        return (yield from link_rows(project.db, topic_id, import_id, token, kept))
    _let_go(kept or [])  # the child reads the rows
    with tempfile.TemporaryDirectory(prefix="litq-links-") as folder:
        exitcode = yield from in_child(_find, (str(project.path), topic_id, import_id, folder),
                                       "import links", f"matching {size:,} records", token)
        return _read(Path(folder), exitcode)


def link_rows(db: sqlite_utils.Database, topic_id: int, import_id: int,
              token: CancelToken = NEVER, kept: list[tuple] | None = None,
              ) -> Job[LinkRows]:
    """Job: the rows that link pending import ``import_id`` into its topic (the links
    table's columns from ``topic_id`` on, sorted as :func:`find_links` sorts the links)
    and how many of them are uncertain matches (not the user's verdicts). ``kept``: the
    import's rows as its :class:`~litqeval_gui.core.records.rows.RowWriter` kept them
    (emptied here), else they are read."""
    existing = works.link_items(db, topic_id, exclude_import=import_id)
    if kept is None:
        new_items = works.link_items(db, topic_id, only_import=import_id)
    else:
        new_items = works.items_of(kept)
        _let_go(kept)
    links = yield from find_links(new_items, existing, verdicts=_verdicts(db, topic_id),
                                  abstracts=works.abstract_reader(db), token=token)
    rows = _rows(topic_id, links, existing + new_items)
    _let_go(existing)
    _let_go(new_items)
    return rows, sum(1 for link in links if not link.certain and link.method != USER)


def _find(path: str, topic_id: int, import_id: int, folder: str) -> None:
    """The child: the link rows to ``folder/links.json`` (or ``error.txt``)."""
    out = Path(folder)
    try:
        with Project.open(path, readonly=True) as project:
            rows, uncertain = run_job(link_rows(project.db, topic_id, import_id))
    except LitqError as exc:
        (out / "error.txt").write_text(str(exc), encoding="utf-8")
        return
    (out / "links.json").write_text(json.dumps({"rows": rows, "uncertain": uncertain}),
                                    encoding="utf-8")


def _read(folder: Path, exitcode: int | None) -> LinkRows:
    if (folder / "error.txt").exists():
        raise LitqError((folder / "error.txt").read_text(encoding="utf-8"))
    if exitcode != 0 or not (folder / "links.json").exists():
        raise LitqError(f"matching the records stopped unexpectedly (exit code {exitcode})")
    found = json.loads((folder / "links.json").read_text(encoding="utf-8"))
    return [tuple(row) for row in found["rows"]], int(found["uncertain"])


def _verdicts(db: sqlite_utils.Database, topic_id: int) -> dict[frozenset[str], bool]:
    """The user's verdicts on earlier matches, keyed by the records' fingerprints."""
    rows = db.execute(
        "SELECT fp_a, fp_b, status FROM links WHERE topic_id = ? "
        "AND status IN ('confirmed', 'rejected') AND fp_a IS NOT NULL", [topic_id],
    )
    return {frozenset((a, b)): status == "confirmed" for a, b, status in rows}


def _rows(topic_id: int, links: list[Link], items: list[LinkItem]) -> list[tuple]:
    by_key = {item.key: item for item in items}
    created = now()
    return [
        (topic_id, link.a, link.b, link.method, link.score, _status(link), created,
         fingerprint(by_key[link.a]), fingerprint(by_key[link.b]),
         created if link.method == USER else None)
        for link in links
    ]


def _status(link: Link) -> str:
    if link.method == USER:
        return "confirmed" if link.certain else "rejected"
    return "auto" if link.certain else "uncertain"


def _let_go(values: list) -> None:
    """Empty ``values`` a slice at a time: freeing 200 000 link items in one go holds the
    GIL for ~45 ms, and a decision queued on another thread would wait for it."""
    while values:
        del values[-4096:]

