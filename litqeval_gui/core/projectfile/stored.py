"""Reading what a project stores: every array and JSON document is checked where it is read.

A project file can be damaged by hand, by a broken disk or by another program. What is
read back from it — an array of bytes with its dtype and shape, a packed mask, a JSON
document, a number — goes through these functions, which check it (type, length
against shape, a dtype of a short list, finite values within bounds, ranges) and raise
:class:`DamagedDataError` with one line naming what is damaged instead of handing on
garbage (``numpy.unpackbits`` pads missing bits with zeros) or failing deep inside
numpy. Callers put the topic and the item in ``what`` and, when it has several, the
damaged part in ``part``; a cache may catch the error and compute the value again
(:mod:`~litqeval_gui.core.evaluation.engine`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from functools import lru_cache
from typing import Any

import numpy as np
import sqlite_utils
from numpy.typing import NDArray

from litqeval_gui.core.errors import CorruptProjectError

# The largest magnitude a stored float may have. Vectors and map coordinates are far
# smaller; values near float32's limit (3.4e38) overflow in the first dot product.
FLOAT_LIMIT = 1e15
MAX_DIMENSION = 2**31  # no stored axis is longer


class DamagedDataError(CorruptProjectError):
    """A value stored in the project is damaged; the message says which and how."""

    def __init__(self, what: str, problem: str, part: str = "") -> None:
        problem = f"{part}: {problem}" if part else problem
        super().__init__(f"{what} is damaged ({problem}); the project file was changed "
                         "outside LitQEval or its disk is failing")
        self.what = what
        self.problem = problem  # with the damaged part of ``what`` first, when named


def read_json(text: object, what: str, expect: type | tuple[type, ...] = dict,
              part: str = "") -> Any:
    """The JSON document ``text`` when it parses and its top level is ``expect``."""
    if not isinstance(text, str):
        raise DamagedDataError(what, f"a {type(text).__name__} where JSON text belongs", part)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise DamagedDataError(what, "not valid JSON", part) from None
    kinds = expect if isinstance(expect, tuple) else (expect,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and int in kinds
                                        and bool not in kinds):
        names = " or ".join(f"a {kind.__name__}" for kind in kinds)
        raise DamagedDataError(what, f"a JSON {type(value).__name__} where {names} belongs",
                               part)
    return value


def read_strings(text: object, what: str, part: str = "") -> list[str]:
    """The stored JSON list of strings ``text``."""
    return check_strings(read_json(text, what, list, part), what, part)


def check_strings(value: object, what: str, part: str = "") -> list[str]:
    """``value`` when it is a list of strings (read from stored JSON)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DamagedDataError(what, "not a list of text", part)
    return value


def topic_label(db: sqlite_utils.Database, topic_id: int) -> str:
    """``topic 'NAME'`` for the messages of a damaged value of topic ``topic_id``."""
    row = db.execute("SELECT name FROM topics WHERE id = ?", [topic_id]).fetchone()
    return f"topic {row[0]!r}" if row else f"topic #{topic_id}"


def check_number(value: object, what: str, low: float = -math.inf, high: float = math.inf,
                 *, integer: bool = False, part: str = "") -> float:
    """``value`` when it is a finite number (an ``int`` when ``integer``) in [low, high]."""
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        kind = "an integer" if integer else "a number"
        raise DamagedDataError(what, f"{value!r} is not {kind}", part)
    if not math.isfinite(value) or not low <= value <= high:
        raise DamagedDataError(what, f"{value!r} is outside [{low:g}, {high:g}]", part)
    return value


@lru_cache(maxsize=64)
def _shape(text: str) -> tuple[int, ...] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, list) or not all(
            type(n) is int and 0 <= n <= MAX_DIMENSION for n in value):
        return None
    return tuple(value)


def read_shape(text: object, what: str, ndim: int, part: str = "") -> tuple[int, ...]:
    """The stored shape ``text`` (a JSON list of ``ndim`` non-negative integers)."""
    shape = _shape(text) if isinstance(text, str) else None
    if shape is None or len(shape) != ndim:
        raise DamagedDataError(what, f"its shape {_short(text)} is not {ndim} "
                                     f"non-negative whole number{'s' if ndim > 1 else ''}", part)
    return shape


def read_array(data: object, dtype: object, shape: object, what: str,
               dtypes: Collection[str], ndim: int, *, finite: bool = True,
               part: str = "") -> NDArray:
    """The array stored as ``data`` bytes with ``dtype`` (one of ``dtypes``) and the JSON
    ``shape`` of ``ndim`` axes: the byte count must match; floats must be finite and
    within :data:`FLOAT_LIMIT` when ``finite``. The array is read-only (a view of ``data``)."""
    if dtype not in dtypes:
        raise DamagedDataError(what, f"its stored type {_short(dtype)} is not one of "
                                     f"{', '.join(dtypes)}", part)
    dims = read_shape(shape, what, ndim, part)
    array = read_buffer(data, str(dtype), what, math.prod(dims), finite=finite, part=part)
    return array.reshape(dims)


def read_buffer(data: object, dtype: str, what: str, count: int | None = None, *,
                finite: bool = True, part: str = "") -> NDArray:
    """``data`` bytes as a flat array of ``dtype`` (``count`` values when given)."""
    if not isinstance(data, bytes):
        raise DamagedDataError(what, f"{type(data).__name__} where bytes belong", part)
    size = np.dtype(dtype).itemsize
    if (count is not None and len(data) != count * size) or len(data) % size:
        wanted = f"{count * size}" if count is not None else f"a multiple of {size}"
        raise DamagedDataError(what, f"{len(data)} bytes where {wanted} belong", part)
    array = np.frombuffer(data, dtype=np.dtype(dtype))
    if finite and array.dtype.kind == "f":
        check_finite(array, what, part)
    return array


def check_finite(array: NDArray, what: str, part: str = "") -> NDArray:
    """``array`` when every value is finite and within :data:`FLOAT_LIMIT` in magnitude."""
    if array.size:
        with np.errstate(invalid="ignore"):
            largest = float(np.max(np.abs(array)))
        if not largest <= FLOAT_LIMIT:  # NaN compares false
            raise DamagedDataError(what, "a value is not finite" if not math.isfinite(largest)
                                   else f"a value of magnitude {largest:.3g} is beyond "
                                        f"{FLOAT_LIMIT:g}", part)
    return array


def read_bits(data: object, count: int, what: str, part: str = "") -> NDArray[np.bool_]:
    """The mask of ``count`` booleans stored by ``numpy.packbits``: exactly
    ceil(count / 8) bytes, the padding bits zero."""
    if not isinstance(data, bytes):
        raise DamagedDataError(what, f"{type(data).__name__} where bytes belong", part)
    if len(data) != (count + 7) // 8:
        raise DamagedDataError(what, f"{len(data)} bytes for {count} rows, "
                                     f"where {(count + 7) // 8} belong", part)
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    if bits[count:].any():
        raise DamagedDataError(what, f"bits set beyond its {count} rows", part)
    return bits[:count].astype(bool)


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
