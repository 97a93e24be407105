"""Hostile PDFs at attach time and in the PDF child: each refused in one line before
anything is copied (not a PDF, a page of absurd size, a page tree that loops, a million
shared pages, a flate bomb), a large copy announced first, a planted symbolic link as the
files folder (or as a copy's name in it) refused; in the child, a page drawn within the
pixel budget and a bomb costing the child, not this process."""

import hashlib
import multiprocessing
import os

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records import pdf_child
from litqeval_gui.core.records.attachments import (
    attach_file,
    attach_matches,
    files_folder,
    match_folder,
    pdf_text,
)
from litqeval_gui.core.records.pdf_child import (
    MAX_PAGES,
    RENDER_PIXELS,
    PdfChild,
    Unreadable,
    too_costly,
)
from tests.support.fulltext_pdfs import write_pdf
from tests.support.hostile_pdfs import (
    BOMB,
    LETTER,
    TEXT,
    absurd_page_pdf,
    deflate_bomb,
    flate_bomb_pdf,
    huge_page_pdf,
    one_page_pdf,
    page_cycle_pdf,
    pages_pdf,
    shared_pages_pdf,
    zeros_file,
)
from tests.support.projects import ris_project

RIS = "TY  - JOUR\nTI  - Deep learning for polyp detection in colonoscopy\nER  -\n"
SIZE = "its size (1,000,000,000 × 1,000,000,000 pt) is not a PDF page's (at most 14,400 pt a side)"


@pytest.fixture()
def project(tmp_path):
    with ris_project(tmp_path, RIS) as opened:
        yield opened


def _record(project) -> int:
    return project.db.execute("SELECT id FROM records").fetchone()[0]


def _nothing_attached(project) -> bool:
    return project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 0 \
        and not files_folder(project).exists()


HOSTILE = [
    (lambda p: zeros_file(p, 2 << 30), "cannot read it: it is not a PDF (no %PDF- header)"),
    (absurd_page_pdf, f"page 1 cannot be used: {SIZE}"),
    (page_cycle_pdf, "page 1 cannot be used: PDFium cannot read it"),
    (shared_pages_pdf, f"it has 1,000,000 pages; a full text may have at most {MAX_PAGES:,}"),
    (flate_bomb_pdf, f"cannot read it: {too_costly()}"),
]


@pytest.mark.parametrize(("make", "why"), HOSTILE,
                         ids=["zeros", "absurd", "cycle", "shared", "bomb"])
def test_a_hostile_file_is_refused_in_one_line_before_anything_is_copied(
        project, tmp_path, make, why):
    path = make(tmp_path / "hostile.pdf")
    for attach in (lambda: attach_file(project, _record(project), path),
                   lambda: attach_matches(project, [(_record(project), path)])):
        with pytest.raises(LitqError) as refused:
            attach()
        assert str(refused.value) == f"hostile.pdf: {why}"
        assert _nothing_attached(project)


