"""The self-test: its runner, and ``litqeval-gui --self-test`` from source."""

import io
import subprocess
import sys
from functools import partial
from pathlib import Path

from litqeval_gui import selftest
from litqeval_gui.core.records.importing import formats, parallel
from litqeval_gui.gui import selftest as gui_selftest

GUI_SCRIPT = Path(sys.executable).with_name("litqeval-gui")


def test_steps_run_in_order_and_the_first_failure_ends_the_run_naming_it():
    ran = []

    def step(name, error=None):
        def run(state):
            ran.append(name)
            if error:
                raise error
            return f"{name} done"
        return name, run

    out = io.StringIO()
    code = selftest.run([step("first"), step("second", OSError("disk on fire")), step("third")],
                        out=out)
    assert code == 1 and ran == ["first", "second"]
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ok ") and lines[0].endswith("first: first done")
    assert lines[1].startswith("FAILED  second (") and lines[1].endswith("OSError: disk on fire")
    assert lines[2:] == ["self-test failed at step 'second'", "self-test: 1 passed, 1 failed"]


def test_the_temporary_folder_is_removed_after_a_run():
    seen = []
    assert selftest.run([("look", lambda state: seen.append(state.folder) or "")],
                        out=io.StringIO()) == 0
    assert seen and not seen[0].exists()


def test_every_import_format_has_a_sample_step_core_sets_first_collections_last():
    names = [name for name, _ in selftest.STEPS]
    assert [name for name in names if name.startswith("import ")] == [
        "import ris", "import qrels", "import medline", "import bibtex", "import endnote",
        "import trec-run", "import csv", "import tsv", "import xlsx", "import jsonl",
        "import trec-doc"]
    assert sorted(selftest.SAMPLES) == sorted(formats.names())
    assert names[0] == "create project" and names[-1] == "reopen project"


def test_a_format_without_a_sample_fails_its_step_naming_it(monkeypatch):
    monkeypatch.delitem(selftest.SAMPLES, "tsv")
    out = io.StringIO()
    assert selftest.run([("import tsv", partial(selftest.import_fixture, "tsv"))], out=out) == 1
    assert "the import format 'tsv' has no sample in SAMPLES" in out.getvalue()


def test_self_test_from_source_passes_with_one_line_per_step():
    done = subprocess.run([str(GUI_SCRIPT), "--self-test"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    names = [name for name, _ in [*selftest.STEPS, *gui_selftest.STEPS]]
    assert names[-2:] == ["open main window", "open every screen on the demo project"]
    assert len(lines) == len(names) + 2
    for line, name in zip(lines, names, strict=False):
        assert line.startswith("ok ") and f" s  {name}: " in line, line
    assert lines[-2].startswith("self-test took ")
    assert lines[-1] == f"self-test: {len(names)} passed, 0 failed"
    assert f"{parallel.WORKERS} worker processes" in done.stdout  # the RIS parser's workers ran
    assert "evaluation (5 pages)" in lines[-3]  # the evaluation drew its five pages


def test_a_failing_step_exits_non_zero_naming_the_step():
    script = ("import sys\n"
              "from litqeval_gui import selftest\n"
              "def broken(state):\n"
              "    raise OSError('disk on fire')\n"
              "selftest.STEPS.insert(2, ('broken step', broken))\n"
              "from litqeval_gui.gui.app import main\n"
              "sys.exit(main(['--self-test']))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ")[0].split("  ")[-1] for line in lines[:2]] == [
        "create project", "import ris"]
    assert lines[2].startswith("FAILED  broken step (")
    assert lines[2].endswith("OSError: disk on fire")
    assert lines[3:] == ["self-test failed at step 'broken step'", "self-test: 2 passed, 1 failed"]
    project = Path(lines[0].split(": ", 1)[1])
    assert project.name == "selftest.litq" and not project.parent.exists()


def test_screening_step_reads_back_a_decision_and_its_undo():
    steps = dict(selftest.STEPS)
    out = io.StringIO()
    code = selftest.run([("create project", steps["create project"]),
                         ("import csv", steps["import csv"]),
                         ("screen, undo, read back", steps["screen, undo, read back"])], out)
    assert code == 0, out.getvalue()
    assert "decide and undo of record" in out.getvalue()
