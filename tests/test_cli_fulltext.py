"""`litqeval attach`, `screen-new --fulltext-of` and full-text `screen-decide` end to end:
a folder's certain matches attached, the uncertain and unreadable ones reported; one
file attached by link; a full-text screening of the includes (+ maybe); not_retrieved
accepted, an exclusion without a valid reason refused in one line."""

import json

import pytest

from litqeval_gui.cli import main
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attachment, files_folder
from litqeval_gui.core.screening.log import store
from tests.support.fulltext_pdfs import damaged_pdf, write_pdf
from tests.support.prisma import build_review


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def built(tmp_path):
    return build_review(tmp_path)


def titles(path, *indexes):
    """(record id, title) of the ta screening's items at ``indexes``."""
    with Project.open(path, readonly=True) as project:
        items = store.items(project, store.find_screening(project, "T", "ta").id)
        return [(items[i], store.record_title(project, items[i])) for i in indexes]


def test_attach_a_folder_and_one_file(built, tmp_path, capsys):
    (first, title), (second, _), (third, _) = titles(built, 0, 1, 2)
    folder = tmp_path / "pdfs"
    folder.mkdir()
    write_pdf(folder / "paper.pdf", [["Journal of Things", title]])
    write_pdf(folder / "blank.pdf", [["nothing to see"]])
    damaged_pdf(folder / "broken.pdf")
    code, out, err = run(capsys, "attach", built, "--topic", "T", "--folder", folder, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["attached"] == 1
    assert [(m["record_id"], m["how"][:5]) for m in document["certain"]] == [(first, "title")]
    assert document["unmatched"] == [str(folder / "blank.pdf")]
    assert document["refused"] == [{"path": str(folder / "broken.pdf"), "reason":
                                    "broken.pdf: cannot read it: it is damaged or not a PDF"}]
    with Project.open(built, readonly=True) as project:
        got = attachment(project, first)
        assert (got.mode, got.status, got.path.parent) == ("copy", "ok", files_folder(project))

    one = write_pdf(tmp_path / "one.pdf", [["x"]])
    code, out, err = run(capsys, "attach", built, "--topic", "T", "--record", second, one,
                         "--link")
    assert (code, out, err) == (0, f"attached one.pdf to record {second} (link: {one})\n", "")
    code, out, err = run(capsys, "attach", built, "--topic", "T", "--record", third,
                         damaged_pdf(tmp_path / "bad.pdf"))
    assert (code, out) == (2, "")
    assert err == "litqeval: error: bad.pdf: cannot read it: it is damaged or not a PDF\n"
    code, out, err = run(capsys, "attach", built, "--topic", "T", "--record", 99999, one)
    assert (code, err) == (2, "litqeval: error: topic 'T' has no record #99999\n")
    with Project.open(built, readonly=True) as project:
        assert attachment(project, second).path == one
        assert attachment(project, third) is None


def test_dry_run_attaches_nothing(built, tmp_path, capsys):
    (first, title), = titles(built, 0)
    write_pdf(tmp_path / "paper.pdf", [[title]])
    code, out, err = run(capsys, "attach", built, "--topic", "T", "--folder", tmp_path,
                         "--dry-run")
    assert code == 0, err
    assert out.startswith("would attach 1 PDF(s); 0 uncertain, 0 unmatched, 0 refused")
    with Project.open(built, readonly=True) as project:
        assert attachment(project, first) is None


def test_fulltext_screening_and_its_decisions(built, capsys):
    code, out, err = run(capsys, "screen-new", built, "--topic", "T", "--screening", "full",
                         "--fulltext-of", "ta", "--with-maybe", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert (document["records"], document["phase"], document["labels"][-1],
            document["reasons"][0], document["lists"]) == (
        9, "full_text", "not_retrieved", "wrong population", ["pubmed", "scopus", "update"])
    code, out, err = run(capsys, "screen-new", built, "--topic", "T", "--screening", "f2",
                         "--fulltext-of", "ta")
    assert (code, out) == (0, "screening 'f2' of topic 'T': 8 records passed on by 'ta'\n")
    (first, _), (second, _) = titles(built, 0, 1)
    decide = ("screen-decide", built, "--topic", "T", "--screening", "full", "--reviewer", "ann",
              "--record")
    code, out, err = run(capsys, *decide, first, "exclude")
    assert (code, out) == (2, "")
    assert err.startswith("litqeval: error: an exclusion at full text needs a reason from the "
                          "screening's list (one of: wrong population, ")
    code, out, err = run(capsys, *decide, first, "exclude", "--reason", "too long")
    assert err.startswith("litqeval: error: 'too long' is not one of the screening's reasons")
    assert run(capsys, *decide, first, "exclude", "--reason", "wrong outcome")[0] == 0
    assert run(capsys, *decide, second, "not_retrieved")[0] == 0
    code, out, err = run(capsys, "prisma", built, "--topic", "T", "--fulltext", "full", "--json")
    counts = json.loads(out)
    assert (counts["sought"], counts["not_retrieved"], counts["assessed"],
            counts["excluded_fulltext"]) == (9, 1, 1, {"wrong outcome": 1})
    assert counts["pending_sought"] == {"not yet decided": 7}
    code, out, err = run(capsys, "screen-new", built, "--topic", "T", "--screening", "f3",
                         "--with-maybe")
    assert err == "litqeval: error: --with-maybe goes with --fulltext-of SCREENING\n"


def test_reasons_are_given_shown_and_changed(built, capsys):
    code, out, err = run(capsys, "screen-new", built, "--topic", "T", "--screening", "full",
                         "--fulltext-of", "ta", "--reasons", "wrong dose", "no control group")
    assert code == 0, err
    reasons = ("screen-reasons", built, "--topic", "T", "--screening", "full")
    assert run(capsys, *reasons)[1] == "reasons of 'full': wrong dose, no control group\n"
    assert run(capsys, *reasons, "--add", "duplicate", "wrong dose")[1] == \
        "reasons of 'full': wrong dose, no control group, duplicate\n"
    code, out, err = run(capsys, *reasons, "--set", "duplicate", "--json")
    assert json.loads(out) == {"screening": "full", "reasons": ["duplicate"]}
    (first, _), = titles(built, 0)
    code, out, err = run(capsys, "screen-decide", built, "--topic", "T", "--screening", "full",
                         "--reviewer", "ann", "--record", first, "exclude", "--reason", "wrong dose")
    assert err == ("litqeval: error: 'wrong dose' is not one of the screening's reasons "
                   "(one of: duplicate)\n")


def test_attach_detach_takes_a_pdf_back(built, tmp_path, capsys):
    (first, _), (second, _) = titles(built, 0, 1)
    mine = write_pdf(tmp_path / "mine.pdf", [["mine"]])
    attach = ("attach", built, "--topic", "T")
    assert run(capsys, *attach, "--record", first, mine)[0] == 0
    assert run(capsys, *attach, "--record", second, mine, "--link")[0] == 0
    with Project.open(built, readonly=True) as project:
        copy = attachment(project, first).path
    code, out, err = run(capsys, *attach, "--detach", first)
    assert (code, out, err) == (0, f"detached the PDF of record {first} (the project's copy "
                                   f"{copy.name} deleted)\n", "")
    code, out, err = run(capsys, *attach, "--detach", second, "--json")
    assert code == 0, err
    assert json.loads(out) == {"record_id": second, "path": str(mine), "mode": "link",
                               "removed": False}
    assert mine.exists() and not copy.exists()  # the user's file stays, the copy goes
    for extra, line in ((["--detach", first], f"record #{first} has no PDF attached"),
                        (["--detach", "x"], "--detach takes a record id (a number), not 'x'"),
                        (["--detach", 99999], "topic 'T' has no record #99999"),
                        (["--detach", first, "--link"],
                         "--copy and --link go with --record or --folder, not --detach")):
        code, out, err = run(capsys, *attach, *extra)
        assert (code, out, err) == (2, "", f"litqeval: error: {line}\n")
    with Project.open(built, readonly=True) as project:
        assert attachment(project, first) is None and attachment(project, second) is None
