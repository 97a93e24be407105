"""The PRISMA 2020 flow of a topic, counted from the project (issue 26 §2).

One record is one report and one study (the project does not link several reports of
a study). The counts, for the databases-and-registers column:

- ``identified``: live records of each identification list, keyed by the label the
  user gave the list (:func:`source_labels_op`), else the import's ``database`` (as
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
  user entered (records removed before import, :func:`entered_op`).
- ``screened`` / ``excluded_screening``: the title/abstract screening's decided records
  and those whose label is not relevant (:func:`~labels.is_relevant`; a maybe goes on).

So identified − duplicates − automation − filtered out = screened. The full-text
numbers come from the topic's full-text screening (phase ``full_text``) when there is
one, else they are zero: ``not_retrieved`` its records decided ``not_retrieved``
(:data:`~labels.NOT_RETRIEVED`) or, as before that label, excluded for a reason saying
the report was not retrievable (:data:`NOT_RETRIEVED_REASONS`), ``assessed`` its other
decided records, ``sought`` both (its undecided items are not counted yet, so sought −
not retrieved = assessed), ``excluded_fulltext`` its other exclusions per reason, and
``included`` its includes (without a full-text screening: the title/abstract includes).

The other-methods column (websites, citation searching…) is entered by the user and
stored as per-topic parameters; its reports assessed are sought − not retrieved and its
studies included are assessed − excluded. The diagram's "Studies included in review"
adds both columns' studies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records.queries import RecordFilter, find_list
from litqeval_gui.core.screening import store, team
from litqeval_gui.core.screening.labels import GRADED, NOT_RETRIEVED, is_relevant
from litqeval_gui.core.screening.store import Screening

NOT_RETRIEVED_REASONS = ("not retrievable", "not retrieved", "report not retrieved")  # casefolded
NO_REASON = "no reason given"
TITLE_ABSTRACT, FULL_TEXT = "title_abstract", "full_text"
NUMBER = parameters.Range(0, integer=True)
DATABASE_NAMES = {"pubmed": "PubMed", "scopus": "Scopus", "wos": "Web of Science",
                  "dimensions": "Dimensions", "openalex": "OpenAlex", "lens": "Lens.org"}


@dataclass(frozen=True)
class Source:
    """One identification list: its name, the database it is counted under, its records."""

    list_name: str
    database: str
    records: int


@dataclass(frozen=True)
class Entered:
    """The numbers the user enters (stored per topic): records removed before import
    for other reasons, and the other-methods column (source → records, reason → reports)."""

    removed_other: int = 0
    other_identified: dict[str, int] = field(default_factory=dict)
    other_sought: int = 0
    other_not_retrieved: int = 0
    other_excluded: dict[str, int] = field(default_factory=dict)

    @property
    def other_assessed(self) -> int:
        return self.other_sought - self.other_not_retrieved

    @property
    def other_included(self) -> int:
        return self.other_assessed - sum(self.other_excluded.values())

    @property
    def other_used(self) -> bool:
        """Whether the diagram needs the other-methods column."""
        return bool(self.other_identified or self.other_sought or self.other_excluded)

    def problem(self) -> str | None:
        """Why these numbers cannot stand together, or None."""
        numbers = {"removed other": self.removed_other, "other sought": self.other_sought,
                   "other not retrieved": self.other_not_retrieved,
                   **{f"other source {k!r}": v for k, v in self.other_identified.items()},
                   **{f"other reason {k!r}": v for k, v in self.other_excluded.items()}}
        for name, value in numbers.items():
            wrong = NUMBER.problem(value)
            if wrong:
                return f"{name} {wrong}"
        if any(not key.strip() for key in (*self.other_identified, *self.other_excluded)):
            return "a source or reason needs a name"
        if self.other_not_retrieved > self.other_sought:
            return "other methods: more reports not retrieved than sought"
        if self.other_included < 0:
            return "other methods: more reports excluded than assessed"
        return None


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
        """Studies included in the review: both columns."""
        return self.included_databases + self.entered.other_included

    def as_json(self) -> dict:
        """The document ``litqeval prisma --json`` prints (issue 26 §4)."""
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
        return rows


# -- the numbers the user enters (per-topic parameters: no schema change) ------------------

def _int(topic_id: int, name: str) -> parameters.Parameter:
    return parameters.Parameter(f"prisma.{topic_id}.{name}", int, 0, NUMBER)


def _pairs(topic_id: int, name: str) -> parameters.Parameter:
    """A name → number mapping, stored as a list of ``[name, n]`` pairs (order kept)."""
    return parameters.Parameter(f"prisma.{topic_id}.{name}", list, [])


def entered(project: Project, topic: str) -> Entered:
    """The topic's entered numbers (zeros when none are stored); a damaged one raises
    :class:`DamagedDataError`."""
    topic_id = project.topic_id(topic)

    def pairs(name: str) -> dict[str, int]:
        parameter = _pairs(topic_id, name)
        stored = parameters.get(project, parameter)
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                   and NUMBER.problem(p[1]) is None and not isinstance(p[1], bool)
                   for p in stored):
            raise DamagedDataError(f"the stored parameter {parameter.key!r}",
                                   "it is not a list of [name, count] pairs")
        return {name: int(n) for name, n in stored}

    return Entered(removed_other=parameters.get(project, _int(topic_id, "removed_other")),
                   other_identified=pairs("other_identified"),
                   other_sought=parameters.get(project, _int(topic_id, "other_sought")),
                   other_not_retrieved=parameters.get(project,
                                                      _int(topic_id, "other_not_retrieved")),
                   other_excluded=pairs("other_excluded"))


def entered_op(project: Project, topic: str, numbers: Entered) -> Op:
    """Store the topic's entered numbers (one write); numbers that cannot stand together
    (:meth:`Entered.problem`) are refused with one line and nothing is written."""
    problem = numbers.problem()
    if problem:
        raise LitqError(f"PRISMA numbers of topic {topic!r}: {problem}")
    topic_id = project.topic_id(topic)
    return parameters.set_values_op([
        (_int(topic_id, "removed_other"), numbers.removed_other),
        (_pairs(topic_id, "other_identified"), [[k, v] for k, v in
                                                numbers.other_identified.items()]),
        (_int(topic_id, "other_sought"), numbers.other_sought),
        (_int(topic_id, "other_not_retrieved"), numbers.other_not_retrieved),
        (_pairs(topic_id, "other_excluded"), [[k, v] for k, v in
                                              numbers.other_excluded.items()]),
    ])


def _labels(topic_id: int) -> parameters.Parameter:
    """The user's label of each identification list: ``[[import id, label], …]``."""
    return parameters.Parameter(f"prisma.{topic_id}.source_labels", list, [])


