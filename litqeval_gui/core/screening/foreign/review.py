"""A review made in another tool, as its reader hands it to the intake: the records
files to import, every decision naming its record by file and entry, and what the
tool says about the review (docs/interop.md).

A reader checks everything before the intake writes anything: a decision's reviewer
and reason are plain one-line text, its label one of ``include``/``exclude``/``maybe``
(or ``not_retrieved`` at full text), its time an ISO 8601 stamp or empty (the tool
stores none: the intake then identifies it by what it says, not by when).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import ParseResult, read_records
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.screening.log.labels import FULL_TEXT, NOT_RETRIEVED, PHASES

LABELS = ("include", "exclude", "maybe")
MAX_DECISIONS = 5_000_000  # more than any review holds; a bigger file is refused
MAX_TEXT = 10_000  # characters of a note or a reason


@dataclass(frozen=True)
class Decision:
    """One reviewer's decision on the record of rank ``rank`` (1-based among the
    records the importer accepts) of records file ``file`` (an index into
    ``Review.files``)."""

    file: int
    rank: int
    reviewer: str
    label: str
    at: str = ""
    reason: str = ""
    note: str = ""
    tags: tuple[str, ...] = ()
    prior: bool = False
    phase: str = "title_abstract"


@dataclass(frozen=True)
class RecordsFile:
    """A file the app's importers read, imported as list ``name`` from ``database``."""

    path: Path
    name: str
    database: str = ""


@dataclass
class Review:
    """What a reader found: ``tool`` ("ASReview LAB 1.6", "Rayyan"), the screening's
    ``name``, its records files and decisions, the exclusion ``reasons`` they use, a
    ``note`` kept with the screening (the model the tool used…) and ``unmatched``: the
    decisions that name no record, each with why."""

    tool: str
    name: str
    files: list[RecordsFile]
    decisions: list[Decision] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    note: str = ""
    unmatched: list[str] = field(default_factory=list)

    def add(self, decision: Decision, where: str) -> None:
        """Add ``decision`` once it is valid (module docstring); one line why not."""
        if len(self.decisions) >= MAX_DECISIONS:
            raise ImportRefused(f"{where}: more than {MAX_DECISIONS:,} decisions; this is "
                                "not a review file")
        label = decision.label
        if label not in LABELS and not (label == NOT_RETRIEVED and decision.phase == FULL_TEXT):
            raise ImportRefused(f"{where}: {label!r} is not a decision")
        if decision.phase not in PHASES:
            raise ImportRefused(f"{where}: {decision.phase!r} is not a screening phase")
        reviewer = plain_name(decision.reviewer)
        if not reviewer:
            raise ImportRefused(f"{where}: a decision names no reviewer")
        if len(decision.note) > MAX_TEXT or len(decision.reason) > MAX_TEXT:
            raise ImportRefused(f"{where}: a note or reason is longer than {MAX_TEXT:,} "
                                "characters")
        if decision.at and not _is_stamp(decision.at):
            raise ImportRefused(f"{where}: {decision.at[:40]!r} is not a time stamp")
        reason = plain_name(decision.reason)
        if reason and reason not in self.reasons:
            self.reasons.append(reason)
        self.decisions.append(Decision(
            decision.file, decision.rank, reviewer, label, decision.at, reason,
            decision.note, tuple(plain_name(t) for t in decision.tags if plain_name(t)),
            decision.prior, decision.phase))

    @property
    def reviewers(self) -> dict[str, int]:
        """Reviewer → their decisions, by name."""
        counts: dict[str, int] = {}
        for decision in self.decisions:
            counts[decision.reviewer] = counts.get(decision.reviewer, 0) + 1
        return dict(sorted(counts.items()))


def parsed(path: Path) -> ParseResult:
    """The records of ``path`` as the import will read them (ranks, raw fields)."""
    return run_job(read_records(path))


def entry_ranks(result: ParseResult) -> tuple[dict[int, int], dict[int, str]]:
    """(entry → rank, entry → why it was rejected) for the entries of ``result``
    (1-based, as the importer counts them; the records in order)."""
    rejected = {r.number: r.reason for r in result.rejected}
    ranks, rank = {}, 0
    for entry in range(1, len(result.records) + len(rejected) + 1):
        if entry not in rejected:
            rank += 1
            ranks[entry] = rank
    return ranks, rejected


def _is_stamp(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True
