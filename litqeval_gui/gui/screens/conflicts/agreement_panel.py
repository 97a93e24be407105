"""The agreement panel of the conflicts screen: per reviewer pair, Cohen's κ with its 95 %
interval (clipped to [−1, 1]), the weighted κ of grades (its weights named), raw and
per-category agreement, PABAK, Gwet's AC1 with its interval, the k×k table and the records
both screened — before and after resolution — and the team's Krippendorff α
(:func:`~litqeval_gui.core.screening.reviewers.team.agreement`), and a button to save it as CSV or
JSON (:func:`~litqeval_gui.core.screening.reviewers.team.write_agreement`).

Drawn as rich text in the palette's colours, so it reads in the light and the dark theme.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log.labels import label_text
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.gui.notify import show_error
from litqeval_gui.metrics.agreement import Kappa
from litqeval_gui.metrics.reliability import Alpha, PairReliability

CELL = 'style="padding: 2px 8px"'


def _number(value: float, digits: int = 3) -> str:
    return "–" if math.isnan(value) else f"{value:.{digits}f}"


def interval_text(k: Kappa) -> str:
    """κ's 95 % interval clipped to [−1, 1] ("–" when κ is undefined)."""
    low, high = k.shown_ci
    return "–" if math.isnan(k.kappa) else f"{_number(low)} to {_number(high)}"


def ac1_interval_text(r: PairReliability) -> str:
    """AC1's 95 % interval ("–" when AC1 is undefined)."""
    return "–" if math.isnan(r.ac1) else f"{_number(r.ac1_ci[0])} to {_number(r.ac1_ci[1])}"


def _table(k: Kappa, a: str, b: str) -> str:
    """The k×k table: rows ``a``'s labels, columns ``b``'s."""
    head = "".join(f"<th {CELL}>{html.escape(label_text(str(label)))}</th>"
                   for label in k.labels)
    rows = "".join(
        f"<tr><th {CELL} align='left'>{html.escape(label_text(str(label)))}</th>"
        + "".join(f"<td {CELL} align='right'>{f'<b>{n:,}</b>' if i == j else f'{n:,}'}</td>"
                  for j, n in enumerate(row)) + "</tr>"
        for i, (label, row) in enumerate(zip(k.labels, k.table, strict=True)))
    return (f"<table border='1' cellspacing='0'><tr><th {CELL}>{html.escape(a)} ↓ / "
            f"{html.escape(b)} →</th>{head}</tr>{rows}</table>")


def pair_html(pair: team.PairAgreement) -> str:
    """One reviewer pair: the figures before and after resolution, then both tables."""
    a, b = html.escape(pair.a), html.escape(pair.b)
    lines = [("Screened by both", f"{pair.kappa.n:,}", f"{pair.after.n:,}"),
             ("Raw agreement", _number(pair.kappa.agreement), _number(pair.after.agreement)),
             ("Cohen's κ", _number(pair.kappa.kappa), _number(pair.after.kappa)),
             ("its 95 % interval", interval_text(pair.kappa), interval_text(pair.after))]
    before, after = pair.reliability, pair.reliability_after
    lines += [(f"Agreement on {html.escape(label_text(str(label)))}", _number(x), _number(y))
              for label, x, y in zip(pair.kappa.labels, before.specific, after.specific,
                                     strict=True) if not (math.isnan(x) and math.isnan(y))]
    lines += [("PABAK", _number(before.pabak), _number(after.pabak)),
              ("Gwet's AC1", _number(before.ac1), _number(after.ac1)),
              ("its 95 % interval", ac1_interval_text(before), ac1_interval_text(after))]
    if pair.weighted is not None and pair.weighted_after is not None:
        lines += [(f"Weighted κ ({pair.weighted.weights} weights)",
                   _number(pair.weighted.kappa), _number(pair.weighted_after.kappa)),
                  ("its 95 % interval", interval_text(pair.weighted),
                   interval_text(pair.weighted_after))]
    figures = "".join(f"<tr><td {CELL}>{name}</td><td {CELL}>{before}</td>"
                      f"<td {CELL}>{after}</td></tr>" for name, before, after in lines)
    return (f"<h3>{a} / {b}</h3><table border='0' cellspacing='0'><tr><th {CELL}></th>"
            f"<th {CELL} align='left'>Before resolution</th><th {CELL} align='left'>After "
            f"resolution</th></tr>{figures}</table>"
            f"<p><b>Before resolution</b></p>{_table(pair.kappa, pair.a, pair.b)}"
            f"<p><b>After resolution</b></p>{_table(pair.after, pair.a, pair.b)}")


