"""Team screening from the command line: two reviewers screen copies of one project,
export, merge, and read the conflicts and κ (issue 25 §5)."""

import json
import shutil

import pytest
from sklearn.metrics import cohen_kappa_score

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers import team
from tests.support.screening import screening_project

ADA = ["include", "include", "exclude", "exclude", "exclude", "include"]
BOB = ["include", "exclude", "exclude", "exclude", "include", "include"]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def decide(capsys, path, reviewer, labels, ids):
    for record_id, label in zip(ids, labels, strict=True):
        code, _, err = run(capsys, "screen-decide", path, "--topic", "T", "--screening", "S",
                           "--reviewer", reviewer, "--record", record_id, label)
        assert code == 0, err


def test_two_reviewers_merge_and_read_agreement(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 12)
    assert run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")[0] == 0
    with Project.open(path, readonly=True) as project:
        ids = store.items(project, store.find_screening(project, "T", "S").id)[:6]
    bob = tmp_path / "bob.litq"
    shutil.copy(path, bob)
    decide(capsys, path, "Ada", ADA, ids)
    decide(capsys, bob, "Bob", BOB, ids)
    out_file = tmp_path / "bob.jsonl"
    code, out, err = run(capsys, "screen-export-decisions", bob, "--topic", "T",
                         "--screening", "S", "--reviewer", "Bob", out_file, "--json")
    assert code == 0, err
    assert json.loads(out)["events"] == 6
    code, out, err = run(capsys, "merge", path, out_file, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["added"], report["unmatched"], report["conflicts_after"]) == (6, 0, 2)
    code, out, _ = run(capsys, "merge", path, bob, "--json")  # the whole copy: nothing new
    assert json.loads(out)["added"] == 0
    code, out, _ = run(capsys, "conflicts", path, "--topic", "T", "--screening", "S", "--json")
    conflicts = json.loads(out)["conflicts"]
    assert [c["record"] for c in conflicts] == [ids[1], ids[4]]
    assert conflicts[0]["decisions"]["Ada"]["label"] == "include"
    code, out, _ = run(capsys, "agreement", path, "--topic", "T", "--screening", "S", "--json")
    document = json.loads(out)
    (pair,) = document["pairs"]
    assert (pair["a"], pair["b"], pair["both"], pair["agree"]) == ("Ada", "Bob", 6, 4)
    # table over include/exclude/maybe: Ada include -> Bob (2 inc, 1 exc), exclude -> (1, 2)
    assert pair["table"] == [[2, 1, 0], [1, 2, 0], [0, 0, 0]]
    assert pair["kappa"] == pytest.approx(1 / 3)  # p_o = 4/6, p_e = 1/2
    assert pair["kappa"] == pytest.approx(cohen_kappa_score(ADA, BOB))
    low, high = pair["kappa_ci"]
    assert low < 1 / 3 < high
    assert (document["resolved"], document["unresolved"]) == (0, 2)
    code, out, _ = run(capsys, "agreement", path, "--topic", "T", "--screening", "S")
    assert "κ = 0.333" in out
    # PABAK over include/exclude/maybe: (3·4/6 − 1)/2; α over both: o = [[4, 2], [2, 4]],
    # n = 12: 1 − 11·4/(2·36) = 7/18
    assert "PABAK = 0.500" in out and "Krippendorff's α (2 reviewers" in out
    assert f"nominal {7 / 18:.3f}" in out
    assert document["alpha"]["nominal"]["alpha"] == pytest.approx(7 / 18)
    code, out, err = run(capsys, "screen-resolve", path, "--topic", "T", "--screening", "S",
                         "--record", ids[1], "--label", "exclude", "--by", "Cy", "--json")
    assert code == 0, err
    assert json.loads(out) == {"record": ids[1], "label": "exclude", "by": "Cy"}
    code, out, _ = run(capsys, "agreement", path, "--topic", "T", "--screening", "S", "--json")
    assert (json.loads(out)["resolved"], json.loads(out)["unresolved"]) == (1, 1)
    code, out, _ = run(capsys, "conflicts", path, "--topic", "T", "--screening", "S", "--json")
    assert json.loads(out)["conflicts"][0]["resolution"] == {"label": "exclude", "by": "Cy"}
    code, _, err = run(capsys, "screen-resolve", path, "--topic", "T", "--screening", "S",
                       "--record", "x", "--label", "exclude")
    assert code == 2 and "not in screening" in err


