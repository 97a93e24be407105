"""`litqeval embed / evaluate / report` end to end on a generated topic."""

import csv
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from litqeval_gui import __version__
from litqeval_gui.cli import main
from litqeval_gui.core.evaluation import comparison
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.report_svg import MARGIN, MAX_POINTS, WIDTH, Layer, scatter_svg
from litqeval_gui.core.evaluation.settings import save_settings_op
from litqeval_gui.core.projectfile.project import Project
from tests.support.synthetic import topic_records
from tests.support.topics import (
    PCA,
    TOPIC,
    build_topic,
    build_topics,
    copy_project,
    import_list,
    write_list,
)

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    """The generated topic plus a list ``other`` that holds no core work."""
    folder = tmp_path_factory.mktemp("cli")
    path = build_topic(folder / "p.litq", n_core=12, found=9, extra=40, noise=40)
    with Project.open(path) as project:
        other = topic_records("linguistics", 30)
        import_list(project, write_list(other, folder / "other.ris"), "results", "other")
    return path


@pytest.fixture
def proj(topic_file, tmp_path):
    return copy_project(topic_file, tmp_path)


def test_evaluate_json_has_the_issues_shape_and_undefined_metrics_carry_a_reason(
        proj, capsys, tmp_path):
    code, out, err = run(capsys, "evaluate", proj, "--topic", TOPIC, "--map", "pca", "--json",
                         "--csv", tmp_path / "table.csv")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) == {"topic", "backend", "lists", "fidelity"}
    assert (doc["topic"], doc["backend"]) == (TOPIC, "lsa") and 0 < doc["fidelity"] <= 1
    lists = {item["name"]: item for item in doc["lists"]}
    assert set(lists) == {"clean", "noisy", "other"}
    clean = lists["clean"]
    assert (clean["size"], clean["recall"]) == (49, 0.75)
    low, high = clean["recall_ci"]
    assert low < 0.75 < high
    for method in METHODS:
        assert {"precision", "relevant", "recall", "f2", "decay"} <= set(clean[method])
        assert "reason" not in clean[method]
    assert len(clean["cos"]["loo_range"]) == 2 and isinstance(clean["cluster"]["k"], int)
    other = lists["other"]
    assert (other["size"], other["recall"], other["recall_ci"][0]) == (30, 0.0, 0.0)
    for method in ("cluster", "mvee", "hull"):
        assert other[method]["reason"]
        assert (other[method]["precision"], other[method]["relevant"], other[method]["f2"]) == (
            0.0, 0, 0.0)
    with (tmp_path / "table.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == comparison.header() and [r[1] for r in rows[1:]] == ["clean", "noisy",
                                                                          "other"]
    assert float(rows[1][rows[0].index("cos_f2")]) == clean["cos"]["f2"]


def test_evaluate_stores_the_options_as_the_topics_parameters(proj, capsys):
    code, out, _ = run(capsys, "evaluate", proj, "--topic", TOPIC, "--map", "pca",
                       "--theta", "0.25", "--alpha", "400", "--json")
    assert code == 0
    first = json.loads(out)
    assert first["lists"][0]["cos"]["theta"] == 0.25
    code, out, _ = run(capsys, "evaluate", proj, "--topic", TOPIC, "--json")  # stored ones
    assert json.loads(out) == first
    code, out, _ = run(capsys, "evaluate", proj, "--topic", TOPIC, "--theta", "from-core")
    assert code == 0 and "SP cos leave-one-out" in out and "clean" in out


@pytest.mark.parametrize(("option", "message"), [
    (["--theta", "high"], "--theta takes a number or 'from-core'"),
    (["--theta", "nan"], "--theta must be a finite number"),
    (["--alpha", "-1"], "alpha must be a finite number in"),
    (["--backend", "precomputed"], "run litqeval embed --backend precomputed --vectors FILE"),
])
def test_bad_evaluation_options_are_one_line_and_change_nothing(proj, capsys, option, message):
    before = proj.read_bytes()
    code, out, err = run(capsys, "evaluate", proj, "--topic", TOPIC, *option)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert proj.read_bytes() == before


def test_report_is_one_self_contained_html_file_with_table_svg_and_missed_core(
        proj, capsys, tmp_path):
    assert run(capsys, "evaluate", proj, "--topic", TOPIC, "--map", "pca")[0] == 0
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "report", proj, "--topic", TOPIC, out)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<script" not in text and "src=" not in text
    root = ET.fromstring(text.split("\n", 1)[1])
    assert root.tag == f"{XHTML}html"
    assert __version__ in root.find(f".//{XHTML}p[@id='version']").text
    assert "fidelity" in "".join(root.find(f".//{XHTML}p[@id='fidelity']").itertext())
    table = root.find(f".//{XHTML}table[@id='comparison']")
    rows = [[cell.text for cell in tr] for tr in table.iter(f"{XHTML}tr")]
    assert [r[0] for r in rows[1:]] == ["clean", "noisy", "other"]
    assert rows[1][1:3] == ["49", "0.750"]
    parameters = root.find(f".//{XHTML}table[@id='parameters']")
    assert "lsa" in "".join(parameters.itertext())
    dois = [a.text for a in root.iter(f"{XHTML}a")]
    assert "10.5555/cardiology.0.9" in dois and len(dois) == 3 + 3 + 12  # missed per list
    svgs = list(root.iter(f"{SVG}svg"))
    assert len(svgs) == 1 + 3  # decay + one map per list
    counts = {g.get("data-label"): int(g.get("data-count")) for g in svgs[1].iter(f"{SVG}g")}
    assert counts["retrieved core"] == 9 and counts["missed core"] == 3
    assert sum(counts[k] for k in ("retrieved", "relevant (SP cos)", "retrieved core")) == 49
    assert {line.get("data-label") for line in svgs[1].iter(f"{SVG}polygon")} == {"MVEE",
                                                                                  "hull"}


