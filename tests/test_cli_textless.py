"""Records without title or abstract (issue 28 §2) on the command line: imported by
their identifiers and simulated (screened last); they get no vector, so the evaluation
leaves them out of the semantic precisions, says how many, and gives no NaN for them."""

import csv
import json
import math

from litqeval_gui.cli import main
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import Record
from tests.support.screening import labelled_records
from tests.support.synthetic import topic_records
from tests.support.topics import TOPIC, build_topic, import_list, write_list


def test_textless_records_are_counted_apart_without_nan(tmp_path, capsys):
    path = build_topic(tmp_path / "p.litq", n_core=12, found=9, extra=20, noise=0)
    core = topic_records("cardiology", 12)
    textless = [Record(pmid=str(9000 + i), year=2001) for i in range(3)]
    with Project.open(path) as project:
        import_list(project, write_list(core[:6] + textless, tmp_path / "mixed.ris"),
                    "results", "mixed")
    assert main(["evaluate", str(path), "--topic", TOPIC, "--map", "pca", "--json"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out
    lists = {item["name"]: item for item in json.loads(out)["lists"]}
    mixed, clean = lists["mixed"], lists["clean"]
    assert (mixed["size"], mixed["without_vector"], clean["without_vector"]) == (9, 3, 0)
    assert mixed["recall"] == 0.5  # 6 of the 12 core works: recall counts every work
    for method in METHODS:
        for value in (mixed[method]["precision"], mixed[method]["f2"]):
            assert value is None or math.isfinite(value), (method, mixed[method])
    assert main(["evaluate", str(path), "--topic", TOPIC]) == 0
    text = capsys.readouterr().out
    assert "3 works without title or abstract (no vector) left out of the semantic" in text
    assert "3 of 50 records have no title or abstract" in text


def test_simulate_counts_the_textless_records_and_screens_them_last(tmp_path, capsys):
    records, labels = labelled_records(60, 0.2, seed=8)
    source = tmp_path / "ace.csv"
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["record_id", "title", "abstract", "pubmed_id", "label_included"])
        writer.writerows([i, r.title, r.abstract, "", label]
                         for i, (r, label) in enumerate(zip(records, labels, strict=True)))
        writer.writerows([[100, "", "", "10075143", 1], [101, "", "", "10216796", 0]])
    path = tmp_path / "p.litq"
    assert main(["new", str(path)]) == 0
    assert main(["import", str(path), str(source), "--topic", "T", "--role", "results",
                 "--name", "L"]) == 0
    capsys.readouterr()
    args = ["simulate", str(path), "--topic", "T", "--list", "L", "--labels-from",
            "label_included", "--seed", "3"]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith(
        "62 records, 13 relevant, model logistic over tfidf; 2 without text or vector, "
        "screened last\n")
    assert main([*args, "--json"]) == 0
    curve = json.loads(capsys.readouterr().out)["recall_curve"]
    assert curve[-1] == [62, 13] and curve[-3][1] == 12  # the text-less inclusion: 61st or 62nd
