"""`litqeval prisma` and `litqeval screen-audit` end to end on the review of
:func:`tests.support.prisma.build_review`."""

import csv
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from litqeval_gui.cli import main
from litqeval_gui.cli import prisma as command
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from tests.support.prisma import build_review
from tests.support.prisma_rounds import ROUND_1, ROUND_2, build_two_rounds


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def built(tmp_path):
    return build_review(tmp_path)


def test_json_svg_and_csv(built, tmp_path, capsys):
    svg, table = tmp_path / "flow.svg", tmp_path / "flow.csv"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--json", "--svg", svg,
                         "--csv", table)
    assert code == 0, err
    document = json.loads(out)
    assert [r["round"] for r in document.pop("rounds")] == [1]  # one round
    assert document == {
        "identified": {"PubMed": 14, "Scopus": 8}, "identified_total": 22,
        "removed_before_import": 0, "duplicates_removed": 6,
        "removed_automation": 0, "removed_other": 0, "not_yet_screened": 4, "screened": 12,
        "excluded_screening": 3, "pending_screening": {}, "sought": 9,
        "pending_sought": {"not yet decided": 1}, "not_retrieved": 1, "assessed": 7,
        "pending_assessed": {}, "finished_rounds": [],
        "excluded_fulltext": {"wrong population": 2, "wrong study design": 1}, "included": 4,
        "other_methods": {"identified": {}, "sought": 0, "not_retrieved": 0, "assessed": 0,
                          "excluded": {}, "included": 0}}
    counted = {e.get("data-count") for e in ET.parse(svg).iter() if e.get("data-count")}
    assert {"identified", "screened", "sought", "assessed", "included"} <= counted
    with open(table, encoding="utf-8-sig", newline="") as handle:
        assert ["screening", "screened", "", "12"] in list(csv.reader(handle))


def test_entered_numbers_are_stored_and_shown(built, capsys):
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--removed-other", "5",
                         "--other", "Citation searching=3", "Websites=2", "--other-sought", "4",
                         "--other-not-retrieved", "1", "--other-excluded", "wrong outcome=1")
    assert code == 0, err
    assert "other methods: Citation searching 3, Websites 2; sought 4, not retrieved 1, " \
           "assessed 3, excluded 1" in out
    assert "\nstudies included: 6\n" in out
    assert "identified: PubMed 14, Scopus 8 (5 removed before import)" in out
    assert "note: 4 records not yet screened: their round is not finished" in out
    document = json.loads(run(capsys, "prisma", built, "--topic", "T", "--json")[1])
    assert (document["removed_other"], document["included"]) == (5, 6)
    run(capsys, "prisma", built, "--topic", "T", "--other")  # clears the sources only
    document = json.loads(run(capsys, "prisma", built, "--topic", "T", "--json")[1])
    assert document["other_methods"]["identified"] == {}
    assert document["other_methods"]["sought"] == 4


@pytest.mark.parametrize(("args", "message"), [
    (["--other", "Websites=two"], "--other Websites=… needs a whole number, not 'two'"),
    (["--other-sought", "1", "--other-not-retrieved", "2"],
     "more reports not retrieved than sought"),
    (["--removed-other", "-1"], "removed other must be a whole number >= 0"),
    (["--screening", "nope"], "no screening named 'nope'"),
])
def test_bad_input_is_one_line_and_changes_nothing(built, capsys, args, message):
    before = built.read_bytes()
    code, _, err = run(capsys, "prisma", built, "--topic", "T", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert built.read_bytes() == before


def test_audit(built, tmp_path, capsys):
    code, out, err = run(capsys, "screen-audit", built, "--topic", "T", "--screening", "ft",
                         tmp_path / "audit.csv")
    assert code == 0, err
    assert out == f"wrote 8 events of screening 'ft' to {tmp_path / 'audit.csv'}\n"
    with open(tmp_path / "audit.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["reason"] for r in rows][4:] == ["wrong population", "wrong population",
                                               "wrong study design", "Not retrievable"]


def test_the_command_does_not_load_qt(built):
    png = str(built.with_name("flow.png"))
    probe = ("import sys; from litqeval_gui.cli import main; "
             f"code = main(['prisma', {str(built)!r}, '--topic', 'T', '--json', '--png', {png!r}]); "
             "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt'; "
             "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_lists_are_counted_under_the_label_given(built, capsys):
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--source",
                         "update=PubMed update 2025", "--json")
    assert code == 0, err
    assert json.loads(out)["identified"] == {"PubMed": 10, "Scopus": 8,
                                             "PubMed update 2025": 4}
    run(capsys, "prisma", built, "--topic", "T", "--source", "scopus=Embase")
    identified = json.loads(run(capsys, "prisma", built, "--topic", "T", "--json")[1])[
        "identified"]
    assert identified == {"PubMed": 10, "Embase": 8, "PubMed update 2025": 4}  # both kept
    run(capsys, "prisma", built, "--topic", "T", "--source", "update=")
    identified = json.loads(run(capsys, "prisma", built, "--topic", "T", "--json")[1])[
        "identified"]
    assert identified == {"PubMed": 14, "Embase": 8}
    before = built.read_bytes()
    code, _, err = run(capsys, "prisma", built, "--topic", "T", "--source", "nope=X",
                       "--removed-other", "3")
    assert code == 2 and "no list named 'nope'" in err and built.read_bytes() == before


def test_png_and_pdf_are_drawn_in_a_child_process(built, tmp_path, capsys):
    png, pdf = tmp_path / "flow.png", tmp_path / "flow.pdf"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--png", png, "--pdf", pdf)
    assert code == 0, err
    assert out.endswith(f"wrote {png}\nwrote {pdf}\n")
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    svg = ET.parse(_svg(built, tmp_path, capsys)).getroot()
    assert (width, height) == (2 * int(float(svg.get("width"))), 2 * int(float(svg.get("height"))))
    assert pdf.read_bytes().startswith(b"%PDF-")
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--png", tmp_path / "x.jpg")
    assert (code, err) == (2, "litqeval: error: --png writes a .png file, not x.jpg\n")
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--png",
                         tmp_path / "missing" / "x.png")
    assert (code, err) == (2, f"litqeval: error: {tmp_path / 'missing' / 'x.png'}: cannot "
                              f"write the diagram (the folder {tmp_path / 'missing'} does not "
                              "exist)\n")
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--pdf", built.with_suffix(".pdf"))
    assert code == 0, err  # p.pdf beside p.litq is not the project


