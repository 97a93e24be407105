"""A damaged project never gives silent garbage nor an internal error (issue 27 §1).

Each stored kind of an evaluated topic is corrupted in turn with plain SQL, as a broken
disk or another program would: a damaged cache (a stored outcome, its relevant mask, the
map) is computed again and the evaluation says so, with the very numbers of the intact
file; damaged vectors, vector-set metadata and parameters are refused with one line
(a ``ProjectError``) that names the topic and what is damaged.
"""

import numpy as np
import pytest

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.evaluation.engine import TopicEvaluation, evaluate_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from tests.support.topics import PCA, TOPIC, build_topic, copy_project, evaluate_pca

HUGE = np.full(150, 3e38, np.float32).tobytes().hex()  # a whole 150-dim vector of 3e38
ONE_VECTOR = "record_id = (SELECT MIN(record_id) FROM vectors WHERE data IS NOT NULL)"
# vectors are read only when a method must run: θ 0.3 makes SP cos run again
RUN_COS = PCA.replace(theta=0.3)

REFUSED = [  # (SQL, evaluation settings, what the one line must say)
    (f"UPDATE vectors SET data = substr(data, 1, 10) WHERE {ONE_VECTOR}", RUN_COS,
     "lsa vector of record 1 is damaged (10 bytes where 600 belong)"),
    ("UPDATE vectors SET dtype = '|O'", RUN_COS, "stored type '|O' is not one of <f4"),
    ("UPDATE vectors SET dtype = 'garbage'", RUN_COS, "stored type 'garbage'"),
    ("UPDATE vectors SET dtype = '<f8'", RUN_COS, "stored type '<f8'"),
    ("UPDATE vectors SET shape = '[15'", RUN_COS, "its shape '[15' is not 1 non-negative"),
    ("UPDATE vectors SET shape = '[-150]'", RUN_COS, "its shape '[-150]'"),
    (f"UPDATE vectors SET shape = '[149]', data = substr(data, 1, 596) WHERE {ONE_VECTOR}",
     RUN_COS, "vector of record 1 is damaged (149 values where the set's vectors have 150)"),
    (f"UPDATE vectors SET data = 'text' WHERE {ONE_VECTOR}", RUN_COS, "str where bytes belong"),
    (f"UPDATE vectors SET data = X'{HUGE}' WHERE {ONE_VECTOR}", RUN_COS,
     "the stored lsa vector set is damaged (a value of magnitude 3e+38 is beyond"),
    (f"UPDATE vectors SET data = X'{'0000c07f' * 150}' WHERE {ONE_VECTOR}", RUN_COS,
     "a value is not finite"),
    ("UPDATE embedding_sets SET params = '{'", PCA,
     "the stored lsa vector set is damaged (parameters: not valid JSON)"),
    ("UPDATE embedding_sets SET notes = '[1'", PCA, "vector set is damaged (notes: not valid"),
    ("UPDATE embedding_sets SET notes = '[1]'", PCA, "(notes: not a list of text)"),
    ("UPDATE parameters SET value = 'Infinity' WHERE key LIKE '%.alpha'", None,
     "'evaluation.1.alpha' is damaged (parameter 'evaluation.1.alpha' must be a finite "
     "number in (0, 1,000,000,000], not inf)"),
    ("UPDATE parameters SET value = '\"x\"' WHERE key LIKE '%.beta'", None,
     "'evaluation.1.beta' is damaged"),
    ("UPDATE parameters SET value = '{' WHERE key LIKE '%.p'", None, "not valid JSON"),
]

