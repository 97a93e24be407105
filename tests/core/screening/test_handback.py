"""Results handed back to other tools: a screening as ASReview LAB's labelled dataset, and
the PRISMA counts in the PRISMA2020 R package's CSV — on the review of
:func:`tests.support.prisma.build_review`."""

import csv
import dataclasses
import re

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.core.screening.export import export_screening
from litqeval_gui.core.screening.foreign.asreview_dataset import ASREVIEW_COLUMNS, asreview_label
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import GRADED, IEM, NOT_RETRIEVED
from litqeval_gui.core.screening.prisma.flow import prisma_counts
from litqeval_gui.core.screening.prisma.r_package import R_COLUMNS, r_rows, write_r_csv
from litqeval_gui.core.screening.ranking.known import column_labels
from tests.support.prisma import build_review

# the `data` keys of the PRISMA2020 package's template CSV (inst/extdata/PRISMA.csv)
TEMPLATE_KEYS = {
    "previous_studies", "previous_reports", "database_results", "database_specific_results",
    "register_results", "register_specific_results", "website_results",
    "organisation_results", "citations_results", "duplicates", "excluded_automatic",
    "excluded_other", "records_screened", "records_excluded", "dbr_sought_reports",
    "dbr_notretrieved_reports", "other_sought_reports", "other_notretrieved_reports",
    "dbr_assessed", "dbr_excluded", "other_assessed", "other_excluded", "new_studies",
    "new_reports", "total_studies", "total_reports", "identification", "screening",
    "included", "total_studies_ma", "total_reports_ma"}


@pytest.fixture
def review(tmp_path):
    with Project.open(build_review(tmp_path)) as project:
        yield project


def _read(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_asreview_dataset_labels_the_final_decisions(review, tmp_path):
    screening = store.find_screening(review, "T", "ta")
    target = tmp_path / "asreview.csv"
    assert export_screening(review, screening, target, "asreview") == 16
    assert not target.read_bytes().startswith(b"\xef\xbb\xbf")  # pandas reads the header
    rows = _read(target)
    assert tuple(rows[0]) == ASREVIEW_COLUMNS
    assert [int(r["record_id"]) for r in rows] == store.items(review, screening.id)
    # records 1–8 included, 9 maybe, 10–12 excluded, 13–16 undecided
    assert [r["label_included"] for r in rows] == ["1"] * 8 + [""] + ["0"] * 3 + [""] * 4
    stored = queries.records_by_id(review, [int(rows[0]["record_id"])])
    first = next(iter(stored.values()))
    assert (rows[0]["title"], rows[0]["doi"]) == (first.title, first.doi)
    assert rows[0]["authors"] == "; ".join(first.authors)


def test_asreview_dataset_round_trips_into_a_project(review, tmp_path):
    screening = store.find_screening(review, "T", "ta")
    target = tmp_path / "labelled.csv"
    export_screening(review, screening, target, "asreview", labels=["include", "exclude"])
    with Project.create(tmp_path / "other.litq") as other:
        run_job(import_file(other, target, topic="T", role="results", name="asreview"))
        again = store.create_screening(other, "T", "s", ["asreview"])
        ids = store.items(other, again.id)
        assert column_labels(other, ids, "label_included").tolist() == [True] * 8 + [False] * 3
        titles = [r.title for r in queries.records_by_id(other, ids).values()]
    items = store.items(review, screening.id)
    mine = queries.records_by_id(review, items[:8] + items[9:12])  # the 9th is a maybe
    assert sorted(titles) == sorted(r.title for r in mine.values())


def test_asreview_labels_of_each_scheme():
    assert [asreview_label(IEM, v) for v in ("include", "exclude", "maybe", "conflict")] == [
        "1", "0", "", ""]
    assert [asreview_label(GRADED, v) for v in ("0", "1", "3", NOT_RETRIEVED)] == [
        "0", "1", "1", ""]


def test_asreview_export_refuses_the_project_itself(review):
    screening = store.find_screening(review, "T", "ta")
    with pytest.raises(LitqError):
        export_screening(review, screening, review.path, "asreview")


def _package_reasons(text):
    """The PRISMA2020 package's reading of a "name, n; name, n" cell (its
    PRISMA_parse_reasons_: split at ";", the name before the first comma, the digits
    after it)."""
    parts = re.split(r"(;)( )?", text)
    parts = [p for p in parts if p not in (";", " ", None)]
    return {re.sub(r",.*$", "", p): int(re.sub(r"[^0-9]", "", p.split(",", 1)[1]))
            for p in parts}


def test_prisma2020_rows_hold_the_diagrams_counts(review, tmp_path):
    counts = prisma_counts(review, "T")
    rows = r_rows(counts)
    assert all(len(row) == len(R_COLUMNS) for row in rows)
    by_key = {row[0]: row for row in rows if row[0] != "NA"}
    assert set(by_key) == TEMPLATE_KEYS
    n = {key: row[-1] for key, row in by_key.items()}
    # as `litqeval prisma --json` of this review (tests/test_cli_prisma.py)
    assert (n["database_results"], n["duplicates"], n["excluded_automatic"],
            n["excluded_other"]) == ("22", "6", "0", "0")
    assert _package_reasons(n["database_specific_results"]) == {"PubMed": 14, "Scopus": 8}
    assert (n["records_screened"], n["records_excluded"], n["dbr_sought_reports"],
            n["dbr_notretrieved_reports"], n["dbr_assessed"]) == ("12", "3", "9", "1", "7")
    assert _package_reasons(n["dbr_excluded"]) == {"wrong population": 2,
                                                   "wrong study design": 1}
    assert (n["new_studies"], n["new_reports"], n["total_studies"]) == ("4", "4", "4")
    assert n["other_excluded"] == "0" and n["previous_studies"] == "0"
    titles = [row for row in rows if row[2] in ("prevstud", "newstud", "othstud")]
    assert [row[0] for row in titles] == ["NA"] * 3
    target = write_r_csv(counts, tmp_path / "PRISMA.csv", project=review.path)
    assert not target.read_bytes().startswith(b"\xef\xbb\xbf")  # R's read.csv
    assert [tuple(r.values()) for r in _read(target)] == rows


def test_prisma2020_names_cannot_break_the_packages_lists(review):
    counts = prisma_counts(review, "T")
    hostile = dataclasses.replace(counts, excluded_fulltext={
        '=HYPERLINK("x"), wrong; design': 2, "  ": 1})
    (row,) = [r for r in r_rows(hostile) if r[0] == "dbr_excluded"]
    assert _package_reasons(row[-1]) == {"'=HYPERLINK(\"x\") - wrong - design": 2,
                                         "unnamed": 1}
