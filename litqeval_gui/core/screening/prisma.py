"""The PRISMA 2020 flow of a topic, counted from the project (issue 26 §2).

One record is one report and one study (the project does not link several reports of
a study). The counts, for the databases-and-registers column:

- ``identified``: live records of each identification list, keyed by the label the
  user gave the list (:func:`~.prisma_entered.source_labels_op`), else the import's ``database`` (as
  people write it, :data:`DATABASE_NAMES`), else the list's name; lists of one label
  are summed. The
  lists are those of the title/abstract screening, or every result list of the topic
  when it has none. Each import is one identification source, so a search update
  imported as its own list adds its records to its database.
- ``duplicates_removed``: those records minus their distinct works (de-duplication).
- ``removed_automation``: works neither screened nor left out by the screening's record
  filter: the records the screening left undecided (its stopping point) and works a
  pool never brought into it.
- ``removed_other``: works the screening's record filter left out, plus the number the
  user entered (records removed before import, :func:`~.prisma_entered.entered_op`).
- ``screened`` / ``excluded_screening``: the title/abstract screening's decided records
  and those whose label is not relevant (:func:`~labels.is_relevant`; a maybe goes on).

So identified − duplicates − automation − filtered out = screened. The full-text
numbers come from the full-text screening (phase ``full_text``) that continues the
counted title/abstract screening (:func:`_pair`) when there is one, else they are zero: ``not_retrieved`` its records decided ``not_retrieved``
(:data:`~labels.NOT_RETRIEVED`) or, as before that label, excluded for a reason saying
the report was not retrievable (:data:`NOT_RETRIEVED_REASONS`), ``assessed`` its other
decided records, ``sought`` both (its undecided items are not counted yet, so sought −
not retrieved = assessed), ``excluded_fulltext`` its other exclusions per reason, and
``included`` its includes (without a full-text screening: the title/abstract includes).

A screening that grew with search updates (:mod:`.updates`) has rounds
(:func:`rounds`); ``round_number`` counts one: its lists' records, the duplicates of
works seen before (earlier rounds, or earlier in the round), the works first seen in it,
its items, the full-text records of its works, and ``previous_included``, the earlier
rounds' includes (PRISMA 2020's template for updated reviews; docs/prisma.md).

The other-methods column (websites, citation searching…) is entered by the user and
stored as per-topic parameters (:mod:`.prisma_entered`); its reports assessed are sought − not retrieved and its
studies included are assessed − excluded. The diagram's "Studies included in review"
adds both columns' studies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening import store, team
from litqeval_gui.core.screening.fulltext import parent_of
from litqeval_gui.core.screening.labels import GRADED, NOT_RETRIEVED, is_relevant
from litqeval_gui.core.screening.prisma_entered import Entered, entered, source_labels
from litqeval_gui.core.screening.store import Screening

NOT_RETRIEVED_REASONS = ("not retrievable", "not retrieved", "report not retrieved")  # casefolded
NO_REASON = "no reason given"
TITLE_ABSTRACT, FULL_TEXT = "title_abstract", "full_text"
DATABASE_NAMES = {"pubmed": "PubMed", "scopus": "Scopus", "wos": "Web of Science",
                  "dimensions": "Dimensions", "openalex": "OpenAlex", "lens": "Lens.org"}


@dataclass(frozen=True)
class Source:
    """One identification list: its name, the database it is counted under, its records."""

    list_name: str
    database: str
    records: int


@dataclass(frozen=True)
class PrismaCounts:
    """Every number of a topic's PRISMA 2020 diagram (module docstring)."""

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

    @property
    def identified(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for source in self.sources:
            totals[source.database] += source.records
        return dict(totals)

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

    def as_json(self) -> dict:
        """The document ``litqeval prisma --json`` prints (issue 26 §4): the whole
        screening's counts and ``rounds``, each round's (:meth:`round_json`)."""
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
            "identified": self.identified, "duplicates_removed": self.duplicates_removed,
            "removed_automation": self.removed_automation,
            "removed_other": self.removed_other, "screened": self.screened,
            "excluded_screening": self.excluded_screening, "sought": self.sought,
            "not_retrieved": self.not_retrieved, "assessed": self.assessed,
            "excluded_fulltext": dict(self.excluded_fulltext), "included": self.included,
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
        rows += [("identification", name, "", n) for name, n in (
            ("duplicates_removed", self.duplicates_removed),
            ("removed_automation", self.removed_automation),
            ("removed_other", self.removed_other))]
        rows += [("screening", name, "", n) for name, n in (
            ("screened", self.screened), ("excluded_screening", self.excluded_screening),
            ("sought", self.sought), ("not_retrieved", self.not_retrieved),
            ("assessed", self.assessed))]
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
    rounds' included records)."""

    sources: tuple[Source, ...]
    identified: dict[str, list[int]]
    duplicates_removed: list[int]
    removed_automation: list[int]
    filtered_out: list[int]
    screened: list[int]
    excluded_screening: list[int]
    sought: list[int]
    not_retrieved: list[int]
    assessed: list[int]
    excluded_fulltext: dict[str, list[int]]
    included: list[int]
    screening: Screening | None
    fulltext: Screening | None
    round: int | None = None
    previous_included: list[int] = field(default_factory=list)

    @property
    def total_included(self) -> list[int]:
        return [*self.previous_included, *self.included]

    def records(self, count: str, detail: str = "") -> list[int]:
        """The records of ``count`` (a name of :meth:`PrismaCounts.rows`; ``detail`` the
        database or reason); entered numbers have none."""
        found = getattr(self, {"removed_other": "filtered_out", "included_databases":
                               "included"}.get(count, count), None)
        if isinstance(found, dict):
            return list(found.get(detail, []))
        if count in ("sources", "screening", "fulltext", "round") or found is None:
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
                    counted: set[int]
                    ) -> tuple[list[Source], dict[str, list[int]], dict[int, int], list[int]]:
    """Each ``counted`` live list's source, the records per database, each work first
    seen in a counted list with its first record (list order, then rank) and the records
    of counted lists that repeat a work already seen (duplicates); the other lists
    (earlier rounds) only make their works seen."""
    sources, by_database = [], {}
    seen: set[int] = set()
    first: dict[int, int] = {}
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
                first[work_id] = record_id
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


