"""The PRISMA 2020 flow diagram as SVG text, drawn from :class:`PrismaCounts` (no network,
no drawing library), and the counts as CSV.

The layout is the official PRISMA 2020 template for new reviews: phase bands on the left
(Identification, Screening, Included), the databases-and-registers column with its
boxes of removed and excluded records on the right of each step, and the other-methods
column when the user entered any of its numbers. Counts of a round after the first
(:attr:`PrismaCounts.round`, a search update) take the template for updated reviews:
a "Previous studies" column (``previous_included``: studies and reports included in
the previous version) on the left, the round's flow as the new studies' (its includes
are "New studies included in review") and a "Total studies included in review" box
(``total_included``) below, fed by both. What is pending is drawn in the box of its
stage ("pending: in conflict (n = 2)"), records not yet screened beside the records
removed before screening, and the notes below the diagram name each finished round's
stopping rule (:meth:`PrismaCounts.notes`). Each line that shows a count is a
``<text>`` with ``data-count`` (the count's name in :meth:`PrismaCounts.rows`) and
``data-detail`` (the database, source or reason; empty for the others; and
``data-column="other_methods"`` in that column), so the app can
tell which number was clicked and a test can read every number back, and an ``id``
(``count-1``, ``count-2``…) by which a renderer finds its bounds. A long line is
broken into several ``<text>`` elements (renderers differ on ``<tspan>``); the count's
attributes are on the last, which holds the "(n = …)". The SVG is always valid XML: a
character XML 1.0 forbids in a name or reason (a control character, a lone surrogate)
is drawn as U+FFFD, and so written in the CSV.
"""

from __future__ import annotations

import csv
import re
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

from litqeval_gui.core.records.exporting import check_target, escape_formula, write_whole
from litqeval_gui.core.screening.prisma.counts import PrismaCounts

SVG_NS = "http://www.w3.org/2000/svg"
BOX, GAP, COLUMN_GAP, SIDE, MARGIN = 260, 44, 56, 30, 12
LINE, PAD, ROW_GAP, HEADER = 15, 8, 34, 34
FONT = "font-family:Arial,Helvetica,'Liberation Sans','DejaVu Sans',sans-serif;font-size:11px"
CHARS = 38  # characters per line in a box (11 px DejaVu Sans, the widest, about 6.4 px)
INCLUDED_HEIGHT = 64  # so that the band's "Included" fits beside the box
DATABASES_FILL, OTHER_FILL, BAND_FILL = "#ffc000", "#d9d9d9", "#9dc3e6"

Line = tuple[str, str, str]  # text, count name ("" for a heading), detail
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    """``value`` with each character XML 1.0 forbids replaced by U+FFFD (module
    docstring)."""
    return _NOT_XML.sub("\ufffd", value)


def _n(value: int) -> str:
    return f"(n = {value:,})"


def _count(label: str, name: str, value: int, detail: str = "") -> Line:
    return f"{label} {_n(value)}", name, detail


def _pending(name: str, found: dict[str, int]) -> list[Line]:
    """A box's pending lines: one per kind with records (none when nothing is pending)."""
    return [_count(f"pending: {kind}", name, n, kind) for kind, n in found.items() if n]