def agreement_html(summary: team.Agreement) -> str:
    """The whole panel's text."""
    if not summary.pairs:
        return ("<p>Fewer than two reviewers have decided in this screening: there is no "
                "agreement to compute yet. Merge a colleague's decisions "
                "(File ▸ Merge Decisions…).</p>")
    se_method = html.escape(summary.pairs[0].kappa.se_method)
    return ("".join(pair_html(pair) for pair in summary.pairs)
            + alpha_html(summary.alpha, summary.alpha_ordinal)
            + f"<p>Conflicts: <b>{summary.resolved:,}</b> resolved, "
            f"<b>{summary.unresolved:,}</b> open. After resolution a resolved record "
            "counts with its final decision for both reviewers. κ's interval: κ ± 1.96·SE, "
            f"{se_method}, clipped to [−1, 1]. Agreement on a label: 2·both gave it / "
            "(times a gave it + times b gave it). PABAK: κ with equal, balanced "
            "categories (Byrt, Bishop & Carlin 1993). AC1: Gwet (2008), which does not "
            "collapse when nearly every record is excluded. Sources: docs/metrics.md.</p>")


def alpha_html(nominal: Alpha, ordinal: Alpha | None) -> str:
    """The team's Krippendorff α: over every reviewer, missing decisions allowed."""
    figures = f"<b>{_number(nominal.alpha)}</b> (nominal)"
    if ordinal is not None:
        figures += f", <b>{_number(ordinal.alpha)}</b> (ordinal, over the grades)"
    return (f"<h3>The whole team ({nominal.raters} reviewers)</h3><p>Krippendorff's α: {figures}, over "
            f"{nominal.units:,} records decided by two or more reviewers; a record a "
            "reviewer did not decide counts as missing (Krippendorff 2011).</p>")


class AgreementPanel(QWidget):
    """Agreement of a screening's reviewers; :meth:`show_agreement` fills it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.screening: Screening | None = None
        self.summary: team.Agreement | None = None
        self.text = QTextBrowser(openLinks=False)
        self.save_button = QPushButton("Save Agreement…", toolTip=(
            "Save the agreement of every reviewer pair, before and after resolution, as "
            "CSV or JSON"))
        self.save_button.clicked.connect(self.save)
        buttons = QHBoxLayout()
        buttons.addWidget(QLabel("<b>Agreement between reviewers</b>"), 1)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.text, 1)

    def show_agreement(self, project: Project, screening: Screening,
                       summary: team.Agreement) -> None:
        """Show ``summary``, the agreement of ``screening``."""
        self.project, self.screening, self.summary = project, screening, summary
        self.text.setHtml(agreement_html(summary))
        self.save_button.setEnabled(bool(summary.pairs))

    def show_blind(self) -> None:
        """A blind screening: no agreement until it is unblinded."""
        self.summary = None
        self.text.setHtml("<p>This screening is blind: agreement is shown once it is "
                          "unblinded.</p>")
        self.save_button.setEnabled(False)

    def save(self) -> Path | None:
        """Ask where and save the agreement (``.json``: JSON, else CSV)."""
        if self.project is None or self.screening is None:
            return None
        start = Path(self.project.path).parent / f"{self.screening.name} agreement.csv"
        name, _ = QFileDialog.getSaveFileName(self, "Save Agreement", str(start),
                                              "CSV (*.csv);;JSON (*.json)")
        if not name:
            return None
        try:
            team.write_agreement(self.project, self.screening, name)
        except (OSError, LitqError) as exc:
            show_error(self, "The agreement was not saved", exc)
            return None
        return Path(name)
