"""``litqeval import`` and ``import-review`` on other tools' reviews, and ``info --json``
listing every topic's screenings with their reviewers and origin."""

from __future__ import annotations

import json

from litqeval_gui import cli
from tests.core.interop.test_asreview import asreview_project
from tests.core.interop.test_rayyan import ROWS, _csv


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_names_the_screening_and_info_lists_it(tmp_path, capsys):
    project = str(tmp_path / "p.litq")
    assert _run(capsys, "new", project)[0] == 0
    rayyan = _csv(tmp_path / "articles.csv", ROWS)
    code, out, _ = _run(capsys, "import", project, str(rayyan), "--topic", "T", "--role",
                        "results", "--json")
    document = json.loads(out)
    assert code == 0 and document["screening"] == "Rayyan: articles"
    assert document["in_file"] == document["added"] == {"Ama": 3, "Kofi": 3}
    assert [i["name"] for i in document["imports"]] == ["articles"]
    code, out, _ = _run(capsys, "import-review", project,
                        str(asreview_project(tmp_path / "k.asreview", 3)), "--topic", "T",
                        "--reviewer", "Bea", "--screening", "From ASReview")
    assert code == 0 and "decisions into screening 'From ASReview'" in out
    assert "  Bea: 5 in the file, 5 added" in out
    code, out, _ = _run(capsys, "info", project, "--json")
    screenings = json.loads(out)["topics"][0]["screenings"]
    assert [(s["name"], s["items"], s["reviewers"]) for s in screenings] == [
        ("Rayyan: articles", 4, {"Ama": 3, "Kofi": 3}), ("From ASReview", 5, {"Bea": 4})]
    assert screenings[1]["origin"].startswith("ASReview LAB project k.asreview")
    code, out, _ = _run(capsys, "info", project)
    assert "screening Rayyan: articles (title_abstract): 4 items; decided by Ama 3, Kofi 3" \
        in out


def test_records_only_and_refusals(tmp_path, capsys):
    project = str(tmp_path / "p.litq")
    _run(capsys, "new", project)
    rayyan = _csv(tmp_path / "articles.csv", ROWS)
    code, out, _ = _run(capsys, "import", project, str(rayyan), "--topic", "T", "--role",
                        "results", "--records-only")
    assert code == 0 and "screening" not in out
    code, out, _ = _run(capsys, "info", project, "--json")
    assert json.loads(out)["topics"][0]["screenings"] == []
    simulation = asreview_project(tmp_path / "sim.asreview", 2, mode="simulate")
    code, _, err = _run(capsys, "import-review", project, str(simulation), "--topic", "T")
    assert code == 2 and err.count("\n") == 1 and "simulation project" in err
    code, _, err = _run(capsys, "import-review", project, str(rayyan), str(rayyan), "--topic",
                        "T", "--tool", "rayyan")
    assert code == 2 and "only Covidence's are several" in err
