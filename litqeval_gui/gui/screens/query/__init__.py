"""The Query screen: a result list's search query clause by clause, edited with the
effect shown at once (see :mod:`.view`)."""

from litqeval_gui.gui.screens.query.view import QueryView, choose_list, sample_list

__all__ = ["QueryView", "choose_list", "sample_list"]
