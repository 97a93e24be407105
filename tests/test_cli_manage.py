"""`litqeval rename` and `litqeval delete` end to end on the small files."""

import json

import pytest

from tests.test_cli import run


@pytest.fixture
def proj(tmp_path, capsys, small_files):
    path = tmp_path / "p.litq"
    core, results = small_files
    run(capsys, "new", path)
    run(capsys, "import", path, core, "--topic", "T", "--role", "core")
    run(capsys, "import", path, results, "--topic", "T", "--role", "results", "--name", "scopus")
    return path


def _lists(capsys, proj):
    code, out, _ = run(capsys, "lists", proj, "--json")
    assert code == 0
    return [(i["topic"], i["name"], i["records"]) for i in json.loads(out)["lists"]]


def test_rename_a_list_then_the_topic(proj, capsys):
    code, out, _ = run(capsys, "rename", proj, "--topic", "T", "--list", "scopus", "Scopus 2024")
    assert (code, out.strip()) == (0, "renamed list 'scopus' of topic 'T' to 'Scopus 2024'")
    assert run(capsys, "rename", proj, "--topic", "T", "Evaluation")[0] == 0
    assert _lists(capsys, proj) == [("Evaluation", "core", 3), ("Evaluation", "Scopus 2024", 5)]


def test_rename_onto_a_taken_name_is_one_line_and_exit_2(proj, capsys):
    code, _, err = run(capsys, "rename", proj, "--topic", "T", "--list", "scopus", "core")
    assert code == 2
    assert err.strip() == "litqeval: error: topic 'T' already has a list named 'core'"


def test_delete_without_yes_says_what_would_go_and_deletes_nothing(proj, capsys):
    code, _, err = run(capsys, "delete", proj, "--topic", "T", "--list", "scopus")
    assert code == 2
    assert "removes 5 records; 2 works no other list holds leave the topic" in err
    assert "3 matches" in err and "Nothing was deleted: add --yes" in err
    assert len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "delete", proj, "--topic", "T", "--list", "scopus", "--dry-run",
                       "--json")
    doc = json.loads(out)
    assert (code, doc["deleted"], doc["records"], doc["matches"]) == (0, False, 5, 3)
    assert _lists(capsys, proj) == [("T", "core", 3), ("T", "scopus", 5)]


def test_delete_a_list_then_the_topic(proj, capsys):
    code, out, _ = run(capsys, "delete", proj, "--topic", "T", "--list", "scopus", "--yes")
    assert code == 0 and out.strip().endswith("Done.")
    assert _lists(capsys, proj) == [("T", "core", 3)]
    code, out, _ = run(capsys, "delete", proj, "--topic", "T", "--yes", "--json")
    doc = json.loads(out)
    assert (code, doc["deleted"], doc["lists"], doc["topic_goes"]) == (0, True, ["core"], True)
    code, out, _ = run(capsys, "info", proj, "--json")
    assert (json.loads(out)["records"], json.loads(out)["topics"]) == (0, [])


def test_matches_decided_lists_past_verdicts_with_both_sides_details(proj, capsys):
    code, out, _ = run(capsys, "matches", proj, "--topic", "T", "--json")
    by_doi = {m["a"]["doi"]: m for m in json.loads(out)["matches"]}
    link = by_doi["10.1000/core.1"]
    assert (link["a"]["authors"], link["a"]["venue"]) == (["Smith, Jane"], "Journal of Search")
    assert link["b"]["abstract"] == "We measure ..."
    assert run(capsys, "matches", proj, "--topic", "T", "--decided")[1].strip() == \
        "no verdicts yet"
    assert run(capsys, "matches", proj, "--topic", "T", "--reject", link["id"])[0] == 0
    code, out, _ = run(capsys, "matches", proj, "--topic", "T", "--decided", "--json")
    assert [(m["id"], m["status"]) for m in json.loads(out)["matches"]] == [
        (link["id"], "rejected")]


def test_an_unknown_layout_tells_the_cli_user_about_map(tmp_path, capsys):
    path = tmp_path / "p.litq"
    run(capsys, "new", path)
    odd = tmp_path / "odd.csv"
    odd.write_text("ColA,ColB\n1,2\n", encoding="utf-8")
    code, _, err = run(capsys, "import", path, odd, "--topic", "T", "--role", "results")
    assert code == 2 and "Say which column holds the title" in err
    assert err.strip().endswith("with --map, e.g. --map title=ColA,abstract=ColB,doi=ColC")


def test_lists_labels_works_and_records_as_the_sidebar_does(proj, capsys):
    code, out, _ = run(capsys, "lists", proj)
    head, _core, scopus = out.splitlines()
    assert head.split() == ["topic", "role", "name", "works", "records", "read", "rejected"]
    assert scopus.split() == ["T", "results", "scopus", "4", "5", "5", "0"]
