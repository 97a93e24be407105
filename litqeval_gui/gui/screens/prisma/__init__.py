"""The PRISMA screen: a topic's PRISMA 2020 flow diagram with its exports (see :mod:`.view`)."""

from litqeval_gui.gui.screens.prisma.view import PrismaView

__all__ = ["PrismaView"]
