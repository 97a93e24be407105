"""`litqeval simulate` and `litqeval screen-export` end to end."""

import csv
import json

import numpy as np
import pytest
from openpyxl import load_workbook

from litqeval_gui.cli import main
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import exporting, ingest
from litqeval_gui.core.screening.log import store
from litqeval_gui.metrics.screening_effort import wss_insights
from litqeval_gui.metrics.stopping import RULES
from litqeval_gui.metrics.tar import tar_at_recall
from tests.support.screening import LABEL_COLUMN, labelled_records, write_labelled_csv
from tests.support.topics import copy_project

KEYS = {"records", "relevant", "model", "seed", "seconds", "wss_at_95", "np_at_95",
        "snp_at_95", "last_rel", "recall_curve", "stopping", "priors", "wss_at_95_project",
        "wss_at_95_insights", "wss_at_100_project", "wss_at_100_insights", "recall_at_10pct",
        "recall_at_25pct", "screened_to_95", "screened_to_100"}


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Topic T: list L of 300 labelled records (two titles that look like formulas) and a
    core list holding 8 of L's relevant records."""
    folder = tmp_path_factory.mktemp("cli")
    records, labels = labelled_records(300, 0.1, seed=11)
    records[0].title, records[1].title = "=1+2 robotic trial", "@SUM(A1) surgery"
    source = write_labelled_csv(records, labels, folder / "L.csv")
    core = [r for r, label in zip(records, labels, strict=True) if label][:8]
    exporting.export_records(core, folder / "core.ris", "ris")
    path = folder / "p.litq"
    with Project.create(path) as project:
        run_job(ingest.import_file(project, source, topic="T", role="results", name="L"))
        run_job(ingest.import_file(project, folder / "core.ris", topic="T", role="core",
                                   name="core"))
    return path, np.array(labels, dtype=bool), core


def test_simulate_json_is_the_documented_document(labelled, capsys):
    path, labels, _ = labelled
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", LABEL_COLUMN, "--seed", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) == KEYS
    assert (doc["records"], doc["relevant"], doc["model"], doc["seed"]) == (
        300, int(labels.sum()), "logistic", 3)
    curve = np.array(doc["recall_curve"])
    assert curve[0].tolist() == [0, 0] and curve[-1].tolist() == [300, labels.sum()]
    order_labels = np.diff(curve[:, 1])  # the screening order's labels, read off the curve
    tar = tar_at_recall(order_labels)
    assert doc["wss_at_95"] == pytest.approx(tar.wss)
    assert doc["np_at_95"] == pytest.approx(tar.nprecision)
    assert doc["snp_at_95"] == pytest.approx(tar.snprecision)
    assert doc["last_rel"] == pytest.approx(tar.last_rel)
    assert doc["wss_at_95_project"] == doc["wss_at_95"] and doc["priors"] == 2
    assert doc["wss_at_95_insights"] == pytest.approx(wss_insights(order_labels[2:], 0.95))
    assert doc["wss_at_100_project"] == pytest.approx(tar_at_recall(order_labels, 1.0).wss)
    to95 = tar_at_recall(order_labels).cutoff
    assert doc["screened_to_95"] == to95 and curve[30, 1] / labels.sum() == pytest.approx(
        doc["recall_at_10pct"])
    assert set(doc["stopping"]) == set(RULES)
    for name, stop in doc["stopping"].items():
        assert stop["target"] == 0.95
        assert stop["oracle_work_saved"] == pytest.approx((300 - to95) / 300)
        assert stop.get("recommended", False) is (name == "hypergeometric")
        assert stop["kind"] == RULES[name].kind
        at = stop["stopped_at"]
        assert stop["work_saved"] == pytest.approx(0 if at is None else (300 - at) / 300)
        if at is not None and name not in ("random_sample", "qbcb", "target"):
            found = curve[at, 1]  # (those read records drawn at random too)
            assert stop["recall_then"] == pytest.approx(found / labels.sum())
        if at is not None:
            assert stop["reached"] is (stop["recall_then"] >= 0.95)


def test_several_seeds_give_a_band(labelled, capsys):
    path, labels, _ = labelled
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", LABEL_COLUMN, "--model", "nb", "--runs", "3",
                         "--prior-included", "2", "--prior-excluded", "3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [r["seed"] for r in doc["runs"]] == [0, 1, 2]
    curves = np.array([[f for _, f in r["recall_curve"]] for r in doc["runs"]])
    band = np.array(doc["band"])
    assert band[:, 0].tolist() == list(range(301))
    assert band[:, 1].tolist() == curves.min(axis=0).tolist()
    assert band[:, 2].tolist() == curves.max(axis=0).tolist()
    assert all(curve[5] >= 2 for curve in curves)  # the 2 prior relevant come first


def test_labels_from_the_core_set_and_from_a_screening(labelled, capsys, tmp_path):
    path, labels, core = labelled
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", "core", "--json")
    assert code == 0, err
    assert json.loads(out)["relevant"] == len(core)
    copy = tmp_path / "copy.litq"
    copy.write_bytes(path.read_bytes())
    with Project.open(copy) as project:
        screening = store.create_screening(project, "T", "done", ["L"])
        for record, label in zip(store.items(project, screening.id), labels, strict=True):
            project.write(store.decide_op(screening, record, "include" if label else "exclude",
                                          store.Context("Ada")))
    code, out, err = run(capsys, "simulate", copy, "--topic", "T", "--list", "L",
                         "--labels-from", "screening", "--screening", "done", "--json")
    assert code == 0, err
    assert json.loads(out)["relevant"] == labels.sum()


