"""The numbers of a topic's PRISMA 2020 diagram that the user enters, stored as per-topic
parameters (no schema change): records removed before import for other reasons, the
other-methods column, and the label each identification list is counted under."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.core.records.lists import plain_name
from litqeval_gui.core.records.queries import find_list

NUMBER = parameters.Range(0, integer=True)
MOST = 10**12  # more records than any search finds


def _problem(value: object) -> str | None:
    """Why ``value`` is no count of :data:`NUMBER` (an integer too large for a float
    too), or None."""
    if isinstance(value, int) and value > MOST:
        return f"must be at most {MOST:,}"
    return NUMBER.problem(value)


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
            wrong = _problem(value)
            if wrong:
                return f"{name} {wrong}"
        if any(not key.strip() for key in (*self.other_identified, *self.other_excluded)):
            return "a source or reason needs a name"
        if self.other_not_retrieved > self.other_sought:
            return "other methods: more reports not retrieved than sought"
        if self.other_included < 0:
            return "other methods: more reports excluded than assessed"
        return None


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
                   and _problem(p[1]) is None and not isinstance(p[1], bool)
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
    """Store the topic's entered numbers (one write; their names as plain one-line text,
    :func:`~litqeval_gui.core.records.lists.plain_name`); numbers that cannot stand
    together (:meth:`Entered.problem`) are refused with one line and nothing is written."""
    numbers = replace(numbers, **{
        kind: {plain_name(name): n for name, n in getattr(numbers, kind).items()}
        for kind in ("other_identified", "other_excluded")})
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
    for list_name, given in labels.items():
        import_id = find_list(project, topic, list_name).id
        label = plain_name(given)
        if label:
            chosen[import_id] = label
        else:
            chosen.pop(import_id, None)
    return parameters.set_value_op(_labels(project.topic_id(topic)),
                                   [[k, v] for k, v in chosen.items()])
