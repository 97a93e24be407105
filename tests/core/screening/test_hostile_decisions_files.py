"""Hostile decisions files for ``litqeval merge``: each is refused in one clear line
(exit 2) and the project is unchanged. Before, a lone surrogate in a name or a note, a
position of 2**64, a year of 5 000 digits and JSON nested 10 000 deep each ended in an
internal error (exit 3)."""

import json
import shutil

import pytest

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.reviewers.exchange import export_decisions
from tests.support.screening import screening_project
from tests.test_cli_bad_input import dump


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A project with screening s of topic T and Bob's decisions file of one decision
    (its header and event line as text)."""
    folder = tmp_path_factory.mktemp("hostile")
    path, _ = screening_project(folder, 6)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        record = store.items(project, screening.id)[0]
        project.write(store.decide_op(screening, record, "include", store.Context("Bob")))
        export_decisions(project, screening, "Bob", folder / "bob.jsonl")
        project.write(lambda p: p.db.execute("DELETE FROM screening_events") and store.DECISIONS)
    header, event = (folder / "bob.jsonl").read_text(encoding="utf-8").splitlines()
    return path, header, event


def _edited(line: str, **fields) -> str:
    value = json.loads(line)
    value.update(fields)
    return json.dumps(value)  # ASCII: a lone surrogate written as its escape


def _with_year(event: str, digits: int) -> str:
    value = json.loads(event)
    value["record"]["year"] = 0
    return json.dumps(value).replace('"year": 0', '"year": ' + "1" * digits)


CASES = {
    "surrogate in the name": (
        lambda h, e: [_edited(h, reviewer="B\ud800b"), _edited(e, reviewer="B\ud800b")],
        "bob.jsonl: line 1 holds text that is not valid Unicode (a lone surrogate)"),
    "surrogate in a note": (
        lambda h, e: [h, _edited(e, note="a note \udfff")],
        "bob.jsonl: line 2 holds text that is not valid Unicode (a lone surrogate)"),
    "position 2**64": (
        lambda h, e: [h, _edited(e, position=2**64)],
        "bob.jsonl: line 2 is not a decision event (its position is not a whole number "
        "from 0 to 2**63 - 1)"),
    "year of 5000 digits": (
        lambda h, e: [h, _with_year(e, 5000)],
        "bob.jsonl: line 2 holds a number too long for a decision event"),
    "nested 10000 deep": (
        lambda h, e: [h, "[" * 10_000 + "]" * 10_000],
        "bob.jsonl: line 2 is nested too deeply for a decision event"),
    "screening not an object": (
        lambda h, e: [_edited(h, screening=[1]), e],
        "bob.jsonl: the header's screening is damaged"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_decisions_file_is_one_line_and_changes_nothing(tmp_path, capsys, files,
                                                                  case):
    template, header, event = files
    project = tmp_path / "p.litq"
    shutil.copy(template, project)
    lines, message = CASES[case]
    source = tmp_path / "bob.jsonl"
    source.write_text("\n".join(lines(header, event)) + "\n", encoding="utf-8")
    before = dump(project)
    code = cli.main(["merge", str(project), str(source)])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"litqeval: error: {message}\n")
    assert dump(project) == before


def test_a_year_below_pythons_digit_limit_merges(tmp_path, capsys, files):
    template, header, event = files
    project = tmp_path / "p.litq"
    shutil.copy(template, project)
    source = tmp_path / "bob.jsonl"
    source.write_text(f"{header}\n{_with_year(event, 4000)}\n", encoding="utf-8")
    assert cli.main(["merge", str(project), str(source)]) == 0
    assert "1 event(s) added" in capsys.readouterr().out
