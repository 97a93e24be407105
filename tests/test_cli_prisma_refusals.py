"""`litqeval prisma` checks everything before it stores or writes anything: a number too
large is one line (not an internal error); a refused target, or a drawing that fails,
stores none of the numbers given and writes none of the files asked for; names with an
invalid byte or control characters, and stored reasons holding them, still make a valid
SVG (XML 1.0 forbids them: they are drawn as U+FFFD)."""

import csv
import os
import sqlite3
import sys
import xml.etree.ElementTree as ET

import pytest

from litqeval_gui.cli import main
from litqeval_gui.cli import prisma as command
from tests.support.prisma import build_review
from tests.test_cli_bad_input import dump

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def built(tmp_path):
    return build_review(tmp_path)


@pytest.mark.parametrize("args", [["--other", "X=1" + "0" * 400],
                                  ["--removed-other", "1" + "0" * 400],
                                  ["--other-sought", "1" + "0" * 400]])
def test_a_number_too_large_is_one_line(built, capsys, args):
    before = dump(built)
    code, _, err = run(capsys, "prisma", built, "--topic", "T", *args)
    assert code == 2, err
    assert err.startswith("litqeval: error: PRISMA numbers of topic 'T': ")
    assert err.endswith(" must be at most 1,000,000,000,000\n")
    assert dump(built) == before


def test_a_refused_target_stores_nothing(built, tmp_path, capsys):
    os.mkfifo(tmp_path / "fifo.csv")
    before = dump(built)
    for target, says in (
            (["--svg", tmp_path / "missing" / "x.svg"],
             f"{tmp_path / 'missing' / 'x.svg'}: cannot write the diagram (the folder "
             f"{tmp_path / 'missing'} does not exist)"),
            (["--svg", built], f"{built}: refusing to export onto the project {built} or one "
                               "of its own files; choose another file name"),
            (["--svg", tmp_path / "ok.svg", "--csv", tmp_path / "fifo.csv"],
             f"{tmp_path / 'fifo.csv'} is not a regular file (a FIFO); choose another file "
             "name")):
        code, _, err = run(capsys, "prisma", built, "--topic", "T", "--removed-other", "5",
                           "--source", "scopus=Embase", *target)
        assert (code, err) == (2, f"litqeval: error: {says}\n")
        assert dump(built) == before
    assert not (tmp_path / "ok.svg").exists()


def test_a_failed_drawing_writes_no_file_and_stores_nothing(built, tmp_path, capsys,
                                                            monkeypatch):
    monkeypatch.setattr(command, "render_command", lambda: [
        sys.executable, "-c", "import sys; print('no fonts', file=sys.stderr); sys.exit(2)"])
    files = sorted(tmp_path.iterdir())
    before = dump(built)
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--removed-other", "5",
                         "--svg", tmp_path / "d.svg", "--csv", tmp_path / "d.csv", "--png",
                         tmp_path / "d.png")
    assert (code, out, err) == (2, "", "litqeval: error: cannot draw d.png: no fonts\n")
    assert sorted(tmp_path.iterdir()) == files  # no d.svg, no d.csv, no partial file
    assert dump(built) == before


def _detail(svg_path, column: str | None = None) -> list[str]:
    """The data-detail of each counted line (of the other-methods column, or not)."""
    return [e.get("data-detail") for e in ET.parse(svg_path).iter(f"{SVG}text")
            if e.get("data-count") and e.get("data-column") == column]


def test_names_with_an_invalid_byte_or_control_characters_are_plain_text(built, tmp_path,
                                                                         capsys):
    svg, table = tmp_path / "s.svg", tmp_path / "s.csv"
    code, _, err = run(capsys, "prisma", built, "--topic", "T", "--other",
                       "X\udcff\x1b[31m=3", "--svg", svg, "--csv", table)
    assert code == 0, err
    assert _detail(svg, "other_methods")[0] == "X\ufffd [31m"
    with open(table, encoding="utf-8-sig", newline="") as handle:
        assert ["other_methods", "identified", "X\ufffd [31m", "3"] in list(csv.reader(handle))


def test_stored_reasons_with_control_characters_still_draw(built, tmp_path, capsys):
    """A reason a merged file brought in raw (written here straight into the table)."""
    with sqlite3.connect(built) as conn:
        conn.execute("UPDATE screening_events SET reason = 'wrong\x01\x1b[31m population' "
                     "WHERE reason = 'wrong population'")
    conn.close()
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--svg", svg, "--png", png)
    assert code == 0, err
    assert "wrong\ufffd\ufffd[31m population" in _detail(svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
