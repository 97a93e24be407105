"""The evaluation engine end to end on a generated topic whose answers are known."""

import numpy as np
import pytest

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.evaluation.intervals import wilson_interval
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.settings import (
    EvaluationSettings,
    load_settings,
    save_settings_op,
)
from litqeval_gui.core.evaluation.vector_store import latest_set, load_vectors
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import works
from litqeval_gui.metrics.semantic import sp_cos, sp_hull, sp_mvee
from litqeval_gui.metrics.semantic_cluster import sp_cluster
from litqeval_gui.metrics.sets import decay
from tests.support.synthetic import topic_records
from tests.support.topics import PCA, TOPIC, build_topic, evaluate_pca, import_list, write_list


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    """The topic, evaluated once with a PCA map (vectors, map and results stored)."""
    path = build_topic(tmp_path_factory.mktemp("topic") / "p.litq")
    assert len(evaluate_pca(path).computed) == 8  # 2 lists × 4 methods
    return path


def _arrays(project, evaluation, rows):
    """E_C, E_R and the map points of ``rows``, read independently of the engine."""
    emb = latest_set(project.db, project.topic_id(TOPIC), evaluation.backend.name)
    ids, vectors = load_vectors(project.db, emb)
    index = {key: i for i, key in enumerate(ids.tolist())}
    spots = {key: i for i, key in enumerate(evaluation.map.record_ids.tolist())}
    e_c = vectors[[index[key] for key in evaluation.core_rows.record_ids.tolist()]]
    e_r = vectors[[index[key] for key in rows.record_ids.tolist()]]
    coords = evaluation.map.coords[[spots[key] for key in rows.record_ids.tolist()]]
    return e_c, e_r, coords


def test_recall_and_every_sp_equal_metrics_on_the_same_arrays(project):
    evaluation = run_job(evaluate_topic(project, TOPIC))  # stored defaults: lsa + UMAP
    assert evaluation.backend.name == "lsa" and evaluation.map.method == "umap"
    assert 0 < evaluation.fidelity <= 1
    n_core = len(works.core_works(project.db, project.topic_id(TOPIC)))
    assert n_core == 20
    scoring = evaluation.settings.scoring
    by_name = {item.name: item for item in evaluation.lists}
    assert (by_name["clean"].size, by_name["noisy"].size) == (100, 200)
    for item in evaluation.lists:
        assert (item.retrieved_core, item.core, item.recall) == (15, 20, 0.75)
        assert item.recall_ci == wilson_interval(15, 20)
        assert len(item.missed) == 5 and all(m.doi.startswith("10.5555/cardiology.0.")
                                             for m in item.missed)
        rows = item.rows
        assert rows.is_core.sum() == 15 and item.without_vector == 0
        e_c, e_r, coords = _arrays(project, evaluation, rows)
        expected = {
            "cos": sp_cos(e_c, e_r, rows.is_core, n_core, None, scoring),
            "cluster": sp_cluster(e_r, rows.is_core, n_core, scoring=scoring),
            "mvee": sp_mvee(coords, rows.is_core, n_core, scoring=scoring),
            "hull": sp_hull(coords, rows.is_core, n_core, scoring=scoring),
        }
        for method in METHODS:
            got, want = item.methods[method], expected[method]
            assert (got.precision, got.relevant, got.recall, got.decay, got.f_beta) == (
                want.precision, want.n_relevant, want.recall, want.decay, want.f_beta), method
            assert np.array_equal(item.relevant[method], want.relevant)
            assert got.defined


def test_the_noisy_list_scores_lower_sp_and_f2_for_every_method(project):
    evaluation = run_job(evaluate_topic(project, TOPIC, PCA))
    clean, noisy = (next(i for i in evaluation.lists if i.name == name)
                    for name in ("clean", "noisy"))
    for method in METHODS:
        assert noisy.methods[method].precision < clean.methods[method].precision, method
        assert noisy.methods[method].f_beta < clean.methods[method].f_beta, method


