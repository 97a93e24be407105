"""The HTML report is a document a librarian can send (issue 24 §5): it is styled, names
what was evaluated (each list's database and query text) and defines every number it
shows, with its formula in words and its source."""

import xml.etree.ElementTree as ET

from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.report_html import DEFINITIONS, report_tree
from litqeval_gui.core.evaluation.settings import EvaluationSettings
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.ingest import import_file
from tests.support.topics import TOPIC, build_topic, topic_records, write_list

X = "{http://www.w3.org/1999/xhtml}"
QUERY = 'TITLE-ABS-KEY((robot* OR "computer-assisted") AND (arthroplasty OR "knee replacement"))'


def test_the_report_names_the_query_and_defines_every_number(tmp_path):
    path = build_topic(tmp_path / "p.litq", n_core=8, found=6, extra=20, noise=10)
    with Project.open(path) as project:
        run_job(import_file(project, write_list(topic_records("cardiology", 12, seed=7),
                                                tmp_path / "scopus.ris"),
                            topic=TOPIC, role="results", name="scopus", query=QUERY,
                            database="Scopus"))
        evaluation = run_job(evaluate_topic(project, TOPIC, EvaluationSettings(map_method="pca")))
        tree = report_tree(evaluation, queries.lists(project, TOPIC))
    root = ET.fromstring(ET.tostring(tree, encoding="unicode"))  # as a browser reads it
    text = "".join(root.itertext())
    style = root.find(f"{X}head/{X}style").text
    assert "font-family" in style and "th{background" in style and "@media print" in style
    [query] = [pre.text for pre in root.iter(f"{X}pre")]
    assert query == QUERY
    assert "Scopus" in text and "file scopus.ris" in text
    assert text.count("The query text was not recorded at import.") == 2  # clean, noisy
    terms = [dt.text for dt in root.iter(f"{X}dt")]
    header = [th.text for th in root.find(f".//{X}table[@id='comparison']").iter(f"{X}th")]
    for column in ("works", "recall", "95 % CI", "n", "F2", "SP cos leave-one-out"):
        assert column in header and column in terms
    for method in METHODS:
        assert any(t.lower().startswith(f"sp {method} p") for t in terms), method
    for dd in root.iter(f"{X}dd"):
        assert len(dd.text) > 60
    assert "λ(n) = (1 − (n/α)^p)^q" in text and "(1 + β²)·P·λ·R" in text
    assert len(terms) == len(DEFINITIONS) and "Source: LitQEval" in text
