"""PDFs made in a test: pages of text lines written by Qt's own ``QPdfWriter`` (a real
text layer), a damaged file and an encrypted one (a standard security handler whose
empty user password does not open it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtGui import QFont, QPageSize, QPainter, QPdfWriter

LINE = 30  # points between lines; the first line's baseline at 100 pt


def write_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """An A4 PDF at ``path`` with one page per item of ``pages``, each line at 72 pt from
    the left (needs a Qt application)."""
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setResolution(72)
    painter = QPainter(writer)
    painter.setFont(QFont("DejaVu Sans", 12))
    for number, lines in enumerate(pages):
        if number:
            writer.newPage()
        for i, line in enumerate(lines):
            painter.drawText(72, 100 + i * LINE, line)
    painter.end()
    return path


def damaged_pdf(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pa")
    return path


def encrypted_pdf(path: Path) -> Path:
    """A one-page PDF whose trailer names an /Encrypt dictionary."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
               b"<< /Filter /Standard /V 1 /R 2 /O <" + b"11" * 32 + b"> /U <" + b"22" * 32
               + b"> /P -4 >>"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    file_id = b"<00112233445566778899aabbccddeeff>"
    out += (b"trailer\n<< /Size %d /Root 1 0 R /Encrypt 4 0 R /ID [%s %s] >>\nstartxref\n%d\n"
            b"%%%%EOF\n" % (len(objects) + 1, file_id, file_id, xref))
    path.write_bytes(out)
    return path
