"""The record model and the normalisations every importer and the linker share.

A :class:`Record` is one entry of one imported file, with the fields LitQEval
uses and the original fields kept verbatim in ``raw``. Identifiers are stored
normalised (see :func:`normalise_id`); titles are
compared through :func:`normalise_title`.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

# Identifier kinds kept in ``Record.ids`` besides DOI and PMID.
OTHER_ID_KINDS = ("pmcid", "scopus_eid", "wos_ut", "openalex", "dimensions", "lens", "docid")

# Bibliographic details kept for citing and exporting (strings, as the export gives them;
# ``pages`` as "first-last" or an article number).
BIBLIO_FIELDS = ("volume", "issue", "pages", "publisher", "issn", "url")

MAX_FIELD_CHARS = 100_000  # longer title/abstract values are rejected as absurd


@dataclass
class Record:
    """One imported entry. ``rank`` is its 1-based position in the export."""

    title: str = ""
    abstract: str = ""
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    keywords: list[str] = field(default_factory=list)
    type: str = ""
    language: str = ""
    doi: str = ""
    pmid: str = ""
    ids: dict[str, str] = field(default_factory=dict)
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    issn: str = ""
    url: str = ""
    raw: dict[str, Any] = field(default_factory=dict)
    rank: int = 0
    score: float | None = None
    source_line: int | None = None  # line (text formats) or row number where the record starts

    def has_text(self) -> bool:
        return bool(self.title.strip() or self.abstract.strip())

    def identifiers(self) -> list[tuple[str, str]]:
        """All (kind, normalised value) pairs of this record, DOI and PMID first."""
        out = []
        if self.doi:
            out.append(("doi", self.doi))
        if self.pmid:
            out.append(("pmid", self.pmid))
        out.extend((k, v) for k, v in self.ids.items() if v)
        return out


@dataclass
class RejectedRecord:
    """A record the importer refused, with where it was and why."""

    number: int  # 1-based record number in the file
    line: int | None
    reason: str
    title: str = ""

    def describe(self, path: str) -> str:
        where = f"line {self.line}" if self.line else f"record {self.number}"
        label = f" ({self.title[:60]!r})" if self.title else ""
        return f"{path}: {where}{label}: {self.reason}"


_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|doi\s+)", re.IGNORECASE)
_DOI_SHAPE = re.compile(r"^10\.\d{4,9}/\S+$")


def normalise_doi(value: str | None) -> str:
    """Lower-cased bare DOI (``10.xxxx/...``) or ``""`` when ``value`` is not a DOI."""
    if not value:
        return ""
    doi = _DOI_PREFIX.sub("", str(value).strip()).strip().rstrip(".,;").lower()
    return doi if _DOI_SHAPE.match(doi) else ""


def normalise_pmid(value: str | None) -> str:
    """Digits of a PubMed id without leading zeros, or ``""``."""
    if value is None:
        return ""
    digits = re.sub(r"^(?:pmid:?\s*)", "", str(value).strip(), flags=re.IGNORECASE)
    digits = digits.split(".")[0] if re.fullmatch(r"\d+\.0", digits) else digits
    return digits.lstrip("0") if digits.isdigit() and digits.strip("0") else ""


PUBMED_URL = re.compile(r"(?:pubmed\.ncbi\.nlm\.nih\.gov/|ncbi\.nlm\.nih\.gov/pubmed/)(\d+)")
DIMENSIONS_ID = re.compile(r"\b(pub\.\d{6,})")


def normalise_id(kind: str, value: object) -> str:
    """Canonical form of an identifier of ``kind`` (``doi``, ``pmid`` or an OTHER_ID_KINDS),
    as importers store it and the linker compares it; ``""`` when there is none."""
    text = _cell_text(value)
    if not text:
        return ""
    if kind == "doi":
        return normalise_doi(text)
    if kind == "pmid":
        match = PUBMED_URL.search(text)
        return normalise_pmid(match.group(1) if match else text)
    if kind == "pmcid":
        match = re.search(r"(?:PMC)?(\d+)", text, re.IGNORECASE)
        return f"PMC{match.group(1)}" if match else ""
    if kind == "wos_ut":
        text = text.upper()
        return text if text.startswith("WOS:") else f"WOS:{text}"
    if kind in ("openalex", "lens"):
        return text.rstrip("/").rsplit("/", 1)[-1]
    if kind == "dimensions":
        match = DIMENSIONS_ID.search(text)
        return match.group(1) if match else text
    return text


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


_LATEX_CMD = re.compile(r"\\[a-zA-Z]+\*?\s*|\\.")
_TAGS = re.compile(r"<[^>]{0,200}>")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


_MARKUP = re.compile(r"[<&\\{}]")


def fold_text(value: str) -> str:
    """Strip HTML tags and entities, LaTeX commands and braces, and diacritics."""
    if value.isascii() and not _MARKUP.search(value):
        return value  # fast path: nothing to fold
    text = html.unescape(_TAGS.sub(" ", value))
    text = _LATEX_CMD.sub("", text).replace("{", "").replace("}", "")
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


# ASCII letters and digits to lower case, every other ASCII byte to a space: on plain
# ASCII text this is exactly ``_NON_WORD.sub(" ", text.casefold())``, three times faster.
_ASCII_WORDS = bytes(ord(chr(b).lower()) if chr(b).isalnum() else 32 for b in range(128)) \
    + bytes(range(128, 256))


def normalise_title(value: str | None) -> str:
    """Title folded for comparison: lower case, no markup, diacritics or punctuation."""
    if not value:
        return ""
    if value.isascii() and not _MARKUP.search(value):  # nothing to fold: the fast path
        return " ".join(value.encode("ascii").translate(_ASCII_WORDS).decode("ascii").split())
    return " ".join(_NON_WORD.sub(" ", fold_text(value).casefold()).split())


def page_range(first: str | None, last: str | None = None) -> str:
    """``"first-last"`` from a first and last page (``first`` alone when ``last`` is empty,
    equal or already part of ``first``)."""
    first, last = (first or "").strip(), (last or "").strip()
    if not last or last == first or "-" in first:
        return first
    return f"{first}-{last}" if first else ""


def parse_year(value: Any) -> int | None:
    """The first plausible 4-digit year (1000–2999) in ``value``, else ``None``."""
    if value is None:
        return None
    match = re.search(r"(?<!\d)([12]\d{3})(?!\d)", str(value))
    return int(match.group(1)) if match else None
