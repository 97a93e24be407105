"""Covidence exports: one file per stage (CSV or RIS), the stage each record reached.

Covidence names each export ``review_<id>_<stage>_<format>_<time>.<ext>``; the
stage says how far its records got, which becomes the team's final decisions (its
export carries no reviewer's own vote):

==========  ================================  ==========================================
stage       Covidence                         here
==========  ================================  ==========================================
screen      awaiting title/abstract           no decision
irrelevant  excluded at title/abstract        exclude
select      awaiting full text review         include (title/abstract)
excluded    excluded at full text, a reason   include, then full text exclude + reason
included    included                          include, then full text include
==========  ================================  ==========================================

The full-text reason is the CSV's ``Exclusion Reason`` column when there is one, else
a note "Exclusion reason: …" (CSV ``Notes``, RIS ``N1``); an exclusion without one is
refused, since PRISMA counts exclusions by reason.
"""

from __future__ import annotations

import re
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.records.importing import ParseResult
from litqeval_gui.core.screening.foreign.review import (
    Decision,
    RecordsFile,
    Review,
    entry_ranks,
    parsed,
)
from litqeval_gui.core.screening.log.labels import FULL_TEXT

TOOL = "Covidence"
DEFAULT_REVIEWER = "Covidence (team decision)"
STAGES = ("screen", "irrelevant", "select", "excluded", "included")
_FILE = re.compile(r"review_(\d+)_(" + "|".join(STAGES) + r")_(?:csv|ris|xml)_", re.I)
_NOTE_REASON = re.compile(r"exclusion reason:\s*([^;|\n]+)", re.I)
_REASON_COLUMNS = ("exclusion reason", "exclusion reasons", "reason for exclusion")
_DECISIONS = {"irrelevant": (("title_abstract", "exclude"),),
              "select": (("title_abstract", "include"),),
              "excluded": (("title_abstract", "include"), (FULL_TEXT, "exclude")),
              "included": (("title_abstract", "include"), (FULL_TEXT, "include"))}


def stage(path: Path) -> tuple[str, str] | None:
    """(review id, stage) of a Covidence export's file name, or None."""
    match = _FILE.search(path.name)
    return (match.group(1), match.group(2).lower()) if match else None


def sniff(path: Path) -> bool:
    """Whether ``path`` is named as Covidence names a stage's export."""
    return stage(path) is not None and not path.name.lower().endswith(".asreview")


def read(paths: list[Path], reviewer: str = "") -> Review:
    """The review of Covidence's stage exports ``paths`` (module docstring): the final
    decisions by ``reviewer`` (default :data:`DEFAULT_REVIEWER`)."""
    stages = [stage(path) for path in paths]
    if any(s is None for s in stages):
        unnamed = next(p.name for p, s in zip(paths, stages, strict=True) if s is None)
        raise ImportRefused(f"{unnamed}: cannot tell its Covidence stage; Covidence names "
                            "its exports review_<id>_<stage>_csv_<time>.csv")
    reviews = {s[0] for s in stages if s}
    if len(reviews) > 1:
        raise ImportRefused(f"these files are exports of {len(reviews)} Covidence reviews "
                            f"({', '.join(sorted(reviews))}); import one review at a time")
    names = [s[1] for s in stages if s]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ImportRefused(f"two files of Covidence stage {repeated[0]!r}; give one per stage")
    review = Review(tool=TOOL, name=f"Covidence: review {reviews.pop()}",
                    files=[RecordsFile(p, p.stem, "Covidence") for p in paths],
                    note="Covidence exports " + ", ".join(p.name for p in paths)
                         + " (the team's final decisions)")
    who = reviewer or DEFAULT_REVIEWER
    for index, (path, name) in enumerate(zip(paths, names, strict=True)):
        result = parsed(path)
        _unmatched(review, path, result)
        for record in result.records:
            where = f"{path.name}, record {record.rank}"
            reason = _reason(record.raw) if name == "excluded" else ""
            if name == "excluded" and not reason:
                raise ImportRefused(f"{where}: a full-text exclusion without its reason "
                                    "(an 'Exclusion Reason' column or a note 'Exclusion "
                                    "reason: …')")
            for phase, label in _DECISIONS.get(name, ()):
                review.add(Decision(index, record.rank, who, label,
                                    reason=reason if phase == FULL_TEXT else "",
                                    tags=_tags(record.raw), phase=phase), where)
    if not review.decisions:
        raise ImportRefused("these Covidence exports hold records awaiting screening only; "
                            "import them as lists of records instead")
    return review


def _unmatched(review: Review, path: Path, result: ParseResult) -> None:
    _, rejected = entry_ranks(result)
    review.unmatched += [f"{path.name}, record {entry}: the importer rejected it ({why}); "
                         "its decision was not imported" for entry, why in rejected.items()]


def _reason(raw: dict) -> str:
    for key, value in raw.items():
        if str(key).strip().lower() in _REASON_COLUMNS and str(value).strip():
            return str(value).strip()
    for key in ("Notes", "notes", "N1"):
        value = raw.get(key)
        texts = value if isinstance(value, list) else [value] if value else []
        for text in texts:
            match = _NOTE_REASON.search(str(text))
            if match:
                return match.group(1).strip()
    return ""


def _tags(raw: dict) -> tuple[str, ...]:
    value = raw.get("Tags") or raw.get("tags") or ""
    return tuple(t.strip() for t in str(value).split(";") if t.strip())
