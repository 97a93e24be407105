"""`litqeval pool-create`, `pool-advance` and `pool-status` end to end."""

import json

from litqeval_gui.cli import main
from litqeval_gui.core.pooling import store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from tests.support.pooling import pool_project, two_run_layers


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_pool_driven_by_qrels_to_its_stop(tmp_path, capsys):
    runs, relevant = two_run_layers(20, 4)
    grades = {doc: int(doc in relevant) for docs in runs.values() for doc in docs}
    path = pool_project(tmp_path, runs, grades)
    code, out, _ = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "A", "list:B", "--qrels", "qrels", "--no-low-yield", "--json")
    assert code == 0
    created = json.loads(out)
    assert (created["released_depth"], created["settings"]["w"], created["k_cr"]) == (0, 6, None)
    code, out, _ = run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P")
    assert code == 0 and out.startswith("pool depth 1: 0 new records\n")
    code, out, _ = run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P",
                       "--while-judged", "--json")
    document = json.loads(out)
    assert [a["depth"] for a in document["advanced"]] == list(range(2, 12))
    final = document["state"]
    assert (final["k_cr"], final["stop_depth"], final["reason"], final["finished"]) == (
        2, 2, "critical depth", True)
    assert final["nrels"] == [2, 4, 6, 8] + [8] * 7
    code, out, _ = run(capsys, "pool-status", path, "--json")
    status = json.loads(out)
    assert status["pools"] == [final] and status["next"] == []
    code, _, err = run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P")
    assert code == 2 and "has stopped at depth 2" in err


def test_pool_released_to_screening_and_custom_settings(tmp_path, capsys):
    runs, _ = two_run_layers(10, 2)
    path = pool_project(tmp_path, runs)
    code, out, _ = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "A", "B", "--custom", "3", "2", "0.5", "2", "--low-yield-depth", "5")
    assert code == 0 and "[w=3, W=2, t=0.5, l=2]" in out
    code, out, _ = run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P")
    assert out.startswith("pool depth 1: 2 new records")
    with Project.open(path) as project:
        pool = store.find_pool(project, "T", "P")
        assert len(screening_store.items(project, pool.screening_id)) == 2
    code, out, _ = run(capsys, "pool-status", path, "--topic", "T")
    assert "released depth 1, judged depth 0" in out and "pending 2" in out
    assert "effort next: T / P" in out


def test_bad_pool_arguments_change_nothing(tmp_path, capsys):
    runs, _ = two_run_layers(5, 1)
    path = pool_project(tmp_path, runs)
    for args, message in [
            (("--runs", "A", "--low-yield-depth", "0"), "low-yield depth must be >= 1"),
            (("--runs", "nope"), "no list"),
            (("--runs", "A", "--custom", "0", "2", "0.5", "2"), "w must be a whole number in [1, 1,000,000], not 0.0")]:
        code, _, err = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", *args)
        assert code == 2 and message in err, err
    with Project.open(path) as project:
        assert store.pools(project) == [] and screening_store.screenings(project, "T") == []


def test_pool_feeds_an_existing_screening_once(tmp_path, capsys):
    runs, _ = two_run_layers(10, 2)
    path = pool_project(tmp_path, runs)
    with Project.open(path) as project:
        existing = screening_store.create_screening(project, "T", "mine", ["A"], records=[])
    code, _, _ = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                     "A", "B", "--screening", "mine")
    assert code == 0
    code, out, _ = run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P")
    assert code == 0 and out.startswith("pool depth 1: 2 new records")
    code, _, err = run(capsys, "pool-create", path, "--topic", "T", "--pool", "Q", "--runs",
                       "A", "--screening", "mine")
    assert code == 2 and "screening 'mine' already takes pool 'P'" in err
    with Project.open(path, readonly=True) as project:
        assert store.find_pool(project, "T", "P").screening_id == existing.id
        assert [s.name for s in screening_store.screenings(project, "T")] == ["mine"]
        assert len(screening_store.items(project, existing.id)) == 2


def test_the_pool_says_why_and_its_screening_shows_the_pool_rule(tmp_path, capsys):
    runs, relevant = two_run_layers(20, 4)
    grades = {doc: int(doc in relevant) for docs in runs.values() for doc in docs}
    path = pool_project(tmp_path, runs, grades)
    code, out, _ = run(capsys, "pool-create", path, "--topic", "T", "--pool", "P", "--runs",
                       "A", "list:B", "--qrels", "qrels", "--no-low-yield")
    # w + W = 6 + 2 depths before the first rate, then a run of l = 3: depth 8 + 3 - 1
    assert out.rstrip().endswith(
        "continue: depth 10 must be judged: the first smoothed rate ŕ needs w + W = 8 "
        "judged depths, and k_cr a run of l = 3 rates below t = 0.8")
    run(capsys, "pool-advance", path, "--topic", "T", "--pool", "P", "--while-judged")
    code, out, _ = run(capsys, "pool-status", path, "--topic", "T", "--pool", "P")
    assert ("stopped at depth 2: critical depth k_cr = 2: from there the smoothed rate ŕ "
            "stayed below t = 0.8 for l = 3 depths") in out
    code, out, _ = run(capsys, "screen-status", path, "--topic", "T", "--screening", "pool: P")
    assert code == 0 and "Hypergeometric" not in out and "stop:" not in out
    assert ("Pool “P” decides when to stop (variable-depth pooling): stop at depth 2; "
            "critical depth k_cr = 2") in out
    code, out, _ = run(capsys, "screen-status", path, "--topic", "T", "--screening", "pool: P",
                       "--json")
    document = json.loads(out)
    assert document["stopping"] == [] and document["pool"].startswith("Pool “P”")
