"""The PRISMA 2020 flow of a topic, counted from the project (SPEC §7; docs/prisma.md).

One record is one report and one study (the project does not link several reports of
a study). Identification counts records: ``identified``, the live records of each
identification list (the title/abstract screening's lists, every result list of the
topic without one), keyed by the label the user gave the list
(:func:`~litqeval_gui.core.screening.prisma.entered.source_labels_op`), else the import's ``database`` (as people
write it, :data:`DATABASE_NAMES`), else the list's name, plus the records the user
entered as removed before import; ``duplicates_removed``, those records minus their
distinct works.

Every distinct work is then in exactly one box, placed by :func:`_placer` from the
item states of :mod:`.state` (the final decision: a resolution wins): filtered out by
the screening's record filter (removed for other reasons, with the entered number);
never screened — *excluded by automation tools* once its round is finished
(:mod:`~litqeval_gui.core.screening.stopping.finishing`), else *not yet screened*; excluded at title/abstract; *pending*
at screening (an open conflict, a maybe not sent on); passed, so *sought*: pending
(not yet in the full-text screening, or not yet decided there), not retrieved
(:data:`~labels.NOT_RETRIEVED`, or an exclusion whose reason says so,
:data:`NOT_RETRIEVED_REASONS`), or *assessed*: pending (a full-text conflict or
maybe), excluded per reason, or included. So every stage is conserved
(:meth:`PrismaCounts.unbalanced`).

The full-text screening counted continues the title/abstract screening (:func:`_pair`).
A screening that grew with search updates (:mod:`~litqeval_gui.core.screening.stopping.updates`) has rounds (:func:`rounds`);
``round_number`` counts one: its lists' records, the duplicates of works seen before,
the works first seen in it, each placed as above, and ``previous_included``, the
earlier rounds' included works (PRISMA 2020's template for updated reviews).

The other-methods column (websites, citation searching…) is entered by the user and
stored as per-topic parameters (:mod:`~litqeval_gui.core.screening.prisma.entered`); its reports assessed are sought
− not retrieved and its studies included are assessed − excluded. The diagram's
"Studies included in review" adds both columns' studies.
"""


from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening import state
from litqeval_gui.core.screening.fulltext import parent_of
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import GRADED, NOT_RETRIEVED, is_relevant
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.core.screening.prisma.counts import PrismaCounts, Source
from litqeval_gui.core.screening.prisma.entered import Entered, entered, source_labels
from litqeval_gui.core.screening.stopping.finishing import Finish, finishes

NOT_RETRIEVED_REASONS = ("not retrievable", "not retrieved", "report not retrieved")  # casefolded
NO_REASON = "no reason given"
TITLE_ABSTRACT, FULL_TEXT = "title_abstract", "full_text"
DATABASE_NAMES = {"pubmed": "PubMed", "scopus": "Scopus", "wos": "Web of Science",
                  "dimensions": "Dimensions", "openalex": "OpenAlex", "lens": "Lens.org"}


# -- counting ------------------------------------------------------------------------------

def _latest(found: list[Screening], phase: str, name: str | None) -> Screening | None:
    if name is not None:
        chosen = next((s for s in found if s.name == name), None)
        if chosen is None:
            names = ", ".join(repr(s.name) for s in found) or "none"
            raise LitqError(f"no screening named {name!r} (screenings: {names})")
        if chosen.phase != phase:
            raise LitqError(f"screening {name!r} is a {chosen.phase} screening, not "
                            f"{phase}")
        return chosen
    of_phase = [s for s in found if s.phase == phase]
    return of_phase[-1] if of_phase else None