def _boxes(c: PrismaCounts) -> dict[str, list[Line]]:
    """Each box's lines (the diagram's text), by box name."""
    e = c.entered
    identified = [_count(s, "identified", n, s) for s, n in c.identified.items()]
    if e.removed_other:
        identified.append(_count("Identified, removed before import (entered)",
                                 "removed_before_import", e.removed_other))
    not_yet = [_count("Records not yet screened (round not finished)", "not_yet_screened",
                      c.not_yet_screened)] if c.not_yet_screened else []
    boxes = {
        "identified": [("Records identified from databases and registers:", "", ""),
                       *(identified or [("none", "", "")])],
        "removed": [("Records removed before screening:", "", ""),
                    _count("Duplicate records removed", "duplicates_removed",
                           c.duplicates_removed),
                    _count("Records marked as ineligible by automation tools",
                           "removed_automation", c.removed_automation),
                    _count("Records removed for other reasons", "removed_other",
                           c.removed_other), *not_yet],
        "screened": [_count("Records screened", "screened", c.screened),
                     *_pending("pending_screening", c.pending_screening)],
        "excluded": [_count("Records excluded", "excluded_screening", c.excluded_screening)],
        "sought": [_count("Reports sought for retrieval", "sought", c.sought),
                   *_pending("pending_sought", c.pending_sought)],
        "not_retrieved": [_count("Reports not retrieved", "not_retrieved", c.not_retrieved)],
        "assessed": [_count("Reports assessed for eligibility", "assessed", c.assessed),
                     *_pending("pending_assessed", c.pending_assessed)],
        "excluded_fulltext": [("Reports excluded:", "", ""), *(
            [_count(r, "excluded_fulltext", n, r) for r, n in c.excluded_fulltext.items()]
            or [("none", "", "")])],
        "included": [_count("Studies included in review", "included", c.included),
                     _count("Reports of included studies", "included", c.included)],
    }
    if _update(c):
        boxes |= {
            "previous": [_count("Studies included in previous version of review",
                                "previous_included", c.previous_included),
                         _count("Reports of studies included in previous version of review",
                                "previous_included", c.previous_included)],
            "included": [_count("New studies included in review", "included", c.included),
                         _count("Reports of new included studies", "included", c.included)],
            "total": [_count("Total studies included in review", "total_included",
                             c.total_included),
                      _count("Reports of total included studies", "total_included",
                             c.total_included)],
        }
    if e.other_used:
        boxes |= {
            "other_identified": [("Records identified from:", "", ""), *(
                [_count(s, "identified", n, s) for s, n in e.other_identified.items()]
                or [("none", "", "")])],
            "other_sought": [_count("Reports sought for retrieval", "sought", e.other_sought)],
            "other_not_retrieved": [_count("Reports not retrieved", "not_retrieved",
                                           e.other_not_retrieved)],
            "other_assessed": [_count("Reports assessed for eligibility", "assessed",
                                      e.other_assessed)],
            "other_excluded": [("Reports excluded:", "", ""), *(
                [_count(r, "excluded", n, r) for r, n in e.other_excluded.items()]
                or [("none", "", "")])],
        }
    return boxes


def _update(counts: PrismaCounts) -> bool:
    """Whether the diagram takes the update layout: it shows a round after the first."""
    return counts.round is not None and counts.round > 1


def _wrapped(lines: list[Line]) -> list[list[str]]:
    """Each line broken to fit a box; a count's "(n = …)" is never split."""
    out = []
    for text, _, _ in lines:
        head, sep, tail = text.rpartition(" (n = ")
        parts = textwrap.wrap(head if sep else text, CHARS) or [""]
        if sep:
            if len(parts[-1]) + len(tail) + 6 <= CHARS:
                parts[-1] += f" (n = {tail}"
            else:
                parts.append(f"(n = {tail}")
        out.append(parts)
    return out


def _height(lines: list[Line]) -> int:
    return 2 * PAD + LINE * sum(len(parts) for parts in _wrapped(lines))


