"""The evaluation report: one self-contained HTML file (no scripts, no links to fetch)
a librarian can send to a review team: what was evaluated (each list's database, file
and query text), the comparison table, what every number means (formula in words and
source), the parameters, the map's fidelity, each list's missed core with DOIs and its
map as inline SVG, the decay curve, each stored query clause by clause, and the app
version.

Written as well-formed XHTML with ``xml.etree`` (every value escaped by it), opened by
any browser offline.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from litqeval_gui.core.evaluation.engine import ListEvaluation, TopicEvaluation
from litqeval_gui.core.evaluation.inputs import take
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.report_svg import Layer, Line, curve_svg, scatter_svg
from litqeval_gui.core.query.report import ListQuery, append_section
from litqeval_gui.core.records.exporting import write_whole
from litqeval_gui.core.records.queries import ListInfo
from litqeval_gui.metrics.geometry import Ellipsoid
from litqeval_gui.metrics.sets import decay

LOW_FIDELITY = 0.2  # below this the report warns that the 2D numbers are rough
METHOD_NAMES = {"cos": "SP cos", "cluster": "SP cluster", "mvee": "SP MVEE", "hull": "SP hull"}
STYLE = """
body{font-family:system-ui,"Segoe UI",Helvetica,Arial,sans-serif;margin:2em auto;
 max-width:76em;padding:0 1em;color:#1a1a1a;line-height:1.45}
p,dl,pre,ul,h1,h3{max-width:62em}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.8em;
 border-bottom:1px solid #ccc;padding-bottom:.2em}
div.table-scroll{max-width:100%;overflow-x:auto;margin:1em 0}
table{border-collapse:collapse;margin:0;font-size:.95em}
td,th{border:1px solid #c8c8c8;padding:4px 8px;vertical-align:top}
pre.query{white-space:pre-wrap;background:#f4f4f4;padding:.6em;max-width:62em}
tr.flag td{background:#fff3cd}
th{background:#f0f2f5;text-align:left}tr:nth-child(even) td{background:#fafafa}
td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}caption{text-align:left;
 font-weight:600;padding:.3em 0}
table#comparison{font-size:.85em}#comparison td,#comparison th{padding:3px 5px}
#comparison td:first-child{min-width:7em}
td{overflow-wrap:break-word}td a{overflow-wrap:anywhere}
pre.query{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;
 border-left:3px solid #3d7edb;padding:.5em .8em;margin:.3em 0 1em;font-size:.9em}
dl.metrics dt{font-weight:600;margin-top:.6em}dl.metrics dd{margin-left:1.5em}
.meta{color:#555}.warn{color:#a40000}.undefined{color:#777}
svg{max-width:100%;height:auto}
@media print{body{margin:0;max-width:none}h2{page-break-after:avoid}
 section.list{page-break-inside:avoid}div.table-scroll{overflow:visible}}
"""


def _pct(value: float) -> str:
    return "—" if value is None or math.isnan(value) else f"{100 * value:.1f} %"


def _num(value: float) -> str:
    return f"{value:.3f}"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _table(parent: ET.Element, **attrs: str) -> ET.Element:
    """A ``<table>`` in a box that scrolls sideways when the page is narrower than the
    table (it never runs past the page's edge)."""
    return _add(_add(parent, "div", class_="table-scroll"), "table", **attrs)


def _row(table: ET.Element, cells: list[str], header: bool = False,
         numbers_from: int | None = None) -> None:
    """A row of ``cells``; from column ``numbers_from`` on they are right-aligned."""
    tr = _add(table, "tr")
    for column, cell in enumerate(cells):
        if header or numbers_from is None or column < numbers_from:
            _add(tr, "th" if header else "td", cell)
        else:
            _add(tr, "td", cell, class_="n")


def _parameters(body: ET.Element, evaluation: TopicEvaluation) -> None:
    s = evaluation.settings
    theta = (f"from core ({_num(evaluation.lists[0].methods['cos'].detail['theta'])})"
             if s.theta is None and evaluation.lists else
             "from core" if s.theta is None else _num(s.theta))
    table = _table(body, id="parameters")
    _add(table, "caption", "Parameters")
    info = evaluation.backend
    for name, value in (("θ (SP cos)", theta), ("α", f"{s.alpha:g}"), ("p", f"{s.p:g}"),
                        ("q", f"{s.q:g}"), ("β", f"{s.beta:g}"),
                        ("cluster θ", f"{s.cluster_theta:g}"), ("MVEE tolerance", f"{s.mvee_tol:g}"),
                        ("embedding", f"{info.name} ({info.model}, {info.version})"),
                        ("map", f"{evaluation.map.method.upper()} "
                                f"{dict(evaluation.map.params)}")):
        _row(table, [name, value])


def _comparison(body: ET.Element, evaluation: TopicEvaluation) -> None:
    table = _table(body, id="comparison")
    _add(table, "caption", "Comparison (precision / relevant records / F2 per method)")
    head = ["list", "works", "recall", "95 % CI"]
    for method in METHODS:
        head += [f"{METHOD_NAMES[method]} P", "n", "F2"]
    _row(table, head + ["SP cos leave-one-out", "cluster k"], header=True)
    for item in evaluation.lists:
        lo, hi = item.recall_ci
        cells = [item.name, str(item.size), _num(item.recall), f"{lo:.2f}–{hi:.2f}"]
        for method in METHODS:
            result = item.methods[method]
            cells += [_num(result.precision) + ("" if result.defined else " *"),
                      str(result.relevant), _num(result.f_beta)]
        cos = item.methods["cos"]
        cells.append(f"{cos.loo_range[0]:.3f}–{cos.loo_range[1]:.3f}" if cos.loo_range else "—")
        cells.append(str(item.methods["cluster"].detail.get("k") or "—"))
        _row(table, cells, numbers_from=1)
    reasons = [(item.name, METHOD_NAMES[m], item.methods[m].reason)
               for item in evaluation.lists for m in METHODS if not item.methods[m].defined]
    if reasons:
        notes = _add(body, "ul", class_="undefined")
        for name, method, reason in reasons:
            _add(notes, "li", f"* {name}, {method}: undefined — {reason}")


SOURCES = {
    "LitQEval": "LitQEval, query evaluation against core publications (semantic "
                "precision, decay, F2; github.com/Mohammadsaknini/LitQEval).",
    "Wilson": "E. B. Wilson (1927), probable inference and statistical inference, "
              "J. Am. Stat. Assoc. 22:209–212.",
    "Khachiyan": "LitQEval's semantic MVEE precision; the ellipse by L. G. Khachiyan's "
                 "algorithm (1996).",
}

# (term, definition in words, source key): what every number of the report means
DEFINITIONS = (
    ("works", "Distinct publications in the list: records that are the same publication "
              "(same DOI or PMID, same title and year, or a match a person accepted) count "
              "once.", ""),
    ("recall", "Core works the list retrieved ÷ core works of the topic. The core set is a "
               "set of known relevant publications chosen before the search.", "LitQEval"),
    ("95 % CI", "Wilson score interval of the recall: with few core works, recall is "
                "uncertain (2 of 3 can be anything from 0.21 to 0.94).", "Wilson"),
    ("SP cos P", "Semantic cosine precision: the share of the list's records whose "
                 "embedding (title + abstract) is at least θ similar (cosine) to the centroid "
                 "of the core set's embeddings. θ, by default, is the similarity of the least "
                 "similar core record, so every core record would pass.", "LitQEval"),
    ("SP cluster P", "Semantic clustering precision: the list's records are clustered "
                     "(k-means) with the largest k at which one cluster still holds more than "
                     "the cluster θ share of the retrieved core records; P = that cluster's "
                     "size ÷ the list's size. When even k = 2 splits the core records, k is 1 "
                     "and the one cluster is the whole list: P = 1.000 and n = the list's "
                     "size — the list is topically tight around its core records, not "
                     "necessarily precise.", "LitQEval"),
    ("SP MVEE P", "Share of the list's records inside the minimum-volume ellipse around the "
                  "retrieved core records on the 2D map (computed to the MVEE tolerance). "
                  "Undefined with fewer than 3 retrieved core records.", "Khachiyan"),
    ("SP hull P", "Share of the list's records inside the convex hull of the retrieved core "
                  "records on the 2D map. Undefined with fewer than 3 retrieved core "
                  "records.", "LitQEval"),
    ("n", "The semantically relevant records of a method: the records it counts as on "
          "topic (P = n ÷ the list's records).", "LitQEval"),
    ("λ (decay)", "λ(n) = (1 − (n/α)^p)^q, 0 from n = α on: a list that makes the reader "
                  "screen very many records is penalised, smoothly, up to α records.",
     "LitQEval"),
    ("F2", "F_β = (1 + β²)·P·λ·R ÷ (β²·P·λ + R) with β = 2: recall weighs four times "
           "precision. R is the recall of the records the method counts relevant (for SP "
           "cos, the core records above θ; for SP cluster, those in the best cluster; for "
           "MVEE and hull, the plain recall).", "LitQEval"),
    ("SP cos leave-one-out", "The range of SP cos when each core record in turn is left "
                             "out of the core set: a wide range means one core record "
                             "decides θ.", "LitQEval"),
    ("projection fidelity", "The share of the embedding's variance the 2D map keeps "
                            "(a partial-least-squares regression from the map to the "
                            "embedding). MVEE and hull numbers are only as good as the map.",
     "LitQEval"),
)


def _sources(body: ET.Element, lists: Sequence[ListInfo], evaluation: TopicEvaluation) -> None:
    """What was evaluated: each result list's database, file and query text."""
    _add(body, "h2", "What was evaluated")
    _add(body, "p", f"Topic {evaluation.topic}: {evaluation.lists[0].core if evaluation.lists else 0} "
                    "core works (known relevant publications) and the result lists below.")
    known = {info.name: info for info in lists if info.role == "results"}
    for item in evaluation.lists:
        info = known.get(item.name)
        facts = [f"{item.size:,} works"]
        if info is not None:
            facts += [f for f in (info.database, info.file_name and f"file {info.file_name}",
                                  info.created and f"imported {info.created[:10]}") if f]
        _add(body, "h3", item.name)
        _add(body, "p", " · ".join(facts), class_="meta")
        if info is not None and info.query:
            _add(body, "pre", info.query, class_="query")
        else:
            _add(body, "p", "The query text was not recorded at import.", class_="undefined")


def _definitions(body: ET.Element) -> None:
    _add(body, "h2", "What the numbers mean")
    terms = _add(body, "dl", class_="metrics")
    for term, words, source in DEFINITIONS:
        _add(terms, "dt", term)
        _add(terms, "dd", words + (f" Source: {SOURCES[source]}" if source else ""))


def _map_plot(evaluation: TopicEvaluation, item: ListEvaluation) -> ET.Element:
    stored, rows = evaluation.map, item.rows
    coords = take(stored.record_ids, stored.coords, rows.record_ids)
    core = evaluation.core_rows
    missed = ~np.isin(core.work_ids, rows.work_ids)
    missed_xy = take(stored.record_ids, stored.coords, core.record_ids[missed])
    relevant = item.relevant["cos"]
    layers = [Layer("retrieved", coords[~relevant], "#bbbbbb", 1.5),
              Layer("relevant (SP cos)", coords[relevant & ~rows.is_core], "#1f77b4", 2.0),
              Layer("retrieved core", coords[rows.is_core], "#d62728", 3.5),
              Layer("missed core", missed_xy, "#000000", 4.0, outline=True)]
    lines = []
    mvee = item.methods["mvee"].detail
    if "centre" in mvee:
        ellipse = Ellipsoid(np.asarray(mvee["centre"]), np.asarray(mvee["matrix"]))
        lines.append(Line("MVEE", ellipse.boundary(128), "#2ca02c", closed=True))
    hull = item.methods["hull"].detail
    if "polygon" in hull:
        lines.append(Line("hull", np.asarray(hull["polygon"]), "#9467bd", closed=True))
    return scatter_svg(f"{item.name}: the topic's map", layers, lines)


def _decay_plot(evaluation: TopicEvaluation) -> ET.Element:
    """λ(n) on a log n axis (as the app's decay plot draws it when the lists' n are
    small beside α): lists of a few hundred or thousand records stand apart, not
    stacked at n ≈ 0 as on a linear axis to α."""
    s = evaluation.settings
    n = np.geomspace(1.0, 1.1 * s.alpha, 240)
    marks = []
    for item in evaluation.lists:
        relevant = item.methods["cos"].relevant
        lam = float(decay(relevant, s.p, s.q, s.alpha))
        marks.append((f"{item.name} (n = {relevant:,}, λ = {lam:.3f})", float(relevant), lam))
    return curve_svg(f"decay λ(n), p={s.p:g}, q={s.q:g}, α={s.alpha:g}", n,
                     decay(n, s.p, s.q, s.alpha), marks,
                     "n = semantically relevant records (SP cos)", "λ", log_x=True)


def report_tree(evaluation: TopicEvaluation, lists: Sequence[ListInfo] = (),
                list_queries: Sequence[ListQuery] = ()) -> ET.Element:
    """The report as an ``<html>`` element (module docstring); ``lists`` (the topic's
    :func:`~litqeval_gui.core.records.queries.lists`) give each list's database, file
    and query text; ``list_queries`` (:func:`~litqeval_gui.core.query.report.list_queries`)
    the queries clause by clause."""
    html = ET.Element("html", {"xmlns": "http://www.w3.org/1999/xhtml", "lang": "en"})
    head = _add(html, "head")
    _add(head, "meta", charset="utf-8")
    _add(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    _add(head, "title", f"Query evaluation — {evaluation.topic}")
    _add(head, "style", STYLE)
    body = _add(html, "body")
    _add(body, "h1", f"Query evaluation — topic {evaluation.topic}")
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    _add(body, "p", f"LitQEval GUI {evaluation.app_version}, {stamp}.", id="version",
         class_="meta")
    _sources(body, lists, evaluation)
    _add(body, "h2", "Results")
    fidelity = _add(body, "p", f"Projection fidelity of the {evaluation.map.method.upper()} "
                               f"map: {_pct(evaluation.fidelity)} of the embedding's variance "
                               "(SP MVEE and SP hull are computed on this map).", id="fidelity")
    if math.isnan(evaluation.fidelity) or evaluation.fidelity < LOW_FIDELITY:
        fidelity.set("class", "warn")
        _add(fidelity, "strong", " Low fidelity: read the map-based numbers as rough.")
    _comparison(body, evaluation)
    _parameters(body, evaluation)
    if evaluation.embedding_notes:
        notes = _add(body, "ul", id="embedding-notes")
        for note in evaluation.embedding_notes:
            _add(notes, "li", note)
    _definitions(body)
    _add(body, "h2", "Decay")
    body.append(_decay_plot(evaluation))
    for item in evaluation.lists:
        section = _add(body, "section", class_="list")
        _add(section, "h2", f"{item.name}: {item.retrieved_core} of {item.core} core works "
                            f"retrieved")
        section.append(_map_plot(evaluation, item))
        if item.without_vector:
            _add(section, "p", f"{item.without_vector} works of the list have no title or "
                               "abstract and no vector: left out of the semantic precisions.")
        if item.missed:
            table = _table(section, class_="missed")
            _add(table, "caption", "Missed core publications")
            _row(table, ["title", "year", "DOI"], header=True)
            for missed in item.missed:
                tr = _add(table, "tr")
                _add(tr, "td", missed.title)
                _add(tr, "td", str(missed.year or ""))
                cell = _add(tr, "td")
                if missed.doi:
                    _add(cell, "a", missed.doi, href=f"https://doi.org/{missed.doi}")
    append_section(body, list(list_queries))
    return html


def write_report(evaluation: TopicEvaluation, path: str | Path,
                 lists: Sequence[ListInfo] = (),
                 list_queries: Sequence[ListQuery] = ()) -> Path:
    """Write the report to ``path`` (replaced whole, never half-written); ``lists`` and
    ``list_queries`` as :func:`report_tree` takes them."""
    target = Path(path)
    tree = report_tree(evaluation, lists, list_queries)
    text = "<!DOCTYPE html>\n" + ET.tostring(tree, encoding="unicode", method="xml")
    return write_whole(target, lambda partial: partial.write_text(text, encoding="utf-8"),
                       "the report")
