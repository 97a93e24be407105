"""views_data: the year span of a list."""

from litqeval_gui.core import catalog, ingest, views_data
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.project import Project


def test_year_span_of_a_list_and_of_a_list_without_years(tmp_path, small_files):
    core, results = small_files
    no_years = tmp_path / "no_years.csv"
    no_years.write_text("Title,DOI\nA paper without a year,10.9/x\n", encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, core, topic="t", role="core"))
        run_job(ingest.import_file(project, results, topic="t", role="results"))
        run_job(ingest.import_file(project, no_years, topic="t", role="other"))
        by_name = {info.name: info.id for info in catalog.lists(project)}
        assert views_data.year_span(project, by_name["core"]) == (2019, 2021)
        assert views_data.year_span(project, by_name["scopus"]) == (2018, 2022)
        assert views_data.year_span(project, by_name["no_years"]) is None
