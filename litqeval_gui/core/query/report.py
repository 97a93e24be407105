"""The clause table as text (the CLI) and as an HTML section (the evaluation report)."""

from __future__ import annotations

import html

from litqeval_gui.core.query.agreement import Agreement
from litqeval_gui.core.query.topic import Analysis, Clause, Outcome

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


def html_section(analysis: Analysis, agreed: Agreement | None, name: str) -> str:
    """The query's tree and clause table as an HTML fragment (escaped)."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in HEADER)
    body = []
    for c, cells in zip(analysis.clauses, rows(analysis), strict=True):
        kind = "" if c.kind in ("term", "phrase") else f"<b>{e(c.kind.upper())}</b> "
        label = (f"<td class='clause' style='padding-left:{0.4 + 1.2 * c.depth:.1f}em'>"
                 f"{e(c.path)} {kind}{e(c.text)}</td>")
        flag = f" class='flag' title='{e(c.flag)}'" if c.flag else ""
        body.append(f"<tr{flag}>{label}" + "".join(f"<td>{e(v)}</td>" for v in cells[1:])
                    + "</tr>")
    parts = [f"<h3>Query of {e(name)} <small>({e(analysis.query.syntax)})</small></h3>",
             f"<p class='query'>{e(analysis.query.text)}</p>",
             f"<p>It {e(summary(analysis.whole, analysis.n_core))}."
             + (f" {e(agreement_line(agreed, name))}." if agreed else "") + "</p>",
             f"<div class='scroll'><table class='clauses'><thead><tr>{head}</tr></thead>"
             f"<tbody>{''.join(body)}</tbody></table></div>"]
    flagged = [c for c in analysis.clauses if c.flag]
    if flagged:
        parts.append("<p>Worth a look: " + "; ".join(
            f"{e(c.path)} {e(c.text)} — {e(c.flag)}" for c in flagged) + "</p>")
    if analysis.missed:
        parts.append("<details><summary>Core works the query does not retrieve ("
                     f"{len(analysis.missed)})</summary><ul>" + "".join(
                         f"<li>{e(m.title or '(no title)')}: <i>{e(', '.join(m.words))}</i>"
                         "</li>" for m in analysis.missed) + "</ul></details>")
    if analysis.query.approximations:
        parts.append("<p class='note'>Approximated: " + " · ".join(
            e(n) for n in analysis.query.approximations) + "</p>")
    parts.append(f"<p class='note'>{e(HONEST)}</p>")
    return "\n".join(parts)
