"""Progress of a screening: counts, the ordering, the round and phase the stopping rules
read (a search update's round, the random-sampling phase), the rules' advice and the
recall curve with the knee (:class:`~litqeval_gui.core.screening.stopping.panel.Panel`)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QPalette, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.screening.log.labels import NOT_RETRIEVED, label_text
from litqeval_gui.core.screening.ranking.models import Trust
from litqeval_gui.core.screening.ranking.queue import Ordering
from litqeval_gui.core.screening.state import CONFLICT
from litqeval_gui.core.screening.stopping.panel import Panel, Verdict, recommended
from litqeval_gui.gui.plots.curves import RecallCurvePlot

STOP_TEXT = "✔ could stop"
GO_ON_TEXT = "… keep screening"


LABEL_COUNTED = {"include": "included", "exclude": "excluded", "maybe": "maybe",
                 NOT_RETRIEVED: label_text(NOT_RETRIEVED)}
SHARED = ("rule", "screened", "N")  # the same for every rule: shown once, in the counts
SHOWN_PAIRS = 3  # evidence pairs on the panel; all of them in the tooltip


def evidence_pairs(verdict: Verdict) -> list[str]:
    """The rule's own evidence as ``key = value`` (floats to 3 significant digits)."""
    pairs = []
    for key, value in verdict.decision.evidence.items():
        if key in SHARED:
            continue
        shown = f"{value:.3g}" if isinstance(value, float) else str(value)
        pairs.append(f"{key.replace('_', ' ')} = {shown}")
    return pairs


def phase_text(panel: Panel) -> str:
    """What the rules read: the round when there are several, and the random phase with
    its draws so far ("" for a screening of one round screened in ranked order)."""
    round_ = panel.round
    if round_ is None:
        return ""
    parts = []
    if round_.number > 1:
        parts.append(f"<b>Round {round_.number}</b> (a search update): the rules read its "
                     f"{panel.n_total:,} records alone, {panel.screened:,} screened")
    if round_.random is not None and panel.random_from is not None:
        drawn = panel.screened - panel.random_from
        parts.append(f"<b>Random sampling</b> (seed {round_.random.seed}): {drawn:,} drawn "
                     f"after {panel.random_from:,} screened before. Screen them in the order "
                     "served: the stop's test needs a random sample")
    return "<br>".join(parts)


def rule_name(title: str) -> str:
    """A rule's title without its source (``Knee method``)."""
    return title.split(" (")[0]


def recommendation(panel: Panel) -> str:
    """The recommended rule (rich text): its name and kind, its advice, the recall
    estimate, the relevant records it expects unscreened, and why."""
    verdict = panel.verdict(panel.recommended)
    if verdict is None:
        return ""
    advice = STOP_TEXT if verdict.decision.stop else GO_ON_TEXT
    lines = [f"<b>Recommended: {html.escape(rule_name(verdict.title))}</b> "
             f"({verdict.kind}): <b>{advice}</b>"]
    estimate = verdict.decision.estimate or panel.estimate
    if estimate is not None:
        left = panel.n_total - panel.screened
        lines.append(html.escape(estimate.text()))
        if estimate.remaining is not None:
            lines.append(f"about {estimate.remaining:,.0f} relevant expected among the "
                         f"{left:,} unscreened")
    reason = str(verdict.decision.evidence.get("reason", ""))
    if reason:
        lines.append("why: " + html.escape(reason))
    return "<br>".join(lines)


F1_NAMES = {"0": "excluded", "1": "included"}  # the two classes (four: grades 0–3)


