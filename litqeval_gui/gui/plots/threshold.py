"""Threshold analysis for SP_cos (SPEC §1.5): F_β, the relevant count and the core
records kept against θ, the F_β-maximising θ marked, and a movable candidate θ that
"Use this θ" hands back (``theta_chosen``).

The arrays come from ``metrics.semantic.threshold_analysis`` (a screen reads them
through ``core``); nothing is computed here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from numpy.typing import ArrayLike
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from litqeval_gui.gui.plots import style


class ThresholdPlot(QWidget):
    """Three panels sharing θ; ``theta_chosen(float)`` when the user adopts a θ."""

    theta_chosen = Signal(float)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.plots = style.ThemedLayout(title="Threshold analysis")
        # the best θ's readout is a row of its own above the panels: never over a curve,
        # and in the saved image
        self.best_label = pg.LabelItem(justify="left", color=style.VERMILLION)
        self.plots.addItem(self.best_label, row=0, col=0)
        self.f_panel = self.plots.add_plot(1, y_label="F<sub>2</sub>", legend=None)
        self.relevant_panel = self.plots.add_plot(2, y_label="relevant records", legend=None,
                                                  integer_y=True)
        self.core_panel = self.plots.add_plot(
            3, x_label="θ (cosine similarity to the core centroid)", y_label="core kept",
            legend=None, integer_y=True)
        self.panels = [self.f_panel, self.relevant_panel, self.core_panel]
        for panel in self.panels[1:]:
            panel.setXLink(self.f_panel)
        self.curves = [panel.plot(pen=style.pen(colour, 2)) for panel, colour in
                       zip(self.panels, (style.BLUE, style.ORANGE, style.GREEN), strict=True)]
        self.best_lines = [self._line(panel, style.VERMILLION, dashed=True) for panel in self.panels]
        self.candidate_lines = [self._line(panel, style.foreground(self), movable=True) for panel in self.panels]
        self.core_total = pg.InfiniteLine(angle=0, pen=style.pen(style.GREEN, 1, dashed=True),
                                          label="|C| = {value:.0f}",
                                          labelOpts={"position": 0.95, "color": style.GREEN})
        self.core_panel.addItem(self.core_total)
        for line in self.candidate_lines:
            line.sigPositionChanged.connect(self._moved)
        self.readout = QLabel()
        self.use = QPushButton("Use this θ")
        self.use.clicked.connect(lambda: self.theta_chosen.emit(self.candidate))
        bottom = QHBoxLayout()
        bottom.addWidget(self.readout, 1)
        bottom.addWidget(self.use)
        layout = QVBoxLayout(self)
        layout.addWidget(self.plots, 1)
        layout.addLayout(bottom)
        self.thetas = np.empty(0)
        self.candidate = float("nan")

    @staticmethod
    def _line(panel, colour, *, dashed: bool = False, movable: bool = False) -> pg.InfiniteLine:
        line = pg.InfiniteLine(angle=90, movable=movable, pen=style.pen(colour, 2, dashed=dashed),
                               hoverPen=style.pen(colour, 4))
        panel.addItem(line)
        return line

    def set_data(self, thetas: ArrayLike, n_relevant: ArrayLike, core_kept: ArrayLike,
                 f_beta: ArrayLike, *, best_theta: float, n_core: int,
                 current_theta: float | None = None, beta: float = 2.0,
                 n_records: int | None = None) -> None:
        """Draw the sweep; the candidate starts at ``current_theta`` (else the best θ).
        ``n_records`` (|R|) lets the readout say when the best θ keeps every record."""
        self.thetas = np.asarray(thetas, dtype=float)
        self.values = [np.asarray(v, dtype=float) for v in (f_beta, n_relevant, core_kept)]
        if any(v.shape != self.thetas.shape for v in self.values):
            raise ValueError("one value per θ is needed in every array")
        self.n_core, self.beta = n_core, beta
        for curve, values in zip(self.curves, self.values, strict=True):
            curve.setData(self.thetas, values)
        self.plots.set_axis_labels(self.f_panel, y_label=f"F<sub>{beta:g}</sub>")
        for line in self.best_lines:
            line.setValue(best_theta)
        best = int(np.argmin(np.abs(self.thetas - best_theta)))
        f_name = f"F{_sub(beta)}"
        text = f"best θ = {best_theta:.2f}, {f_name} = {self.values[0][best]:.3f}"
        keeps_all = n_records is not None and n_records > 0 and self.values[1][best] >= n_records
        if keeps_all:
            text += f": {f_name} is highest when every record is kept"
        self.best_label.setText(text)
        self.best_label.setToolTip(_best_tooltip(f_name, keeps_all))
        self.core_total.setValue(n_core)
        self.set_candidate(best_theta if current_theta is None else current_theta)

    def set_candidate(self, theta: float) -> None:
        """Move the candidate θ (snapped to the nearest θ of the sweep)."""
        if not self.thetas.size:
            return
        nearest = int(np.argmin(np.abs(self.thetas - theta)))
        self.candidate = float(self.thetas[nearest])
        for line in self.candidate_lines:
            line.blockSignals(True)
            line.setValue(self.candidate)
            line.blockSignals(False)
        f, relevant, kept = (v[nearest] for v in self.values)
        self.readout.setText(f"θ = {self.candidate:.2f}: {relevant:,.0f} relevant records, "
                             f"{kept:.0f} of {self.n_core} core records kept, "
                             f"F{_sub(self.beta)} = {f:.3f}")
        self.use.setText(f"Use θ = {self.candidate:.2f}")

    def _moved(self, line: pg.InfiniteLine) -> None:
        self.set_candidate(line.value())

    def save(self, path: Path, *, scale: float = 2.0) -> Path:
        return self.plots.save(path, scale=scale)


def _best_tooltip(f_name: str, keeps_all: bool) -> str:
    tip = f"The θ of the sweep with the largest {f_name} (the smallest, if several tie)."
    if keeps_all:
        tip += (f" Lowering θ keeps more records, so the semantic precision (relevant / "
                f"retrieved) and the core kept can only rise; only the decay λ(n) pulls the "
                f"other way, and it barely moves while n is far below α. {f_name} is therefore "
                f"highest with θ low enough to keep every record: the sweep does not single "
                f"out a stricter θ. The θ from the core (the least similar core record) "
                f"is the method's own choice.")
    return tip


def _sub(beta: float) -> str:
    """β as a subscript for labels: 2 → ₂, 0.5 → "(0.5)"."""
    text = f"{beta:g}"
    return text.translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")) if text.isdigit() else f"({text})"
