"""How fast the Query screen answers an edit on a 50 000-record topic.

A topic of ``--records`` generated records (a result list, and 50 of its works as the
core set). Figures: reading the topic and building its index once (no goal: the screen
shows progress); then, index built, one edit — a word added to an OR group — evaluated
as the screen does (the clause table with each clause's "without" query, and the list's
own-export agreement): goal < 1 s, median of ``--edits`` different edits. Baseline (same
run): one naive pass of Python's ``in`` for one word over every record's title and
abstract, so the edit is also shown as that many naive one-word scans.

Usage: ``python benchmarks/bench_query_edit.py [--records 50000] [--edits 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from support import figure, load_average

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import agreement, topic
from litqeval_gui.core.query.parser import parse
from litqeval_gui.core.records import exporting, ingest
from tests.support import synthetic

EDIT_GOAL = 1.0  # seconds


def build(folder: Path, records: int) -> Path:
    generated, _ = synthetic.generate(records, dup_rate=0.0, seed=13)
    exporting.export_records(generated, folder / "list.ris", "ris")
    exporting.export_records(generated[:50], folder / "core.ris", "ris")
    path = folder / "q.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, folder / "core.ris", topic="T", role="core"))
        run_job(ingest.import_file(project, folder / "list.ris", topic="T", role="results",
                                   name="list"))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = build(Path(folder), args.records)
        with Project.open(path, readonly=True) as project:
            started = time.perf_counter()
            texts = topic.load(project, "T")
            loaded = time.perf_counter() - started
            common = [w for w, _ in Counter({w: p.size for w, p in
                                             texts.index.postings["title"].items()}
                                            ).most_common(400)[100:]]
            base = (f"({' OR '.join(common[:12])}) AND ({' OR '.join(common[12:24])}) "
                    f"NOT {common[24]}")
            topic.analyse(project, "T", parse(base))
            times = []
            for i in range(args.edits):
                edited = parse(base.replace(f"({common[0]} OR", f"({common[0]} OR "
                                            f"{common[30 + i]} OR", 1))
                started = time.perf_counter()
                analysis = topic.analyse(project, "T", edited)
                agreement.agreement(project, "T", "list", edited)
                times.append(time.perf_counter() - started)
            edit = statistics.median(times)
            word = common[0]
            started = time.perf_counter()
            sum(word in f"{t} {a}".lower() for t, a in zip(texts.titles, texts.index.texts[
                "abstract"], strict=True))
            naive = time.perf_counter() - started
    print(f"{load_average()}; {texts.record_ids.size:,} records, {len(analysis.clauses)} "
          f"clauses; median of {args.edits} edits")
    figure("query: read the topic and build its index", f"{loaded:.1f} s", "-", None)
    figure("query: one edit, clause table and own export", f"{edit:.3f} s "
           f"({edit / naive:.1f}x one naive one-word scan of {naive:.3f} s)",
           f"< {EDIT_GOAL} s", edit < EDIT_GOAL)


if __name__ == "__main__":
    main()
