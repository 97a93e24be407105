"""Label schemes of a screening and what a label means for recall and for training.

``include_exclude_maybe`` (the default): ``include``, ``exclude``, ``maybe``.
``graded``: relevance grades ``0`` … ``3`` (SPEC §3), stored as text.

Relevant (stopping rules, recall curve, simulation): ``include`` and ``maybe`` (a maybe
is kept for the next phase, so it cannot count as excluded), or a grade ≥
:data:`GRADED_RELEVANT_FROM`. Training target: include = 1, exclude = 0, a maybe is
left out (unknown); a grade is its own target (the ordinal model).
"""

from __future__ import annotations

from litqeval_gui.core.errors import LitqError

IEM = "include_exclude_maybe"
GRADED = "graded"
SCHEMES: dict[str, tuple[str, ...]] = {
    IEM: ("include", "exclude", "maybe"),
    GRADED: ("0", "1", "2", "3"),
}
PHASES = ("title_abstract", "full_text")
GRADED_RELEVANT_FROM = 1


def check_label(scheme: str, label: str) -> str:
    """``label`` when it belongs to ``scheme``; else a :class:`LitqError` naming the choices."""
    allowed = SCHEMES[scheme]
    if label not in allowed:
        raise LitqError(f"{label!r} is not a label of a {scheme} screening; "
                        f"use one of {', '.join(allowed)}")
    return label


def is_relevant(scheme: str, label: str) -> bool:
    """Whether ``label`` counts as relevant (module docstring)."""
    if scheme == GRADED:
        return int(label) >= GRADED_RELEVANT_FROM
    return label in ("include", "maybe")


def training_target(scheme: str, label: str) -> int | None:
    """The model's target for ``label``: 1/0 (include/exclude), the grade, or None (maybe)."""
    if scheme == GRADED:
        return int(label)
    return {"include": 1, "exclude": 0}.get(label)
