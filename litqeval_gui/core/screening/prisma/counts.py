"""The counts of a topic's PRISMA 2020 diagram (:class:`PrismaCounts`) as :mod:`.flow`
counts them, with the equations they must keep (SPEC §7), the diagram's notes and the
rows and JSON the CLI and the CSV give."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from litqeval_gui.core.screening.prisma.entered import Entered
from litqeval_gui.core.screening.stopping.finishing import Finish


@dataclass(frozen=True)
class Source:
    """One identification list: its name, the database it is counted under, its records."""

    list_name: str
    database: str
    records: int


@dataclass(frozen=True)
class PrismaCounts:
    """Every number of a topic's PRISMA 2020 diagram (module docstring); ``pending_*``
    per kind of pending (``IN_CONFLICT`` …), ``finished`` the finished rounds counted."""

    topic: str
    screening: str | None  # the title/abstract screening counted, if any
    fulltext: str | None  # the full-text screening counted, if any
    sources: tuple[Source, ...]
    duplicates_removed: int
    removed_automation: int
    filtered_out: int
    screened: int
    excluded_screening: int
    sought: int
    not_retrieved: int
    assessed: int
    excluded_fulltext: dict[str, int]
    included_databases: int
    entered: Entered
    round: int | None = None  # the round counted (None: the whole screening)
    previous_included: int = 0  # a round's: studies included in the earlier rounds
    rounds: tuple[PrismaCounts, ...] = ()  # the whole screening's: each round's counts
    not_yet_screened: int = 0
    pending_screening: dict[str, int] = field(default_factory=dict)
    pending_sought: dict[str, int] = field(default_factory=dict)
    pending_assessed: dict[str, int] = field(default_factory=dict)
    finished: tuple[Finish, ...] = ()

    @property
    def identified(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for source in self.sources:
            totals[source.database] += source.records
        return dict(totals)

    @property
    def identified_total(self) -> int:
        """The records identified: those imported and those entered as removed before
        import (identified, but never imported)."""
        return sum(self.identified.values()) + self.entered.removed_other

    @property
    def removed_other(self) -> int:
        return self.filtered_out + self.entered.removed_other

    @property
    def included(self) -> int:
        """Studies included in the review (a round's: its new studies): both columns."""
        return self.included_databases + self.entered.other_included

    @property
    def total_included(self) -> int:
        """A round's studies with those of the earlier rounds (the review's total)."""
        return self.previous_included + self.included

    def unbalanced(self) -> list[str]:
        """The SPEC §7 equations of the databases-and-registers column that do not hold
        (none, unless the project is damaged), each as one line."""
        pend = {name: sum(getattr(self, f"pending_{name}").values())
                for name in ("screening", "sought", "assessed")}
        equations = [
            ("identified − duplicates − automation − other − not yet screened = screened",
             self.identified_total - self.duplicates_removed - self.removed_automation
             - self.removed_other - self.not_yet_screened, self.screened),
            ("screened = excluded + sought + pending", self.screened,
             self.excluded_screening + self.sought + pend["screening"]),
            ("sought = not retrieved + assessed + pending", self.sought,
             self.not_retrieved + self.assessed + pend["sought"]),
            ("assessed = excluded with reasons + included + pending", self.assessed,
             sum(self.excluded_fulltext.values()) + self.included_databases
             + pend["assessed"])]
        return [f"{text}: {left:,} ≠ {right:,}" for text, left, right in equations
                if left != right]

    def notes(self) -> list[str]:
        """The diagram's notes: each finished round (who, when, the stopping rule), and
        what is still pending or not yet screened."""
        lines = [f.text() for f in self.finished]
        if self.not_yet_screened:
            lines.append(f"{self.not_yet_screened:,} records not yet screened: their round "
                         "is not finished (Finish Screening Round…)")
        pending = sum(self.pending_screening.values()) + sum(self.pending_sought.values()) \
            + sum(self.pending_assessed.values())
        if pending:
            lines.append(f"{pending:,} records pending a decision (open conflicts, maybes "
                         "not sent on, reports not yet assessed)")
        return lines

    def as_json(self) -> dict:
        """The document ``litqeval prisma --json`` prints: the whole screening's counts
        and ``rounds``, each round's (:meth:`round_json`)."""
        return self._json() | {"rounds": [r.round_json() for r in self.rounds]}

    def round_json(self) -> dict:
        """A round's counts: its number, lists, the keys of :meth:`as_json` but
        ``other_methods`` (entered numbers are the whole review's) and
        ``previous_included``."""
        document = self._json()
        del document["other_methods"]
        return {"round": self.round, "lists": [s.list_name for s in self.sources]} | \
            document | {"previous_included": self.previous_included}

    def _json(self) -> dict:
        e = self.entered
        return {
            "identified": self.identified, "identified_total": self.identified_total,
            "removed_before_import": e.removed_other,
            "duplicates_removed": self.duplicates_removed,
            "removed_automation": self.removed_automation,
            "removed_other": self.removed_other, "not_yet_screened": self.not_yet_screened,
            "screened": self.screened,
            "excluded_screening": self.excluded_screening,
            "pending_screening": dict(self.pending_screening), "sought": self.sought,
            "pending_sought": dict(self.pending_sought),
            "not_retrieved": self.not_retrieved, "assessed": self.assessed,
            "pending_assessed": dict(self.pending_assessed),
            "excluded_fulltext": dict(self.excluded_fulltext), "included": self.included,
            "finished_rounds": [asdict(f) for f in self.finished],
            "other_methods": {
                "identified": dict(e.other_identified), "sought": e.other_sought,
                "not_retrieved": e.other_not_retrieved, "assessed": e.other_assessed,
                "excluded": dict(e.other_excluded), "included": e.other_included},
        }

    def rows(self) -> list[tuple[str, str, str, int]]:
        """The counts as (stage, count, detail, n) rows, in diagram order (the CSV)."""
        e = self.entered
        rows = [("identification", "identified", database, n)
                for database, n in self.identified.items()]
        if e.removed_other:
            rows.append(("identification", "removed_before_import", "", e.removed_other))
        rows += [("identification", name, "", n) for name, n in (
            ("duplicates_removed", self.duplicates_removed),
            ("removed_automation", self.removed_automation),
            ("removed_other", self.removed_other),
            ("not_yet_screened", self.not_yet_screened))]
        rows += [("screening", name, "", n) for name, n in (
            ("screened", self.screened), ("excluded_screening", self.excluded_screening))]
        rows += [("screening", "pending_screening", k, n)
                 for k, n in self.pending_screening.items()]
        rows.append(("screening", "sought", "", self.sought))
        rows += [("screening", "pending_sought", k, n) for k, n in self.pending_sought.items()]
        rows += [("screening", name, "", n) for name, n in (
            ("not_retrieved", self.not_retrieved), ("assessed", self.assessed))]
        rows += [("screening", "pending_assessed", k, n)
                 for k, n in self.pending_assessed.items()]
        rows += [("screening", "excluded_fulltext", r, n)
                 for r, n in self.excluded_fulltext.items()]
        rows += [("other_methods", "identified", k, n) for k, n in e.other_identified.items()]
        rows += [("other_methods", name, "", n) for name, n in (
            ("sought", e.other_sought), ("not_retrieved", e.other_not_retrieved),
            ("assessed", e.other_assessed))]
        rows += [("other_methods", "excluded", r, n) for r, n in e.other_excluded.items()]
        rows += [("included", "included_databases", "", self.included_databases),
                 ("included", "included_other_methods", "", e.other_included),
                 ("included", "included", "", self.included)]
        if self.round is not None:
            rows += [("included", "previous_included", "", self.previous_included),
                     ("included", "total_included", "", self.total_included)]
        for r in self.rounds:  # stage "round N": the round's own counts
            rows += [(f"round {r.round}", name, detail, n) for stage, name, detail, n
                     in r.rows() if stage != "other_methods"
                     and name != "included_other_methods"]
        return rows
