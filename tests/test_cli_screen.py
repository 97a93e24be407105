"""The CLI can screen: screen-new, screen-decide (one record or a CSV of ids, DOIs and
PMIDs, checked before anything is written), screen-status, screen-random and
screen-update."""

import json

from litqeval_gui.cli import main
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import screening_features
from litqeval_gui.core.screening.ranking.queue import random_order
from litqeval_gui.core.screening.ranking.retrain import rank, retrain, stored_ranking
from tests.support.screening import labelled_records, screening_project, write_labelled_csv


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _decisions(path):
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "S")
        return [(e.record_id, e.label, e.reason, e.note, e.reviewer)
                for e in store.current_decisions(project, screening.id)], \
            store.items(project, screening.id)


def test_a_screening_made_decided_and_read_from_the_command_line(tmp_path, capsys):
    path, _labels = screening_project(tmp_path, 12)
    code, out, _ = run(capsys, "screen-new", path, "--topic", "T", "--screening", "S",
                       "--json")
    assert code == 0 and json.loads(out) == {
        "screening": "S", "topic": "T", "lists": ["L"], "records": 12,
        "labels": ["include", "exclude", "maybe"], "phase": "title_abstract", "reasons": [],
        "fulltext_of": None, "single_screening": False}
    _, items = _decisions(path)
    with Project.open(path, readonly=True) as project:
        doi = project.db.execute("SELECT doi FROM records WHERE id = ?", [items[2]]).fetchone()[0]
    code, out, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                         "--reviewer", "Ann", "--record", items[0], "include", "--note", "key")
    assert code == 0, err
    sheet = tmp_path / "decisions.csv"
    sheet.write_text(f"id,label,reason,note\n{items[1]},exclude,wrong design,\n"
                     f"https://doi.org/{doi.upper()},maybe,,ask Bo\n", encoding="utf-8")
    code, out, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                         "--reviewer", "Ann", "--csv", sheet, "--json")
    assert code == 0, err
    assert json.loads(out) == {"decided": 2, "screened": 3, "of": 12, "reviewer": "Ann"}
    decided, _ = _decisions(path)
    assert decided == [(items[0], "include", "", "key", "Ann"),
                       (items[1], "exclude", "wrong design", "", "Ann"),
                       (items[2], "maybe", "", "ask Bo", "Ann")]
    code, out, _ = run(capsys, "screen-status", path, "--topic", "T", "--screening", "S",
                       "--json")
    status = json.loads(out)
    # a maybe goes on to the next phase: it counts as relevant (core/screening/log/labels.py)
    assert code == 0 and (status["records"], status["screened"], status["relevant"]) == (12, 3, 2)
    assert status["labels"] == {"include": 1, "exclude": 1, "maybe": 1}
    assert status["stopping"] and all(not rule["stop"] for rule in status["stopping"])


def test_a_bad_row_refuses_the_whole_file_with_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("LITQEVAL_REVIEWER", raising=False)
    path, _labels = screening_project(tmp_path, 6)
    with Project.open(path) as project:
        items = store.items(project, store.create_screening(project, "T", "S", ["L"]).id)
    sheet = tmp_path / "decisions.csv"
    sheet.write_text(f"{items[0]},include\n{items[1]},maybe\n10.9999/nowhere,exclude\n",
                     encoding="utf-8")
    code, _, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                       "--reviewer", "Ann", "--csv", sheet)
    assert code == 2 and "line 3" in err and "10.9999/nowhere" in err
    sheet.write_text(f"{items[0]},include\n{items[1]},relevant\n", encoding="utf-8")
    code, _, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                       "--reviewer", "Ann", "--csv", sheet)
    assert code == 2 and "line 2" in err and "'relevant'" in err
    code, _, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                       "--record", items[0], "include")
    assert code == 2 and "--reviewer" in err
    assert _decisions(path)[0] == []  # nothing was written


