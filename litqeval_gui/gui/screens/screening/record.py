"""The record being screened: the title, its metadata grouped in a table (authors,
published, DOI and PMID, keywords, the lists it is in) and the abstract, with the include
and exclude terms highlighted (core :func:`highlight_spans`, two colours)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextBrowser, QWidget

from litqeval_gui.core.records.model import Record
from litqeval_gui.core.screening.ranking.highlight import INCLUDE, highlight_spans

INCLUDE_COLOUR = "#b7eb8f"  # green: an include term
EXCLUDE_COLOUR = "#ffb3b3"  # red: an exclude term
TEXT_COLOUR = "#000000"  # on either background, in light and dark themes


def highlighted(text: str, include: Sequence[str], exclude: Sequence[str]) -> str:
    """``text`` as HTML with each term match in a coloured ``<span>``."""
    parts, at = [], 0
    for span in highlight_spans(text, include, exclude):
        colour = INCLUDE_COLOUR if span.kind == INCLUDE else EXCLUDE_COLOUR
        parts.append(html.escape(text[at:span.start]))
        parts.append(f'<span style="background-color:{colour}; color:{TEXT_COLOUR}">'
                     f"{html.escape(text[span.start:span.end])}</span>")
        at = span.end
    parts.append(html.escape(text[at:]))
    return "".join(parts)


def _published(record: Record) -> str:
    """``2019 · Venue 12(3):45–67 · Publisher``."""
    issue = f"({record.issue})" if record.issue else ""
    pages = f":{record.pages}" if record.pages else ""
    where = f"{record.venue} {record.volume}{issue}{pages}".strip()
    return " · ".join(html.escape(x) for x in (str(record.year or ""), where, record.publisher)
                      if x)


ID_NAMES = {"docid": "id", "pmcid": "PMCID", "scopus_eid": "Scopus EID", "wos_ut": "WoS",
            "openalex": "OpenAlex", "dimensions": "Dimensions", "lens": "Lens"}


def _identifiers(record: Record) -> str:
    """The DOI and PMID as links (doi.org, PubMed), then the record's other identifiers."""
    doi = (f'<a href="https://doi.org/{html.escape(record.doi)}">doi:{html.escape(record.doi)}</a>'
           if record.doi else "")
    pmid = (f'<a href="https://pubmed.ncbi.nlm.nih.gov/{html.escape(record.pmid)}/">'
            f"PMID {html.escape(record.pmid)}</a>" if record.pmid else "")
    others = [f"{ID_NAMES.get(kind, kind)} {html.escape(value)}"
              for kind, value in record.ids.items() if value]
    return " · ".join(x for x in (doi, pmid, *others) if x)


NO_TEXT = ("<i>No text: the export gave neither title nor abstract. Screen it by what it "
           "has, or open its DOI or PubMed link to read it; for a TREC run's documents, "
           "import their document collection (role Document collection) to show their "
           "texts.</i>")


def record_html(record: Record, include: Sequence[str], exclude: Sequence[str],
                lists: Sequence[tuple[str, int]] = (), text_from: str = "") -> str:
    """The whole record as the screener shows it: the title, its metadata grouped in
    one table (authors, published, identifiers, keywords, the lists it is in with its
    rank there, ``lists``, the collection its text is from), then the abstract."""
    authors = "; ".join(record.authors[:12]) + (" et al." if len(record.authors) > 12 else "")
    keywords = highlighted("; ".join(record.keywords), include, exclude)
    in_lists = ", ".join(f"{html.escape(name)} (#{rank:,})" for name, rank in lists)
    rows = "".join(
        f"<tr><td style='color:gray; padding-right:10px'>{name}</td><td>{value}</td></tr>"
        for name, value in (("Authors", html.escape(authors)), ("Published", _published(record)),
                            ("Identifiers", _identifiers(record)), ("Keywords", keywords),
                            ("In lists", in_lists),
                            ("Text from", html.escape(text_from))) if value)
    abstract = highlighted(record.abstract, include, exclude) if record.abstract \
        else "<i>(no abstract)</i>" if record.title else NO_TEXT
    return (f'<h2 style="margin-bottom:4px">{highlighted(record.title or "(no title)", include, exclude)}</h2>'
            f"<table cellspacing='0' cellpadding='1'>{rows}</table>"
            f"<p style='font-size:large; line-height:150%'>{abstract}</p>")


class RecordPane(QTextBrowser):
    """The record, scrolled with Space/PageDown by the screen; a click focuses it (so a
    text field being edited lets go of the keys), Tab never does."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, openExternalLinks=True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setPlaceholderText("No record to screen.")

    def show_record(self, record: Record, include: Sequence[str], exclude: Sequence[str],
                    lists: Sequence[tuple[str, int]] = (), text_from: str = "") -> None:
        self.setHtml(record_html(record, include, exclude, lists, text_from))
        self.verticalScrollBar().setValue(0)

    def page_down(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.value() + bar.pageStep())
