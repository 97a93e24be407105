"""A project of a newer schema names the schema numbers (its own, the highest this build
reads), and the version that wrote it only when that is another version."""

import sqlite3

import pytest

from litqeval_gui import __version__
from litqeval_gui.core.errors import ProjectTooNewError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.schema import SCHEMA_VERSION


@pytest.mark.parametrize(("written_by", "says"), [
    (__version__, f"this project has schema {SCHEMA_VERSION + 1}; this LitQEval GUI "
                  f"{__version__} reads schema ≤ {SCHEMA_VERSION} — please update"),
    ("9.3", f"this project has schema {SCHEMA_VERSION + 1}, written by a newer version (9.3); "
            f"this LitQEval GUI {__version__} reads schema ≤ {SCHEMA_VERSION} — please update")])
def test_a_newer_schema_is_named_by_its_number(tmp_path, written_by, says):
    path = tmp_path / "new.litq"
    Project.create(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'app_version'", [written_by])
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(ProjectTooNewError) as refused:
        Project.open(path)
    assert str(refused.value) == says
