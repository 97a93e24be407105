"""The screening screen: one record at a time, keyboard-first (see :mod:`.view`)."""

from litqeval_gui.core.demo import sample_screening
from litqeval_gui.gui.screens.screening.start import choose_screening
from litqeval_gui.gui.screens.screening.view import ScreeningView

__all__ = ["ScreeningView", "choose_screening", "sample_screening"]