def source_labels(project: Project, topic: str) -> dict[int, str]:
    """The user's label of each list (import id → label) the diagram counts it under."""
    parameter = _labels(project.topic_id(topic))
    stored = parameters.get(project, parameter)
    if not all(isinstance(p, list) and len(p) == 2 and type(p[0]) is int
               and isinstance(p[1], str) and p[1].strip() for p in stored):
        raise DamagedDataError(f"the stored parameter {parameter.key!r}",
                               "it is not a list of [list id, label] pairs")
    return {import_id: label for import_id, label in stored}


def source_labels_op(project: Project, topic: str, labels: dict[str, str]) -> Op:
    """Label lists (list name → label; an empty label takes the list's own back) for
    the diagram, keeping the other lists' labels; an unknown list is refused."""
    chosen = source_labels(project, topic)
    for list_name, label in labels.items():
        import_id = find_list(project, topic, list_name).id
        if label.strip():
            chosen[import_id] = label.strip()
        else:
            chosen.pop(import_id, None)
    return parameters.set_value_op(_labels(project.topic_id(topic)),
                                   [[k, v] for k, v in chosen.items()])


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


@dataclass(frozen=True)
class Flow:
    """The records behind each count of the databases-and-registers column (record ids;
    a work is shown by its screening item, else by its first record in list order)."""

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

    def records(self, count: str, detail: str = "") -> list[int]:
        """The records of ``count`` (a name of :meth:`PrismaCounts.rows`; ``detail`` the
        database or reason); entered numbers have none."""
        found = getattr(self, {"removed_other": "filtered_out", "included_databases":
                               "included"}.get(count, count), None)
        if isinstance(found, dict):
            return list(found.get(detail, []))
        if count in ("sources", "screening", "fulltext") or found is None:
            raise LitqError(f"no records behind the count {count!r}")
        return list(found)


