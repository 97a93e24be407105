"""Recall says how many missed core records are missed only because their match awaits
review (an uncertain match), in the report, the CLI text and its JSON."""

import json

import pytest

from litqeval_gui.cli import main
from litqeval_gui.core import evaluation
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest, matches

TITLE = "Deep learning for screening of medical abstracts"


def _ris(path, records):
    path.write_text("".join(f"TY  - JOUR\nTI  - {t}\nPY  - {y}\nDO  - {d}\nER  - \n\n"
                            for t, y, d in records), encoding="utf-8")
    return path


@pytest.fixture
def path(tmp_path):
    """Core: the article (published DOI) and two others; results: the preprint of the
    article (same title, its own DOI: an uncertain match), core paper 2 by DOI, one more."""
    core = _ris(tmp_path / "core.ris", [(TITLE, 2020, "10.1000/published"),
                                        ("Second core paper on triage", 2019, "10.1000/two"),
                                        ("Third core paper on ranking", 2018, "10.1000/three")])
    results = _ris(tmp_path / "res.ris", [(TITLE, 2020, "10.1101/preprint"),
                                          ("Second core paper on triage", 2019, "10.1000/two"),
                                          ("Unrelated paper", 2021, "10.9/x")])
    path = tmp_path / "p.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, core, topic="T", role="core"))
        run_job(ingest.import_file(project, results, topic="T", role="results", name="res"))
    return path


def test_a_core_work_behind_an_uncertain_match_is_counted_as_pending(path):
    with Project.open(path) as project:
        [report] = evaluation.recall_report(project, "T").lists
        assert (report.retrieved_core, report.pending) == (1, 1)
        assert [(m.title, m.pending_review) for m in report.missed] == [
            (TITLE, True), ("Third core paper on ranking", False)]
        [match] = matches.matches(project, "T", uncertain=True)
        project.write(matches.decide_op(match.id, accept=True))
        [report] = evaluation.recall_report(project, "T").lists
        assert (report.retrieved_core, report.pending) == (2, 0)


def test_a_rejected_match_is_no_longer_pending(path):
    with Project.open(path) as project:
        [match] = matches.matches(project, "T", uncertain=True)
        project.write(matches.decide_op(match.id, accept=False))
        [report] = evaluation.recall_report(project, "T").lists
        assert (report.retrieved_core, report.pending) == (1, 0)


def test_the_cli_says_it_in_text_and_json(path, capsys):
    assert main(["recall", str(path), "--topic", "T"]) == 0
    out = capsys.readouterr().out
    assert "recall 0.333; 1 of the missed core records pending review" in out
    assert f"missed: {TITLE} (2020) 10.1000/published [pending review]" in out
    assert "missed: Third core paper on ranking (2018) 10.1000/three\n" in out
    assert main(["recall", str(path), "--topic", "T", "--json"]) == 0
    [doc] = json.loads(capsys.readouterr().out)["lists"]
    assert doc["pending"] == 1 and [m["pending_review"] for m in doc["missed"]] == [True, False]
