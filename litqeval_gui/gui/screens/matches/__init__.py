"""The uncertain-matches review, a dialog over the main window (see :mod:`.dialog`)."""

from litqeval_gui.gui.screens.matches.dialog import MatchesDialog, open_matches_dialog

__all__ = ["MatchesDialog", "open_matches_dialog"]