def _identification(project: Project, import_ids: list[int], labels: dict[int, str]
                    ) -> tuple[list[Source], dict[str, list[int]], dict[int, int], list[int]]:
    """Each live list's source, the records per database, each work's first record (list
    order, then rank) and the records that repeat a work already seen (duplicates)."""
    sources, by_database = [], {}
    first: dict[int, int] = {}
    duplicates = []
    for import_id in import_ids:
        row = project.db.execute("SELECT name, COALESCE(database, '') FROM live_imports "
                                 "WHERE id = ?", [import_id]).fetchone()
        if row is None:
            continue
        database = row[1].strip()
        name = labels.get(import_id) or DATABASE_NAMES.get(database.casefold(),
                                                           database) or row[0]
        ids = []
        for record_id, work_id in project.db.execute(
                "SELECT id, work_id FROM records WHERE import_id = ? ORDER BY rank, id",
                [import_id]):
            ids.append(record_id)
            if work_id in first:
                duplicates.append(record_id)
            else:
                first[work_id] = record_id
        sources.append(Source(row[0], name, len(ids)))
        by_database.setdefault(name, []).extend(ids)
    return sources, by_database, first, duplicates


def _included(screening: Screening, label: str) -> bool:
    return is_relevant(screening.scheme, label) if screening.scheme == GRADED \
        else label == "include"


def prisma_flow(project: Project, topic: str, *, screening: str | None = None,
                fulltext: str | None = None) -> Flow:
    """The records behind the topic's counts (module docstring). ``screening``/``fulltext``
    name the title/abstract and full-text screenings (default: the newest of each)."""
    topic_id = project.topic_id(topic)
    found = store.screenings(project, topic)
    first = _latest(found, TITLE_ABSTRACT, screening)
    second = _latest(found, FULL_TEXT, fulltext)
    import_ids = list(first.lists) if first else [row[0] for row in project.db.execute(
        "SELECT id FROM live_imports WHERE topic_id = ? AND role = 'results' ORDER BY id",
        [topic_id])]
    sources, by_database, work_first, duplicates = _identification(
        project, import_ids, source_labels(project, topic))

    decided = store.current_decisions(project, first.id) if first else []
    final = team.final_events(project, first.id) if first else []  # resolutions count
    automation, filtered = [], []
    if first is not None:
        work_of = {record: work for work, record in work_first.items()}
        items = store.items(project, first.id)
        marks = ",".join("?" * len(items))
        work_of |= dict(project.db.execute(
            f"SELECT id, work_id FROM records WHERE id IN ({marks})", items)) if items else {}
        shown = {work_of[r]: r for r in items if r in work_of}  # work → its screening item
        done = {work_of.get(e.record_id) for e in decided}
        is_filtered = first.record_filter != RecordFilter()
        for work, record in work_first.items():
            if work in done:
                continue
            if work in shown or not is_filtered:
                automation.append(shown.get(work, record))
            else:
                filtered.append(record)

    sought, not_retrieved, assessed, included = [], [], [], []
    reasons: dict[str, list[int]] = {}
    if second is not None:
        final_second = team.final_events(project, second.id)
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

    return Flow(
        sources=tuple(sources), identified=by_database, duplicates_removed=duplicates,
        removed_automation=automation, filtered_out=filtered,
        screened=[e.record_id for e in decided],
        excluded_screening=[e.record_id for e in final
                            if not is_relevant(first.scheme, e.label)] if first else [],
        sought=sought, not_retrieved=not_retrieved, assessed=assessed,
        excluded_fulltext=dict(sorted(reasons.items())), included=included,
        screening=first, fulltext=second)


def prisma_counts(project: Project, topic: str, *, screening: str | None = None,
                  fulltext: str | None = None) -> PrismaCounts:
    """The topic's PRISMA 2020 counts (module docstring); arguments as :func:`prisma_flow`."""
    flow = prisma_flow(project, topic, screening=screening, fulltext=fulltext)
    return PrismaCounts(
        topic=topic, screening=flow.screening.name if flow.screening else None,
        fulltext=flow.fulltext.name if flow.fulltext else None, sources=flow.sources,
        duplicates_removed=len(flow.duplicates_removed),
        removed_automation=len(flow.removed_automation),
        filtered_out=len(flow.filtered_out), screened=len(flow.screened),
        excluded_screening=len(flow.excluded_screening), sought=len(flow.sought),
        not_retrieved=len(flow.not_retrieved), assessed=len(flow.assessed),
        excluded_fulltext={k: len(v) for k, v in flow.excluded_fulltext.items()},
        included_databases=len(flow.included), entered=entered(project, topic))
