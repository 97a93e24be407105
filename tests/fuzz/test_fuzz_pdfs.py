"""Fuzzed hostile PDFs, attached and read as the reader reads them, in a driver process
whose address space is bounded (``RLIMIT_AS``, :data:`DRIVER_MEMORY`).

Each case is a PDF written by hand: pages of odd sizes (the largest PDF allows, zero,
negative, absurd, a ``/UserUnit``), page trees that share nodes (up to millions of
pages), loop or lie about their count, flate bombs in a content stream or an image
(inflated twice, too), and a real PDF with damaged bytes. The driver attaches it
(copy; the check at attach time) and reads its first pages as the reader does (open,
draw at 400 %, text, the terms' boxes, search). Each must end in an answer or one line
(no traceback, no ``MemoryError``), and the driver's own peak memory grows by less than
:data:`DRIVER_GROWTH`: what a hostile file costs, its PDF child pays (and is ended for).
"""

import functools
import json
import select
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz.support import COUNTS, FIGURES, examples
from tests.fuzz.test_fuzz_importers import mutated
from tests.support.fulltext_pdfs import pdf_bytes, write_pdf
from tests.support.hostile_pdfs import BOMB, FONT, LETTER, TEXT, deflate_bomb

DRIVER_MEMORY = 3 << 30  # bytes of address space the driver (and so each process it starts) has
# bytes the driver's peak memory may grow by past its start (which read an ordinary PDF):
# the largest page drawn, 40 megapixels, is 160 MB of pixels
DRIVER_GROWTH = 400 << 20
CASE_SECONDS = 600  # an answer per case (each call into a PDF child is bounded at 60 s)
DRIVER = r"""
import json, resource, sys, traceback
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.attachments import attach_file, detach
from litqeval_gui.core.records.pdf_child import PdfChild
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.gui.pdf.document import PdfFile
from tests.support.projects import ris_project

def reading(path, child):
    try:
        pdf = PdfFile(path, child)
    except LitqError as exc:
        return [str(exc)]
    said = []
    for index in range(min(len(pdf), 3)):
        for call in (lambda: pdf.render(index, 4.0) and "drawn",
                     lambda: pdf.term_hits(index, ["hostile"], ["page"]) and "terms"):
            try:
                said.append(call() or "none")
            except LitqError as exc:
                said.append(str(exc))
    said.append(f"{len(pdf.search('a'))} hits")
    pdf.close()
    return said

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

with ris_project(Path(sys.argv[1]), "TY  - JOUR\nTI  - A paper\nER  -\n") as project, \
        PdfChild() as child:
    reading(Path(sys.argv[3]), child)  # every module a case uses imported
    print(json.dumps({"peak": peak()}), flush=True)
    for line in sys.stdin:
        path = Path(line.strip())
        answer = {}
        try:
            try:
                attach_file(project, 1, path)
                answer["attach"] = "attached"
                detach(project, 1)
            except LitqError as exc:
                answer["attach"] = str(exc)
            answer["reader"] = reading(path, child)
        except BaseException:
            answer["error"] = traceback.format_exc()
        answer["peak"] = peak()
        print(json.dumps(answer), flush=True)
"""

BOXES = [LETTER, b"0 0 14400 14400", b"0 0 14401 10", b"0 0 0 0", b"0 0 -612 -792",
         b"0 0 1000000000 1000000000", b"0 0 99999999999999999999999999 1", b"0 0 3 3",
         b"10 10 10 900", b"0 0 612", b"0 0 1e9 1e9", b"0 0 612 792 7 7"]
PAGE_ENTRIES = [b"", b"/UserUnit 75000", b"/Rotate 90", b"/Rotate 45", b"/UserUnit -1",
                b"/CropBox [0 0 99999999 99999999]"]
COUNT_LIES = [b"0", b"-1", b"2147483648", b"1000000000000", b"1.5", b"x"]


def _answer(proc: subprocess.Popen) -> dict:
    ready, _, _ = select.select([proc.stdout], [], [], CASE_SECONDS)
    assert ready, "the driver gave no answer"
    return json.loads(proc.stdout.readline())


@pytest.fixture(scope="module")
def driver():
    """The driver, started, and its peak memory once it has read one ordinary PDF."""
    folder = Path(tempfile.mkdtemp(prefix="litq-fuzz-pdfs-"))
    first = write_pdf(folder / "first.pdf", [["An ordinary page"]])
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, str(folder), str(DRIVER_MEMORY),
                             str(first)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    yield proc, folder, _answer(proc)["peak"]
    proc.stdin.close()
    proc.wait(timeout=60)
    shutil.rmtree(folder, ignore_errors=True)


def _page(box: bytes, entries: bytes, contents: int, font: int = 3, image: int = 4) -> bytes:
    return (b"<< /Type /Page /MediaBox [" + box + b"] " + entries + b" /Resources << /Font "
            b"<< /F1 %d 0 R >> /XObject << /Im %d 0 R >> >> /Contents %d 0 R >>"
            % (font, image, contents))


def _stream(data: bytes, entries: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), entries) + data + b"\nendstream"