def test_leave_one_out_range_is_sp_cos_without_each_core_record(project):
    evaluation = run_job(evaluate_topic(project, TOPIC, PCA))
    item = evaluation.lists[0]
    e_c, e_r, _ = _arrays(project, evaluation, item.rows)
    core_works = evaluation.core_rows.work_ids
    runs = [sp_cos(np.delete(e_c, i, axis=0), e_r, item.rows.is_core & (item.rows.work_ids != w),
                   19) for i, w in enumerate(core_works.tolist())]
    cos = item.methods["cos"]
    assert cos.loo_range == (min(r.precision for r in runs), max(r.precision for r in runs))
    assert cos.loo_f_range == (min(r.f_beta for r in runs), max(r.f_beta for r in runs))
    assert cos.loo_range[0] <= cos.precision <= cos.loo_range[1]


def test_results_are_stored_and_a_parameter_change_recomputes_only_what_depends_on_it(
        project, topic_file):
    first = run_job(evaluate_topic(project, TOPIC, PCA))
    assert first.computed == ()  # stored by the fixture's evaluation
    rescored = run_job(evaluate_topic(project, TOPIC, PCA.replace(alpha=120.0, beta=1.0)))
    assert rescored.computed == ()
    for item, before in zip(rescored.lists, first.lists, strict=True):
        for method in METHODS:
            now = item.methods[method]
            assert now.relevant == before.methods[method].relevant
            assert now.decay == decay(now.relevant, 1.5, 10.0, 120.0)
    theta = run_job(evaluate_topic(project, TOPIC, PCA.replace(theta=0.2)))
    assert sorted(theta.computed) == [("clean", "cos"), ("noisy", "cos")]
    assert theta.lists[0].methods["cos"].detail["theta"] == 0.2
    tol = run_job(evaluate_topic(project, TOPIC, PCA.replace(theta=0.2, mvee_tol=1e-3)))
    assert sorted(tol.computed) == [("clean", "mvee"), ("noisy", "mvee")]
    cluster = run_job(evaluate_topic(project, TOPIC, PCA.replace(theta=0.2, mvee_tol=1e-3,
                                                                cluster_theta=0.5)))
    assert sorted(cluster.computed) == [("clean", "cluster"), ("noisy", "cluster")]


def test_the_map_is_reused_on_reopen_and_refitted_after_an_import(project, tmp_path):
    first = run_job(evaluate_topic(project, TOPIC, PCA))
    path = project.path
    project.close()
    with Project.open(path) as reopened:
        again = run_job(evaluate_topic(reopened, TOPIC, PCA))
        assert again.map.id == first.map.id and again.computed == ()
        more = topic_records("linguistics", 20)
        import_list(reopened, write_list(more, tmp_path / "more.ris"), "results", "more")
        after = run_job(evaluate_topic(reopened, TOPIC, PCA))
        assert after.map.id != first.map.id and not after.map.stale
        assert len(after.map.record_ids) == len(first.map.record_ids) + 20
        assert {i.name for i in after.lists} == {"clean", "noisy", "more"}
        more_list = next(i for i in after.lists if i.name == "more")
        assert more_list.recall == 0.0 and more_list.recall_ci == wilson_interval(0, 20)
        assert more_list.methods["cluster"].reason  # no core record retrieved: undefined
        assert more_list.methods["mvee"].precision == 0.0
        assert not more_list.methods["mvee"].defined


def test_settings_are_stored_per_topic_and_bad_ones_refused(project):
    assert load_settings(project, TOPIC) == EvaluationSettings()
    chosen = EvaluationSettings(theta=0.42, alpha=1000.0, p=2.0, q=4.0, beta=1.0,
                                cluster_theta=0.6, mvee_tol=1e-3, map_method="pca")
    project.write(save_settings_op(TOPIC, chosen))
    assert load_settings(project, TOPIC) == chosen
    project.write(save_settings_op(TOPIC, chosen.replace(theta=None)))
    assert load_settings(project, TOPIC).theta is None
    with pytest.raises(ProjectError, match="alpha must be a finite number in"):
        EvaluationSettings(alpha=0.0)
    with pytest.raises(ProjectError, match="backend must be one of"):
        EvaluationSettings(backend="word2vec")


def test_wilson_interval_of_45_of_47_is_the_issues_example():
    low, high = wilson_interval(45, 47)
    assert (round(low, 2), round(high, 2)) == (0.86, 0.99)
    assert wilson_interval(0, 0) == (0.0, 0.0)