def _pair(project: Project, found: list[Screening], screening: str | None,
          fulltext: str | None) -> tuple[Screening | None, Screening | None]:
    """The title/abstract and full-text screenings counted together: the ones named;
    a named full text with its own title/abstract screening, else the newest one; and
    the newest full text started from that screening (one without a parent when none
    was), never a full text that continues another title/abstract screening."""
    second = _latest(found, FULL_TEXT, fulltext) if fulltext is not None else None
    parent = parent_of(project, second) if second is not None else None
    first = parent if screening is None and parent is not None else \
        _latest(found, TITLE_ABSTRACT, screening)
    if fulltext is None:
        parent_ids = {s.id: p.id if (p := parent_of(project, s)) else None
                      for s in found if s.phase == FULL_TEXT}
        ours = [s for s in found if s.id in parent_ids
                and parent_ids[s.id] == (first.id if first else None)]
        orphans = [s for s in found if s.id in parent_ids and parent_ids[s.id] is None]
        second = (ours or orphans or [None])[-1]
    return first, second


@dataclass(frozen=True)
class Flow:
    """The records behind each count of the databases-and-registers column (record ids;
    a work is shown by its screening item, else by its first record in list order), of
    the whole screening or of one round (``round``; ``previous_included`` the earlier
    rounds' included records). Every work first seen in the counted lists is in exactly
    one of: filtered out, automation, not yet screened, excluded, pending at screening,
    pending at sought, not retrieved, pending at assessment, excluded at full text,
    included (:func:`prisma_flow`)."""

    sources: tuple[Source, ...]
    identified: dict[str, list[int]]
    duplicates_removed: list[int]
    removed_automation: list[int]
    filtered_out: list[int]
    not_yet_screened: list[int]
    screened: list[int]
    excluded_screening: list[int]
    pending_screening: dict[str, list[int]]
    sought: list[int]
    pending_sought: dict[str, list[int]]
    not_retrieved: list[int]
    assessed: list[int]
    pending_assessed: dict[str, list[int]]
    excluded_fulltext: dict[str, list[int]]
    included: list[int]
    screening: Screening | None
    fulltext: Screening | None
    round: int | None = None
    previous_included: list[int] = field(default_factory=list)
    finished: tuple[Finish, ...] = ()  # the finished rounds counted

    @property
    def total_included(self) -> list[int]:
        return [*self.previous_included, *self.included]

    def records(self, count: str, detail: str = "") -> list[int]:
        """The records of ``count`` (a name of :meth:`PrismaCounts.rows`; ``detail`` the
        database, reason or kind of pending; none: every kind); entered numbers have
        none."""
        found = getattr(self, {"removed_other": "filtered_out", "included_databases":
                               "included"}.get(count, count), None)
        if isinstance(found, dict):
            return list(found.get(detail, [])) if detail else \
                [r for records in found.values() for r in records]
        if count in ("sources", "screening", "fulltext", "round", "finished") or \
                found is None:
            raise LitqError(f"no records behind the count {count!r}")
        return list(found)


def rounds(project: Project, screening: Screening) -> dict[int, list[int]]:
    """The screening's identification rounds, oldest first: round → its lists (import
    ids, in the screening's order). Round 1 is the lists the screening was created with;
    each search update that added works (``screening_rounds``) begins the next, and a
    list added after it that brought nothing new counts in it."""
    numbers = [row[0] for row in project.db.execute(
        "SELECT DISTINCT round FROM screening_items WHERE screening_id = ? UNION "
        "SELECT round FROM screening_rounds WHERE screening_id = ? ORDER BY 1",
        [screening.id, screening.id])]
    found: dict[int, list[int]] = {number: [] for number in [1, *numbers]}
    began = dict(project.db.execute(
        "SELECT import_id, round FROM screening_rounds WHERE screening_id = ? "
        "AND import_id IS NOT NULL", [screening.id]).fetchall())
    current = 1
    for import_id in screening.lists:
        current = began.get(import_id, current)
        found[current].append(import_id)
    return found


