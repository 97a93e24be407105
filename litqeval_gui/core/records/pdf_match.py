"""Full texts as PDFs, read without Qt (PDFium through ``pypdfium2``, in the bounded PDF
child of :mod:`~.pdf_child`, never in this process), and a folder of PDFs matched to a
topic's works.

Nothing in a PDF is executed (:mod:`~.pdf_pages`). :func:`check_pdf` is the check a
full text passes before it is attached or matched; a PDF that fails it — not a PDF,
damaged, needing a password, too many pages, a page that cannot be used, too costly to
read — raises :class:`PdfRefused`, one line.

:func:`match_folder` (read-only, a job with progress and cancel) tries each PDF under a
folder in this order, the first that finds one work deciding:

1. its file name: a record's stored file attachment (RIS ``L1``/``L2``, BibTeX ``file``,
   as EndNote and Zotero export them), a DOI (``/`` written ``_`` or ``%2F``), a PMID;
2. a DOI in the document information (``/doi``, ``/Subject``, ``/Keywords``, ``/Title``);
3. a DOI on the first page;
4. the title: the information's title, the file name and runs of one to three of the
   first page's first lines against every work's title (rapidfuzz ``ratio``);
5. the first author's surname and the year in the file name.

Identifiers give certain matches (uncertain when several works share them); a title at
:data:`CERTAIN_TITLE` or above, clear of the next work by :data:`TITLE_MARGIN`, is
certain, one at :data:`UNCERTAIN_TITLE` or above uncertain, as is an author and year
naming one work; a work a file already took makes the next file's match uncertain.
Works whose titles match a PDF equally (two records of the same title) are never told
apart by the title: every one of them is an uncertain candidate, for the user to choose
(only an identifier decides). Each matched PDF's own title is kept for the user to
compare (:attr:`FolderMatch.pdf_titles`).
"""

from __future__ import annotations

import re
import stat
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from urllib.parse import unquote, urlsplit

import numpy as np
from rapidfuzz import fuzz, process

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import (
    fold_text,
    normalise_doi,
    normalise_pmid,
    normalise_title,
)
from litqeval_gui.core.records.pdf_child import (
    MAX_PAGES,
    Inspected,
    PdfChild,
    Unreadable,
    using,
)
from litqeval_gui.core.records.rows import SELECT_CONTENT, record_from_row

CERTAIN_TITLE = 95.0  # rapidfuzz ratio (0-100) of normalised titles
TITLE_MARGIN = 5.0
UNCERTAIN_TITLE = 80.0
AUTHOR_YEAR_SCORE = 0.5  # an uncertain match's score (0-1) from the first author and year
MAX_CANDIDATES = 10  # records offered for one PDF whose title several records share
_MIN_TITLE = 15  # characters of a normalised title or candidate compared at all
_FIRST_LINES = 20  # a title starts within the first page's first lines (headers above it)
_DOI_IN_TEXT = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_METADATA_KEYS = ("doi", "DOI", "Subject", "Keywords", "Title")
_AUTHOR_YEAR = re.compile(r"^([^\W\d_][\w'-]*?)(?:[\s_,.-]+et[\s_.]*al\.?)?[\s_,.-]+"
                          r"((?:1[89]|20)\d\d)(?!\d)", re.IGNORECASE)
_PMID_NAME = re.compile(r"(?:pmid[\s_-]*)?(\d{5,9})", re.IGNORECASE)
_ATTACHMENT_FIELDS = ("L1", "L2", "file", "file_attachments1", "file_attachments2", "pdf-urls")


class PdfRefused(LitqError):
    """A PDF that cannot be used: not a PDF, damaged, locked by a password, too many
    pages, a page that cannot be read, or too costly to read (:mod:`~.pdf_child`)."""


HEADER_WITHIN = 1024  # bytes: where a PDF's ``%PDF-`` header must be (as readers accept it)


