"""The CLI can screen: screen-new, screen-decide (one record or a CSV of ids, DOIs and
PMIDs, checked before anything is written) and screen-status."""

import json

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening import store
from tests.support.screening import screening_project


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
        "labels": ["include", "exclude", "maybe"]}
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
    # a maybe goes on to the next phase: it counts as relevant (core/screening/labels.py)
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
