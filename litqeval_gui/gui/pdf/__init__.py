"""The PDF reader (:class:`~.reader.PdfReader`): PDFium pages drawn on a thread of their
own, page navigation, zoom, search and the screener's terms marked."""

from litqeval_gui.gui.pdf.reader import PdfReader

__all__ = ["PdfReader"]