def check_pdf(path: Path, keys: tuple[str, ...] = (), child: PdfChild | None = None) -> Inspected:
    """The file at ``path`` checked as a full text, before anything is copied: a regular
    file with a ``%PDF-`` header that PDFium opens (in ``child``, else a PDF child of its
    own) with at most :data:`~.pdf_child.MAX_PAGES` pages, each of a usable size, the
    first one read; its document information's ``keys`` and first page's text.
    :class:`PdfRefused` (one line) when it is not."""
    path = Path(path)
    name = path.name
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise PdfRefused(f"{name}: cannot read it: it is not a regular file")
        with path.open("rb") as handle:
            head = handle.read(HEADER_WITHIN)
    except OSError as err:
        raise PdfRefused(f"{name}: cannot read it: {err.strerror or err}") from None
    if b"%PDF-" not in head:
        raise PdfRefused(f"{name}: cannot read it: it is not a PDF (no %PDF- header)")
    try:
        with using(child) as reading:
            found: Inspected = reading.ask("inspect", str(path), keys)
    except Unreadable as exc:
        raise PdfRefused(f"{name}: cannot read it: {exc.reason}") from None
    if found.count > MAX_PAGES:
        raise PdfRefused(f"{name}: it has {found.count:,} pages; a full text may have at "
                         f"most {MAX_PAGES:,}")
    if found.bad_page is not None:
        index, reason = found.bad_page
        raise PdfRefused(f"{name}: page {index + 1} cannot be used: {reason}")
    return found


def pdf_text(path: Path, max_pages: int | None = None) -> list[str]:
    """The text layer of each page of the PDF at ``path`` (the first ``max_pages``, at
    most :data:`~.pdf_child.MAX_PAGES`; lines end with ``\\n``), read in the PDF child;
    :class:`PdfRefused` when it cannot be read."""
    try:
        with PdfChild() as child:
            return child.ask("text", str(Path(path)), max_pages)
    except Unreadable as exc:
        raise PdfRefused(f"{Path(path).name}: cannot read it: {exc.reason}") from None


def find_dois(text: str) -> list[str]:
    """The DOIs written in ``text``, normalised, in order, each once."""
    found: dict[str, None] = {}
    for match in _DOI_IN_TEXT.finditer(text):
        doi = normalise_doi(match.group(0).rstrip(".,;:)]}'"))
        if doi:
            found.setdefault(doi)
    return list(found)


@dataclass(frozen=True)
class _PdfFacts:
    metadata_dois: list[str]
    text_dois: list[str]
    candidates: list[str]  # normalised strings that may be the title
    runs: list[str]  # runs of one to three of the first page's first lines, as written
    info_title: str  # the document information's title


def _facts(path: Path, child: PdfChild) -> _PdfFacts:
    checked = check_pdf(path, _METADATA_KEYS, child)
    values, first = list(checked.metadata), checked.first_text
    lines = [line.strip() for line in first.split("\n") if line.strip()][:_FIRST_LINES]
    runs = [" ".join(lines[i:i + n]) for n in (1, 2, 3) for i in range(len(lines) - n + 1)]
    texts = [values[-1], path.stem.replace("_", " "), *runs]
    candidates = [norm for norm in dict.fromkeys(map(normalise_title, texts))
                  if len(norm) >= _MIN_TITLE]
    return _PdfFacts([doi for value in values for doi in find_dois(value)],
                     find_dois(first), candidates, runs, " ".join(values[-1].split()))


def _pdf_title(facts: _PdfFacts, work_titles: list[str]) -> str:
    """The PDF's own title to show beside a match: the first page's run of lines most
    like the matched work's title (``work_titles``, normalised), else the information's
    title, else the first page's first line long enough to be a title."""
    runs = [normalise_title(run) for run in facts.runs]
    if work_titles and runs:
        best = process.extractOne(work_titles[0], runs, scorer=fuzz.ratio,
                                  score_cutoff=UNCERTAIN_TITLE)
        if best is not None:
            return facts.runs[best[2]]
    if facts.info_title:
        return facts.info_title
    return next((run for run, norm in zip(facts.runs, runs, strict=True)
                 if len(norm) >= _MIN_TITLE), "")


# ------------------------------------------------------------------------ the topic's works