IMAGE = _stream(b"\x00" * 3, b"/Type /XObject /Subtype /Image /Width 1 /Height 1 "
                b"/BitsPerComponent 8 /ColorSpace /DeviceRGB ")


@st.composite
def odd_pages(draw) -> bytes:
    """One to four pages of drawn sizes and entries."""
    pages = [(draw(st.sampled_from(BOXES)), draw(st.sampled_from(PAGE_ENTRIES)))
             for _ in range(draw(st.integers(1, 4)))]
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", FONT, IMAGE, _stream(TEXT)]
    objects += [_page(box, entries, 5) for box, entries in pages]
    kids = b" ".join(b"%d 0 R" % (6 + i) for i in range(len(pages)))
    objects[1] = b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % len(pages)
    return pdf_bytes(objects)


@st.composite
def page_trees(draw) -> bytes:
    """A tree of ``depth`` nodes, each listing the next ``fan`` times (shared), the last
    listing one page or (a loop) a node above it; the counts true or lies."""
    depth, fan = draw(st.integers(1, 7)), draw(st.integers(1, 12))
    loop_to = draw(st.one_of(st.none(), st.integers(0, depth - 1)))
    lie = draw(st.one_of(st.none(), st.sampled_from(COUNT_LIES)))
    font, image, content, page = 2 + depth, 3 + depth, 4 + depth, 5 + depth
    nodes = []
    for level in range(depth):  # object 2 + level
        below = 3 + level if level + 1 < depth else page if loop_to is None else 2 + loop_to
        nodes.append(b"<< /Type /Pages /Kids [" + b" ".join([b"%d 0 R" % below] * fan)
                     + b"] /Count " + (lie or b"%d" % fan ** (depth - level)) + b" >>")
    return pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>", *nodes, FONT, IMAGE,
                      _stream(TEXT), _page(LETTER, b"", content, font, image)])


@st.composite
def bombs(draw) -> bytes:
    """A flate bomb as a page's content or as a large image it draws, inflated once or
    twice; beside an ordinary page."""
    megabytes = draw(st.sampled_from([64, 512, 1536, 4096]))
    data, entries = deflate_bomb(megabytes), BOMB
    if draw(st.booleans()):
        data, entries = zlib.compress(data, 9), b"/Filter [/FlateDecode /FlateDecode] "
    as_image = draw(st.booleans())
    side = int((megabytes << 20) ** 0.5 / 2)  # RGB pixels a side for that many bytes
    image = _stream(data, entries + b"/Type /XObject /Subtype /Image /Width %d /Height %d "
                    b"/BitsPerComponent 8 /ColorSpace /DeviceRGB " % (side, side)) \
        if as_image else IMAGE
    content = _stream(b"q 612 0 0 792 0 0 cm /Im Do Q " + TEXT) if as_image \
        else _stream(data, entries)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [7 0 R 8 0 R] /Count 2 >>", FONT, image, content,
               _stream(TEXT), _page(LETTER, b"", 5), _page(LETTER, b"", 6)]
    if draw(st.booleans()):
        objects[1] = b"<< /Type /Pages /Kids [8 0 R 7 0 R] /Count 2 >>"
    return pdf_bytes(objects)


@functools.cache
def _seed() -> bytes:
    folder = Path(tempfile.mkdtemp(prefix="litq-pdf-seed-"))
    seed = write_pdf(folder / "seed.pdf", [["Hostile page one"], ["a page two"]]).read_bytes()
    shutil.rmtree(folder, ignore_errors=True)
    return seed


@st.composite
def damaged(draw) -> bytes:
    """A real two-page PDF with a few edits to its bytes."""
    return draw(mutated(_seed()))


HOSTILE = st.one_of(odd_pages(), page_trees(), bombs(), damaged())


def _one_line(text: str) -> bool:
    return "\n" not in text and 0 < len(text) <= 400 and "Traceback" not in text


@given(HOSTILE)
@example(pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>",
                    b"<< /Type /Pages /Kids [3 0 R] /Count 5 >>",
                    b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 5 >>",
                    b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>"]))
@examples(6, 150)
def test_a_hostile_pdf_ends_in_an_answer_or_one_line_in_bounded_memory(driver, data):
    proc, folder, start = driver
    path = folder / "hostile.pdf"
    path.write_bytes(data)
    proc.stdin.write(f"{path}\n")
    proc.stdin.flush()
    answer = _answer(proc)
    assert "error" not in answer, answer["error"]
    assert answer["attach"] == "attached" or (
        _one_line(answer["attach"]) and answer["attach"].startswith("hostile.pdf"))
    assert all(_one_line(said) for said in answer["reader"]), answer["reader"]
    grown = answer["peak"] - start
    assert grown < DRIVER_GROWTH, f"the driver grew by {grown >> 20} MB"
    COUNTS["pdfs: hostile files read"] += 1
    COUNTS["pdfs: " + ("attached" if answer["attach"] == "attached" else "refused at attach")] += 1
    COUNTS["pdfs: pages that failed in one line"] += sum(
        said.startswith(("its ", "PDFium", "it ")) for said in answer["reader"])
    FIGURES["pdfs: the driver's growth (MB)"] = max(
        FIGURES.get("pdfs: the driver's growth (MB)", 0), grown / 2**20)
