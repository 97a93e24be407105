"""``litqeval import --each-topic`` (issue 24 §7): a TREC run or qrels file of several
topics is imported once per topic id, into the project topic of that id."""

import json

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_each_topic_of_a_run_becomes_a_topic(tmp_path, capsys):
    project = tmp_path / "p.litq"
    run_file = tmp_path / "bm25.run"
    run_file.write_text("".join(f"{t} Q0 d{t}-{r} {r} {9 - r} bm25\n"
                                for t, n in (("7", 2), ("12", 3)) for r in range(1, n + 1)),
                        encoding="utf-8")
    assert run(capsys, "new", project)[0] == 0
    code, out, err = run(capsys, "import", project, run_file, "--each-topic", "--role",
                         "results", "--json")
    assert code == 0, err
    assert [(d["topic"], d["name"], d["read"]) for d in json.loads(out)["imports"]] == [
        ("7", "bm25", 2), ("12", "bm25", 3)]
    with Project.open(project, readonly=True) as opened:
        assert {(i.topic, i.records) for i in queries.lists(opened)} == {("7", 2), ("12", 3)}


def test_each_topic_needs_a_trec_file_and_excludes_topic(tmp_path, capsys):
    project = tmp_path / "p.litq"
    ris = tmp_path / "a.ris"
    ris.write_text("TY  - JOUR\nTI  - A title\nER  - \n", encoding="utf-8")
    assert run(capsys, "new", project)[0] == 0
    code, _, err = run(capsys, "import", project, ris, "--each-topic", "--role", "results")
    assert code == 2 and "--each-topic needs a TREC run or qrels file, not ris" in err
    code, _, err = run(capsys, "import", project, ris, "--role", "results")
    assert code == 2 and "give --topic, or --each-topic" in err
    with Project.open(project, readonly=True) as opened:
        assert queries.lists(opened) == []