def test_matching_a_folder_refuses_the_bomb_and_keeps_the_rest(project, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    flate_bomb_pdf(folder / "bomb.pdf")
    write_pdf(folder / "good.pdf", [["Deep learning for polyp detection in colonoscopy"]])
    found = match_folder(project, "T", folder)
    assert [(p.name, line) for p, line in found.refused] == [
        ("bomb.pdf", f"bomb.pdf: cannot read it: {too_costly()}")]
    assert [(rid, p.name) for rid, p, _ in found.certain] == [(_record(project), "good.pdf")]


def test_a_large_copy_is_announced_before_it_is_made(project, tmp_path):
    path = write_pdf(tmp_path / "big.pdf", [["Deep learning"]])
    with path.open("ab") as handle:  # a PDF reader skips what follows its end
        handle.truncate(path.stat().st_size + 201_000_000)
    said = []

    def notify(line):
        said.append((line, files_folder(project).exists()))

    attach_file(project, _record(project), path, notify=notify)
    assert said == [("big.pdf is 201 MB: copying it into p.litq.files", False)]
    said.clear()
    attach_file(project, _record(project), write_pdf(tmp_path / "small.pdf", [["x"]]),
                notify=notify)
    assert said == []


def test_a_planted_link_as_the_files_folder_is_refused(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, files_folder(project))
    pdf = write_pdf(tmp_path / "deep.pdf", [["Deep learning"]])
    with pytest.raises(LitqError) as refused:
        attach_file(project, _record(project), pdf)
    assert str(refused.value) == (
        f"{files_folder(project)}: the files folder is a symbolic link (to {elsewhere}); the "
        "project's copies are kept only in a real folder beside it: remove the link, or "
        "link the PDF instead of copying it")
    assert list(elsewhere.iterdir()) == []
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 0
    assert attach_file(project, _record(project), pdf, copy=False).mode == "link"


def test_a_planted_link_as_a_copys_name_is_refused(project, tmp_path):
    pdf = write_pdf(tmp_path / "deep.pdf", [["Deep learning"]])
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(pdf.read_bytes())  # the same bytes, so the copy seems made
    files_folder(project).mkdir()
    planted = files_folder(project) / f"{hashlib.sha256(pdf.read_bytes()).hexdigest()}.pdf"
    os.symlink(outside, planted)
    with pytest.raises(LitqError, match=r"the copy's name in the files folder is a symbolic "
                                        r"link \(to .*outside\.pdf\)"):
        attach_file(project, _record(project), pdf)
    assert project.db.execute("SELECT COUNT(*) FROM attachments").fetchone()[0] == 0


def test_the_child_draws_a_page_within_the_pixel_budget(tmp_path):
    with PdfChild() as child:
        handle, opened = child.open(huge_page_pdf(tmp_path / "huge.pdf"))
        assert (opened.count, opened.sizes, opened.failed) == (1, ((14400.0, 14400.0),), {})
        width, height, stride, reduced, pixels = child.on(handle, "render", 0, 4.0)
        assert reduced and width == height and 6000 < width * height <= RENDER_PIXELS
        assert len(pixels) == stride * height
        handle, _ = child.open(one_page_pdf(tmp_path / "letter.pdf"))
        assert child.on(handle, "render", 0, 1.0)[:4] == (612, 792, 612 * 4, False)


def test_a_bomb_ends_the_child_and_the_next_call_gets_a_new_one(tmp_path):
    pdf = pages_pdf(tmp_path / "mixed.pdf", [(LETTER, deflate_bomb(1536), BOMB),
                                              (LETTER, TEXT, b"")])
    with PdfChild() as child:
        handle, opened = child.open(pdf)
        assert opened.count == 2 and opened.failed == {}
        with pytest.raises(Unreadable) as refused:
            child.on(handle, "page_text", 0)
        assert refused.value.reason == too_costly()
        assert child.on(handle, "page_text", 1) == "Hostile page"  # opened again, anew


def test_a_call_that_overruns_its_time_ends_the_child(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_child, "PDF_SECONDS", 0.5)
    slow = zeros_file(tmp_path / "slow.pdf", 4 << 30)  # PDFium scans it all: 20 s or more
    with slow.open("r+b") as handle:
        handle.write(b"%PDF-1.7\n")
    with PdfChild() as child:
        with pytest.raises(Unreadable) as refused:
            child.ask("text", str(slow), None)
        assert refused.value.reason == "it takes more than 0.5 s to read"
        assert not any(p.name == "PDF check" for p in multiprocessing.active_children())
        assert child.ask("text", str(one_page_pdf(tmp_path / "x.pdf")), None) == ["Hostile page"]


def test_a_program_that_cannot_start_children_reads_pdfs_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_child, "main_importable", lambda: False)
    monkeypatch.setattr(pdf_child, "process_context", None)  # starting a child would fail
    assert pdf_text(one_page_pdf(tmp_path / "x.pdf")) == ["Hostile page"]
    with PdfChild() as child:
        handle, _ = child.open(huge_page_pdf(tmp_path / "huge.pdf"))
        width, height, stride, reduced, pixels = child.on(handle, "render", 0, 4.0)
        assert reduced and width * height <= RENDER_PIXELS and len(pixels) == stride * height