def test_a_large_layer_is_thinned_to_an_even_sample_and_keeps_its_true_count():
    points = np.column_stack([np.arange(10_000.0), np.zeros(10_000)])
    svg = scatter_svg("big", [Layer("retrieved", points, "#bbb")])
    [layer] = svg.iter("g")
    assert layer.get("data-count") == "10000"
    xs = [float(c.get("cx")) for c in layer.iter("circle")]
    assert len(xs) == MAX_POINTS and xs == sorted(xs)
    assert (min(xs), max(xs)) == (pytest.approx(MARGIN + 0.04 / 1.08 * (WIDTH - 2 * MARGIN),
                                                 abs=0.1),
                                  pytest.approx(MARGIN + 1.04 / 1.08 * (WIDTH - 2 * MARGIN),
                                                abs=0.1))


def test_report_refuses_to_overwrite_the_project(proj, capsys):
    before = proj.read_bytes()
    code, _, err = run(capsys, "report", proj, "--topic", TOPIC, proj)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert proj.read_bytes() == before


def test_embed_precomputed_reports_partial_coverage_then_evaluate_uses_it(proj, capsys,
                                                                            tmp_path):
    with Project.open(proj, readonly=True) as project:
        works = project.db.execute("SELECT MIN(id), doi, title FROM live_records "
                                   "GROUP BY work_id ORDER BY 1").fetchall()
    rng = np.random.default_rng(3)
    lines = []
    for i, (_, doi, title) in enumerate(works[: len(works) - 5]):  # five works without
        key = title if i % 3 == 0 else doi
        lines.append(json.dumps({"id": key, "vector": rng.standard_normal(8).tolist()}))
    vectors = tmp_path / "v.jsonl"
    vectors.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "embed", proj, "--topic", TOPIC, "--backend", "precomputed",
                         "--vectors", vectors, "--model", "made-elsewhere", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["backend"], doc["model"], doc["dim"]) == ("precomputed", "made-elsewhere", 8)
    assert doc["with_vector"] < doc["records"]
    assert any("have no vector" in note for note in doc["notes"])
    code, out, err = run(capsys, "evaluate", proj, "--topic", TOPIC, "--backend", "precomputed",
                         "--map", "pca", "--json")
    assert code == 0, err
    assert json.loads(out)["backend"] == "precomputed"


def test_embed_refuses_vectors_of_different_widths_in_one_line(proj, capsys, tmp_path):
    vectors = tmp_path / "v.csv"
    vectors.write_text("10.5555/cardiology.0.0,1,0,0\n10.5555/cardiology.0.1,1,0\n")
    before = proj.read_bytes()
    code, _, err = run(capsys, "embed", proj, "--topic", TOPIC, "--backend", "precomputed",
                       "--vectors", vectors)
    assert code == 2 and "line 2" in err and len(err.strip().splitlines()) == 1
    assert proj.read_bytes() == before


@pytest.fixture(scope="module")
def topics_file(tmp_path_factory):
    """cardio and linguistics (PCA maps) and no-core (a list, no core set)."""
    path = build_topics(tmp_path_factory.mktemp("cli-topics") / "p.litq")
    with Project.open(path) as project:
        for topic in (TOPIC, "linguistics"):
            project.write(save_settings_op(topic, PCA))
    return path


def test_evaluate_all_topics_gives_each_topics_json_in_a_list_and_one_csv(
        topics_file, tmp_path, capsys):
    proj, alone = copy_project(topics_file, tmp_path), copy_project(topics_file, tmp_path, "a.litq")
    code, out, err = run(capsys, "evaluate", proj, "--all-topics", "--jobs", "2", "--json",
                         "--csv", tmp_path / "all.csv")
    assert code == 0, err
    doc = json.loads(out)
    singles = []
    for topic in (TOPIC, "linguistics"):
        code, single, err = run(capsys, "evaluate", alone, "--topic", topic, "--json")
        assert code == 0, err
        singles.append(json.loads(single))
    assert doc == [*singles, {"topic": "no-core", "reason": "topic 'no-core' has no core set "
                              "yet; import one with --role core"}]
    with (tmp_path / "all.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == comparison.header()
    assert [r[:2] for r in rows[1:]] == [[TOPIC, "clean"], [TOPIC, "noisy"],
                                         ["linguistics", "clean"]]
    code, out, _ = run(capsys, "evaluate", proj, "--all-topics")  # stored: table at once
    assert code == 0 and out.count("SP cos leave-one-out") == 3
    assert "topic no-core: not evaluated: topic 'no-core' has no core set yet" in out


@pytest.mark.parametrize(("options", "message"), [
    ([], "evaluate takes --topic TOPIC or --all-topics"),
    (["--topic", TOPIC, "--all-topics"], "evaluate takes --topic TOPIC or --all-topics"),
    (["--all-topics", "--theta", "0.3"], "each topic with its stored parameters; set --theta"),
    (["--topic", TOPIC, "--jobs", "2"], "--jobs and --dask go with --all-topics"),
    (["--all-topics", "--jobs", "0"], "--jobs must be at least 1"),
])
def test_bad_batch_options_are_one_line_and_change_nothing(topics_file, tmp_path, capsys,
                                                           options, message):
    proj = copy_project(topics_file, tmp_path)
    code, _, err = run(capsys, "evaluate", proj, *options)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert proj.read_bytes() == topics_file.read_bytes()
