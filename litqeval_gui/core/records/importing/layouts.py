"""The column headers of each database's table exports, and how a header maps to fields.

A :class:`Layout` names a database's export by signature headers and lists, per record
field, the header names it uses (first present wins). Headers follow the real exports
of Dimensions, Scopus, Web of Science (tab-delimited), OpenAlex, PubMed and Lens; any
other table gets :data:`GENERIC`. Besides the record fields a layout may name helper
columns: ``page_end`` (the last page when ``pages`` holds the first), ``article_no``
(used when there are no pages) and ``citation`` (PubMed's "BMJ. 2021;372:n71").

A generic ``id`` column says nothing about what it holds; :func:`infer_id_kind` reads its
values (``pub.…`` Dimensions, ``W…`` or an OpenAlex URL, ``2-s2.0-…`` Scopus EID,
``WOS:…`` Web of Science UT). PMIDs are plain numbers: only a header says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.records.model import BIBLIO_FIELDS, OTHER_ID_KINDS

FIELDS = ("title", "abstract", "authors", "year", "venue", "keywords", "doi", "pmid", "type",
          "language", *OTHER_ID_KINDS, *BIBLIO_FIELDS)
HELPERS = ("page_end", "article_no", "citation")  # columns that only help fill fields


@dataclass(frozen=True)
class Layout:
    """One database's export: ``signatures`` (any one whose headers are all present, lower
    case) and, per field, candidate headers; ``sep`` splits author and keyword lists."""

    database: str
    signatures: tuple[tuple[str, ...], ...]
    columns: dict[str, tuple[str, ...]]
    sep: str = ";"


_COMMON = {"title": ("title",), "abstract": ("abstract",), "doi": ("doi",)}
LAYOUTS = (
    Layout("lens", (("lens id",),), {
        **_COMMON, "authors": ("author/s",), "year": ("publication year", "date published"),
        "venue": ("source title",), "keywords": ("keywords",), "pmid": ("pmid",),
        "pmcid": ("pmcid",), "type": ("publication type",), "lens": ("lens id",),
        "volume": ("volume",), "issue": ("issue number",), "pages": ("start page",),
        "page_end": ("end page",), "publisher": ("publisher",), "issn": ("issns",),
        "url": ("external url", "source urls")}),
    Layout("dimensions", (("publication id",), ("dimensions id",), ("pubyear",)), {
        **_COMMON, "authors": ("authors",),
        "year": ("pubyear", "publication year", "publication date", "year"),
        "venue": ("source title", "anthology title"), "keywords": ("mesh terms",),
        "pmid": ("pmid",), "pmcid": ("pmcid",), "type": ("publication type", "document type"),
        "dimensions": ("publication id", "dimensions id"), "volume": ("volume",),
        "issue": ("issue",), "pages": ("pagination",), "publisher": ("publisher",),
        "issn": ("issn",), "url": ("source linkout", "dimensions url")}),
    Layout("scopus", (("eid",),), {
        **_COMMON, "authors": ("authors", "author full names"), "year": ("year",),
        "venue": ("source title",), "keywords": ("author keywords", "index keywords"),
        "pmid": ("pubmed id",), "type": ("document type",),
        "language": ("language of original document",), "scopus_eid": ("eid",),
        "volume": ("volume",), "issue": ("issue",), "pages": ("page start",),
        "page_end": ("page end",), "article_no": ("art. no.",), "publisher": ("publisher",),
        "issn": ("issn",), "url": ("link",)}),
    Layout("wos", (("pt", "ut"),), {
        "title": ("ti",), "abstract": ("ab",), "authors": ("au", "af"), "year": ("py",),
        "venue": ("so",), "keywords": ("de", "id"), "doi": ("di",), "pmid": ("pm",),
        "type": ("dt",), "language": ("la",), "wos_ut": ("ut",), "volume": ("vl",),
        "issue": ("is",), "pages": ("bp",), "page_end": ("ep",), "article_no": ("ar",),
        "publisher": ("pu",), "issn": ("sn", "ei")}),
    Layout("pubmed", (("pmid", "citation", "journal/book"),), {
        "title": ("title",), "authors": ("authors",), "year": ("publication year",),
        "venue": ("journal/book",), "doi": ("doi",), "pmid": ("pmid",), "pmcid": ("pmcid",),
        "citation": ("citation",)}, sep=","),
    Layout("openalex", (("id", "publication_year"),), {
        "title": ("display_name", "title"), "abstract": ("abstract",),
        "authors": ("authorships.author.display_name",), "year": ("publication_year",),
        "venue": ("primary_location.source.display_name", "host_venue.display_name"),
        "keywords": ("keywords.display_name", "concepts.display_name"), "doi": ("doi",),
        "pmid": ("ids.pmid",), "pmcid": ("ids.pmcid",), "type": ("type",),
        "language": ("language",), "openalex": ("id", "ids.openalex"),
        "volume": ("biblio.volume",), "issue": ("biblio.issue",),
        "pages": ("biblio.first_page",), "page_end": ("biblio.last_page",),
        "publisher": ("primary_location.source.host_organization_name",
                      "host_venue.publisher"),
        "issn": ("primary_location.source.issn_l", "host_venue.issn_l"),
        "url": ("primary_location.landing_page_url", "host_venue.url")}, sep="|"),
)
GENERIC = Layout("", (), {
    "title": ("title", "document title", "article title", "ti"), "abstract": ("abstract", "ab"),
    "authors": ("authors", "author", "au"),
    "year": ("year", "publication year", "publication_year", "pubyear", "py"),
    "venue": ("venue", "journal", "source title", "source", "publication", "so"),
    "keywords": ("keywords",), "doi": ("doi",), "pmid": ("pmid", "pubmed id", "pubmed_id"),
    "type": ("type", "document type"), "language": ("language",),
    **{kind: (kind,) for kind in OTHER_ID_KINDS},
    "docid": ("docid", "id", "doc_id", "document id", "record_id", "pub_id"),
    "volume": ("volume",), "issue": ("issue", "number"),
    "pages": ("pages", "page range", "pagination", "page start", "start page"),
    "page_end": ("page end", "end page"), "publisher": ("publisher",), "issn": ("issn",),
    "url": ("url", "link")}, sep=";|")


def choose_layout(header: Sequence[str]) -> Layout:
    """The first layout with a signature whose headers are all present, else GENERIC."""
    present = {h.strip().lower() for h in header}
    return next((lay for lay in LAYOUTS
                 if any(present.issuperset(sig) for sig in lay.signatures)), GENERIC)


def map_columns(header: Sequence[str], layout: Layout,
                overrides: dict[str, str] | None = None) -> dict[str, int]:
    """field (or helper) -> column index for ``header`` under ``layout``, with
    ``overrides`` (field -> column name, case-insensitive; an empty name unmaps)."""
    index: dict[str, int] = {}
    for i, name in enumerate(header):
        index.setdefault(name.strip().lower(), i)
    found = {}
    for fld, candidates in layout.columns.items():
        hit = next((index[c] for c in candidates if c in index), None)
        if hit is not None:
            found[fld] = hit
    for fld, column in (overrides or {}).items():
        if fld not in FIELDS:
            raise ImportRefused(f"unknown field {fld!r} in the column mapping; "
                                f"fields are: {', '.join(FIELDS)}")
        if not column:
            found.pop(fld, None)
        elif column.strip().lower() in index:
            found[fld] = index[column.strip().lower()]
        else:
            shown = ", ".join(repr(h) for h in header)
            raise ImportRefused(f"the column {column!r} mapped to {fld!r} is not in the file "
                                f"(columns found: {shown})")
    return found


ID_LABELS = {"dimensions": "Dimensions publication IDs", "openalex": "OpenAlex work IDs",
             "scopus_eid": "Scopus EIDs", "wos_ut": "Web of Science UTs"}
_ID_SHAPES = (
    ("dimensions", re.compile(r"pub\.\d+")),
    ("openalex", re.compile(r"(?:https?://(?:www\.)?openalex\.org/)?W\d+", re.IGNORECASE)),
    ("scopus_eid", re.compile(r"2-s2\.0-\d+")),
    ("wos_ut", re.compile(r"WOS:[A-Z0-9]+", re.IGNORECASE)),
)


def infer_id_kind(values: Iterable[str]) -> str:
    """The identifier kind every non-empty value of a generic id column has (see the
    module doc), else ``"docid"`` (an identifier of unknown kind)."""
    present = [v.strip() for v in values if v and v.strip()]
    for kind, shape in _ID_SHAPES:
        if present and all(shape.fullmatch(v) for v in present):
            return kind
    return "docid"
