"""Label schemes of a screening and what a label means for recall and for training.

``include_exclude_maybe`` (the default): ``include``, ``exclude``, ``maybe``.
``graded``: relevance grades ``0`` … ``3`` (SPEC §3), stored as text.
A full-text screening also takes :data:`NOT_RETRIEVED` ("report not retrieved", its own
decision, which PRISMA counts as not retrieved), and its exclusion (``exclude``, or
grade ``0``) needs a reason from the screening's list (:func:`check_decision`).

Relevant (stopping rules, recall curve, simulation): ``include`` and ``maybe`` (a maybe
is kept for the next phase, so it cannot count as excluded), or a grade ≥
:data:`GRADED_RELEVANT_FROM`. Training target: include = 1, exclude = 0, a maybe is
left out (unknown); a grade is its own target (the ordinal model); a report not
retrieved is neither relevant nor training data.
"""

from __future__ import annotations

from collections.abc import Sequence

from litqeval_gui.core.errors import LitqError

IEM = "include_exclude_maybe"
GRADED = "graded"
SCHEMES: dict[str, tuple[str, ...]] = {
    IEM: ("include", "exclude", "maybe"),
    GRADED: ("0", "1", "2", "3"),
}
PHASES = ("title_abstract", "full_text")
FULL_TEXT = "full_text"
NOT_RETRIEVED = "not_retrieved"
EXCLUSION = {IEM: "exclude", GRADED: "0"}
GRADED_RELEVANT_FROM = 1


def phase_labels(scheme: str, phase: str) -> tuple[str, ...]:
    """The labels a screening of ``scheme`` takes in ``phase`` (module docstring)."""
    return SCHEMES[scheme] + ((NOT_RETRIEVED,) if phase == FULL_TEXT else ())


def check_label(scheme: str, label: str, phase: str = "title_abstract") -> str:
    """``label`` when a ``scheme`` screening takes it in ``phase``; else a
    :class:`LitqError` naming the choices."""
    allowed = phase_labels(scheme, phase)
    if label not in allowed:
        where = "full-text " if phase == FULL_TEXT else ""
        raise LitqError(f"{label!r} is not a label of a {where}{scheme} screening; "
                        f"use one of {', '.join(allowed)}")
    return label


def check_decision(scheme: str, phase: str, reasons: Sequence[str], label: str,
                   reason: str) -> str:
    """``label`` when it may be stored with ``reason``: a label of the phase, and at full
    text an exclusion names one of the screening's ``reasons``; else one line."""
    check_label(scheme, label, phase)
    if phase == FULL_TEXT and label == EXCLUSION[scheme] and reason not in reasons:
        choices = f"one of: {', '.join(reasons)}" if reasons else \
            "add reasons to the screening first"
        raise LitqError(f"an exclusion at full text needs a reason from the screening's "
                        f"list ({choices})" if not reason else
                        f"{reason!r} is not one of the screening's reasons ({choices})")
    return label


def label_text(label: str) -> str:
    """How ``label`` is written for people (screens, history, conflicts): ``not
    retrieved`` for :data:`NOT_RETRIEVED`, every other label as stored."""
    return "not retrieved" if label == NOT_RETRIEVED else label


def is_relevant(scheme: str, label: str) -> bool:
    """Whether ``label`` counts as relevant (module docstring)."""
    if label == NOT_RETRIEVED:
        return False
    if scheme == GRADED:
        return int(label) >= GRADED_RELEVANT_FROM
    return label in ("include", "maybe")


def training_target(scheme: str, label: str) -> int | None:
    """The model's target for ``label``: 1/0 (include/exclude), the grade, or None (a
    maybe, a report not retrieved)."""
    if label == NOT_RETRIEVED:
        return None
    if scheme == GRADED:
        return int(label)
    return {"include": 1, "exclude": 0}.get(label)
