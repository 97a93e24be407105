"""Records without title or abstract (issue 28 §2) get no vector: the evaluation leaves
them out of the semantic precisions, says how many, and gives no NaN for them."""

import json
import math

from litqeval_gui.cli import main
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import Record
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
