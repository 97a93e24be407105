"""Finishing a title/abstract round: the reviewer's decision that its records never
screened will not be (SPEC §7; table ``screening_finishes``).

Until a round is finished its unscreened records are *not yet screened*; once it is,
they are *excluded by automation tools* in PRISMA, and the diagram's note names the
stopping rule read at that moment (the one the panel recommends then,
:func:`~litqeval_gui.core.screening.stopping.panel.recommended`),
its verdict and the recall estimate. A finish is one write and cannot be taken back; a
decision made afterwards still counts as screened.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project, now
from litqeval_gui.core.projectfile.stored import read_json
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.screening.log.labels import FULL_TEXT
from litqeval_gui.core.screening.log.store import DECISIONS, Screening
from litqeval_gui.core.screening.stopping.panel import screening_panel


@dataclass(frozen=True)
class Finish:
    """Round ``round`` finished by ``reviewer`` at ``at``: the rule read then (its title),
    whether it said stop, its evidence, the recall estimate's text ("" without one), and
    the round's items, screened and relevant records then."""

    round: int
    at: str
    reviewer: str
    rule: str
    stop: bool
    evidence: dict
    estimate: str
    items: int
    screened: int
    relevant: int

    def text(self) -> str:
        """One line for the diagram's note, the CLI and the screener."""
        verdict = "said stop" if self.stop else "still said keep screening"
        estimate = f"; {self.estimate}" if self.estimate else ""
        return (f"Round {self.round} finished by {self.reviewer} on {self.at[:10]} after "
                f"{self.screened:,} of {self.items:,} records screened ({self.relevant:,} "
                f"relevant): {self.rule} {verdict}{estimate}")


def _plain(value: object) -> object:
    """An evidence value as JSON (NaN and infinities as None)."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    try:
        number = float(value)  # numpy scalars
    except (TypeError, ValueError):
        return str(value)
    return number if math.isfinite(number) else None


def finish_round_op(screening: Screening, reviewer: str, number: int | None = None) -> Op:
    """Finish round ``number`` (default: the current round) of a title/abstract screening
    as ``reviewer``, with the recommended rule's reading of that round now; the op's value
    is the :class:`Finish`. Refused in one line for a full-text screening, an unknown or
    already finished round."""
    if not reviewer.strip():
        raise LitqError("finishing a round needs the reviewer's name")
    if screening.phase == FULL_TEXT:
        raise LitqError(f"screening {screening.name!r} is a full-text screening: every "
                        "report sought is decided there, no round is finished")

    def op(p: Project) -> Done[Finish]:
        rounds = [row[0] for row in p.db.execute(
            "SELECT DISTINCT round FROM screening_items WHERE screening_id = ? ORDER BY 1",
            [screening.id])] or [1]
        chosen = rounds[-1] if number is None else number
        if chosen not in rounds:
            raise LitqError(f"screening {screening.name!r} has no round {chosen} (rounds "
                            f"1–{rounds[-1]})")
        done = finishes(p, screening.id).get(chosen)
        if done is not None:
            raise LitqError(f"round {chosen} of screening {screening.name!r} was finished "
                            f"already ({done.reviewer}, {done.at[:16].replace('T', ' ')})")
        read = screening_panel(p, screening, number=chosen)
        verdict = read.verdict(read.recommended)
        assert verdict is not None  # the recommended rule is always read
        estimate = read.estimate.text() if read.estimate is not None else ""
        finish = Finish(chosen, now(), reviewer.strip(),
                        f"{verdict.title.split(' (')[0]} ({verdict.kind})",
                        bool(verdict.decision.stop),
                        {k: _plain(v) for k, v in verdict.decision.evidence.items()},
                        estimate, read.n_total, read.screened, read.found)
        p.db.execute(
            "INSERT INTO screening_finishes (screening_id, round, at, reviewer, rule, stop, "
            "evidence, estimate, items, screened, relevant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?)", [screening.id, chosen, finish.at, finish.reviewer, finish.rule,
                         int(finish.stop), json.dumps(finish.evidence), estimate,
                         finish.items, finish.screened, finish.relevant])
        return Done(DECISIONS, finish)
    return op


def finishes(project: Project, screening_id: int) -> dict[int, Finish]:
    """The screening's finished rounds: round → its :class:`Finish`."""
    found = {}
    for row in project.db.execute(
            "SELECT round, at, reviewer, rule, stop, evidence, estimate, items, screened, "
            "relevant FROM screening_finishes WHERE screening_id = ? ORDER BY round",
            [screening_id]):
        evidence = read_json(row[5], f"the finish of round {row[0]}", dict, part="evidence")
        found[row[0]] = Finish(row[0], row[1], row[2], row[3], bool(row[4]), evidence,
                               *row[6:])
    return found
