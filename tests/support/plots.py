"""Reading a drawn pyqtgraph plot back in GUI tests."""

from __future__ import annotations


def tick_values(item, axis: str, pixels: int = 300) -> list[float]:
    """The values ``axis`` ("left" or "bottom") of the plot item ``item`` ticks over its
    current view range, as drawn ``pixels`` long."""
    low, high = item.vb.viewRange()[0 if axis == "bottom" else 1]
    return [v for _spacing, level in item.getAxis(axis).tickValues(low, high, pixels)
            for v in level]
