"""The screener's "Current decision" line: the shown record's label and note; in a team
screening (read unblinded) whose each label is, when anyone besides the reviewer
decided the record."""

from __future__ import annotations

import html
from collections.abc import Mapping

from litqeval_gui.core.screening.log.labels import label_text


def decision_text(label: str | None, decided: Mapping[str, str], reviewer: str,
                  note: str = "") -> str:
    """Rich text for the line. ``label``: the record's current label as the screen
    holds it (None: undecided); ``decided``: reviewer → their current label on the
    record (empty in a blind screening); ``reviewer``: who reads, named "you"."""
    shown_note = f" · note: {html.escape(note)}" if note else ""
    if set(decided) - {reviewer}:
        each = "; ".join(f"<b>{html.escape(label_text(lab))}</b> "
                         f"({'you' if who == reviewer else html.escape(who)})"
                         for who, lab in decided.items())
        plural = "s" if len(decided) > 1 else ""
        return f"Current decision{plural}: {each}{shown_note}"
    if label is None:
        return f"Not decided yet{shown_note}"
    return f"Current decision: <b>{html.escape(label_text(label))}</b>{shown_note}"