def _attachment_names(raw: dict) -> list[str]:
    """Lower-cased file names of the attachments a record's original fields name (RIS
    ``L1``/``L2`` paths or ``file://`` URLs, BibTeX ``file`` lists ``desc:path:type;…``,
    EndNote ``pdf-urls``)."""
    names = []
    for key in _ATTACHMENT_FIELDS:
        value = raw.get(key)
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str):
                continue
            for part in item.split(";"):
                part = part.strip()
                if part.lower().startswith("file://"):
                    part = unquote(urlsplit(part).path)
                elif key == "file" and part.count(":") >= 2:
                    part = part.split(":", 1)[1].rsplit(":", 1)[0]  # desc:path:mime
                name = PureWindowsPath(part).name  # splits on / and \ alike
                if name.lower().endswith(".pdf"):
                    names.append(name.lower())
    return names


def _surname(author: str) -> str:
    name = author.split(",")[0] if "," in author else (author.split() or [""])[-1]
    return normalise_title(fold_text(name)).replace(" ", "")


@dataclass
class _Works:
    """One representative record per work of a topic and what identifies it."""

    by_doi: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    by_name: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    by_author_year: dict[tuple[str, int], set[int]] = field(
        default_factory=lambda: defaultdict(set))
    title_ids: list[int] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    record_of: dict[int, int] = field(default_factory=dict)  # work id → representative
    titles_of: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))


def _topic_works(project: Project, topic_id: int) -> _Works:
    works = _Works()
    seen_titles: set[tuple[int, str]] = set()
    for record_id, work_id, *content in project.db.execute(
            f"SELECT id, work_id, {SELECT_CONTENT} FROM live_records WHERE topic_id = ? "
            "ORDER BY id", [topic_id]):
        rec = record_from_row(content)
        works.record_of.setdefault(work_id, record_id)
        if rec.doi:
            works.by_doi[rec.doi].add(work_id)
            works.by_name[rec.doi.replace("/", "_")].add(work_id)
        if rec.pmid:
            works.by_name[rec.pmid].add(work_id)
        for name in _attachment_names(rec.raw):
            works.by_name[name].add(work_id)
        if rec.authors and rec.year:
            works.by_author_year[(_surname(rec.authors[0]), rec.year)].add(work_id)
        title = normalise_title(rec.title)
        if len(title) >= _MIN_TITLE and (work_id, title) not in seen_titles:
            seen_titles.add((work_id, title))
            works.title_ids.append(work_id)
            works.titles.append(title)
            works.titles_of[work_id].append(title)
    return works


# ------------------------------------------------------------------------------- matching

