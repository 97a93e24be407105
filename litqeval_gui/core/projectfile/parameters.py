"""Per-project parameters (evaluation, screening, highlight terms, pooling), typed.

Each parameter is a :class:`Parameter` with a key, a type, a default and, for numbers,
its :class:`Range`; values are stored as JSON in the ``parameters`` table. :func:`get`
returns the stored value or the default (a stored value of the wrong type or out of
range is refused as damaged); :func:`set_value` is a write op that checks the value
first. A :class:`Range` is also what the command line and the app check a number
against where it enters (``Range.check``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.projectfile.changes import Changes
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError, read_json
from litqeval_gui.core.projectfile.writes import Op

T = TypeVar("T", int, float, str, bool, list)


@dataclass(frozen=True)
class Range:
    """The values a number may take: finite, from ``low`` to ``high`` (an end is left
    out when ``low_open``/``high_open``), whole when ``integer``."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False
    high_open: bool = False
    integer: bool = False

    def __str__(self) -> str:
        if self.integer and self.high == math.inf:
            return f"a whole number >= {_shown(self.low)}"
        left, right = "(" if self.low_open else "[", ")" if self.high_open else "]"
        kind = "a whole number" if self.integer else "a finite number"
        return f"{kind} in {left}{_shown(self.low)}, {_shown(self.high)}{right}"

    def problem(self, value: object) -> str | None:
        """Why ``value`` is not in the range, or None when it is."""
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if (not number or not math.isfinite(value)  # type: ignore[arg-type]
                or (self.integer and not float(value).is_integer())  # type: ignore[arg-type]
                or not (self.low < value if self.low_open else self.low <= value)  # type: ignore[operator]
                or not (value < self.high if self.high_open else value <= self.high)):  # type: ignore[operator]
            return f"must be {self}, not {value!r}"
        return None

    def check(self, value: object, name: str) -> float:
        """``value`` when in the range, else :class:`ProjectError` "NAME must be …"."""
        problem = self.problem(value)
        if problem:
            raise ProjectError(f"{name} {problem}")
        return value  # type: ignore[return-value]


def _shown(bound: float) -> str:
    """A range's end as people write it: 1,000,000 rather than 1e+06."""
    return f"{int(bound):,}" if math.isfinite(bound) and bound == int(bound) else f"{bound:g}"


@dataclass(frozen=True)
class Parameter(Generic[T]):
    key: str
    type: type[T]
    default: T
    range: Range | None = None


def get(project: Project, parameter: Parameter[T]) -> T:
    """The stored value of ``parameter``, or its default when none is stored; a stored
    value that is not valid JSON, of another type or out of range raises
    :class:`~litqeval_gui.core.projectfile.stored.DamagedDataError`."""
    row = project.db.execute("SELECT value FROM parameters WHERE key = ?",
                             [parameter.key]).fetchone()
    if row is None:
        return parameter.default
    what = f"the stored parameter {parameter.key!r}"
    try:
        return _checked(parameter, read_json(row[0], what, object))
    except DamagedDataError:
        raise
    except ProjectError as err:
        raise DamagedDataError(what, str(err)) from None


def set_value_op(parameter: Parameter[T], value: T) -> Op:
    """Store ``value`` for ``parameter``; a value of the wrong type is refused."""
    return set_values_op([(parameter, value)])


def set_values_op(values: Sequence[tuple[Parameter, object]]) -> Op:
    """Store several (parameter, value) pairs in one op; any wrong type refuses all."""
    rows = [(parameter.key, json.dumps(_checked(parameter, value)))
            for parameter, value in values]

    def op(p: Project) -> Changes:
        p.db.conn.executemany("INSERT OR REPLACE INTO parameters (key, value) VALUES (?, ?)",
                              rows)
        return Changes(parameters=True)

    return op


def _checked(parameter: Parameter[T], value: object) -> T:
    wanted = parameter.type
    ok = isinstance(value, wanted) and not (wanted is not bool and isinstance(value, bool))
    if wanted is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)  # type: ignore[return-value]
    if not ok:
        raise ProjectError(f"parameter {parameter.key!r} must be a {wanted.__name__}, "
                           f"not {value!r}")
    if parameter.range is not None:
        parameter.range.check(value, f"parameter {parameter.key!r}")
    return value  # type: ignore[return-value]


# -- screening (issue 14) ------------------------------------------------------------------
SCREENING_MODEL = Parameter("screening.model", str, "logistic")  # logistic | svm | nb
SCREENING_FEATURES = Parameter("screening.features", str, "tfidf")  # see parse_features
SCREENING_QUESTION = Parameter("screening.question", str, "")  # cold start: the review question
HIGHLIGHT_INCLUDE = Parameter("screening.highlight_include", list, [])  # terms, ``robot*``
HIGHLIGHT_EXCLUDE = Parameter("screening.highlight_exclude", list, [])
RECALL_LEVEL = Range(0.0, 1.0, low_open=True)  # (0, 1]
CONFIDENCE = Range(0.0, 1.0, low_open=True, high_open=True)  # (0, 1)
COUNT = Range(1, integer=True)
NON_NEGATIVE = Range(0, integer=True)  # a seed, a number of prior records
STOP_RECALL_TARGET = Parameter("screening.stop.recall_target", float, 0.95,  # hypergeometric
                               RECALL_LEVEL)
STOP_CONFIDENCE = Parameter("screening.stop.confidence", float, 0.95, CONFIDENCE)
STOP_CONSECUTIVE = Parameter("screening.stop.consecutive", int, 50, COUNT)  # irrelevant in a row
STOP_BATCH_SIZE = Parameter("screening.stop.batch_size", int, 10, COUNT)  # thesis rule's batches
STOP_GUARANTEE = Parameter("screening.stop.guarantee", bool, False)  # recommend the certified rule