class _Drawing:
    def __init__(self, width: int, height: int, title: str) -> None:
        self.svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width),
                                      "height": str(height),
                                      "viewBox": f"0 0 {width} {height}", "role": "img"})
        ET.SubElement(self.svg, "title").text = title
        marker = ET.SubElement(ET.SubElement(self.svg, "defs"), "marker", {
            "id": "arrow", "viewBox": "0 0 10 10", "refX": "10", "refY": "5",
            "markerWidth": "7", "markerHeight": "7", "orient": "auto"})
        ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": "#000"})
        ET.SubElement(self.svg, "rect", {"width": str(width), "height": str(height),
                                         "fill": "#fff"})
        self.counted = 0

    def box(self, x: int, y: int, h: int, lines: list[Line], other: bool = False) -> None:
        ET.SubElement(self.svg, "rect", {"x": str(x), "y": str(y), "width": str(BOX),
                                         "height": str(h), "fill": "#fff", "stroke": "#000"})
        baseline = y + PAD + LINE - 4
        for (_, name, detail), parts in zip(lines, _wrapped(lines), strict=True):
            for index, part in enumerate(parts):
                attributes = {"x": str(x + PAD), "y": str(baseline), "style": FONT}
                if name and index == len(parts) - 1:
                    self.counted += 1
                    attributes |= {"id": f"count-{self.counted}", "data-count": name,
                                   "data-detail": detail}
                    if other:
                        attributes["data-column"] = "other_methods"
                ET.SubElement(self.svg, "text", attributes).text = part
                baseline += LINE

    def band(self, x: int, y: int, w: int, h: int, label: str, fill: str,
             vertical: bool = False) -> None:
        ET.SubElement(self.svg, "rect", {"x": str(x), "y": str(y), "width": str(w),
                                         "height": str(h), "fill": fill, "stroke": "#000",
                                         "rx": "4"})
        cx, cy = x + w / 2, y + h / 2
        attributes = {"x": f"{cx:g}", "y": f"{cy:g}", "text-anchor": "middle",
                      "dominant-baseline": "central", "style": f"{FONT};font-weight:bold"}
        if vertical:
            attributes["transform"] = f"rotate(-90 {cx:g} {cy:g})"
        ET.SubElement(self.svg, "text", attributes).text = label

    def arrow(self, *points: tuple[float, float]) -> None:
        ET.SubElement(self.svg, "polyline", {
            "points": " ".join(f"{x:g},{y:g}" for x, y in points), "fill": "none",
            "stroke": "#000", "marker-end": "url(#arrow)"})