def _work_rounds(project: Project, screening: Screening) -> dict[int, int]:
    """Each work of the screening's items → the round its item joined in."""
    return dict(project.db.execute(
        "SELECT r.work_id, i.round FROM screening_items i JOIN records r ON r.id = "
        "i.record_id WHERE i.screening_id = ?", [screening.id]).fetchall())


def _works(project: Project, record_ids: list[int]) -> dict[int, int]:
    """Record id → work id."""
    found: dict[int, int] = {}
    for start in range(0, len(record_ids), 500):
        page = record_ids[start:start + 500]
        found |= dict(project.db.execute(
            f"SELECT id, work_id FROM records WHERE id IN ({','.join('?' * len(page))})",
            page).fetchall())
    return found


def prisma_flow(project: Project, topic: str, *, screening: str | None = None,
                fulltext: str | None = None, round_number: int | None = None) -> Flow:
    """The records behind the topic's counts (module docstring). ``screening``/``fulltext``
    name the title/abstract and full-text screenings (default: :func:`_pair`);
    ``round_number`` counts one round of the title/abstract screening (:func:`rounds`):
    its lists' records, the works first seen in them, its items and the full-text
    records of its works; an unknown round is refused in one line."""
    topic_id = project.topic_id(topic)
    found = store.screenings(project, topic)
    first, second = _pair(project, found, screening, fulltext)
    if first is None:
        if round_number is not None:
            raise LitqError(f"topic {topic!r} has no title/abstract screening: no rounds")
        import_ids = [row[0] for row in project.db.execute(
            "SELECT id FROM live_imports WHERE topic_id = ? AND role = 'results' "
            "ORDER BY id", [topic_id])]
        counted = set(import_ids)
    else:
        by_round = rounds(project, first)
        if round_number is not None and round_number not in by_round:
            raise LitqError(f"screening {first.name!r} has no round {round_number} (rounds "
                            f"1–{max(by_round)})")
        import_ids = [i for number, lists in by_round.items()
                      if round_number is None or number <= round_number for i in lists]
        counted = set(by_round[round_number]) if round_number is not None else \
            set(import_ids)
    sources, by_database, work_first, duplicates = _identification(
        project, import_ids, source_labels(project, topic), counted)

    work_round = _work_rounds(project, first) if first is not None else {}
    record_work = _works(project, [*(store.items(project, first.id) if first else []),
                                   *(store.items(project, second.id) if second else [])])

    def of_round(record_id: int, number: int | None = round_number) -> bool:
        return number is None or work_round.get(record_work.get(record_id), 1) == number

    decided = [e for e in store.current_decisions(project, first.id) if of_round(e.record_id)
               ] if first else []
    every_final = team.final_events(project, first.id) if first else []  # resolutions count
    final = [e for e in every_final if of_round(e.record_id)]
    automation, filtered = [], []
    if first is not None:
        work_of = {record: work for work, record in work_first.items()} | record_work
        shown = {work_of[r]: r for r in store.items(project, first.id) if r in work_of}
        done = {work_of.get(e.record_id) for e in decided}
        is_filtered = first.record_filter != RecordFilter()
        for work, record in work_first.items():
            if work in done:
                continue
            if work in shown or not is_filtered:
                automation.append(shown.get(work, record))
            else:
                filtered.append(record)

    def earlier(record_id: int) -> bool:
        return round_number is not None and \
            work_round.get(record_work.get(record_id), 1) < round_number

    sought, not_retrieved, assessed, included, previous = [], [], [], [], []
    reasons: dict[str, list[int]] = {}
    if second is not None:
        every_second = team.final_events(project, second.id)
        previous = [e.record_id for e in every_second
                    if earlier(e.record_id) and _included(second, e.label)]
        final_second = [e for e in every_second if of_round(e.record_id)]
        decided_second = {e.record_id for e in final_second}
        sought = [r for r in store.items(project, second.id) if r in decided_second]
        for e in final_second:
            if e.label == NOT_RETRIEVED or (e.reason.strip().casefold() in NOT_RETRIEVED_REASONS
                                            and not _included(second, e.label)):
                not_retrieved.append(e.record_id)
                continue
            assessed.append(e.record_id)
            if _included(second, e.label):
                included.append(e.record_id)
            elif not is_relevant(second.scheme, e.label):
                reasons.setdefault(e.reason.strip() or NO_REASON, []).append(e.record_id)
    elif first is not None:
        included = [e.record_id for e in final if _included(first, e.label)]
        previous = [e.record_id for e in every_final
                    if earlier(e.record_id) and _included(first, e.label)]

    return Flow(
        sources=tuple(sources), identified=by_database, duplicates_removed=duplicates,
        removed_automation=automation, filtered_out=filtered,
        screened=[e.record_id for e in decided],
        excluded_screening=[e.record_id for e in final
                            if not is_relevant(first.scheme, e.label)] if first else [],
        sought=sought, not_retrieved=not_retrieved, assessed=assessed,
        excluded_fulltext=dict(sorted(reasons.items())), included=included,
        screening=first, fulltext=second, round=round_number, previous_included=previous)


def _counts(flow: Flow, topic: str, numbers: Entered,
            per_round: tuple[PrismaCounts, ...] = ()) -> PrismaCounts:
    return PrismaCounts(
        topic=topic, screening=flow.screening.name if flow.screening else None,
        fulltext=flow.fulltext.name if flow.fulltext else None, sources=flow.sources,
        duplicates_removed=len(flow.duplicates_removed),
        removed_automation=len(flow.removed_automation),
        filtered_out=len(flow.filtered_out), screened=len(flow.screened),
        excluded_screening=len(flow.excluded_screening), sought=len(flow.sought),
        not_retrieved=len(flow.not_retrieved), assessed=len(flow.assessed),
        excluded_fulltext={k: len(v) for k, v in flow.excluded_fulltext.items()},
        included_databases=len(flow.included), entered=numbers, round=flow.round,
        previous_included=len(flow.previous_included), rounds=per_round)


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
