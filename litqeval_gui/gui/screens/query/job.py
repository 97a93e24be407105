"""The Query screen's background work, Qt-free: one edited query evaluated on the topic's
records (its clause table, the list's own export) and the stored query's figures beside
it, plus the one-line texts the screen shows."""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass

from litqeval_gui.core.jobs import CancelToken, Progress
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.query import agreement, topic
from litqeval_gui.core.query.agreement import Agreement
from litqeval_gui.core.query.parser import QuerySyntaxError, parse
from litqeval_gui.core.query.topic import Analysis, Outcome

READING = "reading the topic's records"
EVALUATING = "evaluating the query"


@dataclass(frozen=True)
class Request:
    """What to evaluate: ``text`` read as ``syntax``; ``stored`` (the list's stored query)
    is evaluated too when given, for the before/after line."""

    topic: str
    list_name: str | None
    text: str
    syntax: str
    stored: str | None = None


@dataclass(frozen=True)
class Evaluated:
    """The answer to a :class:`Request`."""

    request: Request
    analysis: Analysis
    agreed: Agreement | None  # None: no list (nothing exported to agree with)
    stored: Outcome | None  # the stored query's whole; None when not asked or unreadable
    stored_error: str  # why the stored query could not be read, or ""
    seconds: float  # the evaluation, the index read before it not counted


def evaluate(project: Project, token: CancelToken,
             request: Request) -> Generator[Progress, None, Evaluated]:
    """Job: ``request`` evaluated (the topic's index built first when not cached)."""
    yield Progress(0, 0, READING)
    topic.load(project, request.topic)
    token.raise_if_cancelled()
    yield Progress(0, 0, EVALUATING)
    started = time.perf_counter()
    query = parse(request.text, request.syntax)
    analysis = topic.analyse(project, request.topic, query)
    token.raise_if_cancelled()
    agreed = agreement.agreement(project, request.topic, request.list_name, query) \
        if request.list_name else None
    stored, stored_error = None, ""
    if request.stored is not None:
        if request.stored.strip() == request.text.strip():
            stored = analysis.whole
        else:
            try:
                stored = topic.analyse(project, request.topic,
                                       parse(request.stored, request.syntax)).whole
            except QuerySyntaxError as exc:
                stored_error = str(exc)
    return Evaluated(request, analysis, agreed, stored, stored_error,
                     time.perf_counter() - started)


# --------------------------------------------------------------------------- texts

def counts(outcome: Outcome, n_core: int) -> str:
    """"1,690 works, 36/47 core" (SP_cos added when the topic has vectors)."""
    core = f"{outcome.core:,}/{n_core:,} core" if n_core else "no core set"
    sp = "" if outcome.sp_cos is None else f", SP_cos {outcome.sp_cos:.3f}"
    return f"{outcome.works:,} works, {core}{sp}"


def short_flag(clause: topic.Clause) -> str:
    """A few words for a flagged clause (the flag itself is the tooltip)."""
    return f"adds {clause.added:,} works, no core" if clause.flag else ""
