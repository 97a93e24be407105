"""Page objects: what a test reads off a widget, kept out of the widgets themselves."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex


def sidebar_labels(tree) -> list[str]:
    """Every item's text of a topic tree, depth-first, two spaces of indent per level."""
    out: list[str] = []
    model = tree.model()

    def walk(parent: QModelIndex, depth: int) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            out.append("  " * depth + index.data())
            walk(index, depth + 1)

    walk(QModelIndex(), 0)
    return out


def preview_titles(table) -> list[str]:
    """The titles a preview table shows, top to bottom."""
    return [table.item(row, 0).text() for row in range(table.rowCount())]


def cached_pages(model) -> int:
    """How many pages of rows a records model holds in its cache."""
    return len(model._pages)


def summary_count(page, name: str, key: str) -> int:
    """The number a summary page shows for list ``name`` in row ``key`` (e.g. "matched")."""
    col = [s.name for s in page.summaries()].index(name)
    row = [k for k, _ in page.ROWS].index(key)
    return int(page.counts.item(row, col).text().replace(",", ""))


def sidebar_index(tree, text: str) -> QModelIndex:
    """The index of the sidebar item whose text is ``text`` or starts with ``text + " ("``."""
    model = tree.model()

    def walk(parent: QModelIndex):
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if index.data() == text or index.data().startswith(text + " ("):
                return index
            found = walk(index)
            if found is not None:
                return found
        return None

    found = walk(QModelIndex())
    assert found is not None, f"no sidebar item {text!r} in {sidebar_labels(tree)}"
    return found
