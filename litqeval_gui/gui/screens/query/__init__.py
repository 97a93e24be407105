"""The Query screen: a result list's search query clause by clause, edited with the
effect shown at once (see :mod:`.view`)."""

from litqeval_gui.gui.screens.query.choice import choose_list, sample_list
from litqeval_gui.gui.screens.query.view import QueryView

__all__ = ["QueryView", "choose_list", "sample_list"]
