"""A record's details as HTML (its fields, provenance and links) for a detail pane,
shared by the screens that show one record, and how such a pane wraps its lines."""

from __future__ import annotations

import html

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QTextEdit

from litqeval_gui.core.records.queries import RecordDetail

# lines break between words; a word is broken only when it is longer than a whole line
DETAIL_WRAP = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
# a field's name stays on one line (Qt's rich text reads this style, not ``nowrap``)
_TH = "<th align=left style='white-space:nowrap'>"


def wrap_at_words(pane: QTextEdit) -> QTextEdit:
    """Make ``pane`` (a detail pane) wrap at the pane's width by :data:`DETAIL_WRAP`."""
    pane.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
    pane.setWordWrapMode(DETAIL_WRAP)
    return pane


def doi_url(doi: str) -> QUrl:
    return QUrl("https://doi.org/" + QUrl.toPercentEncoding(doi, b"/").data().decode())


def detail_html(detail: RecordDetail) -> str:
    """The record, its provenance and its links as HTML for the detail pane (a field's
    name never wraps: its value takes the rest of the line)."""
    e = html.escape
    rec = detail.record
    facts = [("Authors", "; ".join(rec.authors)),
             ("Year", "" if rec.year is None else str(rec.year)),
             ("Venue", rec.venue), ("Type", rec.type), ("Language", rec.language),
             ("Keywords", "; ".join(rec.keywords))]
    facts += sorted(rec.ids.items())
    rows = "".join(f"<tr>{_TH}{e(k)}&nbsp;&nbsp;</th><td>{e(v)}</td></tr>"
                   for k, v in facts if v)
    if rec.pmid:
        link = f"https://pubmed.ncbi.nlm.nih.gov/{rec.pmid}/"
        rows += (f"<tr>{_TH}PMID&nbsp;&nbsp;</th>"
                 f"<td><a href='{e(link)}'>{e(rec.pmid)}</a></td></tr>")
    if rec.doi:
        link = doi_url(rec.doi).toString()
        rows += (f"<tr>{_TH}DOI&nbsp;&nbsp;</th>"
                 f"<td><a href='{e(link)}'>{e(rec.doi)}</a></td></tr>")
    parts = [f"<h3>{e(rec.title) or '<i>(no title)</i>'}</h3>",
             f"<table cellspacing=0 cellpadding=2>{rows}</table>"]
    if rec.abstract:
        parts.append(f"<p>{e(rec.abstract)}</p>")
    parts.append(f"<h4>Provenance — work {detail.work_id}</h4><ul>")
    parts += [f"<li><b>{e(o.list_name)}</b> ({e(o.role)}), rank {o.rank}<br>"
              f"{e(_source(o.file_name, o.source_line))}"
              f"{', ' + e(o.database) if o.database else ''}</li>"
              for o in detail.occurrences]
    parts.append("</ul><h4>Links</h4>")
    if detail.links:
        parts.append("<ul>" + "".join(
            f"<li>record #{other}: {e(method)}, score {score:.2f}, {e(status)}</li>"
            for other, method, score, status in detail.links) + "</ul>")
    else:
        parts.append("<p>No other record was matched to this one.</p>")
    return "".join(parts)


def _source(file_name: str, line: int | None) -> str:
    return file_name if line is None else f"{file_name}, line {line}"
