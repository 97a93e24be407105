"""The clause table as text (the CLI) and as the evaluation report's query section."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query.agreement import Agreement, agreement
from litqeval_gui.core.query.parser import QuerySyntaxError, parse
from litqeval_gui.core.query.topic import Analysis, Clause, Outcome, analyse
from litqeval_gui.core.records import queries

HONEST = ("Local evaluation: it sees only the records already imported into the topic. It "
          "tells what a narrower query would lose and how many core publications a broader "
          "one reaches among those records, not what the database would add.")
HEADER = ("clause", "works", "core", "only it", "adds", "without: works", "core",
          "recall", "SP_cos")


def _sp(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _label(clause: Clause, width: int) -> str:
    kind = "" if clause.kind in ("term", "phrase") else clause.kind.upper() + " "
    text = "  " * clause.depth + f"{clause.path} {kind}{clause.text}"
    return text if len(text) <= width else text[:width - 1] + "…"


def rows(analysis: Analysis) -> list[tuple[str, ...]]:
    """One tuple of cells per clause (HEADER's columns), the whole query first."""
    out = []
    for c in analysis.clauses:
        w = c.without
        out.append((c.path, f"{c.works:,}", f"{c.core:,}",
                    "–" if w is None else f"{c.core_only:,}",
                    "–" if w is None else f"{c.added:,}",
                    "" if w is None else f"{w.works:,}", "" if w is None else f"{w.core:,}",
                    "" if w is None else f"{w.recall:.3f}", "" if w is None else _sp(w.sp_cos)))
    return out


def summary(whole: Outcome, n_core: int) -> str:
    return (f"retrieves {whole.works:,} of the topic's works, {whole.core:,} of its {n_core:,} "
            f"core works (local recall {whole.recall:.3f}); SP_cos {_sp(whole.sp_cos)}"
            + (" (embed the topic for SP_cos)" if whole.sp_cos is None else ""))


def agreement_line(agreed: Agreement, name: str) -> str:
    return (f"On the export of '{name}' it matches {agreed.matched:,} of {agreed.records:,} "
            f"records ({agreed.share:.1%})")


def clause_table(analysis: Analysis, agreed: Agreement, name: str, width: int = 44) -> str:
    """The analysis as plain text: summary, agreement, table, flags, missed core works."""
    q = analysis.query
    lines = [f"Query ({q.syntax}) of list '{name}': {' '.join(q.text.split())}",
             "It " + summary(analysis.whole, analysis.n_core) + ".",
             agreement_line(agreed, name) + "."]
    lines += [f"  not matched: {n:,} — {reason}" for reason, n in agreed.reasons[:8]]
    table = [(_label(c, width), *cells[1:]) for c, cells in zip(analysis.clauses,
                                                              rows(analysis), strict=True)]
    widths = [max(len(r[i]) for r in [HEADER, *table]) for i in range(len(HEADER))]
    lines.append("")
    for r in [HEADER, *table]:
        lines.append("  ".join(r[0].ljust(widths[0]) if i == 0 else r[i].rjust(widths[i])
                               for i in range(len(HEADER))).rstrip())
    lines.append("(only it: core works the query retrieves only through the clause; adds: "
                 "works it retrieves only through it; without: the query with it removed)")
    flagged = [c for c in analysis.clauses if c.flag]
    if flagged:
        lines += ["", "Worth a look:"] + [f"  {c.path} {c.text}: {c.flag}" for c in flagged]
    if analysis.missed:
        lines += ["", f"Core works the query does not retrieve ({len(analysis.missed)}), with "
                  "words they have that no clause matches:"]
        lines += [f"  - {m.title or '(no title)'}: {', '.join(m.words) or '(none)'}"
                  for m in analysis.missed]
    if q.approximations:
        lines += ["", "Approximated:"] + [f"  - {note}" for note in q.approximations]
    lines += ["", HONEST]
    return "\n".join(lines)


@dataclass(frozen=True)
class ListQuery:
    """A result list's stored query for the report: its analysis and own-export
    agreement, or why it could not be read."""

    name: str
    text: str
    analysis: Analysis | None
    agreed: Agreement | None
    error: str = ""


def list_queries(project: Project, topic: str) -> list[ListQuery]:
    """Every result list of ``topic`` with a stored query, analysed (the report's query
    section, from the CLI and the app alike)."""
    out = []
    for info in queries.lists(project, topic):
        if info.role != "results" or not info.query.strip():
            continue
        try:
            query = parse(info.query)
        except QuerySyntaxError as err:
            out.append(ListQuery(info.name, info.query, None, None, str(err)))
            continue
        out.append(ListQuery(info.name, info.query, analyse(project, topic, query),
                             agreement(project, topic, info.name, query)))
    return out


def _add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def append_section(body: ET.Element, items: list[ListQuery]) -> None:
    """The report's "Queries" section: per list its query, summary, agreement, clause
    tree as an indented table, flags, missed core works and approximations."""
    if not items:
        return
    _add(body, "h2", "Queries, clause by clause")
    _add(body, "p", HONEST, class_="meta")
    for item in items:
        section = _add(body, "section", class_="query")
        _add(section, "h3", f"{item.name}")
        _add(section, "pre", item.text, class_="query")
        if item.analysis is None:
            _add(section, "p", f"Not evaluated: {item.error}", class_="warn")
            continue
        a = item.analysis
        _add(section, "p", f"Read as {a.query.syntax}. It {summary(a.whole, a.n_core)}. "
                           + agreement_line(item.agreed, item.name) + ".")
        if item.agreed.reasons:
            reasons = _add(section, "ul")
            for reason, n in item.agreed.reasons[:8]:
                _add(reasons, "li", f"not matched: {n:,} — {reason}")
        box = _add(section, "div", class_="table-scroll")
        table = _add(box, "table", class_="clauses")
        tr = _add(table, "tr")
        for cell in HEADER:
            _add(tr, "th", cell)
        for clause, cells in zip(a.clauses, rows(a), strict=True):
            tr = _add(table, "tr", **({"class_": "flag", "title": clause.flag}
                                      if clause.flag else {}))
            kind = "" if clause.kind in ("term", "phrase") else clause.kind.upper() + " "
            _add(tr, "td", f"{clause.path} {kind}{clause.text}",
                 style=f"padding-left:{0.5 + 1.2 * clause.depth:.1f}em")
            for cell in cells[1:]:
                _add(tr, "td", cell, class_="n")
        flagged = [c for c in a.clauses if c.flag]
        if flagged:
            flags = _add(section, "ul", class_="warn")
            for c in flagged:
                _add(flags, "li", f"{c.path} {c.text}: {c.flag}")
        if a.missed:
            _add(section, "p", f"Core works the query does not retrieve ({len(a.missed)}), "
                               "with words they have that no clause matches:")
            missed = _add(section, "ul")
            for m in a.missed:
                _add(missed, "li", f"{m.title or '(no title)'}: {', '.join(m.words)}")
        if a.query.approximations:
            notes = _add(section, "ul", class_="meta")
            for note in a.query.approximations:
                _add(notes, "li", f"Approximated: {note}")
