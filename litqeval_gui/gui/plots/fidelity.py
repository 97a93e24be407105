"""The projection-fidelity badge shown beside every number computed on the 2D map.

Fidelity is the share of the full embedding's variance the 2D map explains (a PLS
regression from the map to the embedding, SPEC §1.5; the paper's map has 7.15 %).
Below ``threshold`` the badge turns to a warning colour and says so.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

DEFAULT_THRESHOLD = 0.10
EXPLANATION = ("Projection fidelity: the share of the full embedding's variance the 2D map "
               "explains (PLS regression from the map to the embedding). MVEE, hull and "
               "anything else measured on the map is only as faithful as this.")
_WARNING_STYLE = ("QLabel { background: #E69F00; color: #000000; border-radius: 4px; "
                  "padding: 2px 6px; font-weight: bold; }")
_PLAIN_STYLE = "QLabel { padding: 2px 6px; }"


class FidelityBadge(QLabel):
    """``set_fidelity(0.0715)`` shows "map fidelity 7.2 %"; ``low`` is True (warning
    colour, "low" in the text) when the value is below ``threshold`` or unknown."""

    def __init__(self, parent=None, *, threshold: float = DEFAULT_THRESHOLD) -> None:
        super().__init__(parent)
        self.threshold = threshold
        self.value: float | None = None
        self.set_fidelity(None)

    @property
    def low(self) -> bool:
        return self.value is None or self.value < self.threshold

    def set_fidelity(self, value: float | None) -> None:
        self.value = value
        if value is None:
            text = "map fidelity unknown"
        else:
            text = f"map fidelity {100 * value:.1f} %" + (" — low" if self.low else "")
        self.setText(("⚠ " if self.low else "") + text)
        self.setStyleSheet(_WARNING_STYLE if self.low else _PLAIN_STYLE)
        threshold = f"Shown as low below {100 * self.threshold:.0f} %."
        self.setToolTip(f"{EXPLANATION} {threshold}")
