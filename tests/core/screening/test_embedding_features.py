"""The topic's stored vectors as screening features (issue 14 §4)."""

import numpy as np
import pytest

from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.evaluation.vector_store import embed_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.parameters import SCREENING_FEATURES
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import (
    MissingVectorsError,
    parse_features,
    screening_features,
)
from litqeval_gui.core.screening.ranking.features_apart import features_apart
from litqeval_gui.core.screening.ranking.retrain import rank
from litqeval_gui.core.screening.simulation.simulate import simulate
from tests.support.screening import (
    labelled_records,
    opened_screening,
    screening_project,
    write_labelled_csv,
)


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """Topic T of 400 labelled records (10 % relevant) with its lsa vectors stored."""
    with opened_screening(tmp_path_factory.mktemp("emb"), 400, 0.1, seed=7) as opened:
        run_job(embed_topic(opened[0], "T", backend_by_name("lsa")))
        yield opened


def test_stored_vectors_are_the_features_in_item_order(embedded):
    project, screening, _ = embedded
    features = run_job(screening_features(project, screening, features="embedding:lsa"))
    assert features.kind == "embedding:lsa" and features.question_row is None
    items = list(features.items)
    first = project.db.execute("SELECT data FROM vectors WHERE record_id = ?",
                               [items[5]]).fetchone()[0]
    assert np.array_equal(features.matrix[5], np.frombuffer(first, dtype=np.float32))
    assert features.matrix.shape == (len(items), 256)
    # "embedding" alone takes the topic's evaluation backend (lsa by default)
    again = run_job(screening_features(project, screening, features="embedding"))
    assert again.kind == "embedding:lsa" and np.array_equal(again.matrix, features.matrix)


@pytest.mark.parametrize("model", ["logistic", "svm"])
def test_embeddings_that_separate_the_classes_rank_relevant_records_first(embedded, model):
    project, screening, truth = embedded
    features = run_job(screening_features(project, screening, features="embedding:lsa"))
    run = run_job(simulate(features, truth, model=model, seed=1))
    assert sorted(run.order.tolist()) == list(range(truth.size))
    assert run.wss_at_95 > 0.3


def test_naive_bayes_refuses_embeddings(embedded):
    project, screening, truth = embedded
    features = run_job(screening_features(project, screening, features="embedding:lsa"))
    with pytest.raises(LitqError, match="naive Bayes needs non-negative word features"):
        run_job(simulate(features, truth, model="nb"))
    with pytest.raises(LitqError, match="naive Bayes needs non-negative"):
        rank(features, [], screening.scheme, "nb")


def test_missing_or_stale_vectors_are_one_error_naming_what_computes_them(tmp_path):
    path, _ = screening_project(tmp_path, 60, 0.1, seed=8)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        with pytest.raises(MissingVectorsError) as missing:
            run_job(screening_features(project, screening, features="embedding:minilm"))
        text = str(missing.value)
        assert text == ("topic 'T' has no stored minilm vectors: compute them with Evaluate "
                        "Topic (backend minilm) before screening with embedding features")
        assert "--" not in text and "litqeval" not in text  # the app shows it as is
        assert missing.value.cli_hint == "(or run: litqeval embed --topic 'T' --backend minilm)"
        run_job(embed_topic(project, "T", backend_by_name("lsa")))
        run_job(screening_features(project, screening, features="embedding:lsa"))
        records, labels = labelled_records(20, 0.1, seed=99)
        source = write_labelled_csv(records, labels, tmp_path / "more.csv")
        run_job(ingest.import_file(project, source, topic="T", role="results", name="M"))
        with pytest.raises(MissingVectorsError, match="has out-of-date lsa vectors"):
            run_job(screening_features(project, screening, features="embedding:lsa"))


def test_feature_names_are_checked():
    assert parse_features("tfidf") == ("tfidf", None)
    assert parse_features("embedding:precomputed") == ("embedding", "precomputed")
    for bad in ("embedding:bert", "tfidf:lsa", "words"):
        with pytest.raises(LitqError, match="unknown features"):
            parse_features(bad)


def test_the_screen_builds_the_features_the_project_parameter_names(embedded):
    """The screen's ranking job (features_apart) reads ``screening.features``."""
    project, screening, _ = embedded
    assert run_job(features_apart(project, screening)).kind == "tfidf"
    project.write(parameters.set_value_op(SCREENING_FEATURES, "embedding:lsa"))
    try:
        built = run_job(features_apart(project, screening))
        assert built.kind == "embedding:lsa" and built.matrix.shape == (400, 256)
    finally:
        project.write(parameters.set_value_op(SCREENING_FEATURES, "tfidf"))


def test_tfidf_beside_the_stored_vectors_holds_both_blocks(embedded):
    project, screening, truth = embedded
    words = run_job(screening_features(project, screening, "robotic surgery"))
    stored = run_job(screening_features(project, screening, features="embedding:lsa"))
    both = run_job(screening_features(project, screening, "robotic surgery",
                                      features="tfidf+embedding:lsa"))
    assert both.kind == "tfidf+embedding:lsa" and both.question_row == words.question_row
    columns = words.matrix.shape[1]
    assert both.matrix.shape == (words.matrix.shape[0], columns + 256)
    assert (both.matrix[:, :columns] != words.matrix).nnz == 0
    n = len(both.items)
    assert np.allclose(both.matrix[:n, columns:].toarray(), stored.matrix)
    assert both.matrix[both.question_row, columns:].nnz == 0  # the question has no vector
    run = run_job(simulate(both, truth, seed=1, rules=[]))
    assert sorted(run.order.tolist()) == list(range(truth.size)) and run.wss_at_95 > 0.3
    with pytest.raises(LitqError, match="naive Bayes"):
        run_job(simulate(both, truth, model="nb", seed=1))
    assert parse_features("tfidf+embedding") == ("tfidf+embedding", None)
