"""Issue 27 §1, §2, §6 through the command line: a damaged project, a parameter out of
range and a read-only project each give one line and exit 2 (never 3, never silence)."""

import shutil

import pytest

from litqeval_gui.cli import main
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.pooling import store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.ranking.features import build_features
from litqeval_gui.core.screening.ranking.retrain import retrain
from litqeval_gui.core.screening.session import ScreeningSession
from tests.support.pooling import pool_project, two_run_layers
from tests.support.screening import screening_project
from tests.support.topics import TOPIC, build_topic, copy_project, evaluate_pca
from tests.test_cli_bad_input import as_nobody, shared_folder


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def topic_file(tmp_path_factory):
    path = build_topic(tmp_path_factory.mktemp("cli-damage") / "p.litq", n_core=12, found=9,
                       extra=40, noise=40)
    evaluate_pca(path, save=True)
    return path


def damaged(topic_file, tmp_path, sql):
    path = copy_project(topic_file, tmp_path)
    with Project.open(path) as project:
        project.db.conn.executescript(sql)
    return path


def test_a_cut_relevant_mask_is_computed_again_and_said_not_read_as_garbage(
        topic_file, tmp_path, capsys):
    intact = copy_project(topic_file, tmp_path, "intact.litq")
    code, want, _ = run(capsys, "evaluate", intact, "--topic", TOPIC, "--json")
    assert code == 0
    path = damaged(topic_file, tmp_path, "UPDATE evaluation_results SET relevant = "
                                         "substr(relevant, 1, 3) WHERE method = 'hull'")
    code, out, err = run(capsys, "report", path, "--topic", TOPIC, tmp_path / "r.html")
    assert code == 0, err
    assert err.count("litqeval: note: topic 'cardio': the stored hull result of list") == 2
    assert "was damaged (relevant mask: 3 bytes for" in err
    assert run(capsys, "evaluate", path, "--topic", TOPIC, "--json")[1:] == (want, "")


@pytest.mark.parametrize(("command", "sql", "message"), [
    (("evaluate", "--theta", "0.3"), "UPDATE vectors SET data = substr(data, 1, 10) "
     "WHERE record_id = 1", "the stored lsa vector of record 1 is damaged (10 bytes"),
    (("evaluate", "--theta", "0.3"), "UPDATE vectors SET data = zeroblob(length(data)) "
     "WHERE record_id IN (2, 3)", "the stored lsa vector of record 2 is damaged (all zeros, "
     "a vector with no direction; 2 such vector(s))"),
    (("evaluate",), "UPDATE vectors SET data = zeroblob(length(data)); "
     "DELETE FROM evaluation_results", "vector with no direction"),
    (("report", "OUT"), "UPDATE vectors SET dtype = '|O'; DELETE FROM evaluation_results",
     "stored type '|O' is not one of <f4"),
    (("report", "OUT"), "UPDATE embedding_sets SET notes = '[1'", "set is damaged (notes:"),
    (("report", "OUT"), "UPDATE parameters SET value = 'Infinity' WHERE key LIKE '%.alpha'",
     "'evaluation.1.alpha' is damaged"),
])
def test_damaged_stored_data_is_one_line_and_exit_2(topic_file, tmp_path, capsys, command,
                                                   sql, message):
    path = damaged(topic_file, tmp_path, sql)
    argv = [tmp_path / "r.html" if arg == "OUT" else arg for arg in command]
    code, _, err = run(capsys, argv[0], path, "--topic", TOPIC, *argv[1:])
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("litqeval: error: topic 'cardio': ") and message in err, err


@pytest.mark.parametrize("option", [("--alpha", "inf"), ("--p", "nan"), ("--beta", "-1"),
                                    ("--cluster-theta", "1.5"), ("--mvee-tol", "0"),
                                    ("--q", "1e400")])
