"""The two records of a pair side by side, with what differs between them marked."""

from __future__ import annotations

import html
from difflib import SequenceMatcher

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QWidget

from litqeval_gui.core.records.matches import Match, MatchSide, id_label

ABSTRACT_CHARS = 400
SHOWN_AUTHORS = 4
MARK = '<span style="background-color:#ffd54f; color:#000000; font-weight:600">{}</span>'


def highlight_differences(a: str, b: str) -> tuple[str, str]:
    """HTML of ``a`` and ``b`` with the words that differ marked (case-insensitive match)."""
    words_a, words_b = a.split(), b.split()
    matcher = SequenceMatcher(a=[w.casefold() for w in words_a],
                              b=[w.casefold() for w in words_b], autojunk=False)
    out_a: list[str] = []
    out_b: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for words, lo, hi, out in ((words_a, i1, i2, out_a), (words_b, j1, j2, out_b)):
            if hi > lo:
                chunk = html.escape(" ".join(words[lo:hi]))
                out.append(chunk if tag == "equal" else MARK.format(chunk))
    return " ".join(out_a), " ".join(out_b)


def marked_pair(a: str, b: str, empty: str = "—") -> tuple[str, str]:
    """Whole values, both marked when they differ."""
    shown = [html.escape(v) if v else empty for v in (a, b)]
    if a != b:
        return MARK.format(shown[0]), MARK.format(shown[1])
    return shown[0], shown[1]


def identifier_lines(match: Match) -> tuple[str, str]:
    """HTML of each side's identifiers, one per line ("Dimensions pub.1…"); a kind both
    sides hold with different values is marked on both (the evidence against one work)."""
    def lines(side: MatchSide, other: MatchSide) -> str:
        out = []
        for kind, value in side.identifiers.items():
            text = f"{html.escape(id_label(kind))} {html.escape(value)}"
            differs = kind in other.identifiers and other.identifiers[kind] != value
            out.append(MARK.format(text) if differs else text)
        return "<br>".join(out) or "—"
    return lines(match.a, match.b), lines(match.b, match.a)


def authors_text(authors: list[str]) -> str:
    """The first :data:`SHOWN_AUTHORS` authors, then "et al. (n)"."""
    shown = "; ".join(authors[:SHOWN_AUTHORS])
    return shown + (f"; et al. ({len(authors)})" if len(authors) > SHOWN_AUTHORS else "")


def abstract_start(text: str) -> str:
    """The first :data:`ABSTRACT_CHARS` characters of an abstract, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= ABSTRACT_CHARS:
        return text
    return text[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " …"


class SidePanel(QGroupBox):
    """One record of the pair: title, year, identifiers, authors, venue, the start of its
    abstract and the list it comes from."""

    def __init__(self, heading: str, parent: QWidget | None = None) -> None:
        super().__init__(heading, parent)
        self.title = self._label()
        self.title.setStyleSheet("font-size: 11pt;")
        self.year = self._label()
        self.ids = self._label()
        self.authors = self._label()
        self.venue = self._label()
        self.abstract = self._label()
        self.abstract.setTextFormat(Qt.TextFormat.PlainText)
        self.source = self._label()
        form = QFormLayout(self)
        form.addRow("Title:", self.title)
        form.addRow("Year:", self.year)
        form.addRow("Identifiers:", self.ids)
        form.addRow("Authors:", self.authors)
        form.addRow("Venue:", self.venue)
        form.addRow("Abstract:", self.abstract)
        form.addRow("List:", self.source)

    @staticmethod
    def _label() -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def show_side(self, side: MatchSide, title: str, year: str, ids: str, authors: str,
                  venue: str) -> None:
        self.title.setText(title or "<i>(no title)</i>")
        self.year.setText(year)
        self.ids.setText(ids)
        self.authors.setText(authors)
        self.venue.setText(venue)
        self.abstract.setText(abstract_start(side.abstract) or "—")
        self.source.setText(f"{html.escape(side.list_name)} ({html.escape(side.role)})")


def show_pair(match: Match, side_a: SidePanel, side_b: SidePanel) -> None:
    """Both records of ``match`` in their panels, the differences marked."""
    title_a, title_b = highlight_differences(match.a.title, match.b.title)
    year_a, year_b = marked_pair(str(match.a.year or ""), str(match.b.year or ""))
    ids_a, ids_b = identifier_lines(match)
    authors_a, authors_b = highlight_differences(authors_text(match.a.authors),
                                                 authors_text(match.b.authors))
    venue_a, venue_b = marked_pair(match.a.venue, match.b.venue)
    side_a.show_side(match.a, title_a, year_a, ids_a, authors_a or "—", venue_a)
    side_b.show_side(match.b, title_b, year_b, ids_b, authors_b or "—", venue_b)