def _identification(project: Project, import_ids: list[int], labels: dict[int, str],
                    counted: set[int]) -> tuple[list[Source], dict[str, list[int]],
                                                dict[int, tuple[int, int]], list[int]]:
    """Each ``counted`` live list's source, the records per database, each work first
    seen in a counted list with its first record (list order, then rank) and that list,
    and the records of counted lists that repeat a work already seen (duplicates); the
    other lists (earlier rounds) only make their works seen."""
    sources, by_database = [], {}
    seen: set[int] = set()
    first: dict[int, tuple[int, int]] = {}
    duplicates = []
    for import_id in import_ids:
        row = project.db.execute("SELECT name, COALESCE(database, '') FROM live_imports "
                                 "WHERE id = ?", [import_id]).fetchone()
        if row is None:
            continue
        ids = []
        for record_id, work_id in project.db.execute(
                "SELECT id, work_id FROM records WHERE import_id = ? ORDER BY rank, id",
                [import_id]):
            ids.append(record_id)
            if import_id in counted and work_id in seen:
                duplicates.append(record_id)
            elif import_id in counted:
                first[work_id] = (record_id, import_id)
            seen.add(work_id)
        if import_id not in counted:
            continue
        database = row[1].strip()
        name = labels.get(import_id) or DATABASE_NAMES.get(database.casefold(),
                                                           database) or row[0]
        sources.append(Source(row[0], name, len(ids)))
        by_database.setdefault(name, []).extend(ids)
    return sources, by_database, first, duplicates


def _included(screening: Screening, label: str) -> bool:
    return is_relevant(screening.scheme, label) if screening.scheme == GRADED \
        else label == "include"


def _works(project: Project, screening_ids: list[int]) -> dict[int, int]:
    """Record id → work id, of the items of the screenings ``screening_ids``."""
    marks = ",".join("?" * len(screening_ids))
    return dict(project.db.execute(
        "SELECT id, work_id FROM records WHERE id IN (SELECT record_id FROM screening_items "
        f"WHERE screening_id IN ({marks}))", screening_ids).fetchall())


# the kinds of pending, as the diagram and the files name them
IN_CONFLICT, MAYBE_NOT_SENT = "in conflict", "maybe, not sent on"
NOT_IN_FULLTEXT, NOT_DECIDED = "not yet in the full-text screening", "not yet decided"
MAYBE = "maybe"


class _Place(NamedTuple):
    """Where one work stands in the flow: its box, the record that shows it, and the
    reason or kind of pending (``detail``). (A named tuple: one a work, and a topic may
    hold a million.)"""

    box: str
    record: int
    detail: str = ""


def _placer(project: Project, first: Screening | None, second: Screening | None
            ) -> Callable[[int, int, int], _Place]:
    """A function placing a work (id, its first record) in the flow (SPEC §7): the
    title/abstract state first (:mod:`.state`), then the full-text state of what passed."""
    ta = state.item_states(project, first) if first else []
    ft = state.item_states(project, second) if second else []
    work_of = _works(project, [s.id for s in (first, second) if s is not None])
    ta_of = {work_of[s.record_id]: s for s in ta if s.record_id in work_of}
    ft_of = {work_of[s.record_id]: s for s in ft if s.record_id in work_of}
    finished = finishes(project, first.id) if first else {}
    filtered = first is not None and first.record_filter != RecordFilter()

    def place(work: int, record: int, number: int) -> _Place:
        item = ta_of.get(work)
        if item is None and filtered:
            return _Place("filtered_out", record)
        if item is None or item.state == state.UNDECIDED:
            shown = item.record_id if item else record
            return _Place("removed_automation" if number in finished else
                          "not_yet_screened", shown)
        shown = item.record_id
        if item.state == state.CONFLICT:
            return _Place("pending_screening", shown, IN_CONFLICT)
        if not is_relevant(first.scheme, item.state):
            return _Place("excluded_screening", shown)
        report = ft_of.get(work)
        if item.state == MAYBE and report is None:
            return _Place("pending_screening", shown, MAYBE_NOT_SENT)
        if report is None:
            return _Place("pending_sought", shown, NOT_IN_FULLTEXT)
        if report.state == state.UNDECIDED:
            return _Place("pending_sought", report.record_id, NOT_DECIDED)
        assert second is not None  # a full-text state comes from it
        event = report.event
        label = report.state
        if label == NOT_RETRIEVED or (event is not None and not _included(second, label)
                                      and event.reason.strip().casefold()
                                      in NOT_RETRIEVED_REASONS):
            return _Place("not_retrieved", report.record_id)
        if label == state.CONFLICT:
            return _Place("pending_assessed", report.record_id, IN_CONFLICT)
        if _included(second, label):
            return _Place("included", report.record_id)
        if not is_relevant(second.scheme, label):
            reason = event.reason.strip() if event is not None else ""
            return _Place("excluded_fulltext", report.record_id, reason or NO_REASON)
        return _Place("pending_assessed", report.record_id, MAYBE)
    return place


