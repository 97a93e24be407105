"""The overview screen: a topic at a glance (see :mod:`.view`)."""

from litqeval_gui.gui.screens.overview.view import OverviewView

__all__ = ["OverviewView"]
