"""``litqeval copy``: a consistent copy of a project another process holds open, and its
refusals in one line."""

import json

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from tests.support.screening import screening_project


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_copy_of_an_open_project_holds_its_latest_decisions(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 10)
    bob = tmp_path / "bob.litq"
    with Project.open(path) as project:  # as the app holds it: locked, decisions in the -wal
        screening = store.create_screening(project, "T", "S", ["L"])
        ids = store.items(project, screening.id)[:3]
        for record in ids:
            project.write(store.decide_op(screening, record, "include", store.Context("Ada")))
        code, out, err = run(capsys, "copy", path, bob, "--json")
        assert code == 0, err
        assert json.loads(out) == {"project": str(path), "copy": str(bob),
                                   "bytes": bob.stat().st_size}
        code, out, err = run(capsys, "copy", path, tmp_path / "cy.litq")
        assert code == 0, err
        assert out.startswith(f"copied {path} to {tmp_path / 'cy.litq'}")
        assert f"litqeval merge {path} {tmp_path / 'cy.litq'}" in out
    code, out, err = run(capsys, "screen-status", bob, "--topic", "T", "--screening", "S",
                         "--json")
    assert code == 0, err
    with Project.open(bob, readonly=True) as copy:
        theirs = store.find_screening(copy, "T", "S")
        assert theirs.uuid == screening.uuid
        assert [(e.record_id, e.label) for e in store.events(copy, theirs.id)] == [
            (record, "include") for record in ids]


def test_copy_refuses_the_project_and_a_folder_in_one_line(tmp_path, capsys):
    path, _ = screening_project(tmp_path, 5)
    before = path.read_bytes()
    for target, says in ((path, "refusing to export onto the project"),
                         (tmp_path, "is a folder"),
                         (tmp_path / "gone" / "b.litq", "does not exist")):
        code, out, err = run(capsys, "copy", path, target)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and says in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()
                  if not p.name.startswith("screen.litq")) == ["L.csv"]