class SideCurve(RecallCurvePlot):
    """The recall curve of the side panel: it asks for its minimum height only, so the
    scrolling side scrolls for the rules' texts, never for the plot (which takes the
    room left). It is a picture, not a tool: the mouse neither zooms nor pans it, a
    wheel over it scrolls the side, and its axes never go below 0."""

    def __init__(self, parent: QWidget | None = None, *, title: str = "") -> None:
        super().__init__(parent, title=title)
        view = self.getPlotItem().getViewBox()
        view.setMouseEnabled(x=False, y=False)
        view.setLimits(xMin=0, yMin=0)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 — Qt override
        """Handed to the scroll area the panel is in, which scrolls (the plot's range
        stays as drawn); ignored, for the parent, when there is none."""
        scroll = self._scroll_area()
        if scroll is None:
            event.ignore()
            return
        viewport = scroll.viewport()
        QApplication.sendEvent(viewport, QWheelEvent(
            viewport.mapFromGlobal(event.globalPosition()), event.globalPosition(),
            event.pixelDelta(), event.angleDelta(), event.buttons(), event.modifiers(),
            event.phase(), event.inverted(), event.source()))
        event.accept()

    def _scroll_area(self) -> QAbstractScrollArea | None:
        """The nearest scroll area around the plot (the side's), if any."""
        widget = self.parentWidget()
        while widget is not None and not isinstance(widget, QAbstractScrollArea):
            widget = widget.parentWidget()
        return widget

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override
        return QSize(super().sizeHint().width(), self.minimumHeight())


