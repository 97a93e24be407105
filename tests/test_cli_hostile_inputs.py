"""Inputs that are not a regular file — a FIFO, a folder, ``/dev/zero``, a link to it, a
link to nothing — are refused at once by every command that reads a file, in one line
saying what the path is (not "does not exist"), and change nothing. They run in a
child process: a command that opened the FIFO would wait for a writer for ever, one
that read ``/dev/zero`` would grow without end (the timeout is only a safety net)."""

import csv
import os
from pathlib import Path

import pytest

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from tests.support.prisma import build_review
from tests.test_cli_bad_input import dump
from tests.test_cli_hostile_targets import _run_all

# each command that reads a file; IN is the file
READERS = {
    "import": ["import", "P", "IN", "--topic", "T", "--role", "results"],
    "screen-decide": ["screen-decide", "P", "--topic", "T", "--screening", "ta",
                      "--reviewer", "bo", "--csv", "IN"],
    "embed": ["embed", "P", "--topic", "T", "--backend", "precomputed", "--vectors", "IN"],
    "tar-eval qrels": ["tar-eval", "RUN", "IN"],
    "tar-eval run": ["tar-eval", "IN", "QRELS"],
    "info": ["info", "IN"],
    "merge": ["merge", "P", "IN"],
}


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return f"{path} is not a regular file (a FIFO)"


def _folder(path: Path) -> str:
    path.mkdir()
    return f"{path} is a folder"


def _to_zero(path: Path) -> str:
    path.symlink_to("/dev/zero")
    return f"{path} is a link to /dev/zero, which is not a regular file (a character device)"


def _to_nothing(path: Path) -> str:
    path.symlink_to(path.with_name("gone"))
    return f"{path} is a link to {path.with_name('gone')}, which does not exist"


KINDS = {"fifo": _fifo, "folder": _folder, "link to /dev/zero": _to_zero,
         "link to nothing": _to_nothing}


@pytest.fixture(scope="module")
def review(tmp_path_factory):
    return build_review(tmp_path_factory.mktemp("review"))


@pytest.mark.parametrize("kind", KINDS)
def test_every_reader_refuses_what_is_no_regular_file(review, tmp_path, kind):
    run, qrels = tmp_path / "a.run", tmp_path / "q.qrels"
    run.write_text("T Q0 d1 1 1.0 r\n", encoding="utf-8")
    qrels.write_text("T 0 d1 1\n", encoding="utf-8")
    fixed = {"P": str(review), "RUN": str(run), "QRELS": str(qrels)}
    argvs, messages = [], []
    for number, (name, argv) in enumerate(READERS.items()):
        if kind == "folder" and name == "tar-eval run":
            continue  # a folder of runs is read: each file in it
        given = tmp_path / f"in{number}.csv"
        messages.append(KINDS[kind](given))
        argvs.append([str(given) if part == "IN" else fixed.get(part, part) for part in argv])
    before = dump(review)
    for argv, message, result in zip(argvs, messages, _run_all(argvs), strict=True):
        assert result == (2, f"litqeval: error: {message}\n"), argv[0]
    assert dump(review) == before


def test_dev_zero_itself_is_refused_at_once(review):
    argvs = [[str(review) if part == "P" else "/dev/zero" if part == "IN" else part
              for part in READERS[name]] for name in ("import", "screen-decide", "embed")]
    for result in _run_all(argvs):
        assert result == (2, "litqeval: error: /dev/zero is not a regular file (a character "
                             "device)\n")


@pytest.fixture
def default_field_limit():
    """The csv module's field limit of a fresh process (an import in this one raises it)."""
    before = csv.field_size_limit(131072)
    yield
    csv.field_size_limit(before)


def test_a_note_longer_than_128_kb_is_taken(tmp_path, capsys, default_field_limit):
    review = build_review(tmp_path)
    note = "long note " * 14_000  # 140 000 characters: over the csv module's default
    rows = tmp_path / "decisions.csv"
    with open(rows, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["id", "label", "reason", "note"],
                                      ["13", "exclude", "", note]])
    code = cli.main(["screen-decide", str(review), "--topic", "T", "--screening", "ta",
                     "--reviewer", "bo", "--csv", str(rows)])
    assert code == 0, capsys.readouterr().err
    with Project.open(review, readonly=True) as project:
        stored = project.db.execute("SELECT note FROM screening_events WHERE reviewer = 'bo' "
                                    "AND record_id = 13").fetchone()
    assert stored == (note.strip(),)
