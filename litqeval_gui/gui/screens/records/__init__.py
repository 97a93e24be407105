"""The records screen: one imported list's records (see :mod:`.view`)."""

from litqeval_gui.gui.screens.records.view import RecordsView

__all__ = ["RecordsView"]