def test_random_phase_and_search_update_from_the_command_line(tmp_path, capsys):
    """screen-random stores the switch and screen-status serves and reads its sample;
    screen-update adds an update's new works as round 2, ranked again by the model."""
    records, labels = labelled_records(50, seed=4)
    first = write_labelled_csv(records[:30], labels[:30], tmp_path / "L.csv")
    update = write_labelled_csv(records[20:], labels[20:], tmp_path / "U.csv")
    path = tmp_path / "p.litq"
    assert run(capsys, "new", path)[0] == 0
    assert run(capsys, "import", path, first, "--topic", "T", "--role", "results",
               "--name", "L")[0] == 0
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    _, items = _decisions(path)
    sheet = tmp_path / "d.csv"
    rows = [f"{r},{'include' if i in (0, 3) else 'exclude'}" for i, r in enumerate(items[:12])]
    sheet.write_text("id,label\n" + "\n".join(rows) + "\n", encoding="utf-8")
    base = ("--topic", "T", "--screening", "S")
    assert run(capsys, "screen-decide", path, *base, "--reviewer", "Ann", "--csv", sheet)[0] == 0
    code, out, err = run(capsys, "screen-random", path, *base, "--reviewer", "Ann",
                         "--seed", "5")
    assert code == 0 and "switched to random sampling after 12 decisions (seed 5)" in out, err
    code, out, _ = run(capsys, "screen-random", path, *base, "--reviewer", "Ann")
    assert code != 0 and "already switched" in out + _
    code, out, _ = run(capsys, "screen-status", path, *base, "--next", "3", "--json")
    status = json.loads(out)
    drawn = [r for r in random_order(items, 5).records if r not in items[:12]]
    assert [n["id"] for n in status["next"]] == drawn[:3]
    assert status["random_phase"]["seed"] == 5 and status["random_phase"]["screened_before"] == 12
    sample = tmp_path / "s.csv"
    sample.write_text("id,label\n" + "".join(f"{r},exclude\n" for r in drawn[:5]),
                      encoding="utf-8")
    run(capsys, "screen-decide", path, *base, "--reviewer", "Ann", "--csv", sample)
    status = json.loads(run(capsys, "screen-status", path, *base, "--json")[1])
    rule = next(s for s in status["stopping"] if s["rule"] == "random_sample")
    assert rule["evidence"]["phase"] == "random" and rule["evidence"]["sample_size"] == 5
    assert status["estimate"]["recall"] == 1.0  # 2 found, none in the sample: K̂ = 0
    assert status["estimate"]["low"] < 1.0
    code, out, _ = run(capsys, "screen-status", path, *base)
    assert "random sampling since" in out and "5 drawn" in out

    assert run(capsys, "import", path, update, "--topic", "T", "--role", "results",
               "--name", "U")[0] == 0
    with Project.open(path) as project:  # the screening is ranked by a model
        screening = store.find_screening(project, "T", "S")
        assert run_job(retrain(project, screening, run_job(
            screening_features(project, screening)), "logistic")) is not None
    code, out, err = run(capsys, "screen-update", path, *base, "--list", "U", "--reviewer",
                         "Ann", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["ranked_by"] == "logistic"
    decided_copies = sum(r in set(items[:12]) | set(drawn[:5]) for r in items[20:30])
    assert (report["works"], report["added"], report["round"]) == (30, 20, 2)
    assert report["already_screened"] == decided_copies
    assert report["already_queued"] == 10 - decided_copies
    status = json.loads(run(capsys, "screen-status", path, *base, "--next", "20", "--json")[1])
    assert status["round"] == {"number": 2, "records": 20, "screened": 0, "relevant": 0}
    assert status["random_phase"] is None and status["records"] == 50
    assert status["rounds"] == [
        {"round": 1, "list_name": None, "items": 30, "screened": 17, "relevant": 2},
        {"round": 2, "list_name": "U", "items": 20, "screened": 0, "relevant": 0}]
    out = run(capsys, "screen-status", path, *base)[1]
    assert "round 2 (U): 0 of 20 screened" in out and "read round 2 alone" in out
    with Project.open(path, readonly=True) as project:
        new = {r for (r,) in project.db.execute(
            "SELECT record_id FROM screening_items WHERE round = 2")}
    assert {n["id"] for n in status["next"]} == new  # round 2 is served first
    with Project.open(path, readonly=True) as project:
        ranking = stored_ranking(project, store.find_screening(project, "T", "S").id)
    assert new <= set(ranking.records) and [n["id"] for n in status["next"]] == \
        [r for r in ranking.records if r in new]  # in the new ranking's order


def test_screen_rank_ranks_as_the_screener_and_status_follows_it(tmp_path, capsys):
    """screen-rank stores the ranking the decisions give (the core function the screener
    calls); screen-status --next then serves the undecided records in its order."""
    path, _ = screening_project(tmp_path, 40, 0.2, seed=6)
    base = ("--topic", "T", "--screening", "S")
    run(capsys, "screen-new", path, *base)
    _, items = _decisions(path)
    code, out, _ = run(capsys, "screen-rank", path, *base, "--json")
    assert code == 0 and json.loads(out) == {"screening": "S", "ranked_by": None, "labels": 0,
                                             "records": 40}
    sheet = tmp_path / "d.csv"
    sheet.write_text(f"id,label\n{items[0]},include\n{items[1]},exclude\n", encoding="utf-8")
    run(capsys, "screen-decide", path, *base, "--reviewer", "Ann", "--csv", sheet)
    code, out, err = run(capsys, "screen-rank", path, *base)
    assert code == 0 and "40 records ranked by logistic from 2 decisions" in out, err
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "S")
        stored = stored_ranking(project, screening.id)
        expected = rank(run_job(screening_features(project, screening)),
                        store.current_decisions(project, screening.id), screening.scheme)
    assert stored.records == expected.records and stored.labels == 2
    status = json.loads(run(capsys, "screen-status", path, *base, "--next", "5", "--json")[1])
    assert [n["id"] for n in status["next"]] == list(stored.records[:5])
    assert not set(stored.records[:5]) & {items[0], items[1]}