def test_merge_refuses_a_foreign_file_in_one_line(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    first, _ = screening_project(one, 8)
    second, _ = screening_project(two, 8)
    for path in (first, second):
        run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    with Project.open(first, readonly=True) as project:
        record = store.items(project, store.find_screening(project, "T", "S").id)[0]
    decide(capsys, first, "Ada", ["include"], [record])
    run(capsys, "screen-export-decisions", first, "--topic", "T", "--screening", "S",
        "--reviewer", "Ada", tmp_path / "ada.jsonl")
    code, out, err = run(capsys, "merge", second, tmp_path / "ada.jsonl")
    assert code == 2
    assert err.count("\n") == 1 and "another project" in err


def test_decisions_are_not_exported_onto_the_project(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 8)
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    with Project.open(path, readonly=True) as project:
        record = store.items(project, store.find_screening(project, "T", "S").id)[0]
    decide(capsys, path, "Ada", ["include"], [record])
    code, out, err = run(capsys, "screen-export-decisions", path, "--topic", "T",
                         "--screening", "S", "--reviewer", "Ada", path)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "refusing to export onto the project" in err
    with Project.open(path, readonly=True) as project:  # still the project, decision kept
        screening = store.find_screening(project, "T", "S")
        assert [e.label for e in store.events(project, screening.id)] == ["include"]


def test_screen_new_blind(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 8)
    code, _, err = run(capsys, "screen-new", path, "--topic", "T", "--screening", "S", "--blind")
    assert code == 0, err
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "open")
    with Project.open(path, readonly=True) as project:
        assert store.find_screening(project, "T", "S").blind
        assert not store.find_screening(project, "T", "open").blind
    code, out, err = run(capsys, "screen-unblind", path, "--topic", "T", "--screening", "S",
                         "--reviewer", "Ada")
    assert code == 0, err
    with Project.open(path, readonly=True) as project:
        assert not store.find_screening(project, "T", "S").blind
    code, _, err = run(capsys, "screen-unblind", path, "--topic", "T", "--screening", "S",
                       "--reviewer", "Ada")
    assert code == 2 and "not blind" in err


def _next(capsys, path, reviewer):
    code, out, err = run(capsys, "screen-status", path, "--topic", "T", "--screening", "S",
                         "--reviewer", reviewer, "--next", 2, "--json")
    assert code == 0, err
    return [n["id"] for n in json.loads(out)["next"]]


def test_dual_by_default_single_screening_when_set(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 8)
    code, _, err = run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    assert code == 0, err
    with Project.open(path, readonly=True) as project:
        ids = store.items(project, store.find_screening(project, "T", "S").id)
    decide(capsys, path, "Ada", ["include", "exclude"], ids[:2])
    decide(capsys, path, "Bob", ["exclude"], ids[2:3])
    assert _next(capsys, path, "Ada") == [ids[2], ids[3]]  # Bob's record is Ada's too
    assert _next(capsys, path, "Bob") == ids[:2]
    code, out, _ = run(capsys, "screen-settings", path, "--topic", "T", "--screening", "S")
    assert code == 0 and out == "'S': dual screening: each reviewer screens every record\n"
    code, out, err = run(capsys, "screen-settings", path, "--topic", "T", "--screening", "S",
                         "--single-screening", "--json")
    assert code == 0, err
    assert json.loads(out) == {"screening": "S", "single_screening": True, "blind": False}
    assert _next(capsys, path, "Ada") == _next(capsys, path, "Bob") == ids[3:5]
    run(capsys, "screen-settings", path, "--topic", "T", "--screening", "S", "--dual-screening")
    assert _next(capsys, path, "Ada") == [ids[2], ids[3]]

    code, out, err = run(capsys, "screen-new", path, "--topic", "T", "--screening", "one",
                         "--single-screening", "--json")
    assert code == 0 and json.loads(out)["single_screening"], err
    with Project.open(path, readonly=True) as project:
        assert team.is_single_screening(project, store.find_screening(project, "T", "one"))
    code, _, err = run(capsys, "screen-new", path, "--topic", "T", "--screening", "b",
                       "--single-screening", "--blind")
    assert code == 2 and err.count("\n") == 1 and "blind" in err
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "blind", "--blind")
    code, _, err = run(capsys, "screen-settings", path, "--topic", "T", "--screening",
                       "blind", "--single-screening")
    assert code == 2 and "is blind" in err


