"""Recall as a set count, shown where a list is (issue 24 §1): the words of a result
list's recall and a dialog of the core works it missed, one click away from the sidebar's
list, the records view and the import summary.

Recall is read from :func:`~litqeval_gui.core.evaluation.recall.recall_report` (the
numbers the evaluation shows too), never waits for vectors or a map.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.evaluation.recall import ListRecall, MissedRecord

MISSED_LINK = "missed"  # the href of the "n missed" link in recall_html


class HasMissed(Protocol):
    """A list's recall with its missed core (a ListRecall or the evaluation's ListEvaluation)."""

    name: str
    core: int
    missed: Sequence[MissedRecord]


def missed_html(item: HasMissed) -> str:
    """The core works the list missed, with DOIs (pending review marked), as HTML."""
    e = html.escape
    head = (f"<b>{e(item.name)}</b> missed {len(item.missed)} of {item.core} core works"
            f"{':' if item.missed else '.'}")
    rows = "".join(
        f"<li>{e(m.title or '(no title)')}{f' ({m.year})' if m.year else ''}"
        + (f" — <a href='https://doi.org/{e(m.doi)}'>{e(m.doi)}</a>" if m.doi else "")
        + (" <i>(pending review: an uncertain match would retrieve it)</i>"
           if m.pending_review else "") + "</li>"
        for m in item.missed)
    return head + (f"<ul>{rows}</ul>" if rows else "")


def recall_text(retrieved: int, core: int) -> str:
    """``recall 0.957 (45 of 47 core works)``; ``no core set`` without one."""
    if not core:
        return "no core set"
    return f"recall {retrieved / core:.3f} ({retrieved:,} of {core:,} core works)"


def recall_tip(retrieved: int, core: int) -> str:
    """What the recall counts, for a tooltip."""
    if not core:
        return "Import a core set into this topic to see the recall of its result lists"
    return (f"Recall = core works in this list / core works = {retrieved:,} / {core:,}: "
            f"{core - retrieved:,} core works missed (de-duplicated works, as the "
            "evaluation counts them)")


def recall_html(item: ListRecall, *, compact: bool = False) -> str:
    """``Recall 0.957 (45 of 47 core works) · 2 missed…`` (``compact``: ``0.957 (45/47)
    · 2 missed…``) with the missed count a link (:data:`MISSED_LINK`) when the list
    missed any."""
    if compact:
        text = f"{item.recall:.3f} ({item.retrieved_core:,}/{item.core:,})"
    else:
        text = html.escape(recall_text(item.retrieved_core, item.core))
        text = text[:1].upper() + text[1:]
    missed = item.core - item.retrieved_core
    if not missed:
        return f"<b>{text}</b> · none missed"
    pending = f", {item.pending} pending review" if item.pending else ""
    return (f"<b>{text}</b> · <a href='{MISSED_LINK}'>{missed:,} missed{pending}…</a>")


class MissedCoreDialog(QDialog):
    """The core works one result list missed, with their DOIs (pending review marked)."""

    def __init__(self, item: ListRecall, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Core works missed by {item.name}")
        self.text = QTextBrowser(openExternalLinks=True)
        self.text.setHtml(missed_html(item))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(640, 420)


def show_missed_core(item: ListRecall, parent: QWidget) -> MissedCoreDialog:
    """Open the dialog over ``parent`` (window-modal); it is deleted when closed."""
    dialog = MissedCoreDialog(item, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


class RecallLabel(QLabel):
    """A result list's recall (:func:`recall_html`; hidden without one) whose "missed…"
    link opens the dialog of the core works it missed."""

    def __init__(self, *, compact: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.compact = compact
        self.recall: ListRecall | None = None
        self.missed_dialog: MissedCoreDialog | None = None
        self.setTextFormat(Qt.TextFormat.RichText)
        self.linkActivated.connect(lambda link: self.show_missed() if link == MISSED_LINK
                                   else None)

    def show_recall(self, item: ListRecall | None) -> None:
        self.recall = item
        self.setVisible(item is not None)
        if item is not None:
            self.setText(recall_html(item, compact=self.compact))
            self.setToolTip(recall_tip(item.retrieved_core, item.core))

    def show_missed(self) -> MissedCoreDialog | None:
        """Open the dialog of the core works the list missed (None without a recall)."""
        if self.recall is None:
            return None
        self.missed_dialog = show_missed_core(self.recall, self.window())
        return self.missed_dialog
