"""Small hostile PDFs written by hand (no PDF library): the largest page box PDF allows,
an absurd one, a page tree that loops, a tree of a million shared pages, a flate bomb
(a content stream of a few MB that inflates to GBs), and a large file of zeros that is
no PDF; :func:`pages_pdf` mixes such pages with ordinary ones."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

from tests.support.fulltext_pdfs import pdf_bytes

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT = b"BT /F1 12 Tf 72 700 Td (Hostile page) Tj ET"
LETTER = b"0 0 612 792"


def _stream(data: bytes, entries: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), entries) + data + b"\nendstream"


def pages_pdf(path: Path, pages: Sequence[tuple[bytes, bytes, bytes]]) -> Path:
    """A page per (MediaBox, content stream, the stream's dictionary entries) item."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", FONT]
    for box, content, entries in pages:
        objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [" + box + b"] /Resources "
                    b"<< /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (len(objects) + 2),
                    _stream(content, entries)]
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(len(pages)))
    objects[1] = b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % len(pages)
    path.write_bytes(pdf_bytes(objects))
    return path


def one_page_pdf(path: Path, box: bytes = LETTER, content: bytes = TEXT,
                 entries: bytes = b"") -> Path:
    return pages_pdf(path, [(box, content, entries)])


def huge_page_pdf(path: Path) -> Path:
    """The largest page PDF allows, 14 400 pt a side (PDFium ignores a /UserUnit)."""
    return one_page_pdf(path, b"0 0 14400 14400")


def absurd_page_pdf(path: Path, side: int = 10**9) -> Path:
    """A page of ``side`` pt a side."""
    return one_page_pdf(path, b"0 0 %d %d" % (side, side))


def page_cycle_pdf(path: Path) -> Path:
    """A page tree whose only child is a node whose kids are the root again and a page."""
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 5 >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 5 >>",
        b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>"]))
    return path


def shared_pages_pdf(path: Path, depth: int = 6, fan: int = 10) -> Path:
    """``fan ** depth`` pages (a million) in ~1 KB: each node of the tree lists the same
    node below it ``fan`` times, down to one shared page."""
    nodes = [b"<< /Type /Pages /Kids [" + b" ".join([b"%d 0 R" % (3 + level)] * fan)
             + b"] /Count %d >>" % fan ** (depth - level) for level in range(depth)]
    path.write_bytes(pdf_bytes([b"<< /Type /Catalog /Pages 2 0 R >>", *nodes,
                                b"<< /Type /Page /MediaBox [0 0 612 792] >>"]))
    return path


def deflate_bomb(megabytes: int) -> bytes:
    """A zlib stream that inflates to ``megabytes`` MiB of spaces: one compressed MiB
    block repeated (each flushed whole, so each is the same bytes), then the checksum."""
    chunk = b" " * (1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    adler = 1
    for _ in range(megabytes):
        adler = zlib.adler32(chunk, adler)
    return (b"\x78\xda" + first + again * (megabytes - 1) + packer.flush()
            + adler.to_bytes(4, "big"))


BOMB = b"/Filter /FlateDecode "  # the entries of a bomb's stream


def flate_bomb_pdf(path: Path, megabytes: int = 1536) -> Path:
    """One page whose content stream (~1 KB per inflated MiB) inflates to ``megabytes``
    MiB."""
    return one_page_pdf(path, content=deflate_bomb(megabytes), entries=BOMB)


def zeros_file(path: Path, size: int) -> Path:
    """``size`` bytes of zeros (sparse where the file system can), named like a PDF."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path