SCREENED_BOXES = ("excluded_screening", "pending_screening", "pending_sought",
                  "not_retrieved", "pending_assessed", "excluded_fulltext", "included")


def prisma_flow(project: Project, topic: str, *, screening: str | None = None,
                fulltext: str | None = None, round_number: int | None = None) -> Flow:
    """The records behind the topic's counts (module docstring). ``screening``/``fulltext``
    name the title/abstract and full-text screenings (default: :func:`_pair`);
    ``round_number`` counts one round of the title/abstract screening (:func:`rounds`):
    its lists' records and the works first seen in them; an unknown round is refused in
    one line."""
    topic_id = project.topic_id(topic)
    found = store.screenings(project, topic)
    first, second = _pair(project, found, screening, fulltext)
    if first is None:
        if round_number is not None:
            raise LitqError(f"topic {topic!r} has no title/abstract screening: no rounds")
        by_round = {1: [row[0] for row in project.db.execute(
            "SELECT id FROM live_imports WHERE topic_id = ? AND role = 'results' "
            "ORDER BY id", [topic_id])]}
    else:
        by_round = rounds(project, first)
        if round_number is not None and round_number not in by_round:
            raise LitqError(f"screening {first.name!r} has no round {round_number} (rounds "
                            f"1–{max(by_round)})")
    round_of = {i: number for number, lists in by_round.items() for i in lists}
    import_ids = [i for number, lists in by_round.items()
                  if round_number is None or number <= round_number for i in lists]
    counted = set(by_round[round_number]) if round_number is not None else set(import_ids)
    labels = source_labels(project, topic)
    sources, by_database, work_first, duplicates = _identification(
        project, import_ids, labels, counted)
    place = _placer(project, first, second)

    boxes: dict[str, dict[str, list[int]]] = {}
    placed = [place(work, record, round_of[import_id])
              for work, (record, import_id) in work_first.items()]
    for where in placed:
        boxes.setdefault(where.box, {}).setdefault(where.detail, []).append(where.record)
    previous = []
    if round_number is not None and round_number > 1:
        earlier = set(import_ids) - counted
        _, _, earlier_first, _ = _identification(project, import_ids, labels, earlier)
        previous = [where.record for work, (record, import_id) in earlier_first.items()
                    if (where := place(work, record, round_of[import_id])).box == "included"]

    def flat(box: str) -> list[int]:
        return [r for records in boxes.get(box, {}).values() for r in records]

    def detailed(box: str) -> dict[str, list[int]]:
        return dict(sorted(boxes.get(box, {}).items()))

    shown_rounds = set(by_round) if round_number is None else {round_number}
    finished = tuple(f for number, f in (finishes(project, first.id) if first else {}).items()
                     if number in shown_rounds)
    def among(chosen: tuple[str, ...]) -> list[int]:  # in list order
        return [where.record for where in placed if where.box in chosen]

    screened, sought, assessed = (among(SCREENED_BOXES), among(SCREENED_BOXES[2:]),
                                  among(SCREENED_BOXES[4:]))
    return Flow(
        sources=tuple(sources), identified=by_database, duplicates_removed=duplicates,
        removed_automation=flat("removed_automation"), filtered_out=flat("filtered_out"),
        not_yet_screened=flat("not_yet_screened"), screened=screened,
        excluded_screening=flat("excluded_screening"),
        pending_screening=detailed("pending_screening"), sought=sought,
        pending_sought=detailed("pending_sought"), not_retrieved=flat("not_retrieved"),
        assessed=assessed, pending_assessed=detailed("pending_assessed"),
        excluded_fulltext=detailed("excluded_fulltext"), included=flat("included"),
        screening=first, fulltext=second, round=round_number, previous_included=previous,
        finished=finished)


