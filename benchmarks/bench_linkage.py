"""Record linkage on real files: the Robotic Arthroplasty core set and its Dimensions export.

Imports ``ra_core.bib`` (core) and then ``baseline_pubs.csv`` (results) of the LitQEval
data into a new project, as the app does, and scores the links against ground truth:

- core × result: the same Dimensions publication id (the core set's BibTeX URLs and the
  export's ``id`` column), exact;
- result × result: the hand-checked pairs of ``data/ra_duplicates.csv`` (``same`` counts
  as one work, ``version`` is left out of both counts; see the file's header).

Figures: the uncertain matches a user has to review, and pair precision / recall of the
certain links (merged without asking) and of every listed link (certain or uncertain),
once with the files as they are and once without their identifiers (BibTeX ``url``, CSV
``id``), where titles and abstracts are all the evidence.

Usage: ``bench_linkage.py [RA_CORE.bib BASELINE_PUBS.csv]``; without arguments the files
are looked for under ``$LITQEVAL_DATA`` (default ``/work/shared/data``); absent, the
benchmark prints one ``skipped`` line.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from support import figure, load_average, skip  # noqa: E402 — sys.path set by support

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest

LABELS = Path(__file__).with_name("data") / "ra_duplicates.csv"
CORE = "litqeval/derived/ra_core.bib"
RESULTS = "litqeval/data/text/Robotic_Arthroplasty/baseline_pubs.csv"


def _paths(argv: list[str]) -> tuple[Path, Path] | None:
    if len(argv) == 2:
        core, results = Path(argv[0]), Path(argv[1])
    else:
        root = Path(os.environ.get("LITQEVAL_DATA", "/work/shared/data"))
        core, results = root / CORE, root / RESULTS
    return (core, results) if core.is_file() and results.is_file() else None


def _labels() -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    same, version = set(), set()
    with LABELS.open(encoding="utf-8") as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        for row in rows:
            (same if row["label"] == "same" else version).add(frozenset((row["a"], row["b"])))
    return same, version


def _without_ids(core: Path, results: Path, folder: Path) -> tuple[Path, Path]:
    """Copies of the two files without their Dimensions ids (BibTeX url, CSV id)."""
    bib = folder / core.name
    bib.write_text(re.sub(r"^\s*url = \{[^}]*\},?\n", "", core.read_text(encoding="utf-8"),
                          flags=re.M), encoding="utf-8")
    table = folder / results.name
    with results.open(encoding="utf-8", newline="") as src, \
            table.open("w", encoding="utf-8", newline="") as dst:
        rows = csv.DictReader(src)
        out = csv.DictWriter(dst, [f for f in rows.fieldnames or [] if f != "id"])
        out.writeheader()
        for row in rows:
            row.pop("id")
            out.writerow(row)
    return bib, table


def _import(path: Path, core: Path, results: Path) -> Project:
    project = Project.create(path)
    for file, role in ((core, "core"), (results, "results")):
        run_job(ingest.import_file(project, file, topic="RA", role=role))
    return project


def _text_key(title: str | None, abstract: str | None) -> tuple[str, str]:
    return (title or "").strip(), (abstract or "").strip()[:300]


def _publication_ids(project: Project, reference: Project | None) -> dict[int, str]:
    """Record id -> Dimensions id: from the record's ids, or (files without ids) from the
    record of ``reference`` with the same title and abstract, in import order."""
    rows = project.db.execute(
        "SELECT r.id, r.ids, r.title, r.abstract, i.role FROM records r "
        "JOIN imports i ON i.id = r.import_id ORDER BY r.id").fetchall()
    if reference is None:
        return {key: json.loads(ids)["dimensions"] for key, ids, *_ in rows}
    pool: dict[tuple, list[str]] = {}
    for key, pub in _publication_ids(reference, None).items():
        title, abstract, role = reference.db.execute(
            "SELECT r.title, r.abstract, i.role FROM records r JOIN imports i "
            "ON i.id = r.import_id WHERE r.id = ?", [key]).fetchone()
        pool.setdefault((role, *_text_key(title, abstract)), []).append(pub)
    return {key: pool[(role, *_text_key(title, abstract))].pop(0)
            for key, _ids, title, abstract, role in rows}


def _score(name: str, project: Project, pubs: dict[int, str]) -> None:
    same, version = _labels()
    roles = dict(project.db.execute(
        "SELECT r.id, i.role FROM records r JOIN imports i ON i.id = r.import_id"))
    truth = {frozenset(pair) for pair in same}
    by_pub: dict[str, list[int]] = {}
    for key, pub in pubs.items():
        by_pub.setdefault(pub, []).append(key)
    core_pubs = {pubs[k] for k, role in roles.items() if role == "core"}
    result_pubs = {pubs[k] for k, role in roles.items() if role == "results"}
    truth |= {frozenset((pub, pub + "#core")) for pub in core_pubs & result_pubs}

    def pair(a: int, b: int) -> frozenset[str]:
        tag = {a: pubs[a] + ("#core" if roles[a] == "core" else ""),
               b: pubs[b] + ("#core" if roles[b] == "core" else "")}
        return frozenset((tag[a], tag[b]))

    links = project.db.execute("SELECT a, b, status FROM links").fetchall()
    uncertain = [(a, b) for a, b, status in links if status == "uncertain"]
    both_results = sum(roles[a] == roles[b] == "results" for a, b in uncertain)
    figure(f"{name}: uncertain matches", f"{len(uncertain)} ({both_results} result × result)",
           "-", None)
    for what, statuses in (("certain", {"auto"}), ("listed", {"auto", "uncertain"})):
        found = {pair(a, b) for a, b, status in links if status in statuses}
        found -= {frozenset(p) for p in version}
        hits = len(found & truth)
        precision = hits / len(found) if found else 1.0
        recall = hits / len(truth)
        figure(f"{name}: {what} links precision / recall",
               f"{precision:.3f} / {recall:.3f} ({hits} of {len(found)} links, "
               f"{len(truth)} true pairs)", "-", None)


def main(argv: list[str]) -> int:
    paths = _paths(argv)
    if paths is None:
        skip("bench_linkage: the Robotic Arthroplasty files are absent (give their paths "
             "or set LITQEVAL_DATA)")
        return 0
    core, results = paths
    print(load_average())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with_ids = _import(folder / "ids.litq", core, results)
        _score("with ids", with_ids, _publication_ids(with_ids, None))
        bare_folder = folder / "bare"
        bare_folder.mkdir()
        bare = _import(folder / "bare.litq", *_without_ids(core, results, bare_folder))
        _score("without ids", bare, _publication_ids(bare, with_ids))
        bare.close()
        with_ids.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
