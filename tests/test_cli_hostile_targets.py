"""Exports onto what is not a regular file: a FIFO, a character device (a copy of
``/dev/full``) or a link to ``/dev/null`` is refused at once in one line naming what it
is, and stays what it was; a link to a regular file has that file replaced and stays a
link. The FIFO cases run in a child process: a command that opened the FIFO would wait
for a reader for ever (the child's timeout is only a safety net)."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from litqeval_gui import cli
from tests.support.prisma import build_review
from tests.test_cli_bad_input import dump

# each export's command line; OUT is the target
EXPORTS = {
    "export": ["export", "P", "--topic", "T", "--list", "pubmed", "--format", "ris", "OUT"],
    "export-xlsx": ["export", "P", "--topic", "T", "--list", "pubmed", "--format", "xlsx",
                    "OUT"],
    "screen-export": ["screen-export", "P", "--topic", "T", "--screening", "ta", "--format",
                      "csv", "OUT"],
    "screen-audit": ["screen-audit", "P", "--topic", "T", "--screening", "ta", "OUT"],
    "screen-export-decisions": ["screen-export-decisions", "P", "--topic", "T",
                                "--screening", "ta", "--reviewer", "ann", "OUT"],
    "agreement": ["agreement", "P", "--topic", "T", "--screening", "ta", "--out", "OUT"],
    "prisma-svg": ["prisma", "P", "--topic", "T", "--svg", "OUT"],
    "prisma-csv": ["prisma", "P", "--topic", "T", "--csv", "OUT"],
    "prisma-png": ["prisma", "P", "--topic", "T", "--png", "OUT.png"],
    "prisma-pdf": ["prisma", "P", "--topic", "T", "--pdf", "OUT.pdf"],
    "copy": ["copy", "P", "OUT"],
    "evaluate-csv": ["evaluate", "P", "--topic", "T", "--csv", "OUT"],
    "report": ["report", "P", "--topic", "T", "OUT"],
}

CHILD = """
import contextlib, io, json, sys
from litqeval_gui import cli
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(argv)
    results.append([code, err.getvalue()])
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def review(tmp_path_factory):
    return build_review(tmp_path_factory.mktemp("review"))


def _argv(name: str, project: Path, target: Path) -> tuple[list[str], Path]:
    """The command line of export ``name`` onto ``target`` (with the suffix the command
    wants, if any) and that target."""
    out = next(part for part in EXPORTS[name] if part.startswith("OUT"))
    target = target.with_name(target.name + out[3:])
    return [str(project) if part == "P" else str(target) if part == out else part
            for part in EXPORTS[name]], target


def _run_all(argvs: list[list[str]]) -> list[tuple[int, str]]:
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(argvs)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return [tuple(result) for result in json.loads(done.stdout)]


def _device(path: Path) -> None:
    """A copy of /dev/full at ``path`` (a character device: needs the right to mknod)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making a device node needs root")


KINDS = {  # what the target is: how to make it, what the refusal says
    "fifo": (os.mkfifo, "{t} is not a regular file (a FIFO); choose another file name"),
    "device": (_device, "{t} is not a regular file (a character device); choose another "
                        "file name"),
    "link": (lambda path: path.symlink_to("/dev/null"),
             "{t} is a link to /dev/null, which is not a regular file (a character device); "
             "choose another file name"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_export_refuses_a_special_file_at_once(review, tmp_path, kind):
    make, says = KINDS[kind]
    argvs, targets = [], []
    for name in EXPORTS:
        argv, target = _argv(name, review, tmp_path / name)
        make(target)
        argvs.append(argv)
        targets.append(target)
    before = dump(review)
    results = _run_all(argvs)
    for name, target, (code, err) in zip(EXPORTS, targets, results, strict=True):
        assert (code, err) == (2, f"litqeval: error: {says.format(t=target)}\n"), name
        mode = target.lstat().st_mode
        assert {"fifo": stat.S_ISFIFO, "device": stat.S_ISCHR,
                "link": stat.S_ISLNK}[kind](mode), name  # still what it was
    assert dump(review) == before


def test_an_export_onto_a_link_replaces_the_file_it_points_to(review, tmp_path, capsys):
    real = tmp_path / "real.ris"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.ris"
    link.symlink_to(real)
    code = cli.main(_argv("export", review, link)[0])
    assert code == 0, capsys.readouterr().err
    assert link.is_symlink() and link.readlink() == real
    assert real.read_text(encoding="utf-8").startswith("TY  - ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.ris", "real.ris"]
    dangling = tmp_path / "new.ris"
    dangling.symlink_to(tmp_path / "made.ris")  # points to a new path: written there
    assert cli.main(_argv("export", review, dangling)[0]) == 0
    assert dangling.is_symlink() and (tmp_path / "made.ris").read_text().startswith("TY  - ")


def test_a_link_to_a_folder_or_a_loop_is_refused(review, tmp_path, capsys):
    (tmp_path / "folder").mkdir()
    (tmp_path / "to-folder").symlink_to(tmp_path / "folder")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for target, says in (
            ("to-folder", f"is a link to {tmp_path / 'folder'}, which is a folder; choose "
                          "another file name"),
            ("a", "is a link that cannot be followed (Too many levels of symbolic links)")):
        capsys.readouterr()
        assert cli.main(_argv("export", review, tmp_path / target)[0]) == 2
        assert capsys.readouterr().err == f"litqeval: error: {tmp_path / target} {says}\n"
    assert list((tmp_path / "folder").iterdir()) == []


def test_xlsx_into_a_missing_folder_is_one_line(review, tmp_path):
    argv, target = _argv("export-xlsx", review, tmp_path / "missing" / "out.xlsx")
    done = subprocess.run([sys.executable, "-m", "litqeval_gui.cli", *argv],
                          capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stderr) == (
        2, f"litqeval: error: {target}: cannot write the export (the folder "
           f"{target.parent} does not exist)\n")
