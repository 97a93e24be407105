"""The evaluation's parameters above the table: SP cos's θ (or "from core"), α, p, q, β,
the clustering θ, the MVEE tolerance, the embedding backend and the map method."""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QGridLayout, QLabel, QWidget

from litqeval_gui.core.embedding.registry import BACKENDS
from litqeval_gui.core.evaluation.map_store import MAP_METHODS
from litqeval_gui.core.evaluation.settings import RANGES, EvaluationSettings

NUMBERS = (  # name, label, decimals, step; the limits are the settings' RANGES
    ("alpha", "α", 0, 1000.0), ("p", "p", 2, 0.1), ("q", "q", 2, 1.0), ("beta", "β", 2, 0.5),
    ("cluster_theta", "cluster θ", 2, 0.05), ("mvee_tol", "MVEE tol", 6, 0.001))

# What each control does (its tooltip; the help page lists them too)
TIPS = {
    "from_core": "SP cos threshold from the core set: the similarity of the least similar "
                 "core work to the core centroid, so every core work passes (the paper's "
                 "default). Untick to set θ yourself",
    "theta": "θ: the cosine similarity to the core centroid a record needs to count as "
             "relevant for SP cos (higher: fewer, closer records)",
    "alpha": "α: the number of relevant records at which the decay λ(n) = (1 − (n/α)^p)^q "
             "reaches 0; larger lists are not penalised beyond it (default 50 000)",
    "p": "p: how early the decay bends (default 1.5; larger: λ stays near 1 longer)",
    "q": "q: how steeply the decay falls once it bends (default 10)",
    "beta": "β: the weight of recall against precision in F_β (2: recall counts four "
            "times as much)",
    "cluster_theta": "cluster θ: the share of the retrieved core works one k-means cluster "
                     "must keep for SP cluster (default 0.7)",
    "mvee_tol": "MVEE tolerance: when Khachiyan's algorithm stops refining the ellipse "
                "around the core works (default 0.0001; smaller: exacter, slower)",
    "backend": "backend: what turns title and abstract into vectors (the embedding); "
               "changing it recomputes every vector of the topic",
    "map_method": "map: how the vectors are drawn in 2D — UMAP (as the paper) or PCA (fast, "
                  "flatter). SP MVEE and SP hull are computed on this map",
}


def tip_html(text: str) -> str:
    """``text`` as a rich-text tooltip, which Qt wraps (a plain one is one long line)."""
    return f"<p>{html.escape(text)}</p>"


def _limits(name: str, decimals: int) -> tuple[float, float]:
    """The spin box's (minimum, maximum) for ``RANGES[name]``: an open end moves in by
    the smallest step the box shows."""
    limits = RANGES[name]
    step = 10.0 ** -decimals
    return (limits.low + step if limits.low_open else limits.low,
            limits.high - step if limits.high_open else limits.high)


class ParameterBar(QWidget):
    """One row of labelled controls; ``changed`` when the user changes one (not when
    :meth:`fill`, :meth:`set_theta` or :meth:`show_theta` set them)."""

    changed = Signal()

    def __init__(self, settings: EvaluationSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.from_core = QCheckBox("θ from core")
        low, high = _limits("theta", 3)
        self.theta = QDoubleSpinBox(decimals=3, minimum=low, maximum=high, singleStep=0.01)
        self.numbers: dict[str, QDoubleSpinBox] = {}
        self.backend = QComboBox()
        self.backend.addItems(list(BACKENDS))
        self.map_method = QComboBox()
        self.map_method.addItems(list(MAP_METHODS))
        cells: list[tuple[str, QWidget]] = [("", self.from_core), ("θ", self.theta)]
        for name, label, decimals, step in NUMBERS:
            low, high = _limits(name, decimals)
            box = QDoubleSpinBox(decimals=decimals, minimum=low, maximum=high, singleStep=step)
            self.numbers[name] = box
            cells.append((label, box))
        cells += [("backend", self.backend), ("map", self.map_method)]
        names = ["from_core", "theta", *(n[0] for n in NUMBERS), "backend", "map_method"]
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for column, ((label, widget), name) in enumerate(zip(cells, names, strict=True)):
            caption = QLabel(label)
            for shown in (caption, widget):
                shown.setToolTip(tip_html(TIPS[name]))
            grid.addWidget(caption, 0, column)
            grid.addWidget(widget, 1, column)
        grid.setColumnStretch(len(cells), 1)
        for box in [self.theta, *self.numbers.values()]:
            box.setKeyboardTracking(False)  # typed numbers count when finished
            box.valueChanged.connect(self._changed)
        self.from_core.toggled.connect(self._changed)
        for combo in (self.backend, self.map_method):
            combo.currentIndexChanged.connect(self._changed)
        self.fill(settings)

    def _controls(self) -> list[QWidget]:
        return [self.from_core, self.theta, self.backend, self.map_method,
                *self.numbers.values()]

    def _quietly(self, set_values) -> None:
        for widget in self._controls():
            widget.blockSignals(True)
        try:
            set_values()
        finally:
            for widget in self._controls():
                widget.blockSignals(False)
        self.theta.setEnabled(not self.from_core.isChecked())

    def fill(self, settings: EvaluationSettings) -> None:
        def set_values() -> None:
            self.from_core.setChecked(settings.theta is None)
            if settings.theta is not None:
                self.theta.setValue(settings.theta)
            for name, box in self.numbers.items():
                box.setValue(getattr(settings, name))
            self.backend.setCurrentText(settings.backend)
            self.map_method.setCurrentText(settings.map_method)

        self._quietly(set_values)

    def set_theta(self, theta: float) -> None:
        """Use ``theta`` instead of "from core"."""
        self._quietly(lambda: (self.from_core.setChecked(False), self.theta.setValue(theta)))

    def show_theta(self, theta: float) -> None:
        """Show the θ "from core" came to (the box stays disabled)."""
        self._quietly(lambda: self.theta.setValue(theta))

    def settings(self) -> EvaluationSettings:
        """The settings the controls describe (ProjectError when one is out of range)."""
        values = {name: box.value() for name, box in self.numbers.items()}
        theta = None if self.from_core.isChecked() else self.theta.value()
        return EvaluationSettings(theta=theta, backend=self.backend.currentText(),
                                  map_method=self.map_method.currentText(), **values)

    def _changed(self, *_args) -> None:
        self.theta.setEnabled(not self.from_core.isChecked())
        self.changed.emit()