def _counts(flow: Flow, topic: str, numbers: Entered,
            per_round: tuple[PrismaCounts, ...] = ()) -> PrismaCounts:
    def sizes(found: dict[str, list[int]]) -> dict[str, int]:
        return {k: len(v) for k, v in found.items()}
    return PrismaCounts(
        topic=topic, screening=flow.screening.name if flow.screening else None,
        fulltext=flow.fulltext.name if flow.fulltext else None, sources=flow.sources,
        duplicates_removed=len(flow.duplicates_removed),
        removed_automation=len(flow.removed_automation),
        filtered_out=len(flow.filtered_out), screened=len(flow.screened),
        excluded_screening=len(flow.excluded_screening), sought=len(flow.sought),
        not_retrieved=len(flow.not_retrieved), assessed=len(flow.assessed),
        excluded_fulltext=sizes(flow.excluded_fulltext),
        included_databases=len(flow.included), entered=numbers, round=flow.round,
        previous_included=len(flow.previous_included), rounds=per_round,
        not_yet_screened=len(flow.not_yet_screened),
        pending_screening=sizes(flow.pending_screening),
        pending_sought=sizes(flow.pending_sought),
        pending_assessed=sizes(flow.pending_assessed), finished=flow.finished)


def prisma_counts(project: Project, topic: str, *, screening: str | None = None,
                  fulltext: str | None = None, round_number: int | None = None
                  ) -> PrismaCounts:
    """The topic's PRISMA 2020 counts (module docstring); arguments as :func:`prisma_flow`.
    The whole screening's carry each round's counts (``rounds``, without the entered
    numbers, which are the whole review's); one round's carry the entered numbers (its
    diagram is the review's newest version) and the earlier rounds' included studies."""
    flow = prisma_flow(project, topic, screening=screening, fulltext=fulltext,
                       round_number=round_number)
    numbers = entered(project, topic)
    if round_number is not None or flow.screening is None:
        return _counts(flow, topic, numbers)
    numbers_of_rounds = list(rounds(project, flow.screening))
    per_round = (_counts(replace(flow, round=1), topic, Entered()),) \
        if len(numbers_of_rounds) == 1 else tuple(  # one round: the whole flow
            _counts(prisma_flow(project, topic, screening=screening, fulltext=fulltext,
                                round_number=number), topic, Entered())
            for number in numbers_of_rounds)
    return _counts(flow, topic, numbers, per_round)


def round_numbers(project: Project, topic: str, *, screening: str | None = None
                  ) -> list[int]:
    """The rounds of the title/abstract screening counted (:func:`rounds`; none without
    one)."""
    chosen = _latest(store.screenings(project, topic), TITLE_ABSTRACT, screening)
    return list(rounds(project, chosen)) if chosen is not None else []


def diagram_round(project: Project, topic: str, *, screening: str | None = None,
                  round_number: int | None = None) -> int | None:
    """The round the diagram shows: ``round_number`` when given, else the newest round
    of a screening with more than one (the update layout), else None (the whole flow)."""
    if round_number is not None:
        return round_number
    numbers = round_numbers(project, topic, screening=screening)
    return numbers[-1] if len(numbers) > 1 else None
