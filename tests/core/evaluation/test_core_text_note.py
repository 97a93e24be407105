"""A core set without abstracts is named in the evaluation's notes, with what it does."""

from litqeval_gui.core.evaluation.engine import plan_topic
from litqeval_gui.core.evaluation.inputs import core_text_note
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest


def test_core_records_without_abstract_are_counted(tmp_path):
    core = tmp_path / "core.csv"
    core.write_text("title,abstract,doi\nRobots in surgery,An arm.,10.1/a\n"
                    "Robots at home,,10.1/b\nRobots in space,,10.1/c\n", encoding="utf-8")
    results = tmp_path / "results.csv"
    results.write_text("title,abstract,doi\nRobots in surgery,An arm.,10.1/a\n"
                       "Cooking,Food.,10.1/d\n", encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, core, topic="T", role="core"))
        topic_id = project.topic_id("T")
        assert core_text_note(project.db, topic_id).startswith(
            "2 of 3 core records have no abstract: their vectors are of the title alone")
        run_job(ingest.import_file(project, results, topic="T", role="results"))
        assert plan_topic(project, "T").notes == (core_text_note(project.db, topic_id),)


def test_a_core_set_with_abstracts_has_no_note(tmp_path):
    core = tmp_path / "core.csv"
    core.write_text("title,abstract\nRobots in surgery,An arm.\n", encoding="utf-8")
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, core, topic="T", role="core"))
        assert core_text_note(project.db, project.topic_id("T")) == ""
