"""The evaluation's parameters above the table: SP cos's θ (or "from core"), α, p, q, β,
the clustering θ, the MVEE tolerance, the embedding backend and the map method."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QGridLayout, QLabel, QWidget

from litqeval_gui.core.embedding.registry import BACKENDS
from litqeval_gui.core.evaluation.map_store import MAP_METHODS
from litqeval_gui.core.evaluation.settings import RANGES, EvaluationSettings

NUMBERS = (  # name, label, decimals, step; the limits are the settings' RANGES
    ("alpha", "α", 0, 1000.0), ("p", "p", 2, 0.1), ("q", "q", 2, 1.0), ("beta", "β", 2, 0.5),
    ("cluster_theta", "cluster θ", 2, 0.05), ("mvee_tol", "MVEE tol", 6, 0.001))


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
        self.from_core.setToolTip("SP cos threshold: the similarity of the least similar core "
                                  "record to the core centroid (the paper's default)")
        low, high = _limits("theta", 3)
        self.theta = QDoubleSpinBox(decimals=3, minimum=low, maximum=high, singleStep=0.01)
        self.theta.setToolTip("SP cos threshold θ (cosine similarity to the core centroid)")
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
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for column, (label, widget) in enumerate(cells):
            grid.addWidget(QLabel(label), 0, column)
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