EVIL = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mEvil\x00"  # a terminal's title, clear, red; a NUL


def test_names_and_reasons_reach_the_terminal_as_plain_text(tmp_path, capsys):
    """A merged file's hostile name comes in plain; one an older project stored raw
    (written here straight into the table) is printed plain by conflicts and agreement."""
    path, _ = screening_project(tmp_path, 8)
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "S")
        ids = store.items(project, screening.id)[:2]
        title = store.record_title(project, ids[0])
    bob = tmp_path / "bob.litq"
    shutil.copy(path, bob)
    decide(capsys, path, "Ada", ["include", "include"], ids)
    decide(capsys, bob, "Bob", ["exclude", "include"], ids)
    run(capsys, "screen-export-decisions", bob, "--topic", "T", "--screening", "S",
        "--reviewer", "Bob", tmp_path / "bob.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "bob.jsonl").read_text().splitlines()]
    for line in lines:
        line["reviewer"] = EVIL
    (tmp_path / "evil.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, err = run(capsys, "merge", path, tmp_path / "evil.jsonl")
    assert code == 0, err
    assert "  ]0;PWNED [2J [31mEvil: 2 event(s) added" in out.splitlines()
    with Project.open(path) as project:  # as a project stored before names were plain
        project.write(lambda p: p.db.execute(
            "INSERT INTO screening_events (screening_id, record_id, kind, label, reason, "
            "reviewer, at, phase) VALUES (?, ?, 'decide', 'exclude', ?, ?, "
            "'2999-01-01T00:00:00+00:00', 'title_abstract')",
            [screening.id, ids[0], "\x1b[2Jwhy", "\x1b[31mOld\n"]) and store.DECISIONS)
    code, out, _ = run(capsys, "conflicts", path, "--topic", "T", "--screening", "S")
    assert out == (f"{ids[0]}: [31mOld exclude ([2Jwhy); Ada include; ]0;PWNED [2J [31mEvil "
                   f"exclude (unresolved)  {title[:60]}\n")
    code, out, _ = run(capsys, "agreement", path, "--topic", "T", "--screening", "S")
    assert "\x1b" not in out and "\x00" not in out
    assert out.startswith("[31mOld / Ada: 1 both decided")
    assert "\n[31mOld / ]0;PWNED [2J [31mEvil: 1 both decided" in out


def test_merge_of_a_copy_takes_the_reviewers_named(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 8)
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    with Project.open(path, readonly=True) as project:
        ids = store.items(project, store.find_screening(project, "T", "S").id)[:3]
    decide(capsys, path, "Ada", ["include"], ids[:1])
    bob = tmp_path / "bob.litq"
    shutil.copy(path, bob)
    decide(capsys, bob, "Bob", ["exclude", "include", "include"], ids)
    code, out, err = run(capsys, "merge", path, bob)
    assert (code, out) == (2, "")
    assert err == ("litqeval: error: bob.litq holds the decisions of 2 reviewers ('Ada': "
                   "none new, 'Bob': 3 new); say whose to take with --reviewer NAME (once "
                   "per reviewer)\n")
    code, out, err = run(capsys, "merge", path, bob, "--reviewer", "Bob")
    assert code == 0, err
    assert out.splitlines()[1:] == ["  Bob: 3 event(s) added"]


def test_screen_reasons_add_takes_plain_text_only(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 4)
    run(capsys, "screen-new", path, "--topic", "T", "--screening", "S")
    code, out, err = run(capsys, "screen-reasons", path, "--topic", "T", "--screening", "S",
                         "--add", "\x1b[31mred\x01", "wrong\tdesign")
    assert (code, out) == (0, "reasons of 'S': [31mred, wrong design\n"), err
    code, out, err = run(capsys, "screen-reasons", path, "--topic", "T", "--screening", "S",
                         "--add", "\x1b")
    assert (code, out) == (2, "")
    assert err == ("litqeval: error: an exclusion reason needs a text; '\\x1b' is nothing "
                   "but control characters\n")
