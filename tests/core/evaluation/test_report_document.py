"""The HTML report is a document a librarian can send (issue 24 §5): it is styled, names
what was evaluated (each list's database and query text) and defines every number it
shows, with its formula in words and its source."""

import math
import xml.etree.ElementTree as ET

import pytest

from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.report_html import DEFINITIONS, report_tree, write_report
from litqeval_gui.core.evaluation.report_svg import MARGIN, WIDTH
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


S = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The report of the generated topic (clean: 6 of 8 core works, noisy: the same and
    noise, few: 3 core works and 2 more; α = 50 000 beside n of a few or a few dozen) as
    a browser reads it, and its evaluation."""
    folder = tmp_path_factory.mktemp("report")
    path = build_topic(folder / "p.litq", n_core=8, found=6, extra=20, noise=10)
    few = topic_records("cardiology", 8)[:3] + topic_records("cardiology", 2, seed=4)
    with Project.open(path) as project:
        run_job(import_file(project, write_list(few, folder / "few.ris"), topic=TOPIC,
                            role="results", name="few"))
        evaluation = run_job(evaluate_topic(project, TOPIC, EvaluationSettings(map_method="pca")))
        out = write_report(evaluation, folder / "report.html", queries.lists(project, TOPIC))
    text = out.read_text(encoding="utf-8")
    return ET.fromstring(text.split("\n", 1)[1]), evaluation, out


def test_the_decay_plot_spreads_small_n_on_a_log_axis(report):
    root, evaluation, _ = report
    decay_svg = root.find(f".//{X}body/{S}svg")
    assert decay_svg.get("data-x-scale") == "log"
    ticks = [t.text for t in decay_svg.iter(f"{S}text") if t.get("class") == "x-tick"]
    assert ticks == ["1", "10", "100", "1,000", "10,000"]
    assert "log scale" in "".join(decay_svg.itertext())
    marks = {c.get("data-label"): float(c.get("cx")) for c in decay_svg.iter(f"{S}circle")
             if c.get("data-label") and c.get("class") != "legend"}
    n = {i.name: i.methods["cos"].relevant for i in evaluation.lists}
    assert len(marks) == len(n) == 3 and all(0 < v < evaluation.settings.alpha / 100
                                             for v in n.values())
    x = {label.split(" (n = ")[0]: cx for label, cx in marks.items()}
    assert set(x) == set(n)
    # a decade is 408 px ÷ log10(55 000) ≈ 86 px wide: the lists' n stand apart (on a
    # linear axis to α they were a fraction of a pixel apart)
    decade = (WIDTH - 2 * MARGIN) / 1.08 / math.log10(1.1 * evaluation.settings.alpha)
    expected = decade * math.log10(n["clean"] / n["few"])
    assert x["clean"] - x["few"] == pytest.approx(expected, abs=1.0) and expected > 20
    legend = [t.text for t in decay_svg.iter(f"{S}text") if t.get("class") == "legend"]
    assert sorted(legend) == sorted(marks)


def test_the_map_legend_draws_each_layer_with_its_marker(report):
    root, evaluation, _ = report
    maps = root.findall(f".//{X}section/{S}svg")
    assert len(maps) == len(evaluation.lists)
    for svg in maps:
        legend = {c.get("data-label"): c for c in svg.iter(f"{S}circle")
                  if c.get("class") == "legend"}
        layers = {g.get("data-label"): g for g in svg.iter(f"{S}g")}
        assert set(legend) == set(layers)
        for label, group in layers.items():
            drawn = next(group.iter(f"{S}circle"), None)
            if drawn is None:
                continue
            style = {k: v for k, v in drawn.attrib.items() if k not in ("cx", "cy")}
            marker = {k: v for k, v in legend[label].attrib.items()
                      if k not in ("cx", "cy", "class", "data-label")}
            assert marker == style, label
        missed = legend["missed core"]
        assert missed.get("fill") == "none" and missed.get("stroke") == "#000000"  # a ring
        lines = {line.get("data-label") for line in svg.iter(f"{S}line")
                 if line.get("class") == "legend"}
        assert lines == {p.get("data-label") for p in svg.iter(f"{S}polygon")}


def test_every_table_scrolls_in_its_own_box(report):
    root, _, _ = report
    parents = {child: parent for parent in root.iter() for child in parent}
    tables = list(root.iter(f"{X}table"))
    assert len(tables) >= 3
    for table in tables:
        box = parents[table]
        assert box.tag == f"{X}div" and box.get("class") == "table-scroll"
    style = root.find(f"{X}head/{X}style").text
    assert "div.table-scroll{max-width:100%;overflow-x:auto" in style

