"""What the evaluation screen reads beside the table: readiness, the threshold sweeps,
the lists' overlap, the map's titles; and the table as XLSX."""

import csv

import numpy as np
import pytest
from openpyxl import load_workbook

from litqeval_gui.core.evaluation import comparison
from litqeval_gui.core.evaluation.analysis import (
    list_overlap,
    map_titles,
    readiness,
    threshold_sweeps,
)
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.vector_store import latest_set, load_vectors
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import lists
from litqeval_gui.core.records.exporting import escape_formula
from litqeval_gui.metrics.semantic import threshold_analysis
from tests.support.synthetic import topic_records
from tests.support.topics import PCA, TOPIC, build_topic, evaluate_pca, import_list, write_list


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("analysis")
    path = build_topic(folder / "p.litq", extra=40, noise=30)
    with Project.open(path) as project:
        # a third list: three core works the others missed, one they found, one other
        core = topic_records("cardiology", 20)
        picked = core[15:18] + core[:1] + topic_records("cardiology", 1, seed=7)
        import_list(project, write_list(picked, folder / "third.ris"), "results", "third")
    evaluate_pca(path)
    return path


def test_overlap_by_construction(project):
    overlap = list_overlap(project, TOPIC)
    assert overlap.names == ["clean", "noisy", "third"]
    assert overlap.sizes == [55, 85, 5] and overlap.core == 20
    assert overlap.core_found == [15, 15, 4]
    # clean ⊂ noisy: shared = |clean|; Jaccard 55/85; third shares one core work with both
    assert overlap.shared[0][1] == overlap.shared[1][0] == 55
    assert overlap.jaccard[0][1] == pytest.approx(55 / 85)
    assert overlap.shared[0][2] == 1 and overlap.shared_core[1][2] == 1
    assert overlap.jaccard[0][2] == pytest.approx(1 / (55 + 5 - 1))
    assert overlap.jaccard[2][2] == 1.0 and overlap.shared[2][2] == 5
    # only the third list found core 15–17; clean's core are all in noisy too
    assert [len(only) for only in overlap.only] == [0, 0, 3]
    assert {m.doi for m in overlap.only[2]} == {
        r.doi for r in topic_records("cardiology", 20)[15:18]}
    assert overlap.missed_by_all == 2


def test_threshold_sweeps_equal_metrics_on_independently_read_vectors(project):
    evaluation = run_job(evaluate_topic(project, TOPIC, PCA))
    sweeps = threshold_sweeps(project, evaluation)
    assert list(sweeps) == ["clean", "noisy", "third"]
    emb = latest_set(project.db, project.topic_id(TOPIC), "lsa")
    ids, vectors = load_vectors(project.db, emb)
    row = {key: i for i, key in enumerate(ids.tolist())}
    e_c = vectors[[row[k] for k in evaluation.core_rows.record_ids.tolist()]]
    for item in evaluation.lists:
        e_r = vectors[[row[k] for k in item.rows.record_ids.tolist()]]
        cos = item.methods["cos"]
        grid = np.union1d(np.linspace(0, 1, 101), [cos.detail["theta"]])
        expected = threshold_analysis(e_c, e_r, item.rows.is_core, 20, grid,
                                      evaluation.settings.scoring)
        got = sweeps[item.name]
        assert np.array_equal(got.thetas, grid)
        assert np.array_equal(got.n_relevant, expected.n_relevant)
        assert np.array_equal(got.f_beta, expected.f_beta)
        assert got.default_theta == pytest.approx(cos.detail["theta"])
        # at the θ the table used, the sweep says what the table says
        at = int(np.flatnonzero(grid == cos.detail["theta"])[0])
        assert got.n_relevant[at] == cos.relevant
        assert got.f_beta[at] == pytest.approx(cos.f_beta)


def test_readiness_missing_ready_stale(project, tmp_path):
    assert readiness(project, TOPIC, PCA) == "ready"
    assert readiness(project, TOPIC, PCA.replace(map_method="umap")) == "missing"
    extra = write_list(topic_records("cardiology", 3, seed=9), tmp_path / "more.ris")
    import_list(project, extra, "results", "more")
    assert readiness(project, TOPIC, PCA) == "stale"


def test_map_titles_follow_the_ids(project):
    evaluation = run_job(evaluate_topic(project, TOPIC, PCA))
    ids = evaluation.map.record_ids[::-1][:5]
    titles = map_titles(project, ids)
    expected = [project.db.execute("SELECT title FROM records WHERE id = ?", [int(i)])
                .fetchone()[0] for i in ids]
    assert titles == expected and all(titles)


def test_xlsx_and_csv_hold_the_same_rows_and_never_a_formula(project, tmp_path):
    project.write(lists.rename_list_op(TOPIC, "third", "=1+1"))
    evaluation = run_job(evaluate_topic(project, TOPIC, PCA))
    book = load_workbook(comparison.write_xlsx(evaluation, tmp_path / "t.xlsx"))
    sheet = book.active
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert rows[0] == comparison.header()
    names = [row[1] for row in rows[1:]]
    assert names == ["clean", "noisy", "=1+1"]
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
    with comparison.write_csv(evaluation, tmp_path / "t.csv").open(encoding="utf-8") as f:
        table = list(csv.reader(f))
    for xlsx_row, csv_row in zip(rows[1:], table[1:], strict=True):
        for value, text in zip(xlsx_row, csv_row, strict=True):
            if isinstance(value, int | float):  # a number cell, not text
                assert value == pytest.approx(float(text), rel=1e-12)
            else:  # text; a spreadsheet would run "=1+1" in a CSV: escaped there
                assert escape_formula("" if value is None else value) == text
    assert [row[1] for row in table[1:]] == ["clean", "noisy", "'=1+1"]
