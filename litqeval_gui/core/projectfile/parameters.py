"""Per-project parameters (evaluation, screening, highlight terms, pooling), typed.

Each parameter is a :class:`Parameter` with a key, a type and a default; values are
stored as JSON in the ``parameters`` table. :func:`get` returns the stored value or
the default; :func:`set_value` is a write op that checks the type first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project

T = TypeVar("T", int, float, str, bool, list)


@dataclass(frozen=True)
class Parameter(Generic[T]):
    key: str
    type: type[T]
    default: T


def get(project: Project, parameter: Parameter[T]) -> T:
    """The stored value of ``parameter``, or its default when none is stored."""
    row = project.db.execute("SELECT value FROM parameters WHERE key = ?",
                             [parameter.key]).fetchone()
    return parameter.default if row is None else _checked(parameter, json.loads(row[0]))


def set_value(project: Project, parameter: Parameter[T], value: T) -> Changes:
    """Store ``value`` for ``parameter`` (a write); a value of the wrong type is refused."""
    return set_values(project, [(parameter, value)])


def set_values(project: Project, values: Sequence[tuple[Parameter, object]]) -> Changes:
    """Store several (parameter, value) pairs in one write; any wrong type refuses all."""
    rows = [(parameter.key, json.dumps(_checked(parameter, value)))
            for parameter, value in values]

    def op(p: Project) -> Changes:
        p.db.conn.executemany("INSERT OR REPLACE INTO parameters (key, value) VALUES (?, ?)",
                              rows)
        return Changes(parameters=True)

    return project.write(op)


def _checked(parameter: Parameter[T], value: object) -> T:
    wanted = parameter.type
    ok = isinstance(value, wanted) and not (wanted is not bool and isinstance(value, bool))
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)  # type: ignore[return-value]
    if not ok:
        raise ProjectError(f"parameter {parameter.key!r} must be a {wanted.__name__}, "
                           f"not {value!r}")
    return value  # type: ignore[return-value]


# -- screening (issue 14) ------------------------------------------------------------------
SCREENING_MODEL = Parameter("screening.model", str, "logistic")  # logistic | svm | nb
SCREENING_FEATURES = Parameter("screening.features", str, "tfidf")  # tfidf | embedding[:BACKEND]
SCREENING_QUESTION = Parameter("screening.question", str, "")  # cold start: the review question
HIGHLIGHT_INCLUDE = Parameter("screening.highlight_include", list, [])  # terms, ``robot*``
HIGHLIGHT_EXCLUDE = Parameter("screening.highlight_exclude", list, [])
STOP_RECALL_TARGET = Parameter("screening.stop.recall_target", float, 0.95)  # hypergeometric
STOP_CONFIDENCE = Parameter("screening.stop.confidence", float, 0.95)
STOP_CONSECUTIVE = Parameter("screening.stop.consecutive", int, 50)  # irrelevant in a row
STOP_BATCH_SIZE = Parameter("screening.stop.batch_size", int, 10)  # thesis rule's batches