class ProgressPanel(QWidget):
    """Counts above, the recommended rule with its estimate and the guarantee switch, the
    rules' verdicts (each with its kind) with the recall estimate, then the recall curve;
    without ``stopping`` (a full-text screening, which neither ranks nor stops early) the
    counts alone, and only :meth:`show_counts`. ``guarantee_asked(bool)``: the reviewer
    ticked or cleared "Ask for a guarantee"."""

    guarantee_asked = Signal(bool)

    def __init__(self, parent: QWidget | None = None, stopping: bool = True) -> None:
        super().__init__(parent)
        self.counts = QLabel(wordWrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.counts)
        if stopping:
            self._add_stopping(layout)

    def _add_stopping(self, layout: QVBoxLayout) -> None:
        """The ordering, the model's trust, the rules' box and the recall curve."""
        self.ordering = QLabel(wordWrap=True)
        self.trust = QLabel(wordWrap=True)
        self.rules_box = QGroupBox("Stopping rules (advice only)")
        self.rules = QVBoxLayout(self.rules_box)
        self.rule_labels: list[QLabel] = []
        self.phase = QLabel(wordWrap=True, visible=False)
        self.finished = QLabel(wordWrap=True, visible=False)
        self.estimate = QLabel(wordWrap=True)
        self.headline = QLabel(wordWrap=True)
        self.guarantee = QCheckBox("Ask for a guarantee", toolTip=(
            "Recommend the certified rule instead: the random-sample stop, whose stop is a "
            "statistical test on records screened in a random order"))
        self.guarantee.toggled.connect(self.guarantee_asked)
        self.rules.addWidget(self.headline)
        self.rules.addWidget(self.guarantee)
        self.rules.addWidget(self.phase)
        self.rules.addWidget(self.finished)
        self.rules.addWidget(self.estimate)
        self.curve = SideCurve(title="")
        self.curve.setMinimumHeight(180)
        self.curve.legend.setVisible(False)  # in a plot this small it covers the curve:
        self.curve_note = QLabel(wordWrap=True)  # the knee is said below it instead
        for widget in (self.ordering, self.trust, self.rules_box):
            layout.addWidget(widget)
        layout.addWidget(self.curve, 1)
        layout.addWidget(self.curve_note)

    def show_counts(self, screened: int, total: int, counts: Mapping[str, int],
                    labels: Sequence[str]) -> None:
        """Screened and remaining, then how many records carry each of ``labels``
        (``counts``: label → records whose final decision it is, and ``conflict`` →
        records in an open conflict), each count named by its label."""
        per_label = " · ".join(f"<b>{counts.get(label, 0):,}</b> {LABEL_COUNTED.get(label, '')}"
                               if label in LABEL_COUNTED
                               else f"grade {label}: <b>{counts.get(label, 0):,}</b>"
                               for label in labels)
        conflicts = counts.get(CONFLICT, 0)
        self.counts.setText(f"<b>{screened:,}</b> screened · <b>{total - screened:,}</b> "
                            f"remaining · {per_label}"
                            + (f" · <b>{conflicts:,}</b> in conflict" if conflicts else ""))

    def show_finished(self, text: str) -> None:
        """The round's finish ("Round 1 finished by …"), or nothing while it is open."""
        self.finished.setText(html.escape(text))
        self.finished.setVisible(bool(text))

    def show_ordering(self, ordering: Ordering, retraining: bool,
                      trust: Trust | None) -> None:
        """How the queue is ordered (by which model, when; "retraining…" while a job runs)
        and, for a model's order, its cross-validated trust."""
        if ordering.name == "model":
            text = (f"Ordering: prioritised · ranked by {ordering.model} at "
                    f"{ordering.ranked_at[:16].replace('T', ' ')}")
        else:
            text = f"Ordering: {ordering.name.replace(':', ', seed ')}"
        self.ordering.setText(text + (" · retraining…" if retraining else ""))
        self.trust.setText("" if trust is None else (
            f"Model trust ({trust.folds}-fold, {trust.labels} labels): Kendall's τ = "
            f"{trust.tau:.2f} (1: your order, 0: none); F1 (0–1, higher is better): "
            + ", ".join(f"{F1_NAMES[k] if len(trust.f1) == 2 else f'grade {k}'} {v:.2f}"
                        for k, v in trust.f1.items())))
        self.trust.setVisible(trust is not None)

    def show_panel(self, panel: Panel, pool_rule: str | None = None) -> None:
        """The recall estimate (or why there is none), each rule's verdict and evidence
        (its source in the tooltip; the recommended rule marked), and the curve; for a
        pool's screening (``pool_rule``: what its rule says) that rule instead of the
        title/abstract rules."""
        quiet = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        self.headline.setText(recommendation(panel) if pool_rule is None
                              else html.escape(pool_rule))
        self.guarantee.setVisible(pool_rule is None)
        self.estimate.setVisible(pool_rule is None)
        for label in self.rule_labels:
            label.setVisible(pool_rule is None)
        self.guarantee.blockSignals(True)
        self.guarantee.setChecked(panel.recommended != recommended(False))
        self.guarantee.blockSignals(False)
        phase = phase_text(panel)
        self.phase.setText(phase)
        self.phase.setVisible(bool(phase))
        self.estimate.setText(f"<b>Recall</b>: {html.escape(panel.estimate.text())}"
                              if panel.estimate else
                              f"<span style='color:{quiet}'>{html.escape(panel.estimate_note)}"
                              "</span>")
        while pool_rule is None and len(self.rule_labels) < len(panel.verdicts):
            self.rule_labels.append(QLabel(wordWrap=True))
            self.rules.addWidget(self.rule_labels[-1])
        for verdict, label in zip(panel.verdicts, self.rule_labels, strict=False):
            pairs = evidence_pairs(verdict)
            label.setToolTip(f"Source: {verdict.title}\n" + "\n".join(pairs))
            advice = STOP_TEXT if verdict.decision.stop else GO_ON_TEXT
            marked = " (recommended)" if verdict.name == panel.recommended else ""
            label.setText(f"<b>{rule_name(verdict.title)}{marked}</b> · {verdict.kind}: "
                          f"{advice}<br><span style='color:{quiet}'>"
                          f"{html.escape(', '.join(pairs[:SHOWN_PAIRS]))}</span>")
        screened, found = panel.curve
        knee = None
        if panel.knee is not None and 0 < panel.knee < len(found):
            knee = (float(panel.knee), float(found[panel.knee]))
        self.curve.set_curve(screened, found, knee=knee, knee_note=panel.knee_note)
        self.curve_note.setText(f"◆ knee at {knee[0]:,.0f} screened" if knee is not None
                                else f"◇ {panel.knee_note}" if panel.knee_note else "")