def test_a_failed_drawing_is_one_line(built, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(command, "render_command", lambda: [
        sys.executable, "-c", "import sys; print('noise\\nno fonts', file=sys.stderr); sys.exit(2)"])
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--png", tmp_path / "x.png")
    assert (code, out, err) == (2, "", "litqeval: error: cannot draw x.png: no fonts\n")
    bad = tmp_path / "bad.svg"
    bad.write_text("<svg", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "litqeval_gui.gui.render_svg", str(bad),
                           str(tmp_path / "y.png")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (
        2, "the diagram could not be drawn (its SVG is not valid)\n")
    assert not (tmp_path / "y.png").exists()


def _svg(built, tmp_path, capsys):
    path = tmp_path / "size.svg"
    run(capsys, "prisma", built, "--topic", "T", "--svg", path)
    return path


def test_a_grown_screening_draws_its_newest_round_and_lists_each_round(tmp_path, capsys):
    built = build_two_rounds(tmp_path)
    svg, first = tmp_path / "flow.svg", tmp_path / "first.svg"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--json", "--svg", svg)
    assert code == 0, err
    document = json.loads(out)
    for r in document["rounds"]:
        r.pop("finished_rounds")
    assert document["screened"] == 13 and document["rounds"] == [ROUND_1, ROUND_2]
    texts = {e.get("data-count"): e.text for e in ET.parse(svg).iter() if e.get("data-count")}
    assert texts["previous_included"].endswith("(n = 2)")
    assert texts["total_included"].endswith("(n = 3)")
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--round", "1", "--svg",
                         first)
    assert code == 0, err
    assert "round 2 (pubmed-2, embase-2): identified 12, duplicates 8, not yet screened 1, " \
        "screened 3, excluded 1, sought 2, assessed 2, included 1" in out
    assert "the diagram shows round 1\n" in out
    counted = {e.get("data-count") for e in ET.parse(first).iter() if e.get("data-count")}
    assert "previous_included" not in counted and "included" in counted
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--round", "3", "--svg",
                         first)
    assert code != 0 and "screening 'ta' has no round 3 (rounds 1–2)" in err


def test_a_named_full_text_draws_the_rounds_of_its_own_screening(tmp_path, capsys):
    """``--fulltext ft`` counts and draws ft's title/abstract screening (two rounds: the
    update layout), though a newer title/abstract screening of one round exists."""
    built = build_two_rounds(tmp_path)
    with Project.open(built) as project:
        store.create_screening(project, "T", "newer", ["pubmed"])
    svg = tmp_path / "flow.svg"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--fulltext", "ft",
                         "--svg", svg)
    assert code == 0, err
    assert "title/abstract screening: ta; full text: ft" in out
    assert "the diagram shows round 2 (the update layout" in out
    counted = {e.get("data-count") for e in ET.parse(svg).iter() if e.get("data-count")}
    assert "previous_included" in counted


def test_handing_back_to_the_prisma2020_package_and_asreview(built, tmp_path, capsys):
    package, labelled = tmp_path / "PRISMA.csv", tmp_path / "labelled.csv"
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--prisma2020", package)
    assert code == 0, err
    assert f"wrote {package}" in out
    with open(package, encoding="utf-8", newline="") as handle:
        rows = {r["data"]: r["n"] for r in csv.DictReader(handle)}
    assert (rows["records_screened"], rows["dbr_assessed"], rows["new_studies"]) == (
        "12", "7", "4")
    code, _, err = run(capsys, "prisma", built, "--topic", "T", "--prisma2020", built)
    assert code != 0 and "project" in err and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "screen-export", built, "--topic", "T", "--screening", "ta",
                         "--format", "asreview", labelled, "--json")
    assert code == 0, err
    assert json.loads(out) == {"exported": 16, "file": str(labelled), "warning": ""}
    with open(labelled, encoding="utf-8", newline="") as handle:
        assert [r["label_included"] for r in csv.DictReader(handle)].count("1") == 8
    code, out, _ = run(capsys, "screen-export", built, "--topic", "T", "--screening", "ta",
                       "--format", "asreview", tmp_path / "labelled.ris")
    assert code == 0 and "does not match the format csv" in out
