"""Reviewer names, reasons and notes as the log stores them: plain one-line text (the
rule list names use, :func:`~litqeval_gui.core.records.lists.plain_name`), so a merged
file's control characters never reach a terminal or a diagram."""

from __future__ import annotations

from collections.abc import Iterable

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.lists import plain_name


def plain_text(text: str, needed: str) -> str:
    """``text`` as plain one-line text (:func:`~litqeval_gui.core.records.lists.plain_name`);
    when nothing is left, a :class:`LitqError`: ``needed`` ("every decision needs the
    reviewer's name"), and why when ``text`` was not blank."""
    plain = plain_name(text)
    if not plain:
        raise LitqError(needed if not text.strip() else f"{needed}; {text[:20]!r}"
                        f"{'…' if len(text) > 20 else ''} is nothing but control characters")
    return plain


def plain_reasons(reasons: Iterable[str]) -> list[str]:
    """Exclusion reasons as plain one-line text (:func:`plain_text`), each once, in order."""
    return list(dict.fromkeys(plain_text(r, "an exclusion reason needs a text")
                              for r in reasons))
