"""Paging, filtering and record details for the records view (Qt-free)."""

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, queries
from litqeval_gui.core.records.queries import ListBrowser, RecordFilter, record_detail, year_span


@pytest.fixture
def project(tmp_path, small_files):
    core, results = small_files
    no_years = tmp_path / "no_years.csv"
    no_years.write_text("Title,DOI\nA paper without a year,10.9/x\n"
                        "Rates of 100% and 5_0 percent,10.9/y\n", encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as p:
        run_job(ingest.import_file(p, core, topic="t", role="core"))
        run_job(ingest.import_file(p, results, topic="t", role="results"))
        run_job(ingest.import_file(p, no_years, topic="t", role="other"))
        yield p


def _lists(project):
    return {info.name: info.id for info in queries.lists(project)}


def test_pages_in_rank_order_with_core_marks_and_groups(project):
    browser = ListBrowser(project, _lists(project)["scopus"])
    assert len(browser) == 5
    rows = browser.rows(0, 10)
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert [r.core for r in rows] == [True, False, True, False, False]
    assert rows[1].group == rows[3].group and rows[1].group_size == 2  # in-file duplicate
    assert rows[0].group_size == 2  # the core record and this one
    assert [r.rank for r in browser.rows(3, 10)] == [4, 5]  # clipped at the end
    assert browser.rows(5, 10) == [] and browser.rows(2, 0) == []


def test_filter_by_text_and_years(project):
    scopus = _lists(project)["scopus"]
    assert len(ListBrowser(project, scopus, RecordFilter(text="crop ROTATION"))) == 2
    assert len(ListBrowser(project, scopus, RecordFilter(text="satellite"))) == 1  # abstract
    years = ListBrowser(project, scopus, RecordFilter(year_min=2019, year_max=2021))
    assert [r.year for r in years.rows(0, 10)] == [2021, 2019]
    other = _lists(project)["no_years"]
    # LIKE wildcards in the text are matched literally
    assert [r.title for r in ListBrowser(project, other, RecordFilter(text="100%")).rows(0, 5)] \
        == ["Rates of 100% and 5_0 percent"]
    assert len(ListBrowser(project, other, RecordFilter(text="5_0"))) == 1
    assert len(ListBrowser(project, other, RecordFilter(text="a_p"))) == 0


def test_record_detail_has_the_record_its_provenance_and_links(project):
    first = ListBrowser(project, _lists(project)["scopus"]).rows(0, 1)[0]
    detail = record_detail(project, first.id)
    assert detail.record.title == "Semantic precision for literature search evaluation"
    assert detail.record.doi == "10.1000/core.1" and detail.record.year == 2021
    assert detail.record.authors == ["Smith J."]
    assert [(o.list_name, o.role, o.rank) for o in detail.occurrences] == [
        ("core", "core", 1), ("scopus", "results", 1)]
    [(other, method, score, status)] = detail.links
    assert (method, score, status) == ("doi", 1.0, "auto")
    assert other == detail.occurrences[0].record_id
    with pytest.raises(KeyError):
        record_detail(project, 10_000)


def test_year_span_of_a_list_and_of_a_list_without_years(project):
    lists = _lists(project)
    assert year_span(project, lists["core"]) == (2019, 2021)
    assert year_span(project, lists["scopus"]) == (2018, 2022)
    assert year_span(project, lists["no_years"]) is None
