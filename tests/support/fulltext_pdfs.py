"""Small PDFs written by hand for the full-text tests and the README's screenshots (no Qt,
no PDF library): pages of Helvetica text lines with a real text layer (a line is its
text, in 12 pt, or (size in pt, text)), an optional document information
dictionary (``/Title``, ``/Subject``, a custom ``/doi``…), and an ``/Encrypt``
dictionary whose empty user password does not open the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path


def _literal(text: str) -> bytes:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return b"(" + escaped.encode("latin-1", "replace") + b")"


def _shown(line: str | tuple[int, str]) -> bytes:
    """A line moved to and shown (``'``), in its own size and leading when it has one."""
    if isinstance(line, str):
        return _literal(line) + b" '"
    size, text = line
    return b"/F1 %d Tf %d TL " % (size, size + 4) + _literal(text) + b" '"


def _page_stream(lines: Sequence[str | tuple[int, str]]) -> bytes:
    body = b"BT /F1 12 Tf 14 TL 72 760 Td " + b" ".join(map(_shown, lines)) + b" ET"
    return b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"


def write_pdf(path: Path, pages: Sequence[Sequence[str | tuple[int, str]]], *,
              info: Mapping[str, str] | None = None, encrypted: bool = False) -> Path:
    """A PDF at ``path`` with one US-Letter page per item of ``pages`` (its text lines),
    ``info`` as its document information and, with ``encrypted``, a standard security
    handler that needs a password nobody knows."""
    count = len(pages)
    page_ids = [4 + 2 * i for i in range(count)]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % i for i in page_ids)
        + b"] /Count %d >>" % count,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, lines in enumerate(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                       % (page_ids[i] + 1))
        objects.append(_page_stream(lines))
    trailer = b"/Root 1 0 R"
    if info:
        objects.append(b"<< " + b" ".join(b"/" + key.encode() + b" " + _literal(value)
                                          for key, value in info.items()) + b" >>")
        trailer += b" /Info %d 0 R" % len(objects)
    if encrypted:
        objects.append(b"<< /Filter /Standard /V 1 /R 2 /O <" + b"ab" * 32
                       + b"> /U <" + b"cd" * 32 + b"> /P -4 >>")
        trailer += b" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff> " \
                   b"<00112233445566778899aabbccddeeff>]" % len(objects)
    path.write_bytes(pdf_bytes(objects, trailer))
    return path


def pdf_bytes(objects: Sequence[bytes], trailer: bytes = b"/Root 1 0 R") -> bytes:
    """A PDF file of ``objects`` (numbered from 1) with a cross-reference table and
    ``trailer``'s entries."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d " % (len(objects) + 1) + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def damaged_pdf(path: Path) -> Path:
    """A file named like a PDF that breaks off in its first object."""
    path.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pa")
    return path
