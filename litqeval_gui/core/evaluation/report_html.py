"""The evaluation report: one self-contained HTML file (no scripts, no links to fetch)
with the comparison table, the parameters, the map's fidelity, each list's missed core
with DOIs and its map as inline SVG, the decay curve, and the app version.

Written as well-formed XHTML with ``xml.etree`` (every value escaped by it), opened by
any browser offline.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from litqeval_gui.core.evaluation.engine import ListEvaluation, TopicEvaluation
from litqeval_gui.core.evaluation.inputs import take
from litqeval_gui.core.evaluation.methods import METHODS
from litqeval_gui.core.evaluation.report_svg import Layer, Line, curve_svg, scatter_svg
from litqeval_gui.core.records.exporting import write_whole
from litqeval_gui.metrics.geometry import Ellipsoid
from litqeval_gui.metrics.sets import decay

LOW_FIDELITY = 0.2  # below this the report warns that the 2D numbers are rough
METHOD_NAMES = {"cos": "SP cos", "cluster": "SP cluster", "mvee": "SP MVEE", "hull": "SP hull"}
STYLE = """body{font-family:sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 6px}
td.n{text-align:right}.warn{color:#a40000}.undefined{color:#888}caption{text-align:left}"""


def _pct(value: float) -> str:
    return "—" if value is None or math.isnan(value) else f"{100 * value:.1f} %"


def _num(value: float) -> str:
    return f"{value:.3f}"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _row(table: ET.Element, cells: list[str], header: bool = False) -> None:
    tr = _add(table, "tr")
    for cell in cells:
        _add(tr, "th" if header else "td", cell)


def _parameters(body: ET.Element, evaluation: TopicEvaluation) -> None:
    s = evaluation.settings
    theta = (f"from core ({_num(evaluation.lists[0].methods['cos'].detail['theta'])})"
             if s.theta is None and evaluation.lists else
             "from core" if s.theta is None else _num(s.theta))
    table = _add(body, "table", id="parameters")
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
    table = _add(body, "table", id="comparison")
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
        _row(table, cells)
    reasons = [(item.name, METHOD_NAMES[m], item.methods[m].reason)
               for item in evaluation.lists for m in METHODS if not item.methods[m].defined]
    if reasons:
        notes = _add(body, "ul", class_="undefined")
        for name, method, reason in reasons:
            _add(notes, "li", f"* {name}, {method}: undefined — {reason}")


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
    s = evaluation.settings
    n = np.linspace(0.0, s.alpha, 200)
    marks = [(item.name, float(item.methods["cos"].relevant),
              float(decay(item.methods["cos"].relevant, s.p, s.q, s.alpha)))
             for item in evaluation.lists]
    return curve_svg(f"decay λ(n), p={s.p:g}, q={s.q:g}, α={s.alpha:g}", n,
                     decay(n, s.p, s.q, s.alpha), marks,
                     "n = semantically relevant records (SP cos)", "λ")


def report_tree(evaluation: TopicEvaluation) -> ET.Element:
    """The report as an ``<html>`` element (module docstring)."""
    html = ET.Element("html", {"xmlns": "http://www.w3.org/1999/xhtml", "lang": "en"})
    head = _add(html, "head")
    _add(head, "meta", charset="utf-8")
    _add(head, "title", f"Query evaluation — {evaluation.topic}")
    _add(head, "style", STYLE)
    body = _add(html, "body")
    _add(body, "h1", f"Query evaluation — topic {evaluation.topic}")
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    _add(body, "p", f"LitQEval GUI {evaluation.app_version}, {stamp}.", id="version")
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
            table = _add(section, "table", class_="missed")
            _add(table, "caption", "Missed core publications")
            _row(table, ["title", "year", "DOI"], header=True)
            for missed in item.missed:
                tr = _add(table, "tr")
                _add(tr, "td", missed.title)
                _add(tr, "td", str(missed.year or ""))
                cell = _add(tr, "td")
                if missed.doi:
                    _add(cell, "a", missed.doi, href=f"https://doi.org/{missed.doi}")
    return html


def write_report(evaluation: TopicEvaluation, path: str | Path) -> Path:
    """Write the report to ``path`` (replaced whole, never half-written)."""
    target = Path(path)
    tree = report_tree(evaluation)
    text = "<!DOCTYPE html>\n" + ET.tostring(tree, encoding="unicode", method="xml")
    return write_whole(target, lambda partial: partial.write_text(text, encoding="utf-8"),
                       "the report")
