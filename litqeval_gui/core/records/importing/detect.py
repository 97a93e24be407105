"""Format and encoding detection from a file's content (its first 64 KiB), not its name."""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.records.importing import formats
from litqeval_gui.core.records.importing.common import sniff_encoding

HEAD_BYTES = 64 * 1024
HEAD_LINES = 40  # first non-blank lines the sniffers see
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_GZIP = b"\x1f\x8b"


def detect(path: str | Path) -> tuple[str, str]:
    """``(format, encoding)`` of ``path`` judged by content; reads only the head.

    Raises :class:`ImportRefused` for a missing, empty, binary or unrecognised file, and
    for a path that is no regular file (a folder, a FIFO, a device).
    """
    fmt, encoding = inspect(path)
    if fmt is None:
        raise ImportRefused(f"{path}: not a recognised export format "
                            f"(expected {formats.labels()})")
    return fmt, encoding


def inspect(path: str | Path) -> tuple[str | None, str]:
    """Like :func:`detect` but returns ``(None, encoding)`` for readable text of unknown
    format, so that an explicitly requested format can still be tried."""
    head, complete = _read_head(path)
    if not head.strip():
        raise ImportRefused(f"{path}: the file is empty")
    binary = [fmt for fmt in formats.FORMATS if fmt.binary]
    for fmt in binary:
        if head.startswith(fmt.magic):
            return fmt.name, fmt.name
    if head.startswith(_OLE2):
        raise ImportRefused(f"{path}: this is an old binary Excel (.xls) workbook; "
                            "save it as .xlsx or CSV and import that")
    if head.startswith(_GZIP):
        raise ImportRefused(f"{path}: this file is gzip-compressed; decompress it first")
    suffix = Path(path).suffix.lower()
    for fmt in binary:
        if suffix in fmt.suffixes:
            raise ImportRefused(f"{path}: named like {fmt.label} but the content is not "
                                f"{fmt.label}; was it renamed from another format?")
    encoding = sniff_encoding(head, str(path), complete=complete)
    text = head.decode("utf-8" if encoding == "utf-8-sig" else encoding, errors="ignore")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ImportRefused(f"{path}: the file is empty")
    return sniff_format(text, str(path)), encoding


def _read_head(path: str | Path) -> tuple[bytes, bool]:
    check_input(path, ImportRefused)  # a FIFO would block, /dev/zero never end
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES + 1)
    except OSError as err:
        raise ImportRefused(f"{path}: cannot read the file ({err.strerror})") from None
    return head[:HEAD_BYTES], len(head) <= HEAD_BYTES


def sniff_format(text: str, path: str = "") -> str | None:
    """The text format of a decoded file head (the first registered format whose sniffer
    accepts its first non-blank lines), or ``None``.

    A Web of Science plain-text export, which none can read, is refused first.
    """
    lines = [line for line in text.split("\n", 2000)[:2000] if line.strip()][:HEAD_LINES]
    if not lines:
        return None
    if lines[0].startswith("FN ") and any(line.startswith("PT ") for line in lines):
        raise ImportRefused(f"{path}: this is Web of Science plain-text format; export "
                            "'Tab delimited file' or RIS instead")
    return next((fmt.name for fmt in formats.FORMATS if fmt.sniff and fmt.sniff(lines)), None)
