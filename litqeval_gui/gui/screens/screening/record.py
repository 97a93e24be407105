"""The record being screened: title, authors, year, venue, DOI link and the abstract, with
the include and exclude terms highlighted (core :func:`highlight_spans`, two colours)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtWidgets import QTextBrowser, QWidget

from litqeval_gui.core.records import Record
from litqeval_gui.core.screening.highlight import INCLUDE, highlight_spans

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


def record_html(record: Record, include: Sequence[str], exclude: Sequence[str]) -> str:
    """The whole record as the screener shows it."""
    authors = "; ".join(record.authors[:12]) + (" et al." if len(record.authors) > 12 else "")
    where = " · ".join(x for x in (str(record.year or ""), html.escape(record.venue)) if x)
    doi = (f'<a href="https://doi.org/{html.escape(record.doi)}">doi:{html.escape(record.doi)}</a>'
           if record.doi else "")
    abstract = highlighted(record.abstract, include, exclude) if record.abstract \
        else "<i>(no abstract)</i>"
    return (f'<h2 style="margin-bottom:4px">{highlighted(record.title or "(no title)", include, exclude)}</h2>'
            f"<p style='margin:2px'>{html.escape(authors)}</p>"
            f"<p style='margin:2px'>{where}{' · ' if where and doi else ''}{doi}</p>"
            f"<p style='font-size:large; line-height:140%'>{abstract}</p>")


class RecordPane(QTextBrowser):
    """The record, scrolled with Space/PageDown by the screen (never focused by Tab)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, openExternalLinks=True)
        self.setPlaceholderText("No record to screen.")

    def show_record(self, record: Record, include: Sequence[str], exclude: Sequence[str]) -> None:
        self.setHtml(record_html(record, include, exclude))
        self.verticalScrollBar().setValue(0)

    def page_down(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.value() + bar.pageStep())
