"""Records without a title or abstract (issue 28 §2): imported by an identifier from RIS,
CSV and MEDLINE, screened (ranked last, unscored, until they have text), decided, counted
in PRISMA and exported; a record with nothing at all is refused in one line."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.importing.common import NOTHING
from litqeval_gui.core.screening.export import export_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_counts
from litqeval_gui.core.screening.ranking.features import Features, blank_last, screening_features
from litqeval_gui.core.screening.ranking.retrain import rank, retrain, stored_ranking
from litqeval_gui.core.screening.ranking.seeding import find_in_screening
from litqeval_gui.core.screening.simulation.simulate import simulate
from tests.support.screening import labelled_records

HEADER = ["record_id", "title", "abstract", "doi", "label_included", "pubmed_id", "authors",
          "year"]
# (record_id, doi, label, pubmed_id, authors, year): Cohen ACE's rows without text look so
TEXTLESS = [("101", "10.1053/euhj.1998.1271", "1", "10075143", "Ng A; Chen B", "1998"),
            ("102", "", "0", "10216796", "", ""),
            ("103", "", "0", "", "", "")]  # the id column alone
NOTHING_ROW = ["", "", "", "", "0", "", "", "1999"]  # a year alone: refused


def _ace_like_csv(path, n=40):
    records, labels = labelled_records(n, 0.2, seed=4)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for i, (record, label) in enumerate(zip(records, labels, strict=True), start=1):
            writer.writerow([i, record.title, record.abstract, record.doi, label, "", "",
                             record.year or ""])
        writer.writerow(NOTHING_ROW)
        for rid, doi, label, pmid, authors, year in TEXTLESS:
            writer.writerow([rid, "", "", doi, label, pmid, authors, year])
    return path, [*labels, *(int(row[2]) for row in TEXTLESS)]


@pytest.fixture
def ace(tmp_path):
    source, labels = _ace_like_csv(tmp_path / "ace.csv")
    with Project.create(tmp_path / "ace.litq") as project:
        summary = run_job(ingest.import_file(project, source, topic="T", role="results",
                                             name="L"))
        yield project, summary, np.array(labels, dtype=bool)


def test_the_textless_rows_are_imported_and_only_the_empty_one_refused(ace):
    project, summary, labels = ace
    assert (summary.read, summary.new, summary.rejected) == (44, 43, 1)
    assert len(summary.problems) == 1 and summary.problems[0].endswith(f"line 42: {NOTHING}")
    assert "3 record(s) without title or abstract kept by their identifiers (screened by " \
        "what they have, ranked last)" in summary.notes
    rows = project.db.execute(
        "SELECT title, abstract, doi, pmid, authors, year FROM records "
        "WHERE COALESCE(title, '') = '' ORDER BY rank").fetchall()
    assert [(r[2] or "", r[3] or "", r[5]) for r in rows] == [
        ("10.1053/euhj.1998.1271", "10075143", 1998), ("", "10216796", None), ("", "", None)]
    assert all(not r[0] and not r[1] for r in rows)


def test_textless_records_are_ranked_last_unscored_then_decided_counted_and_exported(
        ace, tmp_path):
    project, _, labels = ace
    screening = store.create_screening(project, "T", "S", ["L"])
    items = store.items(project, screening.id)
    assert len(items) == 43
    features = run_job(screening_features(project, screening))
    assert features.blank.tolist() == [False] * 40 + [True] * 3
    ada = store.Context("Ada")
    first_in, first_out = int(np.flatnonzero(labels)[0]), int(np.flatnonzero(~labels)[0])
    for row, label in ((first_in, "include"), (first_out, "exclude")):
        project.write(store.decide_op(screening, items[row], label, ada))
    ranking = run_job(retrain(project, screening, features))
    stored = stored_ranking(project, screening.id)
    assert stored.records == ranking.records
    open_part = stored.records[:41]  # 41 undecided: 38 with text, then the 3 without
    assert open_part[38:] == tuple(items[40:])  # last, in list order
    assert np.isfinite(stored.scores[:38]).all() and np.isnan(stored.scores[38:]).all()

    # the included text-less record is decided like any other, and counted
    project.write(store.decide_op(screening, items[40], "include", ada))
    project.write(store.decide_op(screening, items[41], "exclude", ada))
    again = rank(features, store.current_decisions(project, screening.id), screening.scheme)
    assert again.records[:39][-1] == items[42]  # the last text-less one still last
    counts = prisma_counts(project, "T")
    assert (counts.screened, counts.excluded_screening, counts.not_yet_screened) == (4, 2, 39)

    out = tmp_path / "decisions.csv"
    assert export_screening(project, screening, out, "csv") == 43
    with open(out, encoding="utf-8-sig", newline="") as handle:
        exported = list(csv.DictReader(handle))
    by_doi = {row["doi"]: row for row in exported if row["doi"]}
    assert by_doi["10.1053/euhj.1998.1271"]["decision"] == "include"
    assert [row["decision"] for row in exported if not row["title"]] == [
        "include", "exclude", "undecided"]
    ris = tmp_path / "decisions.ris"
    export_screening(project, screening, ris, "ris")
    back = run_job(read_records(ris)).records
    assert len(back) == 43 and sum(not r.has_text() for r in back) == 3


def test_a_simulation_screens_the_textless_records_last(ace):
    project, _, labels = ace
    screening = store.create_screening(project, "T", "S", ["L"])
    features = run_job(screening_features(project, screening))
    run = run_job(simulate(features, labels, seed=2, rules=[]))
    assert run.order[-3:].tolist() == [40, 41, 42]  # in list order, as the app ranks them


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("pmid.ris", "TY  - JOUR\nAU  - Ng, A\nPY  - 1998\nDO  - 10.1000/x\nER  - \n\n"
                 "TY  - JOUR\nTI  - With text\nER  - \n\nTY  - JOUR\nPY  - 2001\nER  - \n",
     [("", "10.1000/x", "", 1998), ("With text", "", "", None)]),
    ("pubmed.nbib", "PMID- 10075143\nDP  - 1998 Feb\nAU  - Ng A\n\n"
                    "PMID- 2\nTI  - With text.\n\nDP  - 2001\n",
     [("", "", "10075143", 1998), ("With text.", "", "2", None)]),
])
def test_ris_and_medline_records_with_an_identifier_alone_are_kept(tmp_path, name, text,
                                                                     expected):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = run_job(read_records(path))
    assert [(r.title, r.doi, r.pmid, r.year) for r in result.records] == expected
    assert [r.reason for r in result.rejected] == [NOTHING]
    assert result.records[0].authors in (["Ng, A"], ["Ng A"])


def test_a_record_stored_without_a_vector_is_blank_with_embedding_features_too():
    vectors = np.array([[1.0, 0.0], [0.0, 0.0], [0.6, 0.8], [0.0, 1.0]], dtype=np.float32)
    features = Features((11, 12, 13, 14), vectors, np.empty(0, dtype=np.intp), None,
                        "embedding:lsa")
    assert features.blank.tolist() == [False, True, False, False]
    assert blank_last(np.array([0.9, 0.8, 0.1, 0.2]), features.blank).tolist() == [
        0.9, -np.inf, 0.1, 0.2]


def test_a_textless_record_is_found_for_seeding_by_its_doi_or_pmid(ace):
    project, _, _ = ace
    screening = store.create_screening(project, "T", "S", ["L"])
    items = store.items(project, screening.id)
    found = find_in_screening(project, screening.id, "https://doi.org/10.1053/EUHJ.1998.1271")
    assert [(f.record_id, f.title, f.year) for f in found] == [(items[40], "(no title)", 1998)]
    assert [f.record_id for f in find_in_screening(project, screening.id, "10216796")] == [
        items[41]]
    assert find_in_screening(project, screening.id, "10216797") == []
