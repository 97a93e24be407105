"""``litqeval query``: the clause table, --json, --save/--history, and bad queries."""

import json

import pytest

from litqeval_gui import cli
from tests.core.query.test_topic import C1, C2, C3, C4, O1, O2, R1, R2, R3, R4, ris


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "p.litq"
    assert cli.main(["new", str(path)]) == 0
    for name, records in {"core": (C1, C2, C3, C4), "q": (C1, C2, R1, R2, R3, R4),
                          "o": (O1, O2)}.items():
        (tmp_path / f"{name}.ris").write_text(ris(*records), encoding="utf-8")
        extra = ["--query", "robotic AND (knee OR hip)"] if name == "q" else []
        assert cli.main(["import", str(path), str(tmp_path / f"{name}.ris"), "--topic", "T",
                         "--role", "core" if name == "core" else "results", "--name", name,
                         *extra]) == 0
    return path


def test_the_clause_table_of_the_stored_query(project, capsys):
    capsys.readouterr()
    assert cli.main(["query", str(project), "--topic", "T", "--list", "q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Query (boolean) of list 'q': robotic AND (knee OR hip)"
    assert out[1] == ("It retrieves 4 of the topic's works, 2 of its 4 core works (local "
                      "recall 0.500); SP_cos – (embed the topic for SP_cos).")
    assert out[2] == "On the export of 'q' it matches 4 of 6 records (66.7%)."
    row = next(line for line in out if line.lstrip().startswith("1.2.1 knee"))
    # knee: C1 C3 R1 O2 (2 core); without it robotic AND hip: C2 R2, so C1 and R1 are lost
    assert row.split()[2:] == ["4", "2", "1", "2", "2", "1", "0.250", "–"]


def test_json_save_and_history(project, capsys):
    capsys.readouterr()
    assert cli.main(["query", str(project), "--topic", "T", "--list", "q", "--query",
                     "robotic OR navigation", "--save", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["saved"], doc["whole"]["works"], doc["whole"]["core"]) == (True, 7, 3)
    assert [c["path"] for c in doc["clauses"]] == ["1", "1.1", "1.2"]
    assert doc["clauses"][2]["core_only"] == 1 and doc["own_export"]["matched"] == 5
    assert cli.main(["query", str(project), "--topic", "T", "--list", "q", "--history",
                     "--json"]) == 0
    past = json.loads(capsys.readouterr().out)["versions"]
    assert [v["text"] for v in past] == ["robotic AND (knee OR hip)", "robotic OR navigation"]


@pytest.mark.parametrize(("args", "message"), [
    (["--query", "robotic AND (knee"], "litqeval: error: query, character 13: a parenthesis "
                                       "is never closed (at “(knee”)\n"),
    (["--list", "nope"], "litqeval: error: topic 'T' has no list named 'nope'"),
    (["--list", "o"], "litqeval: error: list 'o' has no query stored\n"),
    (["--save"], "litqeval: error: --save stores the query given with --query; give one\n"),
])
def test_bad_input_is_one_line_and_changes_nothing(project, capsys, args, message):
    before = project.read_bytes()
    capsys.readouterr()
    base = ["query", str(project), "--topic", "T", "--list", "q"]
    if "--list" in args:
        base = base[:-2]
    assert cli.main(base + args) == 2
    assert capsys.readouterr().err.startswith(message)
    assert project.read_bytes() == before


def test_the_evaluation_report_has_each_stored_query_clause_by_clause(project, capsys):
    import xml.etree.ElementTree as ET

    out = project.parent / "report.html"
    assert cli.main(["evaluate", str(project), "--topic", "T", "--map", "pca"]) == 0
    assert cli.main(["report", str(project), "--topic", "T", str(out)]) == 0
    x = "{http://www.w3.org/1999/xhtml}"
    root = ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    sections = [s for s in root.iter(f"{x}section") if s.get("class") == "query"]
    assert [s.find(f"{x}h3").text for s in sections] == ["q"]  # o and core have no query
    rows = [[td.text for td in tr.iter(f"{x}td")] for tr in sections[0].iter(f"{x}tr")][1:]
    assert [r[0] for r in rows] == ["1 AND robotic AND (knee OR hip)", "1.1 robotic",
                                    "1.2 OR (knee OR hip)", "1.2.1 knee", "1.2.2 hip"]
    assert rows[3][1:8] == ["4", "2", "1", "2", "2", "1", "0.250"]
    assert rows[3][8] not in ("–", "")  # SP_cos, the topic now embedded
    text = "".join(sections[0].itertext())
    assert "On the export of 'q' it matches 4 of 6 records (66.7%)" in text