def test_an_evaluation_parameter_out_of_range_is_refused_and_never_stored(
        topic_file, tmp_path, capsys, option):
    path = copy_project(topic_file, tmp_path)
    before = path.read_bytes()
    code, _, err = run(capsys, "evaluate", path, "--topic", TOPIC, *option)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{option[0][2:].replace('-', ' ')} must be a finite number in" in err, err
    assert path.read_bytes() == before


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE pools SET params = '{'", "the stored pool 'P' is damaged (settings: not valid"),
    ("UPDATE pools SET params = json_set(params, '$.w', 0)", "w must be a whole number"),
    ("UPDATE pools SET params = json_set(params, '$.t', 'x')", "pool 'P' is damaged (settings"),
    ("UPDATE pools SET qrels = '[\"a\"]'", "pool 'P' is damaged (qrels: an entry is not"),
    ("UPDATE pool_runs SET records = substr(records, 1, 5)", "the stored pool 'P' is damaged "
     "(run 'A': 5 bytes where a multiple of 8 belong)"),
    ("UPDATE screenings SET source = '[]'", "screening 'pool: P' is damaged (source: a JSON"),
    ("UPDATE screenings SET reasons = '{'", "screening 'pool: P' is damaged (reasons: not"),
])
def test_a_damaged_pool_or_screening_is_one_line_and_exit_2(tmp_path, capsys, sql, message):
    path = pool_project(tmp_path, two_run_layers(5, 1)[0])
    code, _, err = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "list:A", "list:B", "--no-low-yield")
    assert code == 0, err
    with Project.open(path) as project:
        project.db.conn.executescript(sql)
    code, _, err = run(capsys, "pool-status", path, "--topic", "T", "--pool", "P")
    assert code == 2 and err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(("custom", "message"), [
    (("1e400", "2", "0.5", "2"), "w must be a whole number in [1, 1,000,000], not inf"),
    (("2.5", "2", "0.5", "2"), "w must be a whole number"),
    (("2", "2", "nan", "2"), "t must be a finite number"),
])
def test_pool_settings_out_of_range_are_one_line(tmp_path, capsys, custom, message):
    path = pool_project(tmp_path, two_run_layers(5, 1)[0])
    code, _, err = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "list:A", "--custom", *custom)
    assert code == 2 and err.count("\n") == 1 and message in err, err
    with Project.open(path, readonly=True) as project:
        assert store.pools(project) == []


def test_report_works_on_a_read_only_project_and_says_what_it_lacks(topic_file, tmp_path):
    with shared_folder() as folder:
        folder.chmod(0o777)
        path = folder / "p.litq"
        shutil.copyfile(topic_file, path)
        path.chmod(0o444)
        code, err = as_nobody("report", path, "--topic", TOPIC, folder / "r.html")
        assert code == 0, err
        assert (folder / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
        path.chmod(0o666)
        with Project.open(path) as project:
            project.db.execute("DELETE FROM evaluation_results WHERE method = 'cos'")
        path.chmod(0o444)
        code, err = as_nobody("report", path, "--topic", TOPIC, folder / "r2.html")
        assert code == 2 and err.count("\n") == 1, err
        assert "can only be read here" in err
        assert "the evaluation of topic 'cardio' is not stored in full" in err
        assert not (folder / "r2.html").exists()


def test_report_reads_a_project_another_process_holds_open(topic_file, tmp_path, capsys):
    path = copy_project(topic_file, tmp_path)
    with Project.open(path):  # the app has it open for writing
        code, _, err = run(capsys, "report", path, "--topic", TOPIC, tmp_path / "r.html")
        assert code == 0, err
        assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE records SET authors = '[1' WHERE id = 1", "(authors: not valid JSON)"),
    ("UPDATE records SET keywords = '[1]' WHERE id = 1", "(keywords: not a list of text)"),
    ("UPDATE records SET ids = '{' WHERE id = 1", "(ids: not valid JSON)"),
    ("UPDATE records SET raw = '[]' WHERE id = 1", "(original fields: a JSON list where"),
])
def test_a_damaged_record_is_one_line_naming_it(topic_file, tmp_path, capsys, sql, message):
    path = damaged(topic_file, tmp_path, sql)
    code, _, err = run(capsys, "export", path, "--topic", TOPIC, "--list", "core", "--format",
                       "ris", tmp_path / "out.ris")
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("litqeval: error: the stored record '") and message in err, err


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE screening_rankings SET records = substr(records, 1, 12)",
     "(records: 12 bytes where a multiple of 8 belong)"),
    ("UPDATE screening_rankings SET scores = substr(scores, 1, 16)",
     "(scores: 16 bytes where 320 belong)"),
    ("UPDATE screening_rankings SET details = '{'", "(details: not valid JSON)"),
    ("UPDATE screening_rankings SET details = '{\"trust\": {\"tau\": 1}}'",
     "(details: not a model's trust)"),
])
def test_a_damaged_model_ranking_is_one_line(tmp_path, capsys, sql, message):
    path, labels = screening_project(tmp_path, 40, 0.25)
    with Project.open(path) as project:
        screening = screening_store.create_screening(project, "T", "s", ["L"])
        items = screening_store.items(project, screening.id)
        session = ScreeningSession(project, screening, "Ada")
        for record, label in list(zip(items, labels, strict=True))[:12]:
            session.decide("include" if label else "exclude", record_id=record)
        run_job(retrain(project, screening, run_job(build_features(
            project, screening.topic_id, items))))
        project.db.conn.executescript(sql)
    code, _, err = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "ranking:s")
    assert code == 2 and err.count("\n") == 1, err
    assert "the stored ranking of screening 1 is damaged" in err and message in err, err