def prisma_svg(counts: PrismaCounts) -> str:
    """The diagram (module docstring) as SVG text."""
    boxes = _boxes(counts)
    other, update = counts.entered.other_used, _update(counts)
    previous = MARGIN + SIDE + 10  # the previous-studies column (update layout)
    x0 = previous + (BOX + COLUMN_GAP if update else 0)
    x1 = x0 + BOX + GAP
    x2 = x1 + BOX + COLUMN_GAP
    x3 = x2 + BOX + GAP
    width = (x3 if other else x1) + BOX + MARGIN
    # rows: (left box, right box, other left, other right); other-methods boxes start at
    # the "sought" row, as in the template; the update layout's previous studies beside
    # the first row and the total below the new studies
    rows = [("identified", "removed", "other_identified", None),
            ("screened", "excluded", None, None),
            ("sought", "not_retrieved", "other_sought", "other_not_retrieved"),
            ("assessed", "excluded_fulltext", "other_assessed", "other_excluded"),
            ("included", None, None, None)]
    if update:
        rows.append(("total", None, None, None))
    tops, heights = [], []
    y = MARGIN + HEADER + 14
    for index, row in enumerate(rows):
        names = [*row, "previous" if update and index == 0 else None]
        h = max(_height(boxes[name]) for name in names if name and name in boxes)
        h = max(h, INCLUDED_HEIGHT) if row[0] in ("included", "total") else h
        tops.append(y)
        heights.append(h)
        y += h + ROW_GAP
    notes = [part for note in counts.notes()
             for part in textwrap.wrap(note, (width - 2 * MARGIN) * CHARS // BOX)]
    notes_top = y - ROW_GAP + (LINE if notes else 0)
    height = notes_top + LINE * len(notes) + MARGIN
    round_text = f" (search update: round {counts.round})" if update else ""
    d = _Drawing(width, height, f"PRISMA 2020 flow diagram: {counts.topic}{round_text}")

    if update:
        d.band(previous, MARGIN, BOX, HEADER, "Previous studies", OTHER_FILL)
    d.band(x0, MARGIN, x1 + BOX - x0, HEADER, "Identification of "
           f"{'new ' if update else ''}studies via databases and registers", DATABASES_FILL)
    if other:
        d.band(x2, MARGIN, x3 + BOX - x2, HEADER,
               f"Identification of {'new ' if update else ''}studies via other methods",
               OTHER_FILL)
    for label, first, last in (("Identification", 0, 0), ("Screening", 1, 3),
                               ("Included", 4, len(rows) - 1)):
        d.band(MARGIN, tops[first], SIDE, tops[last] + heights[last] - tops[first], label,
               BAND_FILL, vertical=True)

    for (left, right, other_left, other_right), top, h in zip(rows, tops, heights,
                                                             strict=True):
        d.box(x0, top, h, boxes[left])
        if right:
            d.box(x1, top, h, boxes[right])
            d.arrow((x0 + BOX, top + h / 2), (x1, top + h / 2))
        if other and other_left:
            d.box(x2, top, h, boxes[other_left], other=True)
        if other and other_right:
            d.box(x3, top, h, boxes[other_right], other=True)
            d.arrow((x2 + BOX, top + h / 2), (x3, top + h / 2))
    middle = x0 + BOX / 2
    for above in range(len(rows) - 1):
        d.arrow((middle, tops[above] + heights[above]), (middle, tops[above + 1]))
    if update:
        d.box(previous, tops[0], heights[0], boxes["previous"])
        total_middle = tops[-1] + heights[-1] / 2
        d.arrow((previous + BOX / 2, tops[0] + heights[0]),
                (previous + BOX / 2, total_middle), (x0, total_middle))
    if other:
        middle = x2 + BOX / 2
        d.arrow((middle, tops[0] + heights[0]), (middle, tops[2]))
        d.arrow((middle, tops[2] + heights[2]), (middle, tops[3]))
        included_middle = tops[4] + heights[4] / 2
        d.arrow((middle, tops[3] + heights[3]), (middle, included_middle),
                (x0 + BOX, included_middle))
    for index, part in enumerate(notes):
        ET.SubElement(d.svg, "text", {"x": str(MARGIN), "y": str(notes_top + LINE * (index + 1)
                                                                  - 4),
                                      "class": "note", "style": FONT}).text = part
    for child in d.svg:  # one element a line (ET.indent would add spaces inside <text>)
        child.tail = "\n"
    for element in d.svg.iter():
        element.text = element.text and _text(element.text)
        element.attrib = {key: _text(value) for key, value in element.attrib.items()}
    return ET.tostring(d.svg, encoding="unicode", xml_declaration=False) + "\n"


def counted_lines(svg: str) -> dict[str, tuple[str, str]]:
    """Each counted line of the databases-and-registers column (the counts with records
    behind them): its ``id`` → (count, detail), read from the diagram's text."""
    return {e.get("id"): (e.get("data-count"), e.get("data-detail"))
            for e in ET.fromstring(svg).iter(f"{{{SVG_NS}}}text")
            if e.get("data-count") and not e.get("data-column")}


CSV_COLUMNS = ("stage", "count", "detail", "n")


def write_prisma_csv(counts: PrismaCounts, path: str | Path, *,
                     project: str | Path | None = None) -> Path:
    """Write :func:`counts_csv` to ``path`` whole (never onto ``project`` or a
    database)."""
    target = Path(path)
    check_target(target, project)
    return write_whole(target, lambda partial: counts_csv(counts, partial), "the counts")


def counts_csv(counts: PrismaCounts, path: Path) -> None:
    """Write :meth:`PrismaCounts.rows` as CSV at ``path`` (names escaped: never a
    formula)."""
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        writer.writerows((stage, name, escape_formula(_text(detail)), n)
                         for stage, name, detail, n in counts.rows())
