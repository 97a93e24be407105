"""The pooling screen: a topic's incremental pools (see :mod:`.view`)."""

from litqeval_gui.gui.screens.pooling.view import PoolingView

__all__ = ["PoolingView"]