REPAIRED = [  # (SQL, what the note must say)
    ("UPDATE evaluation_results SET relevant = substr(relevant, 1, 3)",
     "cos result of list 'clean' was damaged (relevant mask: 3 bytes for 49 rows, where 7 "
     "belong)"),
    ("UPDATE evaluation_results SET relevant = X'FFFFFFFFFFFFFF' WHERE method = 'hull'",
     "bits set beyond its 49 rows"),
    ("UPDATE evaluation_results SET outcome = '{'", "cos result of list 'clean' was damaged "
                                                     "(not valid JSON)"),
    ("UPDATE evaluation_results SET outcome = json_set(outcome, '$.precision', 7.5) "
     "WHERE method = 'mvee'", "mvee result of list 'clean' was damaged (precision: 7.5 is "
                              "outside [0, 1])"),
    ("UPDATE evaluation_results SET outcome = json_set(outcome, '$.n_relevant', -1)",
     "was damaged (relevant count: -1 is outside"),
    ("UPDATE evaluation_results SET outcome = json_remove(outcome, '$.loo')",
     "fields are missing or malformed"),
    ("UPDATE evaluation_results SET outcome = json_set(outcome, '$.detail.polygon', "
     "json('[[1, 2, 3]]')) WHERE method = 'hull'", "was damaged (polygon: not a list of the"),
    ("UPDATE maps SET coords = substr(coords, 1, 100)",
     "the stored PCA map was damaged (coordinates: 100 bytes where 1200 belong)"),
    ("UPDATE maps SET record_ids = substr(record_ids, 1, 100)",
     "map was damaged (record ids: 100 bytes where 1200 belong)"),
    ("UPDATE maps SET record_ids = "
     "CAST(substr(record_ids, 9) || substr(record_ids, 1, 8) AS BLOB)",
     "(record ids: not ascending record ids)"),
    ("UPDATE maps SET record_ids = "
     "CAST(substr(record_ids, 1, 1192) || X'FFFFFFFFFFFFFF7F' AS BLOB)",
     "(record ids: not the records of its vector set)"),
    ("UPDATE maps SET shape = '[150, 3]'", "(coordinates: 1200 bytes where 1800 belong"),
    ("UPDATE maps SET fidelity = 7.5", "(fidelity: 7.5 is outside [0, 1])"),
    ("UPDATE maps SET params = '[]'", "(parameters: a JSON list where a dict belongs)"),
]


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    """A topic evaluated with a PCA map (the stored map setting), everything stored."""
    path = build_topic(tmp_path_factory.mktemp("damage") / "p.litq", n_core=12, found=9,
                       extra=40, noise=40)
    evaluate_pca(path, save=True)
    return path


def _figures(evaluation: TopicEvaluation) -> list:
    return [(item.name, method, r.precision, r.relevant, r.recall, r.defined,
             item.relevant[method].tolist())
            for item in evaluation.lists for method, r in item.methods.items()]


def _damaged_copy(topic_file, tmp_path, sql: str):
    path = copy_project(topic_file, tmp_path)
    with Project.open(path) as project:
        project.db.conn.executescript(sql)
    return path


@pytest.mark.parametrize(("sql", "settings", "message"), REFUSED)
def test_damaged_vectors_set_or_parameters_are_refused_with_one_line_naming_them(
        topic_file, tmp_path, sql, settings, message):
    path = _damaged_copy(topic_file, tmp_path, sql)
    before = path.read_bytes()
    with Project.open(path) as project, pytest.raises(ProjectError) as caught:
        run_job(evaluate_topic(project, TOPIC, settings))
    text = str(caught.value)
    assert text.startswith("topic 'cardio': ") and message in text, text
    assert "\n" not in text
    assert path.read_bytes() == before


@pytest.mark.parametrize(("sql", "note"), REPAIRED)
def test_a_damaged_cached_result_is_computed_again_and_the_evaluation_says_so(
        topic_file, tmp_path, sql, note):
    with Project.open(copy_project(topic_file, tmp_path, "intact.litq")) as project:
        intact = run_job(evaluate_topic(project, TOPIC))
    with Project.open(_damaged_copy(topic_file, tmp_path, sql)) as project:
        repaired = run_job(evaluate_topic(project, TOPIC))
        again = run_job(evaluate_topic(project, TOPIC))
    assert any(note in line for line in repaired.repaired), repaired.repaired
    assert all(line.startswith("topic 'cardio': ") for line in repaired.repaired)
    assert set(repaired.repaired) <= set(repaired.embedding_notes)  # shown with the table
    assert _figures(repaired) == _figures(intact)
    assert again.repaired == () and again.computed == ()  # the repair was stored
    assert _figures(again) == _figures(intact)