@dataclass(frozen=True)
class FolderMatch:
    """A folder's PDFs against a topic's works: ``certain`` (record id, path, how),
    ``uncertain`` for the user to confirm (record id, path, score 0-1, how: one entry per
    candidate record, so a PDF that matches several records equally comes once for each,
    in a row), PDFs matching no work, PDFs that could not be read with the one-line
    reason, and each matched PDF's own title (:func:`_pdf_title`)."""

    certain: list[tuple[int, Path, str]]
    uncertain: list[tuple[int, Path, float, str]]
    unmatched: list[Path]
    refused: list[tuple[Path, str]]
    pdf_titles: dict[Path, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Found:
    work_id: int
    how: str
    certain: bool
    score: float = 1.0
    tied: tuple[int, ...] = ()  # other works the title matches exactly as well


def _by_identifier(keys: list[str], table: dict[str, set[int]], how: str) -> _Found | None:
    for key in keys:
        found = table.get(key)
        if found:
            return _Found(min(found), how, len(found) == 1)
    return None


def _by_title(works: _Works, candidates: list[str]) -> _Found | None:
    if not candidates or not works.titles:
        return None
    scores = process.cdist(candidates, works.titles, scorer=fuzz.ratio, dtype=np.float32,
                           score_cutoff=UNCERTAIN_TITLE, workers=1).max(axis=0)
    best: dict[int, float] = {}
    for index in np.flatnonzero(scores):
        work_id = works.title_ids[index]
        best[work_id] = max(best.get(work_id, 0.0), float(scores[index]))
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    work_id, score = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    certain = score >= CERTAIN_TITLE and score - runner_up >= TITLE_MARGIN
    tied = tuple(other for other, other_score in ranked[1:] if other_score == score)
    how = f"title ({score:.0f} % alike)"
    if tied:
        how += f"; {len(tied) + 1} records match it equally: choose one"
    return _Found(work_id, how, certain, score / 100, tied[:MAX_CANDIDATES - 1])


def _by_author_year(works: _Works, stem: str) -> _Found | None:
    match = _AUTHOR_YEAR.match(stem)
    if not match:
        return None
    found = works.by_author_year.get((_surname(match.group(1)), int(match.group(2))), set())
    return _Found(min(found), "first author and year in the file name", False,
                  AUTHOR_YEAR_SCORE) if len(found) == 1 else None


def _match_one(works: _Works, path: Path, child: PdfChild) -> tuple[_Found | None, str]:
    """The work ``path`` is the full text of, and the PDF's own title
    (:class:`PdfRefused` when it fails :func:`check_pdf`, read in ``child``)."""
    facts = _facts(path, child)
    found = _identify(works, path, facts)
    return found, "" if found is None else _pdf_title(facts, works.titles_of[found.work_id])


def _identify(works: _Works, path: Path, facts: _PdfFacts) -> _Found | None:
    """The first way of the module's order that names a work for ``path``."""
    stem = path.stem.lower()
    pmid = _PMID_NAME.fullmatch(stem)
    name_keys = [path.name.lower(), stem, *([normalise_pmid(pmid.group(1))] if pmid else [])]
    name_doi = [doi for doi in [normalise_doi(unquote(stem))] if doi]  # '/' written %2F
    for found in (_by_identifier(name_keys, works.by_name, "file name"),
                  _by_identifier(name_doi, works.by_doi, "file name"),
                  _by_identifier(facts.metadata_dois, works.by_doi,
                                 "DOI in the PDF's information"),
                  _by_identifier(facts.text_dois, works.by_doi, "DOI on the first page")):
        if found is not None:
            return found
    by_title = _by_title(works, facts.candidates)
    by_author = _by_author_year(works, path.stem)
    if by_title is not None and by_author is not None and not by_title.tied \
            and by_title.work_id == by_author.work_id:
        return _Found(by_title.work_id, f"{by_title.how}, first author and year", True,
                      by_title.score)
    return by_title or by_author


def pdf_files(folder: Path) -> list[Path]:
    """The PDFs under ``folder`` (its subfolders too), by path; not a folder: one line."""
    folder = Path(folder)
    if not folder.is_dir():
        raise LitqError(f"{folder}: no such folder")
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())


def match_folder(project: Project, topic: str, folder: Path, token: CancelToken = NEVER,
                 progress: Callable[[Progress], object] | None = None) -> FolderMatch:
    """Match every PDF under ``folder`` to a work of ``topic`` (see the module's order);
    reads only, each file read in one PDF child. Each match names the work's first
    stored record."""
    topic_id = project.topic_id(topic)
    files = pdf_files(folder)
    works = _topic_works(project, topic_id)
    certain: list[tuple[int, Path, str]] = []
    uncertain: list[tuple[int, Path, float, str]] = []
    unmatched: list[Path] = []
    refused: list[tuple[Path, str]] = []
    pdf_titles: dict[Path, str] = {}
    taken: set[int] = set()
    with PdfChild() as child:
        for done, path in enumerate(files):
            token.raise_if_cancelled()
            if progress is not None:
                progress(Progress(done, len(files), f"Matching {path.name}"))
            try:
                found, pdf_title = _match_one(works, path, child)
            except PdfRefused as refusal:
                refused.append((path, str(refusal)))
                continue
            if found is None:
                unmatched.append(path)
                continue
            pdf_titles[path] = pdf_title
            if found.certain and found.work_id not in taken:
                certain.append((works.record_of[found.work_id], path, found.how))
            else:
                for work_id in (found.work_id, *found.tied):
                    how = found.how if work_id not in taken else \
                        f"{found.how}; another PDF matched this work too"
                    uncertain.append((works.record_of[work_id], path, found.score, how))
            if not found.tied:  # a tie claims no work until the user chooses
                taken.add(found.work_id)
    if progress is not None:
        progress(Progress(len(files), len(files), "Matched"))
    return FolderMatch(certain, uncertain, unmatched, refused, pdf_titles)