def test_simulate_errors_are_one_line(labelled, capsys):
    path, _, _ = labelled
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", "Nope")
    assert code == 2 and err.count("\n") == 1 and "no record has a column 'Nope'" in err
    code, _, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                       "--labels-from", "screening")
    assert code == 2 and "--screening NAME" in err


def test_simulate_over_the_stored_vectors(labelled, capsys, tmp_path):
    path = copy_project(labelled[0], tmp_path, "copy.litq")
    args = ["simulate", path, "--topic", "T", "--list", "L", "--labels-from", LABEL_COLUMN]
    code, _, err = run(capsys, *args, "--features", "embedding:lsa")
    assert code == 2 and err.count("\n") == 1
    assert err == ("litqeval: error: topic 'T' has no stored lsa vectors: compute them with Evaluate "
                   "Topic (backend lsa) before screening with embedding features "
                   "(or run: litqeval embed --topic 'T' --backend lsa)\n")
    assert run(capsys, "embed", path, "--topic", "T")[0] == 0
    code, out, err = run(capsys, *args, "--features", "embedding", "--model", "svm")
    assert code == 0, err
    assert out.startswith("300 records, 30 relevant, model svm over embedding:lsa\n")
    code, _, err = run(capsys, *args, "--features", "embedding", "--model", "nb")
    assert code == 2 and "naive Bayes needs non-negative word features" in err
    code, _, err = run(capsys, *args, "--features", "bert")
    assert code == 2 and "unknown features 'bert'" in err


def test_screen_export_keeps_decisions_and_never_writes_formulas(labelled, capsys, tmp_path):
    path, labels, _ = labelled
    copy = tmp_path / "copy.litq"
    copy.write_bytes(path.read_bytes())
    with Project.open(copy) as project:
        screening = store.create_screening(project, "T", "s", ["L"], reasons=["wrong design"])
        first, second = store.items(project, screening.id)[:2]
        me = store.Context("Ada", tags=("=cmd|' /C calc'!A0",))
        project.write(store.decide_op(screening, first, "include", me, note="+SUM(1)"))
        project.write(store.decide_op(screening, second, "exclude", me, reason="wrong design"))
    out_csv, out_xlsx = tmp_path / "s.csv", tmp_path / "s.xlsx"
    assert run(capsys, "screen-export", copy, "--topic", "T", "--format", "csv", out_csv)[0] == 0
    with open(out_csv, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 300
    assert (rows[0]["title"], rows[0]["decision"], rows[0]["note"]) == (
        "'=1+2 robotic trial", "include", "'+SUM(1)")
    assert rows[0]["tags"].startswith("'=") and rows[1]["title"] == "'@SUM(A1) surgery"
    assert (rows[1]["decision"], rows[1]["reason"]) == ("exclude", "wrong design")
    assert rows[2]["decision"] == "undecided"
    code, out, _ = run(capsys, "screen-export", copy, "--topic", "T", "--format", "xlsx",
                       "--label", "include,exclude", out_xlsx, "--json")
    assert code == 0 and json.loads(out)["exported"] == 2
    sheet = load_workbook(out_xlsx).active
    header = [c.value for c in sheet[1]]
    first_row = {h: c for h, c in zip(header, sheet[2], strict=True)}
    assert first_row["title"].value == "=1+2 robotic trial"
    assert first_row["title"].data_type == "s"  # a string, not a formula
    assert first_row["note"].value == "+SUM(1)" and first_row["note"].data_type == "s"
    assert {h: c.value for h, c in zip(header, sheet[3], strict=True)}["title"] == \
        "@SUM(A1) surgery"
    code, _, err = run(capsys, "screen-export", copy, "--topic", "T", "--format", "ris",
                       "--label", "yes", tmp_path / "x.ris")
    assert code == 2 and "unknown label(s) yes" in err


def test_simulate_text_names_both_conventions_and_each_rule(labelled, capsys):
    path, _, _ = labelled
    args = ["simulate", path, "--topic", "T", "--list", "L", "--labels-from", LABEL_COLUMN,
            "--seed", "3"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    doc = json.loads(run(capsys, *args, "--json")[1])
    lines = out.splitlines()
    assert lines[1].startswith(f"seed 3: WSS@95 {doc['wss_at_95_project']:.3f} (insights "
                               f"{doc['wss_at_95_insights']:.3f}), WSS@100 ")
    assert f"95 % after {doc['screened_to_95']} and 100 % after" in lines[1]
    stops = [line for line in lines if line.startswith("  stop: ")]
    assert len(stops) == len(RULES)
    assert stops[0].startswith("  stop: random_sample [certified] ")
    assert stops[1].startswith("  stop: point_process [model-based] at ") or \
        stops[1].startswith("  stop: point_process [model-based] never")
    assert stops[6].startswith("  stop: hypergeometric [heuristic] (recommended) ")
    assert all(" target 0.95 " in line and "work saved " in line for line in stops)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--prior-included", "-1", "--prior-included must be a whole number >= 0"),
    ("--prior-excluded", "-3", "--prior-excluded must be a whole number >= 0"),
    ("--seed", "-1", "--seed must be a whole number >= 0"),
    ("--runs", "0", "--runs must be a whole number >= 1"),
])
def test_simulate_refuses_an_out_of_range_option_with_one_line(labelled, capsys, option, value,
                                                               says):
    path, _, _ = labelled
    code, out, err = run(capsys, "simulate", path, "--topic", "T", "--list", "L",
                         "--labels-from", LABEL_COLUMN, option, value)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and out == ""
