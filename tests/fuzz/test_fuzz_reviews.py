"""Property-based fuzzing of ``litqeval import-review``: Rayyan exports with mutated
notes and bytes, ASReview projects with a mutated project.json or results database.

Each import must end with exit 2 and one line of at most 300 characters, no traceback,
the project unchanged; or exit 0 with the project consistent and every reviewer's name
and reason stored plain.
"""

import contextlib
import io
import shutil
import sqlite3
import zipfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.lists import plain_name
from tests.core.interop.test_asreview import asreview_project
from tests.core.interop.test_rayyan import ROWS, _csv
from tests.fuzz.support import COUNTS, examples
from tests.fuzz.test_fuzz_importers import mutated
from tests.test_cli_bad_input import dump

PIECES = ['RAYYAN-INCLUSION: ', '{', '}', '"', '=>', ', ', ' | ', 'RAYYAN-LABELS: ',
          'RAYYAN-EXCLUSION-REASONS: ', 'USER-NOTES: ', '["a", "b"]', '"Kofi"', '"Ama"',
          '"Included"', '"Excluded"', '"Maybe"', '\\"', '\x00', '\x1b[31m', '\ud800', '\n',
          'x' * 5000]


def check_import(workspace: Path, source: Path, what: str) -> None:
    project = workspace / "p.litq"
    for leftover in workspace.glob("p.litq*"):
        leftover.unlink()
    shutil.copy(workspace / "base.litq", project)
    before = dump(project)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["import-review", str(project), str(source), "--topic", "T"])
    message = err.getvalue()
    if code == 2:
        COUNTS[f"reviews: {what} refused (exit 2)"] += 1
        assert message.startswith("litqeval: error: ") and message.count("\n") == 1, message
        assert len(message.rstrip("\n")) <= 300 and "Traceback" not in message, message
        assert dump(project) == before
        return
    assert code == 0, message
    COUNTS[f"reviews: {what} imported (exit 0)"] += 1
    conn = sqlite3.connect(project)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for reviewer, reason in conn.execute("SELECT reviewer, reason FROM screening_events"):
            assert reviewer == plain_name(reviewer) != "", repr(reviewer)
            assert reason is None or reason == plain_name(reason), repr(reason)
    finally:
        conn.close()


def _workspace(tmp_path_factory) -> Path:
    workspace = tmp_path_factory.mktemp("reviews")
    Project.create(workspace / "base.litq").close()
    return workspace


@given(data=st.data())
@examples(quick=40, full=1000)
def test_fuzz_rayyan_notes(tmp_path_factory, data):
    workspace = _workspace(tmp_path_factory)
    rows = [list(row) for row in ROWS]
    for row in rows[:2]:
        if data.draw(st.booleans()):
            row[12] = "".join(data.draw(st.lists(st.sampled_from(PIECES), max_size=12)))
    path = _csv(workspace / "articles.csv", rows)
    if data.draw(st.integers(0, 3)) == 0:
        path.write_bytes(data.draw(mutated(path.read_bytes())))
    check_import(workspace, path, "rayyan")


@given(data=st.data())
@examples(quick=30, full=600)
def test_fuzz_asreview_members(tmp_path_factory, data):
    workspace = _workspace(tmp_path_factory)
    version = data.draw(st.sampled_from([1, 2, 3]))
    path = asreview_project(workspace / "k.asreview", version)
    with zipfile.ZipFile(path) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    name = data.draw(st.sampled_from(sorted(members)))
    members[name] = data.draw(mutated(members[name]))
    with zipfile.ZipFile(path, "w") as archive:
        for member, content in members.items():
            archive.writestr(member, content)
    check_import(workspace, path, f"asreview {name.split('/')[-1]}")
